//! The standing offers' compact stored form (`d:w,t:b,r:w`), so offers
//! survive a restart along with the event number that announced them.

use chessplayx_rules::Color;

use crate::protocol::Offers;

/// The stored text of `offers` (empty when none stands).
pub(super) fn encode(offers: Offers) -> String {
    let mut parts = Vec::new();
    for (key, by) in [
        ('d', offers.draw),
        ('t', offers.takeback),
        ('r', offers.rematch),
    ] {
        if let Some(c) = by {
            parts.push(format!("{key}:{}", c.char()));
        }
    }
    parts.join(",")
}

/// Reads the stored text back; unknown parts are ignored (an offer is not
/// worth refusing to load a game).
pub(super) fn decode(text: &str) -> Offers {
    let mut offers = Offers::default();
    for part in text.split(',') {
        let mut chars = part.chars();
        let (Some(key), Some(':'), Some(c), None) =
            (chars.next(), chars.next(), chars.next(), chars.next())
        else {
            continue;
        };
        let Some(color) = Color::from_char(c) else {
            continue;
        };
        match key {
            'd' => offers.draw = Some(color),
            't' => offers.takeback = Some(color),
            'r' => offers.rematch = Some(color),
            _ => {}
        }
    }
    offers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_round_trip() {
        let all = Offers {
            draw: Some(Color::White),
            takeback: Some(Color::Black),
            rematch: Some(Color::White),
        };
        assert_eq!(encode(all), "d:w,t:b,r:w");
        assert_eq!(decode(&encode(all)), all);
        assert_eq!(encode(Offers::default()), "");
        assert_eq!(decode(""), Offers::default());
        assert_eq!(
            decode("x:w,d:q,t:b,garbage"),
            Offers {
                takeback: Some(Color::Black),
                ..Offers::default()
            }
        );
    }
}
