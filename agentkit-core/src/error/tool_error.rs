//! [`ToolError`]: a tool's failure that says what the agent loop should do next.

use std::fmt;

use super::kind::BoxError;

/// A tool's failure that tells the agent loop what to do: let the model
/// [`retry`](Self::retry) with feedback, report that the tool [`failed`](Self::failed), or
/// that the call was [`denied`](Self::denied).
///
/// A tool returns it like any error (`Err(ToolError::retry("..."))?`, or `.into()`); the
/// executor recognises it and sets the result's [`ErrorKind`](crate::ErrorKind) and
/// [`is_retryable`](crate::ToolResult::is_retryable) from it. Any other error a tool returns
/// counts as [`failed`](Self::failed) without a model message.
///
/// **What the model is told.** The model sees a retry's feedback, a denial's message, and a
/// failure's [`model message`](Self::with_model_message) when one is given. It never sees the
/// text of a failure's cause unless the tool puts it in the model message: a foreign error
/// (a database driver's, an HTTP client's) is written for operators, can name hosts, queries
/// or tokens the executor does not know are secret, and can carry text an upstream service
/// controls. Operators get the cause in full through the error's `source` chain, events,
/// spans and recordings.
///
/// ```
/// use agentkit_core::{BoxError, JsonObject, ToolError};
///
/// fn check_city(inputs: &JsonObject) -> Result<(), BoxError> {
///     match inputs.get("city").and_then(|c| c.as_str()) {
///         Some("") => Err(ToolError::retry("`city` is empty; give a city name such as \"Paris\"").into()),
///         Some(_) => Ok(()),
///         None => Err(ToolError::failed("inputs were not validated")
///             .with_model_message("The tool is misconfigured; do not call it again.")
///             .into()),
///     }
/// }
/// let empty = serde_json::json!({"city": ""});
/// let err = check_city(empty.as_object().unwrap()).unwrap_err();
/// assert!(err.downcast_ref::<ToolError>().is_some_and(ToolError::is_retry));
/// ```
pub struct ToolError {
    repr: Repr,
}

enum Repr {
    Retry(String),
    Denied(String),
    Failed {
        cause: BoxError,
        model_message: Option<String>,
    },
}

impl ToolError {
    /// The arguments were well-formed but wrong; `feedback` tells the model how to correct
    /// the call (pydantic-ai's `ModelRetry`). Counts against the tool's retry budget for the
    /// turn; once that is spent, the call fails instead, and the model is told it cannot
    /// retry.
    pub fn retry(feedback: impl Into<String>) -> Self {
        ToolError {
            repr: Repr::Retry(feedback.into()),
        }
    }

    /// The tool failed for a reason the model cannot fix by changing the call. `cause` is for
    /// operators; the model is only told that the tool failed, unless
    /// [`with_model_message`](Self::with_model_message) adds what it should know.
    pub fn failed(cause: impl Into<BoxError>) -> Self {
        ToolError {
            repr: Repr::Failed {
                cause: cause.into(),
                model_message: None,
            },
        }
    }

    /// The tool refuses the call (a permission, a policy); `message` tells the model why.
    pub fn denied(message: impl Into<String>) -> Self {
        ToolError {
            repr: Repr::Denied(message.into()),
        }
    }

    /// Sets what the model is told about a [`failed`](Self::failed) call (it replaces the
    /// feedback of a retry or the message of a denial).
    #[must_use]
    pub fn with_model_message(mut self, message: impl Into<String>) -> Self {
        let message = message.into();
        match &mut self.repr {
            Repr::Retry(text) | Repr::Denied(text) => *text = message,
            Repr::Failed { model_message, .. } => *model_message = Some(message),
        }
        self
    }

    /// Whether the model is asked to retry.
    pub fn is_retry(&self) -> bool {
        matches!(self.repr, Repr::Retry(_))
    }

    /// Whether the call is denied.
    pub fn is_denied(&self) -> bool {
        matches!(self.repr, Repr::Denied(_))
    }

    /// What the model is told, if anything beyond "the tool failed".
    pub fn model_message(&self) -> Option<&str> {
        match &self.repr {
            Repr::Retry(text) | Repr::Denied(text) => Some(text),
            Repr::Failed { model_message, .. } => model_message.as_deref(),
        }
    }

    pub(crate) fn into_parts(self) -> ToolErrorParts {
        match self.repr {
            Repr::Retry(feedback) => ToolErrorParts::Retry(feedback),
            Repr::Denied(message) => ToolErrorParts::Denied(message),
            Repr::Failed {
                cause,
                model_message,
            } => ToolErrorParts::Failed {
                cause,
                model_message,
            },
        }
    }
}

/// A [`ToolError`] taken apart by the executor.
pub(crate) enum ToolErrorParts {
    Retry(String),
    Denied(String),
    Failed {
        cause: BoxError,
        model_message: Option<String>,
    },
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Retry(feedback) => f.debug_tuple("Retry").field(feedback).finish(),
            Repr::Denied(message) => f.debug_tuple("Denied").field(message).finish(),
            Repr::Failed {
                cause,
                model_message,
            } => f
                .debug_struct("Failed")
                .field("cause", cause)
                .field("model_message", model_message)
                .finish(),
        }
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Retry(feedback) => write!(f, "the call needs correcting: {feedback}"),
            Repr::Denied(message) => write!(f, "the call was denied: {message}"),
            Repr::Failed { cause, .. } => fmt::Display::fmt(cause, f),
        }
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.repr {
            Repr::Failed { cause, .. } => cause.source(),
            _ => None,
        }
    }
}
