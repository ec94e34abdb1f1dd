//! `McpClient` calling tools its server runs as tasks (MCP 2026-07-28's
//! `io.modelcontextprotocol/tasks` extension, SEP-2663), against agentkit's own `McpServer`
//! in process: a tool that needs a task is imported and called as one (the client declares the
//! extension, polls `tasks/get` and reads the result from the ended task), what the task asks
//! the user is answered with `tasks/update`, and a call the executor gives up on cancels its
//! task with `tasks/cancel`.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::rmcp::ServiceExt;
use agentkit_core::mcp::rmcp::model::{ElicitResult, ElicitationAction};
use agentkit_core::mcp::{McpClient, McpClientBuilder, McpServer};
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, ErrorKind, JsonObject, TaskSupport, Tool, ToolCall,
    ToolContext, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolResult, ToolSpec,
};
use serde_json::{Value, json};

use crate::mcp_support::PEER_TIMEOUT;

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// Answers with its arguments after `delay`; asks the user's name first when `asks`.
struct Job {
    spec: ToolSpec,
    delay: Duration,
    asks: bool,
}

impl Tool for Job {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let mut output = inputs.clone();
        if self.asks {
            let form = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let answer = ctx
                .elicit(ElicitationRequest::new("Your name?", form))
                .await?;
            let name = match answer {
                Elicitation::Accept(content) => content["name"].clone(),
                _ => json!("no answer"),
            };
            output.insert("name".into(), name);
        }
        tokio::time::sleep(self.delay).await;
        Ok(output.into())
    }
}

fn job(name: &'static str, delay: Duration, asks: bool) -> Job {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    Job {
        spec: ToolSpec::builder(name)
            .input_json_schema(schema)
            .task_support(TaskSupport::Required)
            .build()
            .expect("spec"),
        delay,
        asks,
    }
}

/// Events of the server's executor, as `"<event> <tool>"`.
type Events = Arc<Mutex<Vec<String>>>;

/// agentkit's server of `report` (a task, at once), `ask` (a task that asks the user's name)
/// and `stuck` (a task of an hour), every one `Required`, over an in-memory stream; the
/// client connected with `builder`, and an executor over its tools (with `timeout`).
async fn connect(
    builder: McpClientBuilder,
    timeout: Duration,
) -> (McpClient, ToolExecutor, Events) {
    let mut registry = ToolRegistry::new();
    registry
        .register(job("report", Duration::ZERO, false))
        .unwrap();
    registry.register(job("ask", Duration::ZERO, true)).unwrap();
    let hour = Duration::from_secs(3600);
    registry.register(job("stuck", hour, false)).unwrap();
    let events = Events::default();
    let seen = Arc::clone(&events);
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            seen.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.tool_name()));
        })
        .build();
    let server = McpServer::new(Arc::new(executor));
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = bounded(builder.connect_transport(client_io))
        .await
        .expect("connects");
    assert_eq!(client.protocol_version().as_deref(), Some("2026-07-28"));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    assert_eq!(import.registered(), ["report", "ask", "stuck"]);
    let executor = ToolExecutor::builder(registry)
        .default_timeout(timeout)
        .build();
    (client, executor, events)
}

async fn call(executor: &ToolExecutor, name: &str, arguments: Value) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, arguments))).await
}

fn seen(events: &Events, event: &str) -> bool {
    events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|seen| seen == event)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_task_is_called_as_one() {
    let (_client, executor, events) = connect(McpClient::builder(), PEER_TIMEOUT).await;
    // The server refuses a `Required` tool to a client without the extension (-32021): the
    // result proves the call ran as a task.
    let reported = call(&executor, "report", json!({"n": 7})).await;
    assert!(reported.is_success(), "{reported:?}");
    assert_eq!(reported.to_model_content(), r#"{"n":7}"#);
    assert!(
        seen(&events, "tool.execution.completed report"),
        "{events:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_task_asks_is_answered_by_the_application() {
    let builder = McpClient::builder().on_elicitation(|_| async {
        ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
    });
    let (_client, executor, _) = connect(builder, PEER_TIMEOUT).await;
    let asked = call(&executor, "ask", json!({})).await;
    assert!(asked.is_success(), "{asked:?}");
    assert_eq!(asked.to_model_content(), r#"{"name":"Ada"}"#);

    // Without a handler the client declares no elicitation, so the tool cannot ask: its task
    // completes with the failed call (`isError`), rather than waiting for an answer.
    let (_client, executor, _) = connect(McpClient::builder(), PEER_TIMEOUT).await;
    let unasked = call(&executor, "ask", json!({})).await;
    assert_eq!(
        unasked.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Execution),
        "{unasked:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_the_executor_gives_up_on_cancels_its_task() {
    // The executor's deadline passes while the task runs (an hour): the call ends as timed
    // out, and the client cancels the task, which ends the server's call.
    let (_client, executor, events) = connect(McpClient::builder(), Duration::from_secs(2)).await;
    let stuck = call(&executor, "stuck", json!({})).await;
    assert_eq!(
        stuck.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Timeout)
    );
    bounded(async {
        while !seen(&events, "tool.execution.failed stuck") {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}
