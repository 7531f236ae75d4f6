//! A move's or a square's name as short text, kept inline.
//!
//! The server sends every legal move after every move, each with four
//! names (UCI, SAN or WXF, origin, destination): about 150 small strings
//! per move. As `String`s they were a third of the server's instructions
//! per move in the allocator alone; names are at most a few bytes, so they
//! live in a fixed inline buffer instead.

use core::fmt::{self, Write as _};
use core::ops::Deref;

use arrayvec::ArrayString;

/// The longest name kept. The longest names the rules make are 7 bytes
/// (`exd8=Q#`, `Qa1xb2#`); a Xiangqi UCI move is at most 6 (`a10b10`).
const CAPACITY: usize = 15;

/// A name of a move or square: UCI, SAN, WXF or a square's coordinates.
/// Only the rules crate makes one from text (the notation it writes itself)
/// and reading one back refuses longer text, so it is never longer than
/// 15 bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Notation(ArrayString<CAPACITY>);

impl Notation {
    /// The text `value` displays as. Never longer than the capacity for
    /// the rules' own notations (tests check the longest); a longer text
    /// would be cut at the capacity rather than panic.
    pub(crate) fn of(value: impl fmt::Display) -> Self {
        let mut out = ArrayString::new();
        if write!(out, "{value}").is_err() {
            debug_assert!(false, "a notation longer than {CAPACITY} bytes");
        }
        Self(out)
    }

    /// `text` itself (a square's name, part of another notation), without
    /// going through the formatter.
    pub(crate) fn from_text(text: &str) -> Self {
        ArrayString::from(text).map_or_else(|_| Self::of(text), Self)
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl Deref for Notation {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Notation {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Notation {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Notation {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Notation {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Notation> for String {
    fn eq(&self, other: &Notation) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Notation> for &str {
    fn eq(&self, other: &Notation) -> bool {
        *self == other.as_str()
    }
}

impl From<Notation> for String {
    fn from(n: Notation) -> Self {
        n.as_str().to_owned()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Notation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Reading a notation back (a client's copy of a status) takes any text up
/// to the capacity and refuses longer ones with an error, not a cut.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Notation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        ArrayString::from(&text).map(Self).map_err(|_| {
            serde::de::Error::invalid_length(text.len(), &"a notation of at most 15 bytes")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_names_fit_whole() {
        for text in ["exd8=Q#", "Qa1xb2#", "a10b10", "e7e8q", "+R+1"] {
            assert_eq!(Notation::of(text), text);
        }
    }

    #[test]
    fn reads_and_compares_as_its_text() {
        let n = Notation::of(format_args!("{}{}", "e2", "e4"));
        assert_eq!(&*n, "e2e4");
        assert_eq!(n.to_string(), "e2e4");
        assert_eq!(format!("{n:?}"), "\"e2e4\"");
        assert_eq!(String::from(n), "e2e4");
    }
}
