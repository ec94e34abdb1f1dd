//! What a remote MCP server sends during a call reaches the executor's observers through
//! `McpClient`: its progress notifications for the call (every one, in order, before the
//! call ends) and its log messages, as `tool.execution.progress` and `tool.execution.log`
//! events of that call; and what the call returns keeps its content parts. Against the
//! reference server over stdio, and against agentkit's conformance example over stdio and
//! HTTP.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::McpClient;
use agentkit_core::{
    Content, LogLevel, ToolCall, ToolEvent, ToolExecutor, ToolObserver, ToolRegistry, ToolResult,
};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::mcp_support::{
    PEER_TIMEOUT, conformance_server, conformance_server_over_http, everything_server, peers,
};

/// A report an observer saw: the call id, and the progress (done, total) or the log message.
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    Progress(String, f64, Option<f64>),
    Log(String, LogLevel, String),
    /// The call's `completed` or `failed` event.
    Ended(String),
}

#[derive(Clone, Default)]
struct Reports(Arc<Mutex<Vec<Seen>>>);

impl ToolObserver for Reports {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let seen = match event {
            ToolEvent::Progress {
                call_id, progress, ..
            } => Seen::Progress((*call_id).to_owned(), progress.progress(), progress.total()),
            ToolEvent::Log {
                call_id, message, ..
            } => Seen::Log(
                (*call_id).to_owned(),
                message.level(),
                message.text().to_owned(),
            ),
            ToolEvent::Completed { call_id, .. } | ToolEvent::Failed { call_id, .. } => {
                Seen::Ended((*call_id).to_owned())
            }
            _ => return,
        };
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(seen);
    }
}

impl Reports {
    /// What was seen for the call `id`, in order.
    fn of(&self, id: &str) -> Vec<Seen> {
        let call = |seen: &&Seen| match seen {
            Seen::Progress(call, ..) | Seen::Log(call, ..) | Seen::Ended(call) => call == id,
        };
        let seen = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        seen.iter().filter(call).cloned().collect()
    }
}

/// Awaits `future`, failing the test if a peer makes it wait too long.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

async fn executor(client: &McpClient, reports: &Reports) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("the server's tools register");
    assert_eq!(import.refused(), []);
    ToolExecutor::builder(registry)
        .observer(reports.clone())
        .build()
}

async fn call(executor: &ToolExecutor, id: &str, name: &str, arguments: Value) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new(id, name, arguments))).await
}

