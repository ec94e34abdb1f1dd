//! The MCP server is the executor's front door, not a side entrance: calls made over MCP are
//! validated, get their credentials, are observed with the JSON-RPC request id as call id, and
//! end at the server's timeout. Driven in process, over an in-memory duplex stream, with rmcp's
//! own client (the official clients are in `mcp_server.rs`).

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::McpServer;
use agentkit_core::mcp::rmcp::model::{CallToolRequestParams, CallToolResult};
use agentkit_core::mcp::rmcp::service::RunningService;
use agentkit_core::mcp::rmcp::{RoleClient, ServiceExt};
use agentkit_core::{
    BoxError, ErrorKind, InMemoryCredentials, JsonObject, Tool, ToolContext, ToolEvent,
    ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
};
use serde_json::{Value, json};

use crate::core_fixtures::{Probe, WEATHER_KEY, bare_spec, obj, weather_tool};

/// A tool that never finishes.
struct Hang(ToolSpec);

impl Tool for Hang {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        std::future::pending().await
    }
}

/// `(event name, call id, error kind)` of every event.
type Seen = (&'static str, String, Option<ErrorKind>);

/// Serves the tools in process, with the server's `timeout`; returns rmcp's client, the events
/// and the weather probe.
async fn connect(
    credentials: InMemoryCredentials,
    timeout: Option<Duration>,
) -> (RunningService<RoleClient, ()>, Arc<Mutex<Vec<Seen>>>, Probe) {
    let (weather, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(weather).expect("registers");
    registry
        .register(Hang(bare_spec("hang")))
        .expect("registers");
    let events: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let sink = Arc::clone(&events);
    let executor = ToolExecutor::builder(registry)
        .credentials(credentials)
        .observer(move |event: &ToolEvent<'_>| {
            sink.lock().unwrap_or_else(PoisonError::into_inner).push((
                event.name(),
                event.call_id().to_owned(),
                event.error_kind(),
            ));
        })
        .build();
    let server = match timeout {
        Some(timeout) => McpServer::new(Arc::new(executor)).with_timeout(timeout),
        None => McpServer::new(Arc::new(executor)),
    };
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = tokio::time::timeout(Duration::from_secs(30), ().serve(client_io))
        .await
        .expect("handshake in time")
        .expect("handshake");
    (client, events, probe)
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> CallToolResult {
    let request = CallToolRequestParams::new(name).with_arguments(obj(arguments));
    tokio::time::timeout(Duration::from_secs(30), client.call_tool(request))
        .await
        .expect("an answer in time")
        .expect("a tool result, not a protocol error")
}

fn text(result: &CallToolResult) -> &str {
    result.content[0].as_text().map_or("", |t| t.text.as_str())
}

#[tokio::test]
async fn calls_over_mcp_go_through_the_executor() {
    let (client, events, probe) = connect(
        InMemoryCredentials::new().with(WEATHER_KEY, "sk-test"),
        Some(Duration::from_millis(50)),
    )
    .await;

    // Validated, defaults filled, credential resolved: the tool saw what dispatch gives it.
    let good = call(&client, "fetch_weather", json!({"city": "Paris"})).await;
    assert_eq!(good.is_error, Some(false));
    assert_eq!(
        good.structured_content.as_ref().map(|s| s["units"].clone()),
        Some(json!("imperial"))
    );
    let seen = probe.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].inputs["country"], "US");
    assert_eq!(
        seen[0].credentials,
        [(WEATHER_KEY.to_owned(), "sk-test".to_owned())]
    );

    // Invalid: refused before the tool runs.
    let invalid = call(&client, "fetch_weather", json!({"city": 5})).await;
    assert_eq!(invalid.is_error, Some(true));
    assert!(text(&invalid).contains("Parameter 'city': expected type 'string', got 'integer'"));
    assert_eq!(probe.runs(), 1);

    // The server's timeout ends a call that would never finish.
    let hung = call(&client, "hang", json!({})).await;
    assert_eq!(hung.is_error, Some(true));
    assert!(
        text(&hung).contains("did not finish in time"),
        "{}",
        text(&hung)
    );

    // Every call observed, started and ended under the same call id: the request's id.
    let seen = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let kinds: Vec<(&str, Option<ErrorKind>)> = seen.iter().map(|(n, _, k)| (*n, *k)).collect();
    assert_eq!(
        kinds,
        [
            ("tool.execution.started", None),
            ("tool.execution.completed", None),
            ("tool.execution.started", None),
            ("tool.execution.failed", Some(ErrorKind::InputValidation)),
            ("tool.execution.started", None),
            ("tool.execution.failed", Some(ErrorKind::Timeout)),
        ]
    );
    let ids: Vec<&str> = seen.iter().map(|(_, id, _)| id.as_str()).collect();
    for pair in ids.chunks(2) {
        assert!(!pair[0].is_empty());
        assert_eq!(pair[0], pair[1]);
    }
    assert!(ids[0] != ids[2] && ids[2] != ids[4], "{ids:?}");
}

