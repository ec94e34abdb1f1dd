//! [`McpHttpService`]: the server's streamable HTTP service, rmcp's with agentkit's limits in
//! front of it: `Host` and `Origin`, bearer authentication, the body's size, the number of
//! sessions, and the arguments of each call as the client wrote them.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::FutureExt as _;
use http::{HeaderValue, Method, Request, Response, StatusCode, header};
use http_body::Body as HttpBody;
use http_body_util::{BodyExt, Full, Limited};
use rmcp::transport::StreamableHttpServerConfig;
use rmcp::transport::StreamableHttpService;
use tokio_util::sync::CancellationToken;
use tower_service::Service;

use super::auth::{Body, full};
use super::options::HttpOptions;
use super::raw::call_arguments;
use super::server::McpServer;
use super::sessions::Sessions;
use crate::error::BoxError;

/// The streamable HTTP service of an [`McpServer`]: a [tower](https://docs.rs/tower)
/// `Service` to mount in an HTTP server of your choice (see
/// [`McpServer::streamable_http_service`]), or to serve with [`McpServer::serve_http`].
///
/// In front of rmcp's service, in this order: the `Host` and `Origin` checks (403), the
/// bearer check when the server has one (401, 403), the body's size (413), the cap on live
/// sessions (503 with `Retry-After`); then the call runs on its arguments as the client wrote
/// them (see [`McpServer`]'s "Limits").
#[derive(Clone)]
pub struct McpHttpService {
    inner: StreamableHttpService<McpServer, Sessions>,
    sessions: Sessions,
    options: Arc<HttpOptions>,
}

impl fmt::Debug for McpHttpService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpHttpService")
            .field("sessions", &self.sessions.len())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl McpHttpService {
    pub(super) fn new(
        server: McpServer,
        options: HttpOptions,
        shutdown: CancellationToken,
    ) -> Self {
        let sessions = Sessions::new(options.max_sessions, options.session_idle);
        // rmcp's own Host and Origin checks are off: ours run first, so that a refused
        // origin is 403 before any other answer (a 401 would tell it more).
        let config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_legacy_session_mode(!options.stateless)
            .with_json_response(options.stateless)
            .with_cancellation_token(shutdown);
        let inner = StreamableHttpService::new(
            move || Ok(server.for_session()),
            Arc::new(sessions.clone()),
            config,
        );
        McpHttpService {
            inner,
            sessions,
            options: Arc::new(options),
        }
    }

    /// How many sessions are live.
    pub fn sessions(&self) -> usize {
        self.sessions.len()
    }
}

impl<B> Service<Request<B>> for McpHttpService
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The `Host` and `Origin` checks read the headers only: made before the request's
        // future, which a refused request then never writes.
        if let Err(refused) = self.options.allowed.check(request.headers()) {
            let refused = plain(StatusCode::FORBIDDEN, refused.message());
            return Box::pin(std::future::ready(Ok(refused)));
        }
        Box::pin(self.clone().handle(request).map(Ok))
    }
}

impl McpHttpService {
    /// Serves a request whose `Host` and `Origin` passed.
    ///
    /// Not an `async fn`: the request is taken apart before its future, which holds each
    /// part once (an `async fn` keeps its arguments beside the body's own copies, and this
    /// future is allocated for every request).
    fn handle<B>(
        mut self,
        request: Request<B>,
    ) -> impl Future<Output = Response<Body>> + Send + 'static
    where
        B: HttpBody<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        let (parts, body) = request.into_parts();
        let mut head = Request::from_parts(parts, ());
        async move {
            let options = &*self.options;
            if let Some(auth) = &options.auth
                && let Some(answer) = auth.admit(&mut head).await
            {
                return answer;
            }
            let max = options.max_body_bytes;
            let declared = head
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|length| length.to_str().ok()?.parse::<u64>().ok());
            if declared.is_some_and(|length| length > max as u64) {
                return too_large(max);
            }
            let bytes = match Limited::new(body, max).collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(error) if error.is::<http_body_util::LengthLimitError>() => {
                    return too_large(max);
                }
                Err(_) => {
                    return plain(
                        StatusCode::BAD_REQUEST,
                        "Bad Request: the body could not be read",
                    );
                }
            };
            let opens_session = head.method() == Method::POST
                && !options.stateless
                && !head.headers().contains_key("mcp-session-id");
            if opens_session && self.sessions.is_full() {
                return full_up(self.sessions.max(), options.session_idle);
            }
            if head.method() == Method::POST
                && let Some(arguments) = call_arguments(&bytes)
            {
                head.extensions_mut().insert(arguments);
            }
            let (parts, ()) = head.into_parts();
            let serving = self
                .inner
                .call(Request::from_parts(parts, Full::new(bytes)));
            // Only a request that may open a session can be refused by the cap past the
            // check above; the others are served without the scope that would tell it.
            let (served, refused) = if opens_session {
                Sessions::refusing(serving).await
            } else {
                (serving.await, false)
            };
            match served {
                // The last place went to another request since the check above.
                _ if refused => full_up(self.sessions.max(), options.session_idle),
                Ok(response) => response,
                Err(never) => match never {},
            }
        }
    }
}

/// A response of `status` with a plain-text `message`.
fn plain(status: StatusCode, message: &'static str) -> Response<Body> {
    let mut response = Response::new(full(Bytes::from_static(message.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// 413, for a body over `max` bytes.
fn too_large(max: usize) -> Response<Body> {
    let mut response = plain(StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large");
    *response.body_mut() = full(Bytes::from(format!(
        "Payload Too Large: a request body is at most {max} bytes"
    )));
    response
}

/// 503, for a new session while `max` are live: a JSON-RPC error, and when to try again.
fn full_up(max: usize, idle: Duration) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {
            "code": -32000,
            "message": format!(
                "the server holds its maximum of {max} sessions; try again later"
            ),
        },
    });
    let mut response = Response::new(full(Bytes::from(body.to_string())));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    // A place frees up when an idle session expires; sooner if a client closes its own.
    let retry = idle.as_secs().clamp(1, 60);
    headers.insert(header::RETRY_AFTER, HeaderValue::from(retry));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ToolExecutor, ToolRegistry};

    /// A request's future is allocated for every request: it holds the request once (taken
    /// apart before the future) and one handle of the service. Under 1 032 bytes, glibc's
    /// per-thread cache serves it without `malloc`'s slower path; it was 1 984 bytes before.
    #[tokio::test]
    async fn a_requests_future_stays_small() {
        let server = McpServer::new(Arc::new(ToolExecutor::new(ToolRegistry::new())));
        let mut service = server.streamable_http_service();
        let request = Request::post("/mcp")
            .header(header::HOST, "127.0.0.1:8080")
            .body(Full::new(Bytes::from_static(b"{}")))
            .unwrap();
        let future = service.call(request);
        let size = std::mem::size_of_val(&*future);
        assert!(size <= 1_032, "a request's future is {size} bytes");
    }
}
