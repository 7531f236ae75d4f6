//! Small helpers shared by the modules: wall-clock time, random ids and
//! tokens, token hashing.

use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use rand::Rng as _;
use sha2::{Digest as _, Sha256};

/// Milliseconds since the Unix epoch (0 if the clock is before it).
#[must_use]
pub(crate) fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A new secret token: 128 random bits from the operating system's
/// generator, base64url without padding (22 characters).
#[must_use]
pub(crate) fn new_token() -> String {
    let bytes: [u8; 16] = rand::rng().random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database keeps of a token: its SHA-256 in hex. A leaked
/// database then gives nobody a seat.
#[must_use]
pub(crate) fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        hex.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    hex
}

/// A new room id: 8 characters of `[0-9A-Za-z]` (47 bits). Ids are
/// public (they are in spectator links), so they need not be secret, only
/// unlikely to collide; the insert fails on a collision and is retried.
#[must_use]
pub(crate) fn new_room_id() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// `true` when `id` has the shape of a room id, checked before any
/// database lookup.
#[must_use]
pub(crate) fn is_room_id(id: &str) -> bool {
    id.len() == 8 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_22_url_safe_chars_and_differ() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 22);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_ne!(a, b);
    }

    #[test]
    fn token_hash_is_sha256_hex() {
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn room_ids_have_the_checked_shape() {
        for _ in 0..100 {
            assert!(is_room_id(&new_room_id()));
        }
        assert!(!is_room_id("abc"));
        assert!(!is_room_id("abcdefg/"));
        assert!(!is_room_id("abcdéfgh"));
    }
}
