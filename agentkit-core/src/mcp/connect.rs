//! [`McpClientBuilder`]: how [`McpClient`] connects, and what it offers the server besides
//! calling its tools.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use rmcp::RoleClient;
#[allow(deprecated)] // MCP's sampling, which 2026-07-28 deprecates (SEP-2577), still served.
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult};
use rmcp::model::{ElicitRequestParams, ElicitResult};
use rmcp::service::{ClientInitializeError, ClientLifecycleMode, ClientServiceExt};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport};

use super::child;
use super::client::McpClient;
use super::elicit::{Answers, Handler};
use super::error::{McpError, McpErrorKind};
use super::forward::{Routes, client_config, lifecycle, routed};
use super::http_reader;
use super::legacy_tasks::LegacyTasks;

/// How an [`McpClient`] connects: [`McpClient::builder`], then one of the `connect_*`
/// methods, as on [`McpClient`].
///
/// # Revisions
///
/// The client speaks MCP's revision 2026-07-28 where the server does, and 2025-11-25 where it
/// does not:
///
/// - It starts with `server/discover` (2026-07-28): no handshake, no session; every request
///   carries the protocol version and the client's name and capabilities in its `_meta`, and
///   over streamable HTTP the headers `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (the
///   tool called) and `Mcp-Param-*` (the arguments a tool's schema marks with
///   `x-mcp-header`, SEP-2243). A tool whose `x-mcp-header` annotations are invalid is left
///   out of the listing (rmcp's transport drops it).
/// - A server that answers `server/discover` with an error, or with a result that is not a
///   discovery (the servers of earlier revisions do one or the other), gets the `initialize`
///   handshake at 2025-11-25 instead (over HTTP, on a fresh connection for the second kind),
///   and a session; so does one that does not answer `server/discover` within 10 seconds
///   (rmcp's wait), which makes connecting to it that much slower.
///
/// A call whose result asks for input first (`input_required`, SEP-2322, at 2026-07-28) is
/// answered and sent again, with the server's `requestState` as it was, up to 10 rounds:
/// an elicitation by the [elicitation handler](Self::on_elicitation) (declined without one),
/// a sampling request by the [sampling handler](Self::on_sampling) (without one, the call
/// fails with [`McpErrorKind::Input`]), a roots request with no roots. At 2025-11-25 the same
/// handlers answer the server's `elicitation/create` and `sampling/createMessage` requests.
///
/// A call the server runs as a task (the `io.modelcontextprotocol/tasks` extension of
/// 2026-07-28, SEP-2663, which the client declares) is waited for: the client polls
/// `tasks/get` at the interval the server asks (`pollIntervalMs`, between 10 ms and 30 s;
/// 500 ms when it names none), answers what the task asks with the same handlers
/// (`tasks/update`), and reads the call's result from the ended task; a task that fails or
/// that the server cancels fails the call. A call dropped before its task ends (the
/// executor's deadline, a cancelled turn) cancels the task (`tasks/cancel`). At 2025-11-25,
/// over stdio and streamable HTTP, a tool the server lists as running only as a task
/// (SEP-1686) is called as one too, or refused at import when the server declares no tasks
/// for `tools/call` (see [`McpClient::tools`]); over HTTP, the client reads these off the
/// server's SSE streams, and not off a response sent as a JSON body (a server's option; the
/// TypeScript SDK's servers send SSE unless told otherwise), after which such a tool is
/// imported as any other.
///
/// ```no_run
/// use agentkit_core::mcp::McpClient;
/// use agentkit_core::mcp::rmcp::model::{ElicitResult, ElicitationAction};
///
/// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
/// let client = McpClient::builder()
///     // A real host shows the form to the person; this one accepts it as proposed: the
///     // client fills in the form's defaults.
///     .on_elicitation(|_request| async { ElicitResult::new(ElicitationAction::Accept) })
///     .connect_http("http://127.0.0.1:8080/mcp")
///     .await?;
/// # let _ = client;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct McpClientBuilder {
    answers: Answers,
}

impl fmt::Debug for McpClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpClientBuilder")
            .field("elicitation", &self.answers.elicit.is_some())
            .field("sampling", &self.answers.sample.is_some())
            .finish()
    }
}

