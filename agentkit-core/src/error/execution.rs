//! [`ToolExecutionError`]: a tool that failed while running, and its causes (a panic, a
//! timeout, a cancellation, a credential that could not be resolved, a call awaiting
//! approval).

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;

use super::kind::{BoxError, ErrorKind};
use super::redact::{Redacted, redact, render};
use super::tool_error::{ToolError, ToolErrorParts};
use crate::model_text::{
    Escaped, EscapedText, OPERATOR_ECHO, OPERATOR_MESSAGE, cut_scrubbed, scrub_cut,
};

/// A tool that failed while running: the Python original's `ToolExecutionError`.
///
/// The cause is kept as [`source`](std::error::Error::source): the tool's own error, a
/// [`ToolPanic`] when the tool panicked, a [`ToolTimeout`] when it ran past its deadline, a
/// [`ToolCancelled`] when the call was dropped, or a [`CredentialError`] when a credential it
/// needs could not be resolved (the tool is then not run).
///
/// The cause's message is read once, when the error is built, and kept bounded. When the
/// executor built the error for a call that had credentials, every occurrence of their values
/// in that message is replaced by `[redacted]`, and a cause whose message or `Debug` showed
/// one is replaced by its redacted messages: a secret a tool put in its error reaches no
/// result, event, log line or recording.
#[derive(Debug, thiserror::Error)]
#[error("{}", OperatorText(.kind, .tool_name, .message))]
pub struct ToolExecutionError {
    pub(super) tool_name: Cow<'static, str>,
    kind: ErrorKind,
    message: Box<str>,
    /// What the model is told beyond the kind's fixed sentence: a retry's feedback, a
    /// denial's reason, a failure's model message (see [`ToolError`]).
    model_message: Option<Box<str>>,
    #[source]
    source: BoxError,
}

/// The operator's line for a [`ToolExecutionError`], worded by its kind.
struct OperatorText<'a>(&'a ErrorKind, &'a str, &'a str);

impl fmt::Display for OperatorText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Escaped(self.1, OPERATOR_ECHO);
        let message = EscapedText(self.2, OPERATOR_MESSAGE);
        match self.0 {
            ErrorKind::Retry => write!(
                f,
                "tool '{name}' asked the model to correct the call: {message}"
            ),
            ErrorKind::RetriesExhausted => write!(
                f,
                "tool '{name}' asked for a retry past its budget for the turn: {message}"
            ),
            ErrorKind::Denied => write!(f, "the call to tool '{name}' was denied: {message}"),
            _ => write!(f, "tool '{name}' failed: {message}"),
        }
    }
}