#[tokio::test(flavor = "multi_thread")]
async fn an_agentkit_servers_reports_reach_the_observers() {
    // agentkit on both ends: the conformance example's tools report progress and log. Over
    // stdio, one stream carries the notifications and the result, in order.
    let client = bounded(McpClient::connect_stdio(Command::new(conformance_server())))
        .await
        .expect("the conformance example starts over stdio");
    let reports = Reports::default();
    let executor = executor(&client, &reports).await;

    let progress = call(&executor, "p", "test_tool_with_progress", json!({})).await;
    assert!(progress.is_success(), "{progress:?}");
    let p = |done| Seen::Progress("p".to_owned(), done, Some(100.0));
    assert_eq!(
        reports.of("p"),
        [p(0.0), p(50.0), p(100.0), Seen::Ended("p".to_owned())]
    );

    let logging = call(&executor, "l", "test_tool_with_logging", json!({})).await;
    assert!(logging.is_success(), "{logging:?}");
    let l = |text: &str| Seen::Log("l".to_owned(), LogLevel::Info, text.to_owned());
    assert_eq!(
        reports.of("l"),
        [
            l("Tool execution started"),
            l("Tool processing data"),
            l("Tool execution completed"),
            Seen::Ended("l".to_owned()),
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn over_http_progress_and_content_parts_come_through() {
    let (_server, url) = conformance_server_over_http().await;
    let client = bounded(McpClient::connect_http(&url))
        .await
        .expect("connects over HTTP");
    let reports = Reports::default();
    let executor = executor(&client, &reports).await;

    // Progress rides the call's own SSE stream, before its result. (Log messages do not:
    // rmcp's server sends them on the session's stream apart, so one sent just before the
    // result may come after it, when no call is left to take it.)
    let progress = call(&executor, "p", "test_tool_with_progress", json!({})).await;
    assert!(progress.is_success(), "{progress:?}");
    let p = |done| Seen::Progress("p".to_owned(), done, Some(100.0));
    assert_eq!(
        reports.of("p"),
        [p(0.0), p(50.0), p(100.0), Seen::Ended("p".to_owned())]
    );

    // The remote content parts come back as parts, the bytes intact.
    let mixed = call(&executor, "m", "test_multiple_content_types", json!({})).await;
    let parts = mixed.content();
    assert_eq!(parts.len(), 3, "{mixed:?}");
    assert_eq!(parts[0].as_text(), Some("Multiple content types test:"));
    let Content::Image(image) = &parts[1] else {
        panic!("an image: {parts:?}")
    };
    assert_eq!(image.mime_type(), "image/png");
    assert!(image.data().starts_with(b"\x89PNG"), "{image:?}");
    let Content::Resource(resource) = &parts[2] else {
        panic!("an embedded resource: {parts:?}")
    };
    assert_eq!(resource.uri(), "test://mixed-content-resource");
    assert_eq!(resource.mime_type(), Some("application/json"));
    assert_eq!(resource.as_text(), Some(r#"{"test":"data","value":123}"#));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_reference_servers_reports_reach_the_observers() {
    let Some(peers) = peers() else { return };
    let mut command = Command::new("node");
    command.arg(everything_server(&peers)).arg("stdio");
    command.stderr(std::process::Stdio::null());
    let client = bounded(McpClient::connect_stdio(command))
        .await
        .expect("server-everything starts and answers the handshake");
    let reports = Reports::default();
    let executor = executor(&client, &reports).await;

    // Progress at each of four steps, for the token rmcp put on the request.
    let steps = json!({"duration": 0.2, "steps": 4});
    let long = call(&executor, "long", "trigger-long-running-operation", steps).await;
    assert!(long.is_success(), "{long:?}");
    let p = |done| Seen::Progress("long".to_owned(), done, Some(4.0));
    assert_eq!(
        reports.of("long"),
        [
            p(1.0),
            p(2.0),
            p(3.0),
            p(4.0),
            Seen::Ended("long".to_owned())
        ]
    );

    // Turning on its simulated logging sends one message at once (of a random level), then
    // one every five seconds, which arrive while no call runs and go nowhere. The server sends
    // that first message without waiting for it (`sendLoggingMessage` is not awaited) and
    // without tying it to the request, so nothing orders it before the answer: on a loaded
    // machine it was seen to arrive after the call had ended (once in five full runs). So the
    // toggle is tried a few times; one call must see its message, before its end, and no call
    // may see anything else.
    let mut seen_a_log = Vec::new();
    for attempt in 0..5 {
        let id = format!("logs-{attempt}");
        let on = call(&executor, &id, "toggle-simulated-logging", json!({})).await;
        assert!(on.is_success(), "{on:?}");
        let seen = reports.of(&id);
        match seen.as_slice() {
            [Seen::Log(_, _, text), Seen::Ended(_)] => {
                assert!(text.ends_with("message"), "{text}");
                seen_a_log.push(id);
            }
            [Seen::Ended(_)] => {}
            other => panic!("one log message, then the end of the call: {other:?}"),
        }
        let quiet = format!("quiet-{attempt}");
        let off = call(&executor, &quiet, "toggle-simulated-logging", json!({})).await;
        assert!(off.is_success(), "{off:?}");
        if !seen_a_log.is_empty() {
            break;
        }
    }
    assert!(
        !seen_a_log.is_empty(),
        "no call saw the log message the server sends when its logging is turned on"
    );
}
