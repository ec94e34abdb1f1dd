//! Serving an [`McpServer`]: over stdio, or over streamable HTTP with its limits, and
//! shutting down gracefully.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rmcp::ServiceExt;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::auth::{Authenticate, BearerAuthLayer, ProtectedResource};
use super::error::{McpError, McpErrorKind};
use super::inflight::CallsInFlight;
use super::options::HttpOptions;
use super::raw::{PendingArguments, Reading};
use super::server::McpServer;
use super::service::McpHttpService;

impl McpServer {
    /// Serves one client over this process's stdin and stdout until it disconnects.
    ///
    /// Stdout then carries the protocol: log to stderr. Each call runs on its arguments as
    /// the client wrote them (a key given twice is an input error).
    pub async fn serve_stdio(mut self) -> Result<(), McpError> {
        let pending = Arc::new(PendingArguments::default());
        self.raw = Some(Arc::clone(&pending));
        let (stdin, stdout) = rmcp::transport::stdio();
        let running = self
            .serve((
                Reading::new(stdin, move |line: &[u8]| pending.keep(line)),
                stdout,
            ))
            .await
            .map_err(|e| McpError::new(McpErrorKind::Connect, e))?;
        running
            .waiting()
            .await
            .map_err(|e| McpError::new(McpErrorKind::Transport, e))?;
        Ok(())
    }

    /// The server as a streamable HTTP [tower](https://docs.rs/tower) service, to mount in an
    /// HTTP server of your choice (an axum route at `/mcp`, say), with the server's limits
    /// (see [Limits](McpServer#limits)); one MCP session per client, kept in memory (none in
    /// [stateless](Self::stateless) mode).
    ///
    /// Set `TCP_NODELAY` on the connections of the server you mount it in, as
    /// [`serve_http`](Self::serve_http) does: without it, each response's second small write
    /// waits for the client's delayed ACK, and every call on a reused connection takes about
    /// 40 ms. With axum 0.8, wrap the listener:
    /// `listener.tap_io(|tcp| { let _ = tcp.set_nodelay(true); })` (`axum::serve::ListenerExt`),
    /// as the repository's `mcp_axum` example does; with hyper, call `set_nodelay(true)` on
    /// each accepted `TcpStream`. With
    /// [authentication](Self::with_auth), route the protected resource metadata's path
    /// (`/.well-known/oauth-protected-resource...`) to this service too.
    ///
    /// With more than one session live, a call's response (an SSE stream) starts with its
    /// first message: the headers and the priming event wait for it, up to 50 ms, so that a
    /// quick call is one write rather than two. A call that runs longer gets its headers and
    /// priming event at 50 ms; a server's only session gets them at once.
    pub fn streamable_http_service(&self) -> McpHttpService {
        McpHttpService::new(
            self.clone(),
            HttpOptions::clone(&self.http),
            CancellationToken::new(),
        )
    }