/// The kind of failure `source` is, from its type.
fn kind_of(source: &(dyn std::error::Error + 'static)) -> ErrorKind {
    if source.is::<ToolPanic>() {
        ErrorKind::Panic
    } else if source.is::<ToolTimeout>() {
        ErrorKind::Timeout
    } else if source.is::<ToolCancelled>() {
        ErrorKind::Cancelled
    } else if source.is::<CredentialError>() {
        ErrorKind::Credential
    } else if source.is::<AwaitingApproval>() {
        ErrorKind::AwaitingApproval
    } else {
        ErrorKind::Execution
    }
}

impl ToolExecutionError {
    /// Wraps the cause of a failure of `tool_name`.
    pub fn new(tool_name: impl Into<Cow<'static, str>>, source: impl Into<BoxError>) -> Self {
        ToolExecutionError::scrubbed(tool_name.into(), source.into(), &[])
    }

    /// Wraps `source`, with every occurrence of `secrets` taken out of what is kept of it.
    ///
    /// A [`ToolError`] is taken apart: its kind and model message are kept, and its cause
    /// becomes the source.
    pub(crate) fn scrubbed(
        tool_name: Cow<'static, str>,
        source: BoxError,
        secrets: &[&str],
    ) -> Self {
        let source = match source.downcast::<ToolError>() {
            Ok(tool_error) => {
                return ToolExecutionError::from_tool_error(tool_name, *tool_error, secrets);
            }
            Err(source) => source,
        };
        let kind = kind_of(&*source);
        let (message, source) = redact(source, secrets);
        ToolExecutionError {
            tool_name,
            kind,
            message,
            model_message: None,
            source,
        }
    }

    fn from_tool_error(tool_name: Cow<'static, str>, error: ToolError, secrets: &[&str]) -> Self {
        let (kind, text) = match error.into_parts() {
            ToolErrorParts::Retry(feedback) => (ErrorKind::Retry, feedback),
            ToolErrorParts::Denied(message) => (ErrorKind::Denied, message),
            ToolErrorParts::Failed {
                cause,
                model_message,
            } => {
                let (message, source) = redact(cause, secrets);
                return ToolExecutionError {
                    tool_name,
                    kind: ErrorKind::Execution,
                    message,
                    model_message: model_message
                        .map(|m| cut_scrubbed(m, MODEL_MESSAGE_CHARS, secrets).into()),
                    source,
                };
            }
        };
        let text: Box<str> = cut_scrubbed(text, MODEL_MESSAGE_CHARS, secrets).into();
        ToolExecutionError {
            tool_name,
            kind,
            message: text.clone(),
            model_message: Some(text.clone()),
            source: Box::new(Redacted {
                message: text,
                source: None,
            }),
        }
    }

    /// A call ended by the executor (a denial by the approval policy, a timeout) with a
    /// message for the model.
    pub(crate) fn with_model_message(mut self, message: &str) -> Self {
        self.model_message =
            Some(cut_scrubbed(message.to_owned(), MODEL_MESSAGE_CHARS, &[]).into());
        self
    }

    /// The same failure, of another kind: a retry past the tool's budget.
    pub(crate) fn into_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Rebuilds a recorded failure, of a recorded kind.
    pub(crate) fn replayed(
        tool_name: Cow<'static, str>,
        kind: ErrorKind,
        message: &str,
        model_message: Option<&str>,
    ) -> Self {
        let source: BoxError = match kind {
            ErrorKind::Panic => Box::new(ToolPanic {
                // What was recorded is the panic's `Display`: its message follows the prefix.
                message: message
                    .strip_prefix(PANIC_PREFIX)
                    .unwrap_or(message)
                    .to_owned(),
            }),
            ErrorKind::Timeout => Box::new(ToolTimeout),
            ErrorKind::Cancelled => Box::new(ToolCancelled),
            ErrorKind::AwaitingApproval => Box::new(AwaitingApproval),
            _ => Box::new(Redacted {
                message: message.into(),
                source: None,
            }),
        };
        ToolExecutionError {
            tool_name,
            kind,
            message: message.into(),
            model_message: model_message.map(Into::into),
            source,
        }
    }

    /// The tool that failed.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// The cause.
    pub fn cause(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.source
    }

    /// The cause's message, as read when the error was built: bounded, and free of the
    /// call's secrets.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the tool panicked.
    pub fn is_panic(&self) -> bool {
        self.kind == ErrorKind::Panic
    }

    /// Whether the tool ran past its deadline (and was cancelled).
    pub fn is_timeout(&self) -> bool {
        self.kind == ErrorKind::Timeout
    }

    /// Whether the call was cancelled (its future dropped) before it finished.
    pub fn is_cancelled(&self) -> bool {
        self.kind == ErrorKind::Cancelled
    }

    /// Whether a credential could not be resolved (and the tool was not run).
    pub fn is_credential(&self) -> bool {
        self.kind == ErrorKind::Credential
    }

    /// What the model is told beyond the sentence of the error's kind: a retry's feedback, a
    /// denial's reason, or the model message of a [`ToolError::failed`]; bounded, and free of
    /// the call's secrets. `None` for a failure whose tool gave no model message: the model
    /// is then only told that the tool failed.
    pub fn model_message(&self) -> Option<&str> {
        self.model_message.as_deref()
    }

    pub(crate) fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// How many characters of a message for the model are kept; rendering cuts it further to
/// the executor's [`TextLimits`].
const MODEL_MESSAGE_CHARS: usize = 8 * 1024;

/// How a [`ToolPanic`]'s `Display` begins.
const PANIC_PREFIX: &str = "the tool panicked: ";

/// A panic caught inside a tool; the cause of a [`ToolExecutionError`].
///
/// Its message is for operators: the model is only told that the tool failed unexpectedly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{PANIC_PREFIX}{}", EscapedText(.message, OPERATOR_MESSAGE))]
pub struct ToolPanic {
    message: String,
}

impl ToolPanic {
    /// The panic's message, bounded, with every secret of the call replaced.
    pub(crate) fn from_payload(payload: &(dyn std::any::Any + Send), secrets: &[&str]) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .map_or_else(
                || "a panic with a non-string payload".to_owned(),
                |message| {
                    let message = render(|out| out.write_str(message)).unwrap_or_default();
                    scrub_cut(message.text, secrets)
                },
            );
        ToolPanic { message }
    }

    /// The panic message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A tool that did not finish before its deadline; the cause of a [`ToolExecutionError`].
///
/// See [`ToolExecutor::dispatch_until`](crate::ToolExecutor::dispatch_until).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the tool did not finish before its deadline")]
pub struct ToolTimeout;

/// A call whose future was dropped before it finished; the cause of a [`ToolExecutionError`].
///
/// The executor reports it to observers (and so to recorders) as the call's end, so that
/// every `started` event has its terminal event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the call was cancelled before it finished")]
pub struct ToolCancelled;

/// A call the approval policy deferred: the error of a result whose status is
/// [`Deferred`](crate::ToolStatus::Deferred), until
/// [`ToolExecutor::resume`](crate::ToolExecutor::resume) decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the call awaits approval")]
pub struct AwaitingApproval;

/// Content parts carrying more binary data than the executor allows
/// ([`TextLimits::max_binary_bytes`](crate::TextLimits::max_binary_bytes)); the cause of a
/// [`ToolExecutionError`]. The model is told that the tool failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the tool returned {bytes} bytes of binary content, more than the {limit} its executor allows (`TextLimits::max_binary_bytes`)"
)]
pub struct ContentTooLarge {
    bytes: usize,
    limit: usize,
}

