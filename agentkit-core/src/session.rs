//! The client a call came from, when a tool is served to one (over MCP): log messages for it,
//! and the questions a tool may ask it: its user ([elicitation](ElicitationRequest)) and its
//! model ([sampling](SamplingRequest)). A tool reaches it through its
//! [`ToolContext`](crate::ToolContext).

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

use crate::error::BoxError;
use crate::principal::Principal;
use crate::schema::JsonObject;

/// The severity of a log message, MCP's levels (those of syslog), lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// Information about what the tool does.
    Info,
    /// A normal but significant event.
    Notice,
    /// Something that may need attention.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's name, as MCP writes it (`"warning"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool's log message, as the executor hands it on: bounded, and free of the call's
/// secrets. See [`ToolContext::log`](crate::ToolContext::log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogMessage {
    level: LogLevel,
    text: String,
}

impl LogMessage {
    pub(crate) fn new(level: LogLevel, text: String) -> Self {
        LogMessage { level, text }
    }

    /// The level.
    pub fn level(&self) -> LogLevel {
        self.level
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// What the client of a call can be asked, as it declared when it connected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClientCapabilities {
    pub(crate) elicitation: bool,
    pub(crate) sampling: bool,
    pub(crate) roots: bool,
}

impl ClientCapabilities {
    /// Whether the client can ask its user for input ([`ToolContext::elicit`](crate::ToolContext::elicit)).
    pub fn elicitation(&self) -> bool {
        self.elicitation
    }

    /// Whether the client can ask its model ([`ToolContext::sample`](crate::ToolContext::sample)).
    pub fn sampling(&self) -> bool {
        self.sampling
    }

    /// Whether the client can tell its roots ([`ToolContext::list_roots`](crate::ToolContext::list_roots)).
    pub fn roots(&self) -> bool {
        self.roots
    }
}

/// The name of one question a tool asks in a call: the key of its request in an MCP
/// 2026-07-28 `InputRequiredResult` (`inputRequests`), which the client answers under the
/// same key. Unset, each question is named by its kind and rank in the call
/// (`elicitation-1`, `sampling-1`, `roots-1`, ...), which is what most tools want: set one
/// where a client expects a particular key.
pub(crate) type InputKey = Option<String>;

/// A question for the client's user: a message, and the JSON Schema of the answer wanted (an
/// object of primitive fields, as MCP's form elicitation takes: strings, numbers, integers,
/// booleans, enums, with defaults).
///
/// ```
/// use agentkit_core::ElicitationRequest;
/// use serde_json::json;
///
/// let request = ElicitationRequest::new(
///     "Which account should be charged?",
///     json!({
///         "type": "object",
///         "properties": {"account": {"type": "string", "enum": ["personal", "business"]}},
///         "required": ["account"],
///     }),
/// );
/// assert_eq!(request.message(), "Which account should be charged?");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitationRequest {
    message: String,
    schema: JsonObject,
    key: InputKey,
}

impl ElicitationRequest {
    /// Asks `message`, wanting an answer that fits `schema` (a JSON Schema object; anything
    /// else counts as an empty schema, which asks for a plain yes or no).
    pub fn new(message: impl Into<String>, schema: serde_json::Value) -> Self {
        let schema = match schema {
            serde_json::Value::Object(schema) => schema,
            _ => JsonObject::new(),
        };
        ElicitationRequest {
            message: message.into(),
            schema,
            key: None,
        }
    }

    /// Names the question, for clients of MCP 2026-07-28, which get it in an
    /// `InputRequiredResult` and answer it under this key (`inputRequests` and
    /// `inputResponses`). Unset, it is `elicitation-N`, for the call's N-th elicitation: set
    /// it where a client expects a particular key. A tool that asks two questions under one
    /// key has the second named `KEY-2`.
    #[must_use]
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The question's name, when [set](Self::with_key).
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// The message shown to the user.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The schema of the answer wanted.
    pub fn schema(&self) -> &JsonObject {
        &self.schema
    }
}

/// The user's answer to an [`ElicitationRequest`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Elicitation {
    /// The user answered: the answer, as an object that fits the schema asked for.
    Accept(JsonObject),
    /// The user said no.
    Decline,
    /// The user dismissed the question without choosing.
    Cancel,
}

