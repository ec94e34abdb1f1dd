//! [`UnknownToolError`]: a call to a tool name that is not registered.

use std::fmt;

use crate::model_text::{Escaped, OPERATOR_ECHO, capture};

/// A call to a tool name that is not registered.
///
/// The name is the model's: a bounded copy of it is kept, and it is shown escaped.
///
/// ```
/// use agentkit_core::UnknownToolError;
///
/// let err = UnknownToolError::new("fetch_wether", vec!["fetch_weather".into()]);
/// assert_eq!(err.to_string(), "unknown tool 'fetch_wether'; did you mean 'fetch_weather'?");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", DisplayUnknown(self, OPERATOR_ECHO))]
pub struct UnknownToolError {
    name: String,
    nearest: Vec<String>,
}

pub(super) struct DisplayUnknown<'a>(pub(super) &'a UnknownToolError, pub(super) usize);

impl fmt::Display for DisplayUnknown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, echo) = (self.0, self.1);
        write!(f, "unknown tool '{}'", Escaped(&e.name, echo))?;
        match e.nearest.as_slice() {
            [] => Ok(()),
            [only] => write!(f, "; did you mean '{}'?", Escaped(only, echo)),
            many => {
                f.write_str("; did you mean one of ")?;
                for (i, name) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "'{}'", Escaped(name, echo))?;
                }
                f.write_str("?")
            }
        }
    }
}

impl UnknownToolError {
    /// Builds the error for `name`, with the registered names nearest to it.
    pub fn new(name: &str, nearest: Vec<String>) -> Self {
        UnknownToolError {
            name: capture(name),
            nearest,
        }
    }

    /// The name that was called (at most 256 bytes of it).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The registered tool names nearest to it, nearest first.
    pub fn nearest(&self) -> &[String] {
        &self.nearest
    }
}