    /// Serves clients over streamable HTTP (HTTP/1.1) on `listener`, at any path, until the
    /// returned future is dropped. Each connection runs on its own task, with
    /// `TCP_NODELAY` set.
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
        self.serve_http_until(listener, std::future::pending())
            .await;
    }

    /// Like [`serve_http`](Self::serve_http), until `shutdown` completes, then gracefully:
    /// no new connection is accepted; the calls in flight have the
    /// [grace period](Self::with_shutdown_grace) to finish, after which each is cancelled
    /// (it ends as a timeout, with its terminal event for observers); the sessions are
    /// closed, and the connections once their responses are written.
    ///
    /// ```no_run
    /// # use agentkit_core::mcp::McpServer;
    /// # async fn run(server: McpServer) -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
    /// // Sent from a signal handler, an admin endpoint, a test.
    /// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    /// # drop(stop);
    /// server
    ///     .serve_http_until(listener, async {
    ///         let _ = stopped.await;
    ///     })
    ///     .await;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_http_until(self, listener: TcpListener, shutdown: impl Future<Output = ()>) {
        let calls = Arc::new(CallsInFlight::default());
        let server = self.with_calls(Arc::clone(&calls));
        let sessions = CancellationToken::new();
        let options = HttpOptions::clone(&server.http);
        let service = TowerToHyperService::new(McpHttpService::new(
            server,
            options.clone(),
            sessions.clone(),
        ));
        let connections = GracefulShutdown::new();
        let mut shutdown = pin!(shutdown);
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) if is_connection_error(&error) => continue,
                    Err(_) => {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            // The response's second small write must not wait for the client's delayed ACK
            // (Nagle's algorithm): with it, every call on a reused connection took 44 ms.
            let _ = stream.set_nodelay(true);
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(options.header_timeout)
                .serve_connection(TokioIo::new(stream), service.clone());
            let connection = connections.watch(connection);
            // A connection's failure (a client hanging up mid-request) is that client's;
            // the server goes on serving the others.
            tokio::spawn(async move {
                let _ = connection.await;
            });
        }
        drop(listener);
        // The calls in flight finish, or are cancelled at the end of the grace period.
        if tokio::time::timeout(options.shutdown_grace, calls.idle())
            .await
            .is_err()
        {
            calls.cancel.cancel();
            calls.idle().await;
        }
        // Connections close once their last response is written: the calls' results are
        // delivered before the sessions (and the streams they hold open) are closed, and a
        // client that holds a connection past the grace period is dropped.
        let mut closing = tokio::spawn(connections.shutdown());
        let drain = options.shutdown_grace.min(Duration::from_secs(1));
        if tokio::time::timeout(drain, &mut closing).await.is_err() {
            sessions.cancel();
            let _ = tokio::time::timeout(options.shutdown_grace, closing).await;
        }
        sessions.cancel();
    }

    /// Sets the time calls in flight have to finish when the server
    /// [shuts down](Self::serve_http_until) (10 seconds unless set).
    #[must_use]
    pub fn with_shutdown_grace(mut self, grace: Duration) -> Self {
        Arc::make_mut(&mut self.http).shutdown_grace = grace;
        self
    }

    /// Caps the sessions live at once (1 000 unless set): a client that opens one more is
    /// answered 503 with `Retry-After`, until a session is closed or expires.
    #[must_use]
    pub fn with_max_sessions(mut self, max: usize) -> Self {
        Arc::make_mut(&mut self.http).max_sessions = max;
        self
    }

    /// Closes a session after `idle` without a request (5 minutes unless set), and frees
    /// what it held.
    ///
    /// A live session holds about 100 KiB, nearly all of it rmcp's (its channels and tasks).
    /// Whether the process shrinks once sessions are freed is up to the allocator: glibc's
    /// default `malloc` keeps most of the memory for later sessions (the resident memory of a
    /// server flooded up to its cap stays near its peak), while with
    /// `GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.mxfast=0` in the server's
    /// environment, or an allocator that returns free memory, it comes back to within a few
    /// MiB of where it started.
    #[must_use]
    pub fn with_session_idle_timeout(mut self, idle: Duration) -> Self {
        Arc::make_mut(&mut self.http).session_idle = idle;
        self
    }

    /// Sets the largest request body, in bytes (4 MiB unless set): a larger one is answered
    /// 413 before it is read.
    #[must_use]
    pub fn with_max_body_bytes(mut self, max: usize) -> Self {
        Arc::make_mut(&mut self.http).max_body_bytes = max;
        self
    }

    /// Sets the time a connection has to send a request's headers (30 seconds unless set):
    /// slow and idle connections are closed past it.
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        Arc::make_mut(&mut self.http).header_timeout = timeout;
        self
    }

    /// Accepts requests whose `Host` is one of `hosts` (`name`, any port, or `name:port`),
    /// instead of loopback names only: set it to the names a public server is reached by.
    #[must_use]
    pub fn with_allowed_hosts<S: Into<String>>(
        mut self,
        hosts: impl IntoIterator<Item = S>,
    ) -> Self {
        Arc::make_mut(&mut self.http).allowed.hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// Accepts requests whose `Origin` is one of `origins` (`scheme://host`, with `:port`,
    /// or `:*` for any port; `null` for the browser's opaque origin), instead of loopback
    /// origins only; a request without `Origin` (not from a browser) is always accepted.
    /// Any other origin is refused with 403 (the MCP specification's defence against DNS
    /// rebinding).
    #[must_use]
    pub fn with_allowed_origins<S: Into<String>>(
        mut self,
        origins: impl IntoIterator<Item = S>,
    ) -> Self {
        let allowed = &mut Arc::make_mut(&mut self.http).allowed;
        allowed.origins = origins.into_iter().map(Into::into).collect();
        allowed.any_origin = false;
        self
    }

    /// Accepts any `Origin`: for a server that authenticates every request and is meant to
    /// be called from any web page. Not for a server on the user's machine.
    #[must_use]
    pub fn allow_any_origin(mut self) -> Self {
        Arc::make_mut(&mut self.http).allowed.any_origin = true;
        self
    }

    /// Serves without sessions: every request carries what it needs, and any replica behind
    /// a load balancer can answer it. Responses are plain JSON, and a client's log level is
    /// not kept. A tool can ask a client of MCP 2026-07-28 (elicitation, sampling, roots), in
    /// rounds whose state the client carries: give the replicas one
    /// [state key](Self::with_request_state_key) (see
    /// [Asking the client](McpServer#asking-the-client)); it cannot ask a client of an
    /// earlier revision. Its log messages reach such a client all the same (`info` and
    /// above), before the call's result: that response is then an SSE stream, not JSON.
    #[must_use]
    pub fn stateless(mut self) -> Self {
        Arc::make_mut(&mut self.http).stateless = true;
        self
    }

    /// Authenticates every HTTP request by its bearer token (see [`Authenticate`]): a
    /// request without one, or with one `authenticate` refuses, is answered 401 with a
    /// `WWW-Authenticate` challenge naming `metadata`, which the server serves at its
    /// well-known path for clients to find the authorization server (RFC 9728). The
    /// principal reaches tools ([`ToolContext::principal`](crate::ToolContext::principal)),
    /// approval policies and the [access policy](Self::with_access). Stdio is not affected.
    #[must_use]
    pub fn with_auth(
        mut self,
        authenticate: impl Authenticate,
        metadata: ProtectedResource,
    ) -> Self {
        Arc::make_mut(&mut self.http).auth =
            Some(BearerAuthLayer::new(authenticate).with_metadata(metadata));
        self
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