/// A question for the client's model: messages, and how long an answer may be.
///
/// ```
/// use agentkit_core::SamplingRequest;
///
/// let request = SamplingRequest::new("Summarise this ticket in one line: ...")
///     .with_system_prompt("You write terse summaries.")
///     .with_max_tokens(100);
/// assert_eq!(request.max_tokens(), 100);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    prompt: String,
    system_prompt: Option<String>,
    max_tokens: u32,
    key: InputKey,
}

impl SamplingRequest {
    /// Asks the model `prompt` (a user message), with up to 1 000 tokens of answer.
    pub fn new(prompt: impl Into<String>) -> Self {
        SamplingRequest {
            prompt: prompt.into(),
            system_prompt: None,
            max_tokens: 1_000,
            key: None,
        }
    }

    /// Names the question, for clients of MCP 2026-07-28 (see
    /// [`ElicitationRequest::with_key`]); unset, it is `sampling-N`, for the call's N-th.
    #[must_use]
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The question's name, when [set](Self::with_key).
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// Sets a system prompt.
    #[must_use]
    pub fn with_system_prompt(mut self, system_prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(system_prompt.into());
        self
    }

    /// Sets the most tokens the answer may have.
    #[must_use]
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// The prompt.
    pub fn prompt(&self) -> &str {
        &self.prompt
    }

    /// The system prompt, when set.
    pub fn system_prompt(&self) -> Option<&str> {
        self.system_prompt.as_deref()
    }

    /// The most tokens the answer may have.
    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
    }
}

/// The client's model's answer to a [`SamplingRequest`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sampled {
    pub(crate) text: String,
    pub(crate) model: String,
    pub(crate) stop_reason: Option<String>,
}

impl Sampled {
    /// The answer's text (empty when the model answered with something else, an image say).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The model that answered, as the client names it.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Why the model stopped (`endTurn`, `maxTokens`, ...), when the client says.
    pub fn stop_reason(&self) -> Option<&str> {
        self.stop_reason.as_deref()
    }
}

/// One of the client's roots: a directory or file the client lets servers work in (MCP's
/// `roots/list`), as [`ToolContext::list_roots`](crate::ToolContext::list_roots) gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    pub(crate) uri: String,
    pub(crate) name: Option<String>,
}

impl Root {
    /// The root's URI (`file:///home/me/project`).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The root's name for people, when the client gives one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
}

/// Why a question for the client could not be asked, or got no answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The tool is not being served to a client (it runs in an agent's own loop, say).
    #[error("the tool is not being served to a client, so it cannot {0}")]
    NotServed(&'static str),
    /// The client did not declare the capability the question needs.
    #[error("the client did not declare the `{0}` capability")]
    Unsupported(&'static str),
    /// The question does not fit what the client takes (an elicitation schema with a field
    /// that is not a primitive, say).
    #[error("the request does not fit what the client takes: {0}")]
    Invalid(String),
    /// The client was asked, and the request failed (the connection, or the client's error).
    #[error("the client's answer did not come: {0}")]
    Failed(#[source] BoxError),
}

impl ClientError {
    /// Whether the client could not be asked because it lacks the capability, or because
    /// there is no client: a tool can fall back to something else.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            ClientError::NotServed(_) | ClientError::Unsupported(_)
        )
    }
}

/// A boxed future of the session's answers.
pub(crate) type Answer<T> = Pin<Box<dyn Future<Output = Result<T, ClientError>> + Send>>;

/// The client of the calls an MCP server serves: what it can do, and the way to ask it.
pub(crate) trait ClientSession: Send + Sync {
    /// What the client declared.
    fn capabilities(&self) -> ClientCapabilities;

    /// Asks the client's user.
    fn elicit(&self, request: ElicitationRequest) -> Answer<Elicitation>;

    /// Asks the client's model.
    fn sample(&self, request: SamplingRequest) -> Answer<Sampled>;

    /// Asks the client for its roots.
    fn list_roots(&self) -> Answer<Vec<Root>>;

    /// Hears that the tool asked for `capability` (`elicitation`, `sampling`, `roots`),
    /// which the client did not declare, and was refused without asking: a session that
    /// must tell the client so (MCP 2026-07-28's missing capability error) keeps it.
    fn refused(&self, _capability: &'static str) {}

    /// Who the client's requests are made for, when the server authenticated them.
    fn principal(&self) -> Option<&Principal> {
        None
    }
}
