//! MCP, the Model Context Protocol, on [`rmcp`] (the official Rust SDK): serve a
//! [`ToolExecutor`](crate::ToolExecutor)'s tools to MCP clients, and use an MCP server's tools
//! as agentkit tools. Feature `mcp`; needs a tokio runtime.
//!
//! - [`McpServer`] serves an executor over stdio ([`serve_stdio`](McpServer::serve_stdio)) or
//!   streamable HTTP ([`serve_http`](McpServer::serve_http), or
//!   [`streamable_http_service`](McpServer::streamable_http_service) to mount in your own HTTP
//!   server). Every call goes through the executor; a failed call is an `isError` result
//!   with the model-facing text, never a protocol error; a tool's progress reports reach the
//!   clients that ask for them, as progress notifications. Beside the tools, it serves the
//!   resources, prompts and argument completion the application gives it ([`McpResources`],
//!   [`McpPrompts`], [`McpCompletions`], in rmcp's types), and puts caching hints
//!   ([`CacheHints`]) on its lists for clients of the 2026-07-28 revision. A tool can run as a task (MCP
//!   2026-07-28's tasks extension, see [`McpServer::with_task_support`]).
//! - [`McpClient`] connects to a server (a child process over stdio, or a streamable HTTP
//!   URL) and registers its tools in a [`ToolRegistry`](crate::ToolRegistry), where the
//!   executor validates, times, observes and records them like any other tool; the server's
//!   progress and log messages during a call reach the executor's observers. It speaks
//!   revision 2026-07-28 (`server/discover`, no session) with a server that does, 2025-11-25
//!   with one that does not; it reuses a tool list within the time the server's caching
//!   hints give it ([`McpClient::tools`]), and waits for a call the server runs as a task
//!   (SEP-2663 at 2026-07-28, and SEP-1686 at 2025-11-25, see [`McpTool`]; a tool
//!   it cannot call is refused at import, [`Refusal::TaskRequired`]); [`McpClient::builder`]
//!   adds elicitation and sampling handlers.
//! - [`to_mcp_tool`], [`to_call_tool_result`] and [`schema_from_json_schema`] are the
//!   conversions both sides use, for those who drive rmcp themselves.
//!
//! Serving the tools of one executor, over stdio:
//!
//! ```no_run
//! use std::sync::Arc;
//! use agentkit_core::mcp::McpServer;
//! use agentkit_core::{ToolExecutor, ToolRegistry};
//!
//! # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
//! let registry = ToolRegistry::new(); // register your tools here
//! McpServer::new(Arc::new(ToolExecutor::new(registry)))
//!     .serve_stdio()
//!     .await
//! # }
//! ```
//!
//! Serving resources beside the tools, on the same server: the application answers
//! `resources/list` and `resources/read` with rmcp's types, and the server declares the
//! `resources` capability because it has the handler (prompts and completion go the same
//! way, with [`McpServer::with_prompts`] and [`McpServer::with_completions`]):
//!
//! ```
//! use std::sync::Arc;
//! use agentkit_core::mcp::rmcp::model::{
//!     ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
//!     ReadResourceResponse, ReadResourceResult, Resource, ResourceContents,
//! };
//! use agentkit_core::mcp::rmcp::service::RequestContext;
//! use agentkit_core::mcp::rmcp::{ErrorData, RoleServer, ServerHandler};
//! use agentkit_core::mcp::{McpResources, McpServer};
//! use agentkit_core::{ToolExecutor, ToolRegistry};
//!
//! /// The service's runbook, as one resource.
//! struct Runbook;
//!
//! impl McpResources for Runbook {
//!     async fn list_resources(
//!         &self,
//!         _: Option<PaginatedRequestParams>,
//!         _: RequestContext<RoleServer>,
//!     ) -> Result<ListResourcesResult, ErrorData> {
//!         let runbook = Resource::new("docs://runbook", "runbook").with_mime_type("text/markdown");
//!         Ok(ListResourcesResult::with_all_items(vec![runbook]))
//!     }
//!
//!     async fn read_resource(
//!         &self,
//!         request: ReadResourceRequestParams,
//!         _: RequestContext<RoleServer>,
//!     ) -> Result<ReadResourceResponse, ErrorData> {
//!         if request.uri != "docs://runbook" {
//!             // Not found, with the URI, as MCP asks (-32602 from 2026-07-28, -32002 before).
//!             let uri = serde_json::json!({ "uri": request.uri });
//!             return Err(ErrorData::resource_not_found("Resource not found", Some(uri)));
//!         }
//!         let text = ResourceContents::text("# Runbook\n\nRestart the worker.", request.uri)
//!             .with_mime_type("text/markdown");
//!         Ok(ReadResourceResult::new(vec![text]).into())
//!     }
//! }
//!
//! let registry = ToolRegistry::new(); // register your tools here
//! let server = McpServer::new(Arc::new(ToolExecutor::new(registry))).with_resources(Runbook);
//! // Declared because given; prompts and completions were not, so they are not declared and
//! // their methods answer "method not found".
//! let capabilities = server.get_info().capabilities;
//! assert!(capabilities.resources.is_some() && capabilities.tools.is_some());
//! assert!(capabilities.prompts.is_none() && capabilities.completions.is_none());
//! ```
//!
//! Using the tools of two servers, kept apart by prefixes:
//!
//! ```no_run
//! use agentkit_core::mcp::McpClient;
//! use agentkit_core::{ToolExecutor, ToolRegistry};
//! use tokio::process::Command;
//!
//! # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
//! let mut registry = ToolRegistry::new();
//! let mut files = Command::new("npx");
//! files.args(["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]);
//! McpClient::connect_stdio(files)
//!     .await?
//!     .register_tools(&mut registry, Some("fs_"))
//!     .await?;
//! McpClient::connect_http("http://127.0.0.1:8080/mcp")
//!     .await?
//!     .register_tools(&mut registry, Some("weather_"))
//!     .await?;
//! let executor = ToolExecutor::new(registry);
//! # let _ = executor;
//! # Ok(())
//! # }
//! ```
//!
//! # Two revisions, one endpoint
//!
//! A client of 2025-11-25 gets `initialize`, a session, and a tool's questions as requests of
//! the server's while the call runs. A client of 2026-07-28 gets the stateless core
//! (`server/discover`, per-request `_meta`, `Mcp-*` headers checked against the body, caching
//! hints) and the same questions as an input-required result: the tool runs again on the
//! client's retry, its answers carried in a `requestState` sealed with the server's key
//! (`with_request_state_key`, for replicas to share). Code written for 2025-11-25 needs no
//! change: logging and sampling, which 2026-07-28 deprecates, are still served to clients that
//! use them (a 2026-07-28 client gets log messages only at the level its request sets); a tool
//! that asks must ask the same questions for the same arguments, as it runs once a round.
//! `McpClient` speaks 2026-07-28 to servers that do, 2025-11-25 to the others. The official
//! conformance suite (0.2.0-alpha.12, pinned) passes every scenario both revisions require, of
//! server and client, and every server scenario it runs beside them, the tasks extension's
//! included (`tests/mcp/tests/conformance.rs` lists the client's unscored exceptions).
//!
//! # Logs
//!
//! agentkit's own code logs no secret: no credential, token, client secret or authorization
//! code, at any level. rmcp, underneath, logs through `tracing` under the target `rmcp`, and
//! its OAuth client writes the authorization code it exchanges at `DEBUG` (see
//! `McpOAuth`'s "Logs", feature `mcp-oauth`): where logs are kept, hold rmcp at `INFO` or above, e.g. with
//! `tracing-subscriber`'s directive `rmcp=info` (`RUST_LOG=debug,rmcp=info`).

