//! Typed, validated tools for LLM agents.
//!
//! An agent asks a model for a reply; the model answers with tool calls: a tool name and a
//! JSON string of arguments. agentkit sits between that answer and the tool's code:
//!
//! - a [`Tool`] is an explicit struct with declared metadata, its [`ToolSpec`]: name,
//!   description, version, input and output [`ToolSchema`]s over six types (string, integer,
//!   float, boolean, list, dictionary) or, for what they cannot say, a [`JsonSchema`] (2020-12
//!   or draft-07, validated in full), tags, and the names of the credentials it needs;
//! - a [`ToolRegistry`] per agent finds tools by name or tags and refuses duplicates;
//! - a [`ToolExecutor`] is the only path to a tool: it validates the inputs (reporting every
//!   problem, filling defaults), resolves credentials, runs the tool, validates its output,
//!   times the call, emits [events](ToolEvent), and returns a [`ToolResult`], or, in strict
//!   mode, a typed [`Error`];
//! - [`provider`] speaks each model API's tool format (OpenAI Chat Completions and Responses,
//!   Anthropic, Gemini, MCP): declarations from the specs, [`ToolCall`]s from the reply,
//!   tool-result messages from the [`ToolResult`]s.
//!
//! For an agent loop, the executor also runs a model reply's calls as a [`Turn`]
//! (concurrently, results in call order, under a shared deadline and per-tool retry
//! budgets), holds each tool to its timeout (blocking tools run off the async task, on the
//! executor's [`Runtime`]), caps the calls in flight and runs sequential tools alone, asks an
//! [`ApprovalPolicy`] before tools that need approval (allow, deny, or defer and
//! [`resume`](ToolExecutor::resume)), and reads a tool's [`ToolError`] to tell the model to
//! retry, that the tool failed, or that the call was denied. A tool's [`ToolContext`] gives
//! it the call id, its credentials, shared dependencies, a cancellation signal, and
//! [progress reports](ToolContext::report_progress).
//!
//! With the `derive` feature, `#[tool(...)]` declares a tool on a struct and the compiler
//! checks its schema.
//!
//! # Example
//!
//! ```
//! use agentkit_core::{
//!     BoxError, InMemoryCredentials, JsonObject, Param, ParamType, Tool, ToolCall, ToolContext,
//!     ToolExecutor, ToolOutput, ToolRegistry, ToolSchema, ToolSpec, block_on,
//! };
//! use serde_json::json;
//!
//! struct FetchWeather(ToolSpec);
//!
//! impl Tool for FetchWeather {
//!     fn spec(&self) -> &ToolSpec {
//!         &self.0
//!     }
//!
//!     async fn execute(&self, inputs: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
//!         let _key = ctx.credential("weather-api-key")?.expose(); // resolved by the executor
//!         let mut out = inputs.clone(); // city, country and units: validated, defaults filled
//!         out.insert("temperature".into(), json!(72.0));
//!         out.insert("conditions".into(), json!("sunny"));
//!         Ok(out.into())
//!     }
//! }
//!
//! let spec = ToolSpec::builder("fetch_weather")
//!     .description("Look up the current weather for a city.")
//!     .input(ToolSchema::new([
//!         Param::required("city", ParamType::String).with_description("City name"),
//!         Param::optional("country", ParamType::String).with_default("US"),
//!         Param::optional("units", ParamType::String).with_default("imperial"),
//!     ])?)
//!     .credential("weather-api-key")
//!     .build()?;
//!
//! let mut registry = ToolRegistry::new();
//! registry.register(FetchWeather(spec))?;
//! let executor = ToolExecutor::builder(registry)
//!     .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-test"))
//!     .build();
//!
//! // A call as the model sent it.
//! let result = block_on(executor.dispatch(&ToolCall::new("call_1", "fetch_weather", r#"{"city": "Paris"}"#)));
//! assert_eq!(result.output().unwrap()["units"], "imperial");
//!
//! // Bad arguments: every problem, in words the model can act on.
//! let result = block_on(executor.dispatch(&ToolCall::new("call_2", "fetch_weather", r#"{"units": 5}"#)));
//! assert_eq!(result.to_model_content(), "\
//! Error: invalid arguments for tool 'fetch_weather':
//! - Missing required parameter: 'city'
//! - Parameter 'units': expected type 'string', got 'integer'");
//! # Ok::<(), agentkit_core::SemanticError>(())
//! ```
//!
//! # Features
//!
//! - `derive`: the `#[tool(...)]` attribute macro.
//! - `tokio`: `TokioRuntime`, tokio's timers and blocking pool for
//!   timeouts and blocking tools (the executor's default then; without it, [`StdRuntime`]
//!   uses a timer thread and plain threads).
//! - `mcp`: the `mcp` module, an MCP server for any executor and MCP servers' tools as
//!   agentkit tools, on `rmcp` (stdio and streamable HTTP). Needs Rust 1.88 and a tokio
//!   runtime.
//! - `mcp-oauth`: `mcp`, plus `McpClient::connect_http_with_oauth` and `McpOAuth`, to use the
//!   tools of MCP servers that want OAuth, through rmcp's OAuth client (which brings the
//!   `oauth2` crate).
//! - `mcp-oauth-jwt`: `mcp-oauth`, plus `McpOAuth::private_key_jwt` (a client authenticating
//!   with a JWT it signs), through rmcp's JWT signing, which builds a C library (`aws-lc-rs`).
//! - `tracing`: a span per call (`execute_tool {name}`, with `gen_ai.tool.name` and
//!   `gen_ai.tool.call.id`, per the OpenTelemetry GenAI conventions) and the
//!   `agent.tool.execution.duration` histogram as a `histogram.`-prefixed event field, for
//!   each call whose tool ran. No argument value or secret is recorded.
//!
#![doc = include_str!("../docs/json-schema.md")]
#![doc = ""]
#![doc = include_str!("../docs/guarantees.md")]
#![doc = ""]
#![doc = include_str!("../docs/decisions.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

