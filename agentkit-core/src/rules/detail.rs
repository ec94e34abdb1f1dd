//! The details some problems carry, each with its wording: why a name is refused
//! ([`NameError`]), and what is wrong with an input example ([`ExampleIssue`]). A leaf of the
//! rules beside [`types`](super::types): [`problem`](super::problem) words each problem with
//! these.

use std::fmt;

use super::types::{MAX_NAME_LEN, ParamType, ValueKind};

/// How validation words an integer outside the signed 64-bit range, wherever one is refused:
/// an argument, an output, or a default.
pub const OUT_OF_RANGE: &str = "an integer outside the 64-bit range";

/// What is wrong with an input example: a problem validation would report for the same
/// object given as a call's arguments, with the value named as validation names it
/// (`city`, `stops[0].nights`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExampleIssue {
    /// A required parameter (or a required field of a nested dictionary) is absent.
    Missing {
        /// The parameter.
        at: String,
    },
    /// A key the parameters (or a nested dictionary's fields) do not declare.
    Unknown {
        /// The key, with the path of the dictionary holding it.
        at: String,
        /// The declared name closest to it, if one is close.
        suggestion: Option<String>,
    },
    /// A value that is not of its declared type (`null` for a required parameter included).
    WrongType {
        /// The value's parameter.
        at: String,
        /// The declared type.
        expected: ParamType,
        /// The kind of the value.
        got: ValueKind,
    },
    /// An integer outside the signed 64-bit range.
    OutOfRange {
        /// The value's parameter.
        at: String,
    },
    /// A NaN or an infinity, which JSON cannot hold (only a literal such as `1e400` spells
    /// one).
    NotFinite {
        /// The value's parameter.
        at: String,
    },
    /// A key written twice in one dictionary.
    DuplicateKey {
        /// The key, with the path of the dictionary holding it.
        at: String,
    },
    /// A value that breaks one of its parameter's constraints.
    BreaksConstraint {
        /// The value's parameter.
        at: String,
        /// The constraint's key (`maximum`).
        key: &'static str,
        /// What the value is told, as validation words it: `must be at most 50, got 80`.
        message: String,
    },
}

impl fmt::Display for ExampleIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExampleIssue::Missing { at } => write!(f, "missing required parameter '{at}'"),
            ExampleIssue::Unknown { at, suggestion } => match suggestion {
                Some(s) => write!(f, "unknown parameter '{at}'; did you mean '{s}'?"),
                None => write!(f, "unknown parameter '{at}': the tool does not declare it"),
            },
            ExampleIssue::WrongType { at, expected, got } => write!(
                f,
                "parameter '{at}': a value of type '{got}' does not fit the declared type \
                 '{expected}'"
            ),
            ExampleIssue::OutOfRange { at } => {
                write!(f, "parameter '{at}': the value is {OUT_OF_RANGE}")
            }
            ExampleIssue::NotFinite { at } => write!(
                f,
                "parameter '{at}': the value is not a finite number; JSON has no NaN or infinity"
            ),
            ExampleIssue::DuplicateKey { at } => write!(f, "'{at}' is given twice"),
            ExampleIssue::BreaksConstraint { at, message, .. } => {
                write!(f, "parameter '{at}': the value {message}")
            }
        }
    }
}

/// Why a name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameError {
    /// The name is empty.
    Empty,
    /// Longer than [`MAX_NAME_LEN`] bytes.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// Starts with something other than an ASCII letter or `_`.
    BadStart {
        /// The first character.
        found: char,
    },
    /// Contains a character other than ASCII letters, digits, `_` and `-`.
    BadChar {
        /// The offending character.
        found: char,
        /// Its position (0-based, in characters).
        index: usize,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NameError::Empty => f.write_str("it is empty"),
            NameError::TooLong { len } => {
                write!(f, "it is {len} bytes long, the limit is {MAX_NAME_LEN}")
            }
            NameError::BadStart { found } => write!(
                f,
                "it starts with {found:?}; names start with an ASCII letter or '_'"
            ),
            NameError::BadChar { found, index } => write!(
                f,
                "{found:?} at position {index} is not allowed; use ASCII letters, digits, '_' and '-'"
            ),
        }
    }
}
