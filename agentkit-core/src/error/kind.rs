//! The leaf of the errors: the boxed error tools return, and the stable names of failure
//! kinds every other error and event uses.

use std::fmt;

/// A boxed error, as tools return it: any `std::error::Error` converts with `?`.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A short, stable name for the kind of an [`Error`](crate::Error), for events, metrics and logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The arguments broke the input schema.
    InputValidation,
    /// The output broke the output schema.
    OutputValidation,
    /// The tool returned an error.
    Execution,
    /// The tool panicked.
    Panic,
    /// A credential could not be resolved.
    Credential,
    /// The tool ran past its deadline.
    Timeout,
    /// The call was dropped before it finished.
    Cancelled,
    /// The tool asked the model to correct the call and try again ([`ToolError::retry`](crate::ToolError::retry)).
    Retry,
    /// The tool asked for a retry once more than its retry budget for the turn allows.
    RetriesExhausted,
    /// The call was denied: by the approval policy, or by the tool ([`ToolError::denied`](crate::ToolError::denied)).
    Denied,
    /// The call awaits approval (its result is [`Deferred`](crate::ToolStatus::Deferred)).
    AwaitingApproval,
    /// No such tool.
    UnknownTool,
    /// A declaration was refused.
    Semantic,
}

impl ErrorKind {
    /// The kind as a snake_case string (`"input_validation"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InputValidation => "input_validation",
            ErrorKind::OutputValidation => "output_validation",
            ErrorKind::Execution => "execution",
            ErrorKind::Panic => "panic",
            ErrorKind::Credential => "credential",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Retry => "retry",
            ErrorKind::RetriesExhausted => "retries_exhausted",
            ErrorKind::Denied => "denied",
            ErrorKind::AwaitingApproval => "awaiting_approval",
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::Semantic => "semantic",
        }
    }
}

impl ErrorKind {
    /// Whether the model can fix the call by changing it: wrong arguments, an unknown tool
    /// name, or a tool's request to retry. An agent loop sends these back to the model for
    /// another try; the others end the call for good.
    pub const fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorKind::InputValidation | ErrorKind::UnknownTool | ErrorKind::Retry
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