#[tokio::test]
async fn a_missing_credential_is_an_error_result_and_the_tool_does_not_run() {
    let (client, events, probe) = connect(InMemoryCredentials::new(), None).await;
    let result = call(&client, "fetch_weather", json!({"city": "Paris"})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("'fetch_weather'"),
        "{}",
        text(&result)
    );
    assert_eq!(probe.runs(), 0);
    let seen = events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(
        seen.last().and_then(|(.., kind)| *kind),
        Some(ErrorKind::Credential)
    );
}

#[tokio::test]
async fn a_call_the_client_cancels_ends_in_the_executor() {
    let (client, events, _) = connect(InMemoryCredentials::new(), None).await;
    // Dropping rmcp's pending request sends `notifications/cancelled`.
    let request = CallToolRequestParams::new("hang").with_arguments(obj(json!({})));
    let abandoned =
        tokio::time::timeout(Duration::from_millis(100), client.call_tool(request)).await;
    assert!(
        abandoned.is_err(),
        "the hanging tool answered: {abandoned:?}"
    );

    // The server drops the tool's future: the call ends, observed, as a cancelled deadline.
    let ended = async {
        loop {
            let seen = events
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            if let Some((name, _, kind)) = seen.get(1) {
                return (*name, *kind);
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let ended = tokio::time::timeout(Duration::from_secs(30), ended)
        .await
        .expect("the cancelled call ended");
    assert_eq!(ended, ("tool.execution.failed", Some(ErrorKind::Timeout)));
}

/// The server's `tools/list` entry is the MCP declaration of `provider::mcp`, tags aside: the
/// model sees the same schema (no integer bounds, defaults kept) however the tool reaches it.
#[test]
fn served_tools_are_the_provider_declarations() {
    use agentkit_core::{Param, ParamType, ToolSchema};
    let spec = ToolSpec::builder("forecast")
        .description("Weather forecast.")
        .input(
            ToolSchema::new([
                Param::required("city", ParamType::String),
                Param::optional("days", ParamType::Integer).with_default(3),
            ])
            .unwrap(),
        )
        .output(ToolSchema::new([Param::required("high", ParamType::Float)]).unwrap())
        .tag("category", "weather")
        .build()
        .unwrap();
    let served = serde_json::to_value(agentkit_core::mcp::to_mcp_tool(&spec)).unwrap();
    let declared = agentkit_core::provider::mcp::tool(&spec);
    for key in ["name", "description", "inputSchema", "outputSchema"] {
        assert_eq!(served[key], declared[key], "{key}");
    }
    assert_eq!(
        served["inputSchema"]["properties"]["days"],
        json!({"type": "integer", "default": 3})
    );
    assert_eq!(
        served["_meta"]["agentkit/tags"],
        json!({"category": "weather"})
    );
}
