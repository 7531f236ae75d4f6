//! A level row written as text (`depth=5 nodes=80000 noise=75 …`), so a
//! candidate row can be played through UCI's `LevelRow` option without a
//! build: setting a ladder takes dozens of candidate rows, each a match.

use core::{fmt, str::FromStr};

use super::{FULL, LevelParams};

/// Why a row's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseRowError {
    /// A word that is not `key=value`.
    #[error("{word:?} is not key=value")]
    NotKeyValue {
        /// The word.
        word: String,
    },
    /// A key that is not a column of the level table.
    #[error(
        "unknown key {key:?} (expected depth, nodes, ms, multipv, noise, blunder, hash, engine, switches or tune)"
    )]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A value that is not a whole number in the column's range.
    #[error("{key} takes a whole number from {min} to {max}, not {value:?}")]
    Range {
        /// The column.
        key: &'static str,
        /// The value given.
        value: String,
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
    /// `tune=` with a set of search constants that does not parse.
    #[error("tune: {0}")]
    Tune(#[from] crate::search::params::ParamsError),
    /// `engine=` with something else than `full` or `hand`.
    #[error("engine is full or hand, not {value:?}")]
    Engine {
        /// The value given.
        value: String,
    },
}

/// A column's value, checked against its range.
fn number(key: &'static str, value: &str, min: u64, max: u64) -> Result<u64, ParseRowError> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| ParseRowError::Range {
            key,
            value: value.to_owned(),
            min,
            max,
        })
}

impl FromStr for LevelParams {
    type Err = ParseRowError;

    /// Columns left out take the values of an uncapped hand-set search
    /// (no depth, node or time cap, one line, no noise or blunders, 16 MiB);
    /// `engine=full` searches with level 8's engine.
    fn from_str(s: &str) -> Result<Self, ParseRowError> {
        let mut row = Self {
            hash_mb: 16,
            full_engine: false,
            ..FULL
        };
        for word in s.split_whitespace() {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| ParseRowError::NotKeyValue {
                    word: word.to_owned(),
                })?;
            // The ranges keep every column in its type and a search
            // finite in memory (hash) and sane in choice (blunders are per
            // mille).
            match key {
                "depth" => row.depth = Some(number("depth", value, 1, 128)? as u32),
                "nodes" => row.nodes = Some(number("nodes", value, 1, u64::from(u32::MAX))?),
                "ms" => row.movetime_ms = Some(number("ms", value, 1, 3_600_000)?),
                "multipv" => row.multipv = number("multipv", value, 0, 256)? as usize,
                "noise" => row.noise_cp = number("noise", value, 0, 10_000)? as i32,
                "blunder" => row.blunder_permille = number("blunder", value, 0, 1000)? as u32,
                "hash" => row.hash_mb = number("hash", value, 1, 4096)? as usize,
                "switches" => {
                    row.switches = Some(number("switches", value, 0, u64::MAX)?);
                }
                "tune" => row.search = Some(value.parse()?),
                "engine" => {
                    row.full_engine = match value {
                        "full" => true,
                        "hand" => false,
                        _ => {
                            return Err(ParseRowError::Engine {
                                value: value.to_owned(),
                            });
                        }
                    }
                }
                _ => {
                    return Err(ParseRowError::UnknownKey {
                        key: key.to_owned(),
                    });
                }
            }
        }
        Ok(row)
    }
}

impl fmt::Display for LevelParams {
    /// The text [`LevelParams::from_str`] reads back to the same row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = self.depth {
            write!(f, "depth={d} ")?;
        }
        if let Some(n) = self.nodes {
            write!(f, "nodes={n} ")?;
        }
        if let Some(ms) = self.movetime_ms {
            write!(f, "ms={ms} ")?;
        }
        write!(
            f,
            "multipv={} noise={} blunder={} hash={} engine={}",
            self.multipv,
            self.noise_cp,
            self.blunder_permille,
            self.hash_mb,
            if self.full_engine { "full" } else { "hand" }
        )?;
        if let Some(s) = self.switches {
            write!(f, " switches={s}")?;
        }
        if let Some(p) = self.search {
            write!(f, " tune={p}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use chessplayx_rules::Variant;

    use super::*;
    use crate::Level;

    #[test]
    fn every_row_of_the_tables_reads_back_from_its_text() {
        for variant in Variant::ALL {
            for level in Level::ALL {
                let row = level.params_in(variant);
                assert_eq!(
                    row.to_string().parse::<LevelParams>(),
                    Ok(row),
                    "{variant:?} {level}"
                );
            }
        }
    }

    #[test]
    fn left_out_columns_are_an_uncapped_hand_set_search() {
        let row: LevelParams = "nodes=4000 noise=30".parse().unwrap();
        assert_eq!(row.nodes, Some(4000));
        assert_eq!(row.noise_cp, 30);
        assert_eq!((row.depth, row.movetime_ms, row.multipv), (None, None, 1));
        assert!(!row.full_engine);
        assert!("engine=full".parse::<LevelParams>().unwrap().full_engine);
        assert_eq!(row.switches, None);
        let row: LevelParams = "engine=full switches=5734503".parse().unwrap();
        assert_eq!(row.switches, Some(5_734_503));
        assert_eq!(row.to_string().parse::<LevelParams>(), Ok(row));
        assert_eq!(row.search, None);
        let row: LevelParams = "engine=full tune=rfp_margin:120,lmr_div:210"
            .parse()
            .unwrap();
        let want: crate::SearchParams = "lmr_div:210,rfp_margin:120".parse().unwrap();
        assert_eq!(row.search, Some(want));
        assert_eq!(row.to_string().parse::<LevelParams>(), Ok(row));
    }

    #[test]
    fn bad_rows_are_refused_with_the_reason() {
        let err = |s: &str| s.parse::<LevelParams>().unwrap_err();
        assert_eq!(
            err("depth=5 noise"),
            ParseRowError::NotKeyValue {
                word: "noise".into()
            }
        );
        assert_eq!(
            err("skill=3"),
            ParseRowError::UnknownKey {
                key: "skill".into()
            }
        );
        assert!(matches!(
            err("blunder=1001"),
            ParseRowError::Range { key: "blunder", .. }
        ));
        assert!(matches!(
            err("depth=0"),
            ParseRowError::Range { key: "depth", .. }
        ));
        assert!(matches!(
            err("hash=-1"),
            ParseRowError::Range { key: "hash", .. }
        ));
        assert!(matches!(
            err("nodes=1e6"),
            ParseRowError::Range { key: "nodes", .. }
        ));
        assert!(matches!(
            err("switches=18446744073709551616"),
            ParseRowError::Range {
                key: "switches",
                ..
            }
        ));
        assert!(matches!(
            err("tune=rfp_margin:9999"),
            ParseRowError::Tune(_)
        ));
        assert!(matches!(err("tune=bogus:1"), ParseRowError::Tune(_)));
        assert_eq!(
            err("engine=nnue"),
            ParseRowError::Engine {
                value: "nnue".into()
            }
        );
    }
}
