//! Level 8's search constants as values, so that they can be tuned
//! together by games (`chessplayx tune spsa`, docs/strength-session-33.md)
//! and a tuned set tried through UCI's `LevelRow` (`tune=name:value,…`)
//! without a build. The defaults are the constants every level searched
//! with before, so a search without a set of its own is unchanged
//! (`chessplayx bench` is the check).

use core::{fmt, str::FromStr};

/// One tunable constant: its name in text, the range a value must lie
/// in, its default and the tuner's first perturbation (about a tenth
/// of the value).
#[derive(Copy, Clone, Debug)]
pub struct ParamSpec {
    /// The name in `name:value` text.
    pub name: &'static str,
    /// Smallest value accepted.
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
    /// The constant searched with when no set is given.
    pub default: i32,
    /// SPSA's perturbation at the first iteration.
    pub step: f64,
}

const fn spec(name: &'static str, min: i32, max: i32, default: i32, step: f64) -> ParamSpec {
    ParamSpec {
        name,
        min,
        max,
        default,
        step,
    }
}

/// Every tunable constant, in the order of [`SearchParams`]'s values.
/// The indices below name them in the search.
pub const SPECS: [ParamSpec; COUNT] = [
    spec("rfp_margin", 30, 250, 90, 10.0),
    spec("rfp_depth", 3, 12, 8, 1.0),
    spec("null_base", 1, 6, 3, 0.6),
    spec("null_div", 2, 8, 4, 0.6),
    spec("null_eval", 50, 600, 200, 25.0),
    spec("fut_base", 0, 400, 120, 15.0),
    spec("fut_depth", 30, 300, 110, 12.0),
    spec("see_quiet", 0, 200, 60, 8.0),
    spec("see_capture", 0, 300, 100, 12.0),
    spec("lmp_base", 1, 10, 3, 0.6),
    spec("hist_div", 1000, 20000, 6000, 700.0),
    spec("hist_prune", 200, 8000, 2000, 250.0),
    spec("lmr_base", 0, 200, 75, 10.0),
    spec("lmr_div", 100, 400, 190, 20.0),
    spec("sing_margin", 0, 8, 2, 0.6),
    spec("qs_delta", 50, 600, 220, 25.0),
    spec("probcut_margin", 50, 500, 200, 25.0),
    spec("aspiration", 5, 100, 30, 5.0),
];

/// Number of tunable constants.
pub(crate) const COUNT: usize = 18;

pub(crate) const RFP_MARGIN: usize = 0;
pub(crate) const RFP_DEPTH: usize = 1;
pub(crate) const NULL_BASE: usize = 2;
pub(crate) const NULL_DIV: usize = 3;
pub(crate) const NULL_EVAL: usize = 4;
pub(crate) const FUT_BASE: usize = 5;
pub(crate) const FUT_DEPTH: usize = 6;
pub(crate) const SEE_QUIET: usize = 7;
pub(crate) const SEE_CAPTURE: usize = 8;
pub(crate) const LMP_BASE: usize = 9;
pub(crate) const HIST_DIV: usize = 10;
pub(crate) const HIST_PRUNE: usize = 11;
pub(crate) const LMR_BASE: usize = 12;
pub(crate) const LMR_DIV: usize = 13;
pub(crate) const SING_MARGIN: usize = 14;
pub(crate) const QS_DELTA: usize = 15;
pub(crate) const PROBCUT_MARGIN: usize = 16;
pub(crate) const ASPIRATION: usize = 17;

/// A set of values for [`SPECS`], each inside its range: built only from
/// the defaults, by [`SearchParams::with`] or by parsing, which check it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    values: [i32; COUNT],
}