impl ContentTooLarge {
    pub(crate) fn new(bytes: usize, limit: usize) -> Self {
        ContentTooLarge { bytes, limit }
    }

    /// How many bytes of binary data the parts carried.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many the executor allows.
    pub fn limit(&self) -> usize {
        self.limit
    }
}

/// A credential that could not be resolved; the cause of a [`ToolExecutionError`].
///
/// It names the credential and says whether the provider had none by that name
/// ([`is_missing`](Self::is_missing)) or failed to resolve it. It never renders the provider's
/// error: a provider's error text may quote a secret the executor never resolved for the call
/// (a vault client naming another key's value, say), which the executor could not know to
/// scrub. So neither this error's `Display` nor its `Debug`, nor its
/// [`source`](std::error::Error::source) chain, carries it, and nothing the executor makes of
/// the call does either: the error's message, the events, spans, recordings and replays, and
/// what the model is told. An operator who wants the provider's own error asks for it:
/// [`provider_error`](Self::provider_error).
///
/// ```
/// use agentkit_core::{BoxError, CredentialError, CredentialProvider, ErrorKind, Secret};
/// # use agentkit_core::{JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolSpec, block_on};
/// # struct Fetch(ToolSpec);
/// # impl Tool for Fetch {
/// #     fn spec(&self) -> &ToolSpec { &self.0 }
/// #     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
/// #         Ok(JsonObject::new().into())
/// #     }
/// # }
/// struct Vault;
///
/// impl CredentialProvider for Vault {
///     fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
///         Err(format!("vault: '{name}' sealed (admin token s3cr3t-admin)").into())
///     }
/// }
///
/// # let mut registry = ToolRegistry::new();
/// # registry.register(Fetch(ToolSpec::builder("fetch").credential("api-key").build()?))?;
/// let executor = ToolExecutor::builder(registry).credentials(Vault).build();
/// let result = block_on(executor.dispatch(&ToolCall::new("call_1", "fetch", "{}")));
/// let error = result.error().expect("the call failed");
/// assert_eq!(error.kind(), ErrorKind::Credential);
/// // The error says which credential, never what the provider said.
/// assert!(!format!("{error} {error:?}").contains("s3cr3t"));
///
/// // Asked for explicitly, the provider's own error (to log where secrets may go).
/// let agentkit_core::Error::Execution(failure) = error else { unreachable!() };
/// let credential = failure.cause().downcast_ref::<CredentialError>().expect("a credential error");
/// assert_eq!(credential.name(), "api-key");
/// assert!(!credential.is_missing());
/// let provider = credential.provider_error().expect("the provider failed");
/// assert!(provider.to_string().contains("s3cr3t-admin"));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(thiserror::Error)]
#[error("{}", match .provider { None => format!("credential '{name}' is not available, so the tool was not run"), Some(_) => format!("credential '{name}' could not be resolved, so the tool was not run") })]
pub struct CredentialError {
    name: String,
    /// The provider's own error; deliberately not the `source`.
    provider: Option<BoxError>,
}

impl fmt::Debug for CredentialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The provider's error is withheld here too: its `Debug` may show what its message
        // does.
        f.debug_struct("CredentialError")
            .field("name", &self.name)
            .field("missing", &self.is_missing())
            .finish_non_exhaustive()
    }
}

impl CredentialError {
    pub(crate) fn missing(name: &str) -> Self {
        CredentialError {
            name: name.to_owned(),
            provider: None,
        }
    }

    pub(crate) fn failed(name: &str, provider: BoxError) -> Self {
        CredentialError {
            name: name.to_owned(),
            provider: Some(provider),
        }
    }

    /// The credential's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the provider has no credential of that name (rather than failing to resolve
    /// it).
    pub fn is_missing(&self) -> bool {
        self.provider.is_none()
    }

    /// The provider's own error, when it failed to resolve the credential (`None` when it
    /// had none by that name). Its text is the provider's and may quote any secret the
    /// provider knows: send it only where secrets may go.
    pub fn provider_error(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.provider.as_deref()
    }
}
