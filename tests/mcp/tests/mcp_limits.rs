//! The HTTP server's limits, seen from a raw HTTP client: `Host` and `Origin` (403), the body's
//! size (413), the cap on sessions (503) and their idle expiry, bearer authentication (401,
//! 403, the protected resource metadata, the principal in tools and policies), "one key, one
//! value" for a call's arguments over HTTP and stdio, the headers of 2026-07-28 held to the
//! body, stateless serving, and the graceful shutdown of calls in flight.
//!
//! The server runs in this process on loopback; requests are written by hand, so that every
//! header is the test's to choose.

use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::{McpServer, ProtectedResource, Unauthorized};
use agentkit_core::{
    Approval, ApprovalRequest, BoxError, JsonObject, Principal, Tool, ToolContext, ToolEvent,
    ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use crate::mcp_support::example_server;

/// Answers with the principal's subject, after `delay`.
struct Whoami {
    spec: ToolSpec,
    delay: Duration,
}

impl Tool for Whoami {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        tokio::time::sleep(self.delay).await;
        let subject = ctx.principal().map_or("nobody", Principal::subject);
        let mut output = inputs.clone();
        output.insert("subject".into(), json!(subject));
        Ok(output.into())
    }
}

fn whoami(name: &'static str, delay: Duration) -> Whoami {
    Whoami {
        spec: ToolSpec::builder(name)
            .tag("kind", name)
            .build()
            .expect("spec"),
        delay,
    }
}

/// An executor with `whoami`, `admin_only`, a slow tool (300 ms) and a stuck one (an hour),
/// whose events are collected.
fn executor(events: Arc<Mutex<Vec<String>>>) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry.register(whoami("whoami", Duration::ZERO)).unwrap();
    registry
        .register(whoami("admin_only", Duration::ZERO))
        .unwrap();
    registry
        .register(whoami("slow", Duration::from_millis(300)))
        .unwrap();
    registry
        .register(whoami("stuck", Duration::from_secs(3600)))
        .unwrap();
    registry
        .register(Whoami {
            spec: ToolSpec::builder("guarded")
                .requires_approval()
                .build()
                .unwrap(),
            delay: Duration::ZERO,
        })
        .unwrap();
    ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            events
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.tool_name()));
        })
        .approval(|request: &ApprovalRequest<'_>| match request.principal() {
            Some(principal) if principal.has_scope("admin") => Approval::Allow,
            _ => Approval::deny("only an admin may"),
        })
        .build()
}

/// The server on a free loopback port, its address, and the sender that shuts it down.
async fn serve(server: McpServer) -> (String, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_http_until(listener, async {
        let _ = stopped.await;
    }));
    (address, stop, task)
}

fn server(events: Arc<Mutex<Vec<String>>>) -> McpServer {
    McpServer::new(Arc::new(executor(events)))
}

/// An HTTP response: status, headers (lowercase names), body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The JSON object the tool returned, from the result's text.
    fn output(&self) -> Value {
        let message = self.message();
        let text = message["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("a text result: {message}"));
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// The JSON-RPC message of the body: plain JSON, or the last `data:` of an SSE stream.
    fn message(&self) -> Value {
        let text = self
            .body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|data| data.starts_with('{'))
            .unwrap_or(&self.body);
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }
}

/// Sends one request, `Connection: close`, with `headers` as given (a `Host` only if given),
/// and reads the whole answer.
async fn request(address: &str, method: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    request_at(address, method, "/mcp", headers, body).await
}

/// [`request`] at `path`.
async fn request_at(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let mut text = format!("{method} {path} HTTP/1.1\r\nconnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if method == "POST" {
        text.push_str(
            "content-type: application/json\r\naccept: application/json, text/event-stream\r\n",
        );
        text.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut status_line))
        .await
        .expect("an answer in time")
        .unwrap();
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).await.unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap();
        headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
    }
    let mut body = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut body))
        .await
        .expect("the body in time")
        .unwrap();
    let body = String::from_utf8_lossy(&body).into_owned();
    Answer {
        status,
        headers,
        body,
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A session: its id, after `initialize` and `notifications/initialized`.
async fn session(address: &str, extra: &[(&str, &str)]) -> Result<String, Answer> {
    let mut headers = vec![("host", "127.0.0.1")];
    headers.extend_from_slice(extra);
    let answer = request(address, "POST", &headers, INITIALIZE).await;
    let Some(id) = answer.header("mcp-session-id").map(str::to_owned) else {
        return Err(answer);
    };
    headers.push(("mcp-session-id", &id));
    headers.push(("mcp-protocol-version", "2025-06-18"));
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let answer = request(address, "POST", &headers, initialized).await;
    assert_eq!(answer.status, 202, "{answer:?}");
    Ok(id)
}

/// Calls `tool` with `arguments` (raw JSON text) in session `id`.
async fn call(
    address: &str,
    id: &str,
    tool: &str,
    arguments: &str,
    extra: &[(&str, &str)],
) -> Answer {
    let mut headers = vec![
        ("host", "127.0.0.1"),
        ("mcp-session-id", id),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    headers.extend_from_slice(extra);
    // Each request its own id: two calls in flight in one session must not share one.
    static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let request_id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    );
    request(address, "POST", &headers, &body).await
}

mod auth;
mod headers;
mod lifecycle;
mod requests;