impl Default for SearchParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Why a set of search constants was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A word that is not `name:value`.
    #[error("{0:?} is not name:value")]
    NotNameValue(String),
    /// A name that is not in the list.
    #[error("unknown search constant {0:?}")]
    Unknown(String),
    /// A value that is not a whole number in the constant's range.
    #[error("{name} takes a whole number from {min} to {max}, not {value:?}")]
    Range {
        /// The constant.
        name: &'static str,
        /// The value given.
        value: String,
        /// Smallest accepted.
        min: i32,
        /// Largest accepted.
        max: i32,
    },
}

impl SearchParams {
    /// The constants every level searched with before they became values.
    pub const DEFAULT: Self = {
        let mut values = [0; COUNT];
        let mut i = 0;
        while i < COUNT {
            values[i] = SPECS[i].default;
            i += 1;
        }
        Self { values }
    };

    /// The value of constant `i` (an index of [`SPECS`]).
    #[inline]
    #[must_use]
    pub const fn get(&self, i: usize) -> i32 {
        self.values[i]
    }

    /// This set with constant `i` set to `value`, clamped into its range.
    #[must_use]
    pub fn with(mut self, i: usize, value: i32) -> Self {
        let s = &SPECS[i];
        self.values[i] = value.clamp(s.min, s.max);
        self
    }
}

impl FromStr for SearchParams {
    type Err = ParamsError;

    /// `name:value` pairs separated by commas; constants left out keep
    /// their defaults. The empty text is the defaults.
    fn from_str(s: &str) -> Result<Self, ParamsError> {
        let mut out = Self::DEFAULT;
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let (name, value) = word
                .split_once(':')
                .ok_or_else(|| ParamsError::NotNameValue(word.to_owned()))?;
            let i = SPECS
                .iter()
                .position(|p| p.name == name)
                .ok_or_else(|| ParamsError::Unknown(name.to_owned()))?;
            let spec = &SPECS[i];
            let v = value
                .parse::<i32>()
                .ok()
                .filter(|v| (spec.min..=spec.max).contains(v))
                .ok_or_else(|| ParamsError::Range {
                    name: spec.name,
                    value: value.to_owned(),
                    min: spec.min,
                    max: spec.max,
                })?;
            out.values[i] = v;
        }
        Ok(out)
    }
}

impl fmt::Display for SearchParams {
    /// Every constant that differs from its default, as
    /// [`SearchParams::from_str`] reads it back; the defaults print as
    /// nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (spec, &v) in SPECS.iter().zip(&self.values) {
            if v != spec.default {
                if !first {
                    f.write_str(",")?;
                }
                write!(f, "{}:{v}", spec.name)?;
                first = false;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        let p: SearchParams = "rfp_margin:120, lmr_div:210".parse().unwrap();
        assert_eq!(p.get(RFP_MARGIN), 120);
        assert_eq!(p.get(LMR_DIV), 210);
        assert_eq!(p.get(FUT_BASE), 120, "left out: the default");
        assert_eq!(p.to_string().parse::<SearchParams>(), Ok(p));
        assert_eq!("".parse::<SearchParams>(), Ok(SearchParams::DEFAULT));
        assert_eq!(SearchParams::DEFAULT.to_string(), "");
        assert_eq!(
            "rfp".parse::<SearchParams>(),
            Err(ParamsError::NotNameValue("rfp".into()))
        );
        assert_eq!(
            "nope:3".parse::<SearchParams>(),
            Err(ParamsError::Unknown("nope".into()))
        );
        assert!(matches!(
            "rfp_margin:9999".parse::<SearchParams>(),
            Err(ParamsError::Range {
                name: "rfp_margin",
                ..
            })
        ));
        assert!("rfp_margin:x".parse::<SearchParams>().is_err());
    }

    #[test]
    fn with_keeps_values_in_range() {
        let p = SearchParams::DEFAULT.with(NULL_BASE, 100);
        assert_eq!(p.get(NULL_BASE), SPECS[NULL_BASE].max);
        let p = p.with(NULL_BASE, -5);
        assert_eq!(p.get(NULL_BASE), SPECS[NULL_BASE].min);
    }
}
