//! The HTTP server's limits, seen from a raw HTTP client: `Host` and `Origin` (403), the body's
//! size (413), the cap on sessions (503) and their idle expiry, bearer authentication (401,
//! 403, the protected resource metadata, the principal in tools and policies), "one key, one
//! value" for a call's arguments over HTTP and stdio, stateless serving, and the graceful
//! shutdown of calls in flight.
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_host_and_origin_headers_are_refused_with_403() {
    let (address, _stop, _task) = serve(server(Arc::default())).await;
    let cases: [(&[(&str, &str)], u16); 8] = [
        (
            &[("host", "127.0.0.1"), ("origin", "http://evil.example")],
            403,
        ),
        (&[("host", "127.0.0.1"), ("origin", "null")], 403),
        (&[("host", "evil.example")], 403),
        (
            &[("host", "evil.example"), ("origin", "http://evil.example")],
            403,
        ),
        (
            &[
                ("host", "127.0.0.1"),
                ("origin", "http://localhost.evil.example:80"),
            ],
            403,
        ),
        (&[], 403),
        (&[("host", "127.0.0.1")], 200),
        (
            &[
                ("host", "localhost:1234"),
                ("origin", "http://localhost:5173"),
            ],
            200,
        ),
    ];
    for (headers, status) in cases {
        let answer = request(&address, "POST", headers, INITIALIZE).await;
        assert_eq!(answer.status, status, "{headers:?}: {answer:?}");
        if status == 403 {
            assert!(answer.header("mcp-session-id").is_none());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configured_origins_replace_the_loopback_ones() {
    let server = server(Arc::default())
        .with_allowed_hosts(["127.0.0.1", "mcp.example.com"])
        .with_allowed_origins(["https://app.example.com"]);
    let (address, _stop, _task) = serve(server).await;
    let ok = request(
        &address,
        "POST",
        &[
            ("host", "mcp.example.com"),
            ("origin", "https://app.example.com"),
        ],
        INITIALIZE,
    )
    .await;
    assert_eq!(ok.status, 200, "{ok:?}");
    let refused = request(
        &address,
        "POST",
        &[("host", "127.0.0.1"), ("origin", "http://localhost:3000")],
        INITIALIZE,
    )
    .await;
    assert_eq!(refused.status, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_refused_with_413() {
    let (address, _stop, _task) = serve(server(Arc::default()).with_max_body_bytes(1024)).await;
    let id = session(&address, &[]).await.unwrap();
    let big = format!(r#"{{"pad":"{}"}}"#, "x".repeat(2048));
    let answer = call(&address, &id, "whoami", &big, &[]).await;
    assert_eq!(answer.status, 413, "{answer:?}");
    let answer = call(&address, &id, "whoami", "{}", &[]).await;
    assert_eq!(answer.status, 200, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_capped_and_expire_when_idle() {
    let server = server(Arc::default())
        .with_max_sessions(2)
        .with_session_idle_timeout(Duration::from_millis(300));
    let (address, _stop, _task) = serve(server).await;
    let first = session(&address, &[]).await.unwrap();
    let _second = session(&address, &[]).await.unwrap();
    let full = session(&address, &[]).await.unwrap_err();
    assert_eq!(full.status, 503, "{full:?}");
    assert!(full.header("retry-after").is_some());
    let message = full.message();
    assert!(
        message["error"]["message"]
            .as_str()
            .unwrap()
            .contains("maximum of 2 sessions")
    );

    // A session in use stays; once idle past the timeout, every session goes.
    let answer = call(&address, &first, "whoami", "{}", &[]).await;
    assert_eq!(answer.status, 200);
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let expired = call(&address, &first, "whoami", "{}", &[]).await;
    assert_eq!(expired.status, 404, "{expired:?}");
    let third = session(&address, &[]).await;
    assert!(third.is_ok(), "{third:?}");
    let fourth = session(&address, &[]).await;
    assert!(fourth.is_ok(), "{fourth:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_twice_in_a_calls_arguments_is_an_input_error_over_http() {
    let (address, _stop, _task) = serve(server(Arc::default())).await;
    let id = session(&address, &[]).await.unwrap();
    let answer = call(
        &address,
        &id,
        "whoami",
        r#"{"city": "Paris", "city": "Lyon"}"#,
        &[],
    )
    .await;
    let result = &answer.message()["result"];
    assert_eq!(result["isError"], true, "{answer:?}");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("city"), "{text}");
    assert!(text.contains("Duplicate key: 'city'"), "{text}");
    // Once each, the same call succeeds.
    let answer = call(&address, &id, "whoami", r#"{"city": "Paris"}"#, &[]).await;
    assert_eq!(answer.message()["result"]["isError"], false, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_twice_in_a_calls_arguments_is_an_input_error_over_stdio() {
    let mut child = tokio::process::Command::new(example_server())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example server starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let messages = [
        INITIALIZE.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch_weather","arguments":{"city":"Paris","city":"Lyon"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch_weather","arguments":{"city":"Lyon"}}}"#.to_owned(),
    ];
    for message in messages {
        stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    let mut results = std::collections::HashMap::new();
    while results.len() < 2 {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .expect("a line");
        let message: Value = serde_json::from_str(&line).unwrap();
        if let Some(id @ (1 | 2)) = message["id"].as_i64() {
            results.insert(id, message["result"].clone());
        }
    }
    assert_eq!(results[&1]["isError"], true, "{:?}", results[&1]);
    let text = results[&1]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("'city'"), "{text}");
    assert_eq!(results[&2]["isError"], false, "{:?}", results[&2]);
}

fn authenticate(token: &str) -> Result<Principal, Unauthorized> {
    match token {
        "alice" => Ok(Principal::new("alice").with_scopes(["tools"])),
        "root" => Ok(Principal::new("root").with_scopes(["tools", "admin"])),
        "reader" => Err(Unauthorized::insufficient_scope("tools")),
        _ => Err(Unauthorized::invalid_token().with_description("unknown \"token\"\r\n")),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bearer_tokens_are_checked_and_their_principal_reaches_tools_and_policies() {
    let metadata = ProtectedResource::new("http://127.0.0.1/mcp")
        .authorization_server("https://auth.example.com")
        .scopes(["tools"]);
    let server = server(Arc::default())
        .with_auth(authenticate, metadata)
        .with_access(|principal, spec| {
            spec.name() != "admin_only" || principal.is_some_and(|p| p.has_scope("admin"))
        });
    let (address, _stop, _task) = serve(server).await;

    // The metadata, without a token; anything else needs one.
    let answer = request(&address, "GET", &[("host", "127.0.0.1")], "").await;
    assert_eq!(answer.status, 401);
    let path = "/.well-known/oauth-protected-resource/mcp";
    let metadata = request_at(&address, "GET", path, &[("host", "127.0.0.1")], "").await;
    assert_eq!(metadata.status, 200, "{metadata:?}");
    assert_eq!(metadata.header("content-type"), Some("application/json"));
    let document: Value = serde_json::from_str(&metadata.body).unwrap();
    assert_eq!(document["resource"], "http://127.0.0.1/mcp");
    assert_eq!(
        document["authorization_servers"],
        json!(["https://auth.example.com"])
    );

    // No token, a bad one, one without the scope.
    let none = session(&address, &[]).await.unwrap_err();
    assert_eq!(none.status, 401);
    let challenge = none.header("www-authenticate").unwrap();
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(
        challenge.contains(
            r#"resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp""#
        ),
        "{challenge}"
    );
    let bad = session(&address, &[("authorization", "Bearer forged")])
        .await
        .unwrap_err();
    assert_eq!(bad.status, 401);
    let challenge = bad.header("www-authenticate").unwrap();
    assert!(
        challenge.contains(r#"error="invalid_token""#),
        "{challenge}"
    );
    assert!(
        challenge.contains(r#"error_description="unknown token""#),
        "{challenge}"
    );
    assert!(!challenge.contains("forged"));
    let reader = session(&address, &[("authorization", "Bearer reader")])
        .await
        .unwrap_err();
    assert_eq!(reader.status, 403);
    assert!(
        reader
            .header("www-authenticate")
            .unwrap()
            .contains(r#"error="insufficient_scope""#)
    );

    // Alice: her name reaches the tool; `admin_only` is neither listed nor callable; the
    // approval policy denies her the guarded tool.
    let auth = [("authorization", "Bearer alice")];
    let id = session(&address, &auth).await.unwrap();
    let answer = call(&address, &id, "whoami", "{}", &auth).await;
    assert_eq!(answer.output()["subject"], "alice", "{answer:?}");
    let listed = request(
        &address,
        "POST",
        &[
            ("host", "127.0.0.1"),
            ("mcp-session-id", &id),
            ("mcp-protocol-version", "2025-06-18"),
            auth[0],
        ],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    )
    .await
    .message();
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"whoami") && !names.contains(&"admin_only"),
        "{names:?}"
    );
    let hidden = call(&address, &id, "admin_only", "{}", &auth)
        .await
        .message();
    assert!(
        hidden["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown tool"),
        "{hidden}"
    );
    let denied = call(&address, &id, "guarded", "{}", &auth).await.message();
    assert_eq!(denied["result"]["isError"], true, "{denied}");

    // Root may do both.
    let auth = [("authorization", "Bearer root")];
    let id = session(&address, &auth).await.unwrap();
    let answer = call(&address, &id, "admin_only", "{}", &auth).await;
    assert_eq!(answer.output()["subject"], "root", "{answer:?}");
    let allowed = call(&address, &id, "guarded", "{}", &auth).await.message();
    assert_eq!(allowed["result"]["isError"], false, "{allowed}");
    // A request of Alice's session with another token is refused before it reaches it.
    let other = call(
        &address,
        &id,
        "whoami",
        "{}",
        &[("authorization", "Bearer forged")],
    )
    .await;
    assert_eq!(other.status, 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_server_answers_calls_without_a_session() {
    let (address, _stop, _task) = serve(server(Arc::default()).stateless()).await;
    let answer = request(&address, "POST", &[("host", "127.0.0.1")], INITIALIZE).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answer.header("mcp-session-id").is_none(), "{answer:?}");
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"whoami","arguments":{"n":1}}}"#;
    let answer = request(
        &address,
        "POST",
        &[
            ("host", "127.0.0.1"),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        body,
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.output()["n"], 1, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_lets_calls_finish_within_the_grace_period_then_cancels_them() {
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let server = server(Arc::clone(&events)).with_shutdown_grace(Duration::from_millis(800));
    let (address, stop, task) = serve(server).await;
    let id = session(&address, &[]).await.unwrap();
    let slow = {
        let (address, id) = (address.clone(), id.clone());
        tokio::spawn(async move { call(&address, &id, "slow", "{}", &[]).await })
    };
    let stuck = {
        let (address, id) = (address.clone(), id.clone());
        tokio::spawn(async move { call(&address, &id, "stuck", "{}", &[]).await })
    };
    // Both calls have started before the shutdown.
    while events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.starts_with("tool.execution.started"))
        .count()
        < 2
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.send(()).unwrap();
    // No new connection is accepted once the server stops accepting.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TcpStream::connect(&address).await.is_err() || {
            let answer = tokio::time::timeout(Duration::from_secs(2), session(&address, &[])).await;
            !matches!(answer, Ok(Ok(_)))
        }
    );
    let slow = slow.await.unwrap();
    assert_eq!(slow.message()["result"]["isError"], false, "{slow:?}");
    let stuck = stuck.await.unwrap();
    let result = &stuck.message()["result"];
    assert_eq!(result["isError"], true, "{stuck:?}");
    tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .expect("the server ends after its grace period")
        .unwrap();
    let events = events.lock().unwrap();
    assert!(
        events.contains(&"tool.execution.completed slow".to_owned()),
        "{events:?}"
    );
    assert!(
        events.contains(&"tool.execution.failed stuck".to_owned()),
        "{events:?}"
    );
}

/// Two replicas sharing a directory of deferred calls: a call deferred on one resumes on the
/// other once decided, once; a pending call says it still waits; another principal cannot
/// resume it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_deferred_on_one_replica_resumes_on_another() {
    use agentkit_core::mcp::{DeferredStore, DirectoryStore};
    let dir = std::env::temp_dir().join(format!("agentkit-deferred-{}", std::process::id()));
    let store = DirectoryStore::new(&dir).unwrap();
    let replica = || {
        let mut registry = ToolRegistry::new();
        registry
            .register(Whoami {
                spec: ToolSpec::builder("deploy")
                    .requires_approval()
                    .build()
                    .unwrap(),
                delay: Duration::ZERO,
            })
            .unwrap();
        // No approval policy: every call that needs approval is deferred.
        McpServer::new(Arc::new(ToolExecutor::new(registry)))
            .stateless()
            .with_auth(authenticate, ProtectedResource::new("http://127.0.0.1/mcp"))
            .with_deferred_store(store.clone())
    };
    let (a, _stop_a, _task_a) = serve(replica()).await;
    let (b, _stop_b, _task_b) = serve(replica()).await;
    let post = |address: String, body: String, token: &'static str| async move {
        let auth = format!("Bearer {token}");
        request(
            &address,
            "POST",
            &[
                ("host", "127.0.0.1"),
                ("mcp-protocol-version", "2025-06-18"),
                ("authorization", &auth),
            ],
            &body,
        )
        .await
        .message()
    };
    let deploy = |meta: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"deploy","arguments":{{"env":"prod"}}{meta}}}}}"#
        )
    };

    let deferred = post(a.clone(), deploy(""), "alice").await;
    let result = &deferred["result"];
    assert_eq!(result["isError"], false, "{deferred}");
    let id = result["_meta"]["io.agentkit/deferred"]
        .as_str()
        .expect("an id")
        .to_owned();
    let resume = format!(r#","_meta":{{"io.agentkit/resume":"{id}"}}"#);

    // Undecided: it still waits, under the same id.
    let waiting = post(b.clone(), deploy(&resume), "alice").await;
    assert_eq!(
        waiting["result"]["_meta"]["io.agentkit/deferred"],
        id.as_str(),
        "{waiting}"
    );
    // Another principal does not know of it.
    let other = post(b.clone(), deploy(&resume), "root").await;
    assert!(
        other["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no deferred call"),
        "{other}"
    );

    store.decide(&id, &Approval::Allow).unwrap();
    let resumed = post(b.clone(), deploy(&resume), "alice").await;
    let text = resumed["result"]["content"][0]["text"].as_str().unwrap();
    let output: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        output,
        json!({"env": "prod", "subject": "nobody"}),
        "{resumed}"
    );
    assert!(resumed["result"]["_meta"].is_null(), "{resumed}");
    // Once.
    let again = post(a.clone(), deploy(&resume), "alice").await;
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no deferred call"),
        "{again}"
    );
    // An id that is not one of ours never reaches the file system.
    let forged = deploy(r#","_meta":{"io.agentkit/resume":"../../etc/passwd"}"#);
    let forged = post(a, forged, "alice").await;
    assert!(forged["error"].is_object(), "{forged}");
    let _ = std::fs::remove_dir_all(&dir);
}
