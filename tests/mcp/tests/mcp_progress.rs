//! Progress and approval over MCP, as the official MCP TypeScript SDK client sees them: a tool's
//! progress reports reach the client that asked for them as `notifications/progress`, every
//! one, in order, before the result, with the message bounded and free of the call's secrets;
//! a client that did not ask gets none. A call's log messages reach the client before its
//! result too. A call awaiting approval is not an error.
//!
//! The server runs in this process over streamable HTTP on loopback, so that the test sees
//! both ends: what the tool reported (the executor's events) and what the client received.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it).

use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::McpServer;
use agentkit_core::{
    BoxError, InMemoryCredentials, JsonObject, LogLevel, Param, ParamType, Progress, Tool,
    ToolContext, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolSchema, ToolSpec,
};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::core_fixtures::obj;
use crate::mcp_support::{first_text, official_client, peers};

const KEY: &str = "crawl-key";
const SECRET: &str = "sk-crawl-5f3a9c";
/// The longest progress message a client is sent, in characters, before the `…`.
const MESSAGE_CHARS: usize = 1_000;

/// Reports three steps of progress, then finishes: the first message holds the call's secret,
/// the last is longer than a message may be.
struct Crawl(ToolSpec);

impl Tool for Crawl {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let key = ctx.credential(KEY)?.expose();
        ctx.report_progress(
            Progress::new(1.0)
                .with_total(3.0)
                .with_message(format!("fetched page 1 with key {key}")),
        );
        ctx.report_progress(
            Progress::new(2.0)
                .with_total(3.0)
                .with_message("fetched page 2"),
        );
        ctx.report_progress(
            Progress::new(3.0)
                .with_total(3.0)
                .with_message("x".repeat(3 * MESSAGE_CHARS)),
        );
        Ok(obj(json!({"pages": 3})).into())
    }
}

/// What the client must receive for one crawl, in order.
fn expected_reports() -> Vec<(f64, f64, String)> {
    vec![
        (1.0, 3.0, "fetched page 1 with key [redacted]".to_owned()),
        (2.0, 3.0, "fetched page 2".to_owned()),
        (3.0, 3.0, format!("{}…", "x".repeat(MESSAGE_CHARS))),
    ]
}

/// `(progress, total, message)` of progress notification params.
fn reports(params: &Value) -> Vec<(f64, f64, String)> {
    params
        .as_array()
        .unwrap_or_else(|| panic!("a list of progress notifications: {params}"))
        .iter()
        .map(|p| {
            (
                p["progress"].as_f64().expect("progress"),
                p["total"].as_f64().expect("total"),
                p["message"].as_str().expect("message").to_owned(),
            )
        })
        .collect()
}