impl McpClientBuilder {
    /// Answers the server's elicitations (a form the server asks the person to fill in, while
    /// a tool runs) with `handler`, and declares the capability. An accepted answer that
    /// leaves out a field the form gives a `default` for gets that default (SEP-1034). Without
    /// a handler, every elicitation is declined.
    #[must_use]
    pub fn on_elicitation<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(ElicitRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitResult> + Send + 'static,
    {
        self.answers.elicit = Some(Arc::new(move |request| Box::pin(handler(request))));
        self
    }

    /// Answers the server's sampling requests (`sampling/createMessage`: a message from the
    /// application's model, which a tool asks for while it runs) with `handler`, and declares
    /// the `sampling` capability. The same handler answers them whichever way the server
    /// asks: as requests of its own over a 2025-11-25 session, in an `input_required` result
    /// at 2026-07-28 (the call is sent again with the answer), or in a task waiting for input
    /// (answered with `tasks/update`).
    ///
    /// The handler's error is the server's over a session (a JSON-RPC error, which the
    /// server's tool sees); in a result or a task, the call fails with it
    /// ([`McpErrorKind::Input`]). Without a handler, sampling is not declared, and a call whose
    /// result or task asks for it anyway fails with [`McpErrorKind::Input`].
    ///
    /// MCP 2026-07-28 deprecates sampling (SEP-2577), and rmcp marks its types so: name them
    /// under `#[allow(deprecated)]`.
    ///
    /// ```no_run
    /// # #![allow(deprecated)]
    /// use agentkit_core::mcp::McpClient;
    /// use agentkit_core::mcp::rmcp::model::{CreateMessageResult, ErrorData, SamplingMessage};
    ///
    /// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
    /// let client = McpClient::builder()
    ///     .on_sampling(|request| async move {
    ///         if request.max_tokens > 1_000 {
    ///             return Err(ErrorData::invalid_params("at most 1000 tokens", None));
    ///         }
    ///         // A real host asks its model (and may show the person the request first).
    ///         let reply = SamplingMessage::assistant_text("Paris");
    ///         Ok(CreateMessageResult::new(reply, "my-model".into()))
    ///     })
    ///     .connect_http("http://127.0.0.1:8080/mcp")
    ///     .await?;
    /// # let _ = client;
    /// # Ok(())
    /// # }
    /// ```
    #[must_use]
    #[allow(deprecated)] // MCP's sampling (SEP-2577).
    pub fn on_sampling<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(CreateMessageRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<CreateMessageResult, rmcp::ErrorData>> + Send + 'static,
    {
        self.answers.sample = Some(Arc::new(move |request| Box::pin(handler(request))));
        self
    }

    /// [`McpClient::connect_stdio`], with this builder's handlers. A server that answers
    /// `server/discover` with something other than an error cannot get the handshake after
    /// it (the process is not started again): the connection fails.
    pub async fn connect_stdio(
        self,
        command: tokio::process::Command,
    ) -> Result<McpClient, McpError> {
        // Started here rather than by rmcp (`TokioChildProcess`), to read what a 2025-11-25
        // server says of tasks off its stdout (see `legacy_tasks`); ended with the
        // connection, as rmcp's would be (see `child`).
        let legacy = Arc::new(LegacyTasks::default());
        let transport = child::spawn(command, Arc::clone(&legacy))
            .map_err(|e| McpError::new(McpErrorKind::Connect, e))?;
        self.connect(transport, None::<fn() -> _>, Some(legacy))
            .await
    }

    /// [`McpClient::connect_http`], with this builder's handlers.
    pub async fn connect_http(self, url: &str) -> Result<McpClient, McpError> {
        // rmcp's own client, made here to read what a 2025-11-25 server says of tasks off its
        // SSE events (see `legacy_tasks`).
        let client =
            http_reader::http_client().map_err(|e| McpError::new(McpErrorKind::Connect, e))?;
        let legacy = Arc::new(LegacyTasks::default());
        let client = http_reader::Reading::new(client.clone(), Arc::clone(&legacy), client);
        let again = || {
            let config = StreamableHttpClientTransportConfig::with_uri(url);
            StreamableHttpClientTransport::with_client(client.clone(), config)
        };
        self.connect(again(), Some(again), Some(legacy)).await
    }

    /// [`McpClient::connect_http_with_oauth`], with this builder's handlers. Feature
    /// `mcp-oauth`.
    #[cfg(feature = "mcp-oauth")]
    pub async fn connect_http_with_oauth(
        self,
        url: &str,
        oauth: super::McpOAuth,
    ) -> Result<McpClient, McpError> {
        // Read inside rmcp's `AuthClient`, where each request has its token (see
        // `http_reader`).
        let legacy = Arc::new(LegacyTasks::default());
        let authorizing = super::oauth::authorizing(url, oauth, Arc::clone(&legacy))
            .await
            .map_err(|e| McpError::new(McpErrorKind::Connect, e))?;
        let again = || {
            let config = StreamableHttpClientTransportConfig::with_uri(url);
            StreamableHttpClientTransport::with_client(authorizing.clone(), config)
        };
        self.connect(again(), Some(again), Some(legacy))
            .await
            .map_err(|error| match authorizing.take_failure() {
                Some(failure) => McpError::new(McpErrorKind::Connect, failure),
                None => error,
            })
    }

    /// Connects over `transport`, any transport rmcp supports (an in-process duplex stream, a
    /// child process you started, a WebSocket): as [`McpClient::from_connection`], but with
    /// this builder's handlers, the server's progress and log messages routed to the calls,
    /// and the revisions chosen as this type's docs say (but for the second try of the
    /// handshake, which needs a new transport).
    pub async fn connect_transport<T, E, A>(self, transport: T) -> Result<McpClient, McpError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.connect(transport, None::<fn() -> T>, None).await
    }

    /// Connects over `transport`, routing the server's progress and log messages to the calls
    /// they concern; with `again` making another transport to the same server for the
    /// handshake, when the server answered `server/discover` with a result of another kind;
    /// with `legacy` holding what a 2025-11-25 server says of tasks, where the transport reads
    /// it.
    async fn connect<T, E, A>(
        self,
        transport: T,
        again: Option<impl FnOnce() -> T>,
        legacy: Option<Arc<LegacyTasks>>,
    ) -> Result<McpClient, McpError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::new(client_config(), self.answers.clone());
        let routes = Arc::new(Routes::default());
        let started = handler
            .clone()
            .serve_with_lifecycle(routed(transport, Arc::clone(&routes)), lifecycle())
            .await;
        let connection = match (started, again) {
            (Ok(connection), _) => connection,
            // A server of an earlier revision that answers a method it does not know with a
            // result (an empty one, often) rather than an error.
            (Err(ClientInitializeError::ExpectedInitResult(_)), Some(again)) => handler
                .serve_with_lifecycle(
                    routed(again(), Arc::clone(&routes)),
                    ClientLifecycleMode::Initialize,
                )
                .await
                .map_err(|e| McpError::new(McpErrorKind::Connect, e))?,
            (Err(error), _) => return Err(McpError::new(McpErrorKind::Connect, error)),
        };
        Ok(McpClient::connected(
            connection,
            routes,
            self.answers,
            legacy,
        ))
    }
}