mod auth;
mod cache;
mod call;
mod child;
mod client;
mod connect;
mod connection;
mod convert;
mod deferred;
mod elicit;
mod error;
mod extras;
mod forward;
mod handlers;
mod http_reader;
mod import;
mod inflight;
mod input;
mod input_state;
mod legacy_tasks;
#[cfg(feature = "mcp-oauth")]
mod oauth;
mod options;
mod origins;
mod peer;
mod progress;
mod raw;
mod request_stream;
mod serve;
mod server;
mod service;
mod sessions;
mod task_call;
mod tasks;
mod tool;

pub use auth::{Authenticate, BearerAuth, BearerAuthLayer, ProtectedResource, Unauthorized};
pub use cache::CacheHints;
pub use client::McpClient;
pub use connect::McpClientBuilder;
pub use convert::{
    from_content_block, schema_from_json_schema, to_call_tool_result, to_content_block, to_mcp_tool,
};
pub use deferred::{DEFERRED_META, DeferredStore, DirectoryStore, Lookup, RESUME_META};
pub use error::{McpError, McpErrorKind};
pub use handlers::{McpCompletions, McpPrompts, McpResources};
pub use import::{McpImport, McpToolList, Refusal, RefusedTool};
#[cfg(feature = "mcp-oauth-jwt")]
pub use oauth::JwtSigningAlgorithm;
#[cfg(feature = "mcp-oauth")]
pub use oauth::{EnterpriseIdp, McpAuthError, McpOAuth};
pub use server::McpServer;
pub use service::McpHttpService;
pub use tasks::{DEFAULT_MAX_TASKS, DEFAULT_TASK_TTL};
pub use tool::{McpTool, McpToolError};

/// The `rmcp` this module is built on, re-exported so that code naming its types (a custom
/// transport, [`StreamableHttpServerConfig`](rmcp::transport::StreamableHttpServerConfig))
/// uses the same version.
#[doc(no_inline)]
pub use rmcp;