/// Serves `crawl` (async), `crawl_blocking` (run off the async task) and `deploy` (needs
/// approval) over streamable HTTP on a free loopback port; returns the URL, the server's task
/// and the names of the events the executor emitted.
async fn serve() -> (String, tokio::task::JoinHandle<()>, Arc<Mutex<Vec<String>>>) {
    let mut registry = ToolRegistry::new();
    let crawl = |name: &'static str| ToolSpec::builder(name).credential(KEY);
    registry
        .register(Crawl(crawl("crawl").build().expect("spec")))
        .expect("registers");
    registry
        .register(Crawl(
            crawl("crawl_blocking").blocking().build().expect("spec"),
        ))
        .expect("registers");
    registry
        .register(Crawl(
            crawl("deploy").requires_approval().build().expect("spec"),
        ))
        .expect("registers");
    // With an output schema, which a deferred call's answer cannot match.
    let pages = ToolSchema::new([Param::required("pages", ParamType::Integer)]).expect("schema");
    registry
        .register(Crawl(
            crawl("deploy_typed")
                .requires_approval()
                .output(pages)
                .build()
                .expect("spec"),
        ))
        .expect("registers");
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = Arc::clone(&events);
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with(KEY, SECRET))
        .observer(move |event: &ToolEvent<'_>| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.tool_name()));
        })
        .build();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    let server = tokio::spawn(McpServer::new(Arc::new(executor)).serve_http(listener));
    (url, server, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_asks_gets_every_report_in_order_and_one_that_does_not_gets_none() {
    let Some(peers) = peers() else { return };
    let (url, server, events) = serve().await;
    let calls = json!([
        {"name": "crawl", "arguments": {}, "progress": true},
        {"name": "crawl", "arguments": {}},
        {"name": "crawl_blocking", "arguments": {}, "progress": true},
    ]);
    let seen = official_client(&peers, &calls, &["http", &url]).await;
    server.abort();

    // Nothing arrived that the SDK could not route: no notification after its call's result,
    // none for a token it did not give.
    assert_eq!(seen["errors"], json!([]), "{seen}");
    let calls = seen["calls"].as_array().expect("calls");
    for call in calls {
        assert_eq!(call["result"]["isError"], false, "{call}");
        assert_eq!(first_text(&call["result"]), r#"{"pages":3}"#, "{call}");
    }

    // The calls that asked: exactly the three reports, in order, the secret replaced and the
    // long message cut; async and blocking tools alike.
    assert_eq!(reports(&calls[0]["progress"]), expected_reports(), "{seen}");
    assert_eq!(reports(&calls[2]["progress"]), expected_reports(), "{seen}");
    // On the wire: those six, and nothing for the call that did not ask.
    let wire = &seen["progressNotifications"];
    let mut both = expected_reports();
    both.extend(expected_reports());
    assert_eq!(reports(wire), both, "{seen}");
    let tokens: Vec<&Value> = wire
        .as_array()
        .expect("notifications")
        .iter()
        .map(|p| &p["progressToken"])
        .collect();
    assert!(tokens[..3].iter().all(|t| *t == tokens[0]), "{tokens:?}");
    assert!(tokens[3..].iter().all(|t| *t == tokens[3]), "{tokens:?}");
    assert_ne!(tokens[0], tokens[3]);
    assert!(!seen.to_string().contains(SECRET), "{seen}");

    // The call that did not ask reported all the same: its observers saw it.
    let events = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let progress = |tool: &str| {
        events
            .iter()
            .filter(|e| *e == &format!("tool.execution.progress {tool}"))
            .count()
    };
    assert_eq!(progress("crawl"), 6, "{events:?}");
    assert_eq!(progress("crawl_blocking"), 3, "{events:?}");
}

#[tokio::test]
async fn a_call_awaiting_approval_is_not_an_error() {
    let Some(peers) = peers() else { return };
    let (url, server, events) = serve().await;
    let calls = json!([
        {"name": "deploy", "arguments": {}, "progress": true},
        {"name": "deploy_typed", "arguments": {}},
    ]);
    let seen = official_client(&peers, &calls, &["http", &url]).await;
    server.abort();

    let deferred = &seen["calls"][0]["result"];
    assert_eq!(deferred["isError"], false, "{deferred}");
    assert_eq!(
        first_text(deferred),
        "The call to tool 'deploy' awaits approval; its result will follow."
    );
    assert!(deferred.get("structuredContent").is_none(), "{deferred}");
    // A tool with an output schema: the official client takes the answer (it refuses a
    // success without structured content), which says the same.
    let typed = &seen["calls"][1]["result"];
    assert_eq!(typed["isError"], true, "{seen}");
    assert_eq!(
        first_text(typed),
        "The call to tool 'deploy_typed' awaits approval; its result will follow."
    );
    assert!(typed.get("structuredContent").is_none(), "{typed}");
    // The tool did not run: no progress.
    assert_eq!(seen["calls"][0]["progress"], json!([]), "{seen}");
    let events = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(
        events,
        [
            "tool.execution.started deploy",
            "tool.execution.deferred deploy",
            "tool.execution.started deploy_typed",
            "tool.execution.deferred deploy_typed",
        ]
    );
}

/// Logs `LOGS` messages, each naming its call (the argument `n`), then answers `done <n>`.
struct Chatty(ToolSpec);

const LOGS: usize = 5;

impl Tool for Chatty {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let n = &inputs["n"];
        for k in 0..LOGS {
            ctx.log(LogLevel::Info, format!("call {n} message {k}"));
        }
        Ok(format!("done {n}").into())
    }
}

/// Over a 2025-11-25 session on streamable HTTP, rmcp sends log messages to the session's
/// standalone stream (the client's `GET`), which nothing orders with the call's `POST`; the
/// server sends them on the call's own stream, before its result. Without a session
/// (stateless), the response is then an SSE stream, the messages before the result. Many
/// calls, each with its messages: a message that overtook its result on another stream would
/// show in one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_log_message_of_a_call_reaches_the_client_before_its_result() {
    const CALLS: usize = 40;
    let Some(peers) = peers() else { return };
    for stateless in [false, true] {
        let mut registry = ToolRegistry::new();
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let spec = ToolSpec::builder("chatty")
            .input_json_schema(schema)
            .build()
            .expect("spec");
        registry.register(Chatty(spec)).expect("registers");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
        let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
        let mut server = McpServer::new(Arc::new(ToolExecutor::new(registry)));
        if stateless {
            server = server.stateless();
        }
        let server = tokio::spawn(server.serve_http(listener));
        let calls: Vec<Value> = (0..CALLS)
            .map(|n| json!({"name": "chatty", "arguments": {"n": n}}))
            .collect();
        let seen = official_client(&peers, &Value::from(calls), &["http", &url]).await;
        server.abort();

        assert_eq!(seen["errors"], json!([]), "stateless: {stateless}: {seen}");
        let wire: Vec<&str> = seen["wire"]
            .as_array()
            .expect("the wire")
            .iter()
            .map(|entry| entry.as_str().expect("an entry"))
            .collect();
        // Each call's messages, in order, then its result, the calls one after the other.
        let expected: Vec<String> = (0..CALLS)
            .flat_map(|n| {
                (0..LOGS)
                    .map(move |k| format!("log: call {n} message {k}"))
                    .chain([format!("result: done {n}")])
            })
            .collect();
        assert_eq!(wire, expected, "stateless: {stateless}");
    }
}

