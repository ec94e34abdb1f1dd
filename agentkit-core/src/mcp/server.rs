//! [`McpServer`]: a [`ToolExecutor`] served over MCP.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
#[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as McpToolInfo,
};
use rmcp::service::RequestContext;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::net::TcpListener;

use super::convert::{to_call_tool_result, to_mcp_tool};
use super::error::{McpError, McpErrorKind};
use super::peer::PeerSession;
use super::progress::{CallNotifier, LogThreshold, our_level};
use crate::call::ToolCall;
use crate::error::ErrorKind;
use crate::executor::ToolExecutor;
use crate::session::ClientSession;

/// Serves the tools of a [`ToolExecutor`] to MCP clients (Claude Desktop, IDEs, agents), over
/// stdio or streamable HTTP, on [`rmcp`].
///
/// - `tools/list` lists the registry's tools in registration order (see
///   [`to_mcp_tool`](super::to_mcp_tool)).
/// - `tools/call` goes through [`ToolExecutor::dispatch`], so input validation, credentials,
///   observers and recording, output validation and the executor's guarantees on hostile input
///   all apply; the call id the executor sees is the JSON-RPC request id. Any failure of the
///   call (invalid arguments, all of their problems at once; a tool error; a timeout) is a
///   result with `isError: true` carrying the model-facing text, so the model can correct
///   itself (see [`to_call_tool_result`](super::to_call_tool_result)). Only a call of a tool
///   that does not exist is a protocol error (invalid params), as MCP asks.
/// - A client's `notifications/cancelled` cancels the call (the tool's future is dropped), and
///   [`with_timeout`](Self::with_timeout) bounds every call.
/// - When the client asks for progress (a `progressToken` in the request's `_meta`), every
///   [`report_progress`](crate::ToolContext::report_progress) of the tool is sent to it as a
///   `notifications/progress` (progress, total, message), in order and before the result;
///   the message is the one observers get, bounded and free of the call's secrets. Reports
///   never make the tool wait on the connection. A client that did not ask gets none.
///
/// `McpServer` is an rmcp [`ServerHandler`]: besides the two transports here, serve it on any
/// transport rmcp has with [`ServiceExt::serve`]. Needs a tokio runtime.
///
/// ```no_run
/// use std::sync::Arc;
/// use agentkit_core::mcp::McpServer;
/// use agentkit_core::{ToolExecutor, ToolRegistry};
///
/// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
/// let registry = ToolRegistry::new(); // register your tools here
/// let server = McpServer::new(Arc::new(ToolExecutor::new(registry)));
/// server.serve_stdio().await // until the client closes the connection
/// # }
/// ```
#[derive(Clone)]
pub struct McpServer {
    executor: Arc<ToolExecutor>,
    tools: Arc<[McpToolInfo]>,
    info: Implementation,
    instructions: Option<String>,
    timeout: Option<Duration>,
    /// The session's log threshold: each session (each clone a transport makes) has its own.
    log_threshold: Arc<LogThreshold>,
}

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("executor", &self.executor)
            .field("name", &self.info.name)
            .field("version", &self.info.version)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server for the tools of `executor`, calling them through it. It introduces itself as
    /// `agentkit` with this crate's version; see [`with_name`](Self::with_name).
    pub fn new(executor: Arc<ToolExecutor>) -> Self {
        // The registry cannot change behind an executor, so the list is built once.
        let tools = executor.registry().specs().map(to_mcp_tool).collect();
        McpServer {
            executor,
            tools,
            info: Implementation::new("agentkit", env!("CARGO_PKG_VERSION")),
            instructions: None,
            timeout: None,
            log_threshold: Arc::default(),
        }
    }

    /// The server for a new session: the same tools, a state of its own.
    fn for_session(&self) -> Self {
        McpServer {
            log_threshold: Arc::default(),
            ..self.clone()
        }
    }

    /// Sets the name and version the server gives clients when they connect.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Implementation::new(name, version);
        self
    }

    /// Sets the instructions the server gives clients when they connect (MCP's
    /// `instructions`, which hosts may add to the model's prompt).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Ends every call that runs longer than `timeout`: it fails with
    /// [`ErrorKind::Timeout`] (an `isError` result), and the tool's future is dropped.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The executor the server calls tools through.
    pub fn executor(&self) -> &Arc<ToolExecutor> {
        &self.executor
    }

    /// Serves one client over this process's stdin and stdout until it disconnects.
    ///
    /// Stdout then carries the protocol: log to stderr.
    pub async fn serve_stdio(self) -> Result<(), McpError> {
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| McpError::new(McpErrorKind::Connect, e))?;
        running
            .waiting()
            .await
            .map_err(|e| McpError::new(McpErrorKind::Transport, e))?;
        Ok(())
    }

    /// The server as rmcp's streamable HTTP [`tower`](https://docs.rs/tower) service, to mount
    /// in an HTTP server of your choice (an axum route at `/mcp`, say); one MCP session per
    /// client, kept in memory.
    ///
    /// rmcp's defaults apply: requests whose `Host` is not a loopback name are refused (see
    /// [`StreamableHttpServerConfig`](rmcp::transport::StreamableHttpServerConfig) to allow
    /// others).
    ///
    /// Set `TCP_NODELAY` on the connections of the server you mount it in, as
    /// [`serve_http`](Self::serve_http) does: without it, each response's second small write
    /// waits for the client's delayed ACK, and every call on a reused connection takes about
    /// 40 ms. With axum, `axum::serve(listener, app).tcp_nodelay(true)`; with hyper, call
    /// `set_nodelay(true)` on each accepted `TcpStream`.
    pub fn streamable_http_service(&self) -> StreamableHttpService<McpServer, LocalSessionManager> {
        let server = self.clone();
        StreamableHttpService::new(
            move || Ok(server.for_session()),
            Arc::new(LocalSessionManager::default()),
            Default::default(),
        )
    }

    /// Serves clients over streamable HTTP (HTTP/1.1) on `listener`, at any path, until the
    /// returned future is dropped. Each connection runs on its own task.
    ///
    /// A failure to accept a connection does not stop the server (a client that hangs up
    /// first, or running out of file descriptors under a flood of connections): as axum does,
    /// the server goes on accepting, after a pause for errors that are not the client's.
    ///
    /// ```no_run
    /// # use agentkit_core::mcp::McpServer;
    /// # async fn run(server: McpServer) -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// server.serve_http(listener).await;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_http(self, listener: TcpListener) {
        let service = TowerToHyperService::new(self.streamable_http_service());
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(error) if is_connection_error(&error) => continue,
                Err(_) => {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            // The response's second small write must not wait for the client's delayed ACK
            // (Nagle's algorithm): with it, every call on a reused connection took 44 ms.
            let _ = stream.set_nodelay(true);
            let service = service.clone();
            tokio::spawn(async move {
                // A connection's failure (a client hanging up mid-request) is that client's;
                // the server goes on serving the others.
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let call = ToolCall::new(context.id.to_string(), request.name, arguments);
        // The call ends when the client cancels it, or at the timeout.
        let cancelled = context.ct.clone();
        let timeout = self.timeout;
        let deadline = async move {
            match timeout {
                Some(timeout) => {
                    let _ = tokio::time::timeout(timeout, cancelled.cancelled()).await;
                }
                None => cancelled.cancelled().await,
            }
        };
        // Progress goes to the client only when it asked, with a token for the call; log
        // messages at or above the level it set.
        let token = context.meta.get_progress_token();
        let (notifier, reporter) =
            CallNotifier::start(context.peer.clone(), token, Arc::clone(&self.log_threshold));
        let client: Arc<dyn ClientSession> = Arc::new(PeerSession::new(context.peer.clone()));
        let result = self
            .executor
            .dispatch_served(&call, deadline, Some(reporter), Some(client))
            .await;
        notifier.finish().await;
        if let Some(error) = result
            .error()
            .filter(|e| e.kind() == ErrorKind::UnknownTool)
        {
            // The executor's text: bounded and escaped however long or odd the name.
            return Err(ErrorData::invalid_params(error.to_model_message(), None));
        }
        let structured = self
            .executor
            .registry()
            .lookup(call.name())
            .is_some_and(|spec| spec.output_schema().is_some());
        Ok(to_call_tool_result(&result, structured).into())
    }
}

impl ServerHandler for McpServer {
    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        let mut config = ServerConfig::new(capabilities).with_server_info(self.info.clone());
        if let Some(instructions) = &self.instructions {
            config = config.with_instructions(instructions.clone());
        }
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await
    }

    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_threshold.set(our_level(&request.level));
        Ok(())
    }

    fn get_tool(&self, name: &str) -> Option<McpToolInfo> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }
}

/// An error accepting a connection that concerns that connection only.
fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(
        error.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    )
}
