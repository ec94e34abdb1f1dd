//! The typed errors: the Python original's `SemanticError` (in `crate::schema`, beside the
//! checks that make it), `ToolValidationError` and `ToolExecutionError`, the
//! [`UnknownToolError`] of dispatch, and the umbrella [`Error`] with the message a model is
//! told.

mod execution;
mod kind;
mod redact;
mod tool_error;
mod unknown;
mod validation;

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;

pub use execution::{
    AwaitingApproval, ContentTooLarge, CredentialError, ToolCancelled, ToolExecutionError,
    ToolPanic, ToolTimeout,
};
pub use kind::{BoxError, ErrorKind};
pub(crate) use redact::discard;
pub use tool_error::ToolError;
use unknown::DisplayUnknown;
pub use unknown::UnknownToolError;
pub use validation::{Direction, ToolValidationError};

use crate::model_text::{Escaped, EscapedText, TextLimits, truncate_content};
use crate::schema::SemanticError;

/// Every error a tool call can end with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Inputs or outputs broke the schema.
    #[error(transparent)]
    Validation(#[from] ToolValidationError),
    /// The tool failed, panicked, or could not get its credentials.
    #[error(transparent)]
    Execution(#[from] ToolExecutionError),
    /// No tool of that name is registered.
    #[error(transparent)]
    UnknownTool(#[from] UnknownToolError),
    /// A declaration or registration was refused.
    #[error(transparent)]
    Semantic(#[from] SemanticError),
}

impl Error {
    /// Names the tool `name` in the error: the name a [`Toolset`](crate::Toolset) gives it,
    /// which the model called.
    pub(crate) fn rename_tool(&mut self, name: &str) {
        match self {
            Error::Validation(e) => e.tool_name = Cow::Owned(name.to_owned()),
            Error::Execution(e) => e.tool_name = Cow::Owned(name.to_owned()),
            Error::UnknownTool(_) | Error::Semantic(_) => {}
        }
    }

    /// The kind of the error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Validation(e) if e.direction() == Direction::Input => ErrorKind::InputValidation,
            Error::Validation(_) => ErrorKind::OutputValidation,
            Error::Execution(e) => e.kind(),
            Error::UnknownTool(_) => ErrorKind::UnknownTool,
            Error::Semantic(_) => ErrorKind::Semantic,
        }
    }

    /// Whether the model can fix the call by changing it; see [`ErrorKind::is_retryable`].
    pub fn is_retryable(&self) -> bool {
        self.kind().is_retryable()
    }

    /// A short message fit to hand back to the model as the tool's result, within the
    /// default [`TextLimits`].
    ///
    /// It tells the model what it can act on: which parameters were wrong and what was
    /// expected, or which tools exist, or what the tool asked it to know (see
    /// [`ToolError`]). It says nothing of a tool's internals: the text of a tool's own error,
    /// an output that broke the schema, a panic and a missing credential are reported as a
    /// failure of the tool, without detail. Every name it echoes is escaped and cut, and the
    /// whole is bounded.
    pub fn to_model_message(&self) -> String {
        self.to_model_message_with(&TextLimits::DEFAULT)
    }

    /// Like [`to_model_message`](Self::to_model_message), within `limits`.
    pub fn to_model_message_with(&self, limits: &TextLimits) -> String {
        // Room for the usual message, which then grows no more than once or twice.
        let mut message = String::with_capacity(256);
        // Writing to a String cannot fail.
        let _ = self.write_model_message(&mut message, limits);
        truncate_content(message, limits.max_content_bytes())
    }

    fn write_model_message(&self, f: &mut String, limits: &TextLimits) -> fmt::Result {
        let echo = limits.max_echo_chars();
        match self {
            Error::Validation(e) if e.direction() == Direction::Input => {
                write!(
                    f,
                    "Error: invalid arguments for tool '{}':",
                    Escaped(e.tool_name(), echo)
                )?;
                e.write_issues(f, "\n- ", limits.max_issues(), echo)
            }
            Error::Validation(e) => write!(
                f,
                "Error: tool '{}' failed: it produced an invalid result.",
                Escaped(e.tool_name(), echo)
            ),
            Error::Execution(e) => {
                let name = Escaped(e.tool_name(), echo);
                match e.kind() {
                    ErrorKind::Timeout => write!(
                        f,
                        "Error: tool '{name}' did not finish in time and was cancelled."
                    ),
                    ErrorKind::Cancelled => {
                        write!(f, "Error: tool '{name}' was cancelled before it finished.")
                    }
                    ErrorKind::Panic | ErrorKind::Credential => {
                        write!(f, "Error: tool '{name}' failed unexpectedly.")
                    }
                    ErrorKind::AwaitingApproval => write!(
                        f,
                        "The call to tool '{name}' awaits approval; its result will follow."
                    ),
                    kind => {
                        let told = e
                            .model_message()
                            .filter(|m| !m.is_empty())
                            .map(|m| EscapedText(m, limits.max_message_chars()));
                        match (kind, told) {
                            (ErrorKind::Retry, Some(told)) => write!(
                                f,
                                "Error: tool '{name}' asks you to correct the call and try again: {told}"
                            ),
                            (ErrorKind::Retry, None) => write!(
                                f,
                                "Error: tool '{name}' asks you to correct the call and try again."
                            ),
                            (ErrorKind::RetriesExhausted, Some(told)) => write!(
                                f,
                                "Error: tool '{name}' failed, and it cannot be retried in this turn: {told}"
                            ),
                            (ErrorKind::RetriesExhausted, None) => write!(
                                f,
                                "Error: tool '{name}' failed, and it cannot be retried in this turn."
                            ),
                            (ErrorKind::Denied, Some(told)) => {
                                write!(f, "Error: the call to tool '{name}' was denied: {told}")
                            }
                            (ErrorKind::Denied, None) => {
                                write!(f, "Error: the call to tool '{name}' was denied.")
                            }
                            (_, Some(told)) => write!(f, "Error: tool '{name}' failed: {told}"),
                            (_, None) => write!(f, "Error: tool '{name}' failed."),
                        }
                    }
                }
            }
            Error::UnknownTool(e) => write!(f, "Error: {}", DisplayUnknown(e, echo)),
            Error::Semantic(e) => write!(f, "Error: {e}"),
        }
    }
}
