//! MCP, the Model Context Protocol, on [`rmcp`] (the official Rust SDK): serve a
//! [`ToolExecutor`](crate::ToolExecutor)'s tools to MCP clients, and use an MCP server's tools
//! as agentkit tools. Feature `mcp`; needs a tokio runtime.
//!
//! - [`McpServer`] serves an executor over stdio ([`serve_stdio`](McpServer::serve_stdio)) or
//!   streamable HTTP ([`serve_http`](McpServer::serve_http), or
//!   [`streamable_http_service`](McpServer::streamable_http_service) to mount in your own HTTP
//!   server). Every call goes through the executor; a failed call is an `isError` result
//!   with the model-facing text, never a protocol error; a tool's progress reports reach the
//!   clients that ask for them, as progress notifications.
//! - [`McpClient`] connects to a server (a child process over stdio, or a streamable HTTP
//!   URL) and registers its tools in a [`ToolRegistry`](crate::ToolRegistry), where the
//!   executor validates, times, observes and records them like any other tool; the server's
//!   progress and log messages during a call reach the executor's observers. It speaks
//!   revision 2026-07-28 (`server/discover`, no session) with a server that does, 2025-11-25
//!   with one that does not; [`McpClient::builder`] adds an elicitation handler.
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

mod auth;
mod call;
mod client;
mod connect;
mod connection;
mod convert;
mod deferred;
mod elicit;
mod error;
mod forward;
mod import;
mod inflight;
#[cfg(feature = "mcp-oauth")]
mod oauth;
mod options;
mod origins;
mod peer;
mod progress;
mod raw;
mod serve;
mod server;
mod service;
mod sessions;

pub use auth::{Authenticate, BearerAuth, BearerAuthLayer, ProtectedResource, Unauthorized};
pub use client::{McpClient, McpTool, McpToolError};
pub use connect::McpClientBuilder;
pub use convert::{
    from_content_block, schema_from_json_schema, to_call_tool_result, to_content_block, to_mcp_tool,
};
pub use deferred::{DEFERRED_META, DeferredStore, DirectoryStore, Lookup, RESUME_META};
pub use error::{McpError, McpErrorKind};
pub use import::{McpImport, McpToolList, Refusal, RefusedTool};
#[cfg(feature = "mcp-oauth")]
pub use oauth::{McpAuthError, McpOAuth};
pub use server::McpServer;
pub use service::McpHttpService;

/// The `rmcp` this module is built on, re-exported so that code naming its types (a custom
/// transport, [`StreamableHttpServerConfig`](rmcp::transport::StreamableHttpServerConfig))
/// uses the same version.
#[doc(no_inline)]
pub use rmcp;