mod approval;
mod arguments;
mod block_on;
mod call;
mod content;
mod context;
mod credentials;
mod error;
mod events;
mod executor;
mod inputs;
#[cfg(feature = "mcp")]
pub mod mcp;
mod model_text;
mod output;
mod panic_hook;
mod params;
mod principal;
pub mod provider;
mod recorder;
mod registry;
mod result;
mod rules;
mod runtime;
mod schema;
mod session;
mod thread_safety;
mod tool;
mod tool_search;
mod toolset;
mod typed;

pub use approval::{Approval, ApprovalPolicy, ApprovalRequest, AskUser};
pub use block_on::block_on;
pub use call::{ToolArguments, ToolCall};
pub use content::{Content, EmbeddedResource, Media, ResourceContents, ResourceLink, ToolOutput};
pub use context::{Cancellation, MissingDependency, Progress, ToolContext};
pub use credentials::{
    CredentialProvider, Credentials, EnvCredentials, InMemoryCredentials, NoCredentials, Secret,
    UndeclaredCredential,
};
pub use error::{
    AwaitingApproval, BoxError, ContentTooLarge, CredentialError, Direction, Error, ErrorKind,
    ToolCancelled, ToolError, ToolExecutionError, ToolPanic, ToolTimeout, ToolValidationError,
    UnknownToolError,
};
pub use events::{ToolEvent, ToolObserver};
pub use executor::{DEFAULT_RETRIES, ToolExecutor, ToolExecutorBuilder, Turn};
pub use model_text::TextLimits;
pub use panic_hook::install_tool_panic_hook;
pub use params::{ParamSchema, ToolParams};
pub use principal::Principal;
pub use recorder::{
    DEFAULT_RECORDER_CAPACITY, ExecutionRecorder, NoRecording, RecordedError, RecordedOutcome,
    Recording, Replay,
};
pub use registry::ToolRegistry;
pub use result::{DeferredCall, ToolResult, ToolStatus};
pub use rules::{
    ExampleIssue, MAX_EXAMPLE_BYTES, MAX_EXAMPLES, NameError, NameKind, Number, ParamType, Problem,
    ValueKind,
};
#[cfg(feature = "tokio")]
pub use runtime::TokioRuntime;
pub use runtime::{Runtime, Sleep, StdRuntime};
pub use schema::{
    Draft, IssueKind, JsonObject, JsonSchema, JsonSchemaOptions, Literal, Param, SchemaError,
    SchemaLimits, SchemaProblem, SemanticError, SemanticProblem, ToolSchema, UnknownArguments,
    ValidationIssue,
};
pub use session::{
    ClientCapabilities, ClientError, Elicitation, ElicitationRequest, LogLevel, LogMessage, Root,
    Sampled, SamplingRequest,
};
pub use tool::{DEFAULT_VERSION, TaskSupport, Tool, ToolAnnotations, ToolSpec, ToolSpecBuilder};
pub use tool_search::{SearchHit, ToolSearch};
pub use toolset::{Toolset, ToolsetEntry};
pub use typed::{FromParam, IntoParam, ParamTypeError, ToolHandler};
// Implemented by `#[tool(...)]`'s generated code, not by users: out of the documentation.
#[doc(hidden)]
pub use typed::IntoOutput;
#[doc(hidden)]
pub use typed::{FromInputs, TypedTool};

/// The `serde_json` this crate's values come from ([`JsonObject`] is its `Map`), re-exported
/// so that tool code can name `Value` without a second, possibly different, version.
#[doc(no_inline)]
pub use serde_json;

/// The `#[tool(...)]` attribute: declares a [`Tool`] on a struct, with a schema the compiler
/// checks. See the `agentkit-derive` crate for the syntax.
///
/// Needs the `derive` feature; without it, `#[tool]` is a compile error that says so.
// Re-exported without the feature too: a private `mod tool` would otherwise be what
// `agentkit_core::tool` finds, and the error would say that module is private.
pub use agentkit_derive::tool;

/// `#[derive(ToolParams)]`: a struct with named fields as a parameter list (for `#[tool(input =
/// .., output = ..)]`, or as a dictionary parameter), a fieldless enum as a string's allowed
/// values, an enum with data as a tagged union. See the [`ToolParams`](trait@ToolParams) and
/// [`ParamSchema`] traits.
///
/// Needs the `derive` feature, as `#[tool]` does.
pub use agentkit_derive::ToolParams;

/// What generated code names, through absolute paths. Not public API.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

// The README's examples are compiled and run as doctests, so the quick start cannot rot. The
// MCP section needs the `mcp` feature, which `cargo test --workspace` enables (the tests crate
// asks for it).
#[cfg(all(doctest, feature = "derive", feature = "mcp"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
