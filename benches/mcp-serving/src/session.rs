//! One MCP session over streamable HTTP, as a client makes it: one HTTP/1.1 connection kept
//! alive, `initialize` and `notifications/initialized`, then `tools/call` requests one after
//! the other, and `DELETE` to end the session. Written on hyper's own client connection
//! rather than an MCP client so that what is timed is the server, not a client SDK.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

/// The revision with `initialize` and sessions (the 2026-07-28 revision has neither).
const PROTOCOL_VERSION: &str = "2025-11-25";

pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// What the calls send, and what their answers must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calls {
    /// `{"city":"Paris"}`: a result with structured content (the defaults filled in).
    Valid,
    /// `{"units":"kelvin"}` (city missing, units outside the enum): an `isError` result or a
    /// JSON-RPC error, as the server answers invalid arguments.
    Invalid,
}

impl Calls {
    pub fn name(self) -> &'static str {
        match self {
            Calls::Valid => "valid",
            Calls::Invalid => "invalid",
        }
    }

    fn arguments(self) -> &'static str {
        match self {
            Calls::Valid => r#"{"city":"Paris"}"#,
            Calls::Invalid => r#"{"units":"kelvin"}"#,
        }
    }
}

pub struct Session {
    sender: SendRequest<Full<Bytes>>,
    host: HeaderValue,
    /// The session's id; none when the server serves without sessions.
    id: Option<HeaderValue>,
    next_id: u64,
}

impl Session {
    /// Connects to `addr` and initializes an MCP session; only connects when `stateless`
    /// (each call is then a request of its own, as a stateless server serves it).
    pub async fn open(addr: SocketAddr, stateless: bool) -> Result<Session, Error> {
        let stream = TcpStream::connect(addr).await?;
        // As reqwest does by default: the request must not wait on the server's ACKs either.
        stream.set_nodelay(true)?;
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        let mut session = Session {
            sender,
            host: HeaderValue::from_str(&addr.to_string())?,
            id: None,
            next_id: 1,
        };
        if stateless {
            return Ok(session);
        }
        let initialize = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{PROTOCOL_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-serving-bench","version":"0.0.0"}}}}}}"#
        );
        let (status, headers, body) = session.post(initialize, false).await?;
        if status != StatusCode::OK {
            return Err(format!(
                "initialize: HTTP {status}: {}",
                String::from_utf8_lossy(&body)
            )
            .into());
        }
        session.id = Some(
            headers
                .get("mcp-session-id")
                .cloned()
                .ok_or("initialize: no Mcp-Session-Id in the answer")?,
        );
        let answer = last_message(&body)?;
        if answer.get("result").is_none() {
            return Err(format!("initialize failed: {answer}").into());
        }
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned();
        let (status, _, _) = session.post(initialized, true).await?;
        if status != StatusCode::ACCEPTED {
            return Err(format!("notifications/initialized: HTTP {status}").into());
        }
        Ok(session)
    }

    /// One `tools/call` of `fetch_weather`, checked, and how long it took from sending the
    /// request to the last byte of the answer.
    pub async fn call(&mut self, calls: Calls) -> Result<Duration, Error> {
        let id = self.next_id;
        self.next_id += 1;
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"fetch_weather","arguments":{}}}}}"#,
            calls.arguments()
        );
        let start = Instant::now();
        let (status, _, body) = self.post(request, true).await?;
        let elapsed = start.elapsed();
        if status != StatusCode::OK {
            return Err(format!("tools/call: HTTP {status}").into());
        }
        check(calls, &last_message(&body)?)?;
        Ok(elapsed)
    }

    /// Ends the session (`DELETE`), so that the server does not keep it; nothing to end
    /// without one.
    pub async fn close(mut self) -> Result<(), Error> {
        if self.id.is_none() {
            return Ok(());
        }
        let request = self
            .request(Method::DELETE, true)
            .body(Full::new(Bytes::new()))?;
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        response.into_body().collect().await?;
        Ok(())
    }

    fn request(&self, method: Method, in_session: bool) -> hyper::http::request::Builder {
        let builder = Request::builder()
            .method(method)
            .uri("/mcp")
            .header(HOST, self.host.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        match (in_session, &self.id) {
            (false, _) => builder,
            (true, Some(id)) => builder
                .header("mcp-session-id", id.clone())
                .header("mcp-protocol-version", PROTOCOL_VERSION),
            (true, None) => builder.header("mcp-protocol-version", PROTOCOL_VERSION),
        }
    }

    /// POSTs `body` and reads the whole answer (the connection is reused only then).
    async fn post(
        &mut self,
        body: String,
        in_session: bool,
    ) -> Result<(StatusCode, hyper::HeaderMap, Bytes), Error> {
        let request = self
            .request(Method::POST, in_session)
            .body(Full::new(Bytes::from(body)))?;
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let (parts, body) = response.into_parts();
        let body = body.collect().await?.to_bytes();
        Ok((parts.status, parts.headers, body))
    }
}

/// The last JSON-RPC message of an answer: the body itself when it is JSON, else the last
/// `data:` of its server-sent events (a priming event before it has none).
fn last_message(body: &[u8]) -> Result<Value, Error> {
    let text = std::str::from_utf8(body)?;
    if text.trim_start().starts_with('{') {
        return Ok(serde_json::from_str(text)?);
    }
    let data = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .ok_or_else(|| format!("no message in the answer: {text:?}"))?;
    Ok(serde_json::from_str(data)?)
}

/// Fails unless `answer` is what a call of kind `calls` must get.
fn check(calls: Calls, answer: &Value) -> Result<(), Error> {
    let result = answer.get("result");
    let is_error = result
        .and_then(|r| r.get("isError"))
        .and_then(Value::as_bool)
        == Some(true);
    let ok = match calls {
        Calls::Valid => {
            !is_error
                && result
                    .and_then(|r| r.pointer("/structuredContent/units"))
                    .and_then(Value::as_str)
                    == Some("imperial")
        }
        Calls::Invalid => is_error || answer.get("error").is_some(),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("unexpected answer to a {} call: {answer}", calls.name()).into())
    }
}
