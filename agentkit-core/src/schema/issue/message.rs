//! The words of a [`ValidationIssue`]: its message, written once whole.

use std::fmt;

use super::{Detail, IssueKind, ValidationIssue};
use crate::rules::{self, Literal, ParamType, ValueKind};

impl ValidationIssue {
    /// Writes the message, showing at most `echo` characters of each name, escaped.
    pub(crate) fn write_message(&self, f: &mut dyn fmt::Write, echo: usize) -> fmt::Result {
        use crate::model_text::Escaped;
        let param = Escaped(self.param.as_deref().unwrap_or(""), echo);
        let expected = self.expected.map_or("", ParamType::as_str);
        let got = self.got.map_or("", ValueKind::as_str);
        if let Some(Detail::Schema { message, .. }) = &self.detail {
            let message = crate::model_text::EscapedText(message, 4 * echo);
            return match &self.param {
                Some(_) => write!(f, "Parameter '{param}': {message}"),
                None => write!(f, "Top level: {message}"),
            };
        }
        if self.param.is_none() && matches!(self.kind, IssueKind::WrongType) {
            return write!(f, "Top level: expected type '{expected}', got '{got}'");
        }
        match self.kind {
            IssueKind::MissingParameter => write!(f, "Missing required parameter: '{param}'"),
            IssueKind::WrongType => write!(
                f,
                "Parameter '{param}': expected type '{expected}', got '{got}'"
            ),
            IssueKind::OutOfRange => write!(
                f,
                "Parameter '{param}': expected type 'integer', got {}",
                rules::OUT_OF_RANGE
            ),
            IssueKind::UnknownParameter => {
                write!(f, "Unknown parameter: '{param}'")?;
                match self.suggestion() {
                    Some(s) => write!(f, "; did you mean '{}'?", Escaped(s, echo)),
                    None => f.write_str("; it is not declared by this tool"),
                }
            }
            IssueKind::InvalidJson => match self.detail.as_ref().and_then(Detail::json_message) {
                Some(message) => write!(
                    f,
                    "Arguments are not valid JSON: {}",
                    crate::model_text::EscapedText(&message, 4 * echo)
                ),
                None => f.write_str("Arguments are not valid JSON"),
            },
            IssueKind::NotAnObject => {
                write!(f, "Arguments must be a JSON object, got '{got}'")
            }
            IssueKind::DuplicateKey => {
                write!(f, "Duplicate key: '{param}'; each key may appear only once")
            }
            IssueKind::NotInEnum => {
                write!(f, "Parameter '{param}': expected one of ")?;
                let (allowed, got) = match &self.detail {
                    Some(Detail::Enum { allowed, got }) => (&allowed[..], Some(got)),
                    _ => (&[][..], None),
                };
                for (index, value) in allowed.iter().take(ENUM_SHOWN).enumerate() {
                    if index > 0 {
                        f.write_str(", ")?;
                    }
                    write_value(f, value, echo)?;
                }
                if allowed.len() > ENUM_SHOWN {
                    write!(f, ", ... ({} more)", allowed.len() - ENUM_SHOWN)?;
                }
                f.write_str(", got ")?;
                match got {
                    Some(got) => write_value(f, got, echo),
                    None => f.write_str("another value"),
                }
            }
            IssueKind::NoMatchingVariant
            | IssueKind::AmbiguousVariant
            | IssueKind::PatternMismatch
            | IssueKind::InvalidFormat
            | IssueKind::NotMultipleOf
            | IssueKind::DuplicateItems
            | IssueKind::ContainsMismatch
            | IssueKind::InvalidKey
            | IssueKind::NotAllowed
            | IssueKind::TooComplex => write!(f, "Parameter '{param}': invalid value"),
            IssueKind::BelowMinimum
            | IssueKind::AboveMaximum
            | IssueKind::TooShort
            | IssueKind::TooLong => {
                write!(f, "Parameter '{param}': ")?;
                match (self.violation(), self.expected) {
                    (Some(violation), Some(ty)) => rules::write_bound(f, violation, ty),
                    _ => f.write_str("out of bounds"),
                }
            }
        }
    }
}

/// How many `enum` values a message lists.
const ENUM_SHOWN: usize = 10;

/// A value in a message: a string quoted, escaped and cut; a number as is.
fn write_value(f: &mut dyn fmt::Write, value: &Literal, echo: usize) -> fmt::Result {
    match value {
        Literal::String(s) => write!(f, "'{}'", crate::model_text::Escaped(s, echo)),
        other => rules::write_enum_value(f, other),
    }
}

impl fmt::Display for ValidationIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let echo = crate::model_text::TextLimits::DEFAULT.max_echo_chars();
        // A message is written in many pieces: into a `String` (`to_string`), each would grow
        // it. Staged on the stack first, it reaches `f` whole, at its final size; a longer
        // one is written again, straight to `f`.
        let mut staged = Staged {
            bytes: [0; STAGED],
            len: 0,
        };
        if self.write_message(&mut staged, echo).is_ok()
            && let Ok(text) = std::str::from_utf8(&staged.bytes[..staged.len])
        {
            return f.write_str(text);
        }
        self.write_message(f, echo)
    }
}

/// The bytes a message may take on the stack before [`ValidationIssue`]'s `Display` writes
/// it straight to its destination.
const STAGED: usize = 256;

/// A message's first [`STAGED`] bytes; a write past them fails.
struct Staged {
    bytes: [u8; STAGED],
    len: usize,
}

impl fmt::Write for Staged {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::super::{IssueKind, ValidationIssue};

    /// A message staged whole and one too long for the stage read the same as written
    /// piece by piece.
    #[test]
    fn a_message_reads_the_same_staged_or_not() {
        for len in [3, 60, 200, 1_000] {
            let message = format!("must be one of {}", "x'\n".repeat(len));
            let issue = ValidationIssue::schema(
                IssueKind::NotAllowed,
                Some(Cow::Owned("p".repeat(len))),
                "enum",
                None,
                message,
            );
            let mut direct = String::new();
            issue
                .write_message(
                    &mut direct,
                    crate::model_text::TextLimits::DEFAULT.max_echo_chars(),
                )
                .unwrap();
            assert_eq!(issue.to_string(), direct);
            assert!(direct.starts_with("Parameter 'ppp"), "{direct}");
        }
    }
}