/// A tool that asks the model to correct its call.
struct Picky(ToolSpec);

impl Tool for Picky {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Err(agentkit_core::ToolError::retry("say please").into())
    }
}

#[tokio::test]
async fn is_error_is_set_exactly_for_failures() {
    use agentkit_core::mcp::to_call_tool_result;
    use agentkit_core::{Approval, ToolCall, ToolStatus, provider};

    let mut registry = ToolRegistry::new();
    registry
        .register(Crawl(
            ToolSpec::builder("deploy")
                .credential(KEY)
                .requires_approval()
                .output(
                    agentkit_core::ToolSchema::new([agentkit_core::Param::required(
                        "pages",
                        agentkit_core::ParamType::Integer,
                    )])
                    .expect("schema"),
                )
                .build()
                .expect("spec"),
        ))
        .expect("registers");
    registry
        .register(Picky(ToolSpec::builder("picky").build().expect("spec")))
        .expect("registers");
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with(KEY, SECRET))
        .build();
    let deploy = ToolCall::new("1", "deploy", "{}");

    // (status, isError from `to_call_tool_result`, isError from `provider::mcp::result`).
    let rendered = |result: &agentkit_core::ToolResult| {
        let answer = to_call_tool_result(result, true);
        let json = provider::mcp::result(result, executor.registry());
        assert_eq!(
            answer.content[0].as_text().map(|t| t.text.as_str()),
            json["content"][0]["text"].as_str(),
        );
        (result.status(), answer.is_error, json["isError"].clone())
    };

    let deferred = executor.dispatch(&deploy).await;
    // The tool declares an output schema, which an answer without isError would have to
    // match with its structured content.
    assert_eq!(
        rendered(&deferred),
        (ToolStatus::Deferred, Some(true), json!(true))
    );
    // A deferred call has no output to give as structured content, though the tool declares one.
    assert!(
        to_call_tool_result(&deferred, true)
            .structured_content
            .is_none()
    );
    let json = provider::mcp::result(&deferred, executor.registry());
    assert!(json.get("structuredContent").is_none(), "{json}");

    let pending = deferred.into_deferred().expect("a deferred call");
    let denied = executor
        .resume(pending.clone(), Approval::deny("not on a Friday"))
        .await;
    assert_eq!(
        rendered(&denied),
        (ToolStatus::Failure, Some(true), json!(true))
    );
    let approved = executor.resume(pending, Approval::Allow).await;
    assert_eq!(
        rendered(&approved),
        (ToolStatus::Success, Some(false), json!(false))
    );
    let retry = executor.dispatch(&ToolCall::new("2", "picky", "{}")).await;
    assert!(retry.is_retryable());
    assert_eq!(
        rendered(&retry),
        (ToolStatus::Failure, Some(true), json!(true))
    );
}
