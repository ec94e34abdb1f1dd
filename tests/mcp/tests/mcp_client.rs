//! agentkit's MCP client side against `@modelcontextprotocol/server-everything`, the reference
//! server (started over stdio): its tools listed and registered, called through the executor
//! (validated, observed), invalid arguments refused before they reach the server, name
//! clashes between servers refused, and prefixes keeping them apart. And the client over
//! streamable HTTP, against the example server.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it).

use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::{McpClient, McpErrorKind, McpToolError};
use agentkit_core::{
    Direction, Error, ErrorKind, IssueKind, ToolCall, ToolEvent, ToolExecutor, ToolObserver,
    ToolRegistry, ToolResult,
};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::mcp_support::{PEER_TIMEOUT, everything_server, example_server_over_http, peers};

/// Awaits `future`, failing the test if a peer makes it wait too long.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

async fn everything(peers: &Path) -> McpClient {
    let mut command = Command::new("node");
    command.arg(everything_server(peers)).arg("stdio");
    command.stderr(std::process::Stdio::null());
    bounded(McpClient::connect_stdio(command))
        .await
        .expect("server-everything starts and answers the handshake")
}

/// An event's name, tool and error kind.
type Seen = (&'static str, String, Option<ErrorKind>);

/// Every event seen.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<Seen>>>);

impl ToolObserver for Events {
    fn on_event(&self, event: &ToolEvent<'_>) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push((
            event.name(),
            event.tool_name().to_owned(),
            event.error_kind(),
        ));
    }
}

async fn call(executor: &ToolExecutor, name: &str, arguments: Value) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, arguments))).await
}

#[tokio::test]
async fn server_everything_tools_run_through_the_executor() {
    let Some(peers) = peers() else { return };
    let client = everything(&peers).await;
    assert_eq!(
        client.server_name().as_deref(),
        Some("mcp-servers/everything")
    );

    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("the reference server's tools register");
    assert_eq!(import.refused(), [], "every tool is one agentkit takes");
    let names = import.registered();
    for expected in ["echo", "get-sum", "get-structured-content"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} in {names:?}"
        );
    }
    assert_eq!(registry.len(), names.len());

    // The model is shown the server's schema as declared, and the executor checks all of it.
    let echo = registry.lookup("echo").expect("echo is registered");
    assert!(echo.input_schema().is_none());
    assert!(echo.input_json().is_some());
    let shown = |spec| agentkit_core::provider::mcp::tool(spec)["inputSchema"].clone();
    assert_eq!(shown(echo)["required"], json!(["message"]));
    assert_eq!(echo.tag("mcp_server"), Some("mcp-servers/everything"));
    let sum = registry.lookup("get-sum").expect("get-sum is registered");
    assert_eq!(
        shown(sum)["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
    // What the executor validates is the server's schema, as declared.
    assert_eq!(
        &sum.input_json_schema(),
        sum.input_json().unwrap().as_value()
    );
    assert_eq!(sum.input_json_schema(), shown(sum));

    let events = Events::default();
    let executor = ToolExecutor::builder(registry)
        .observer(events.clone())
        .build();

    // Good calls: the server's content blocks as content parts (the model is sent the text
    // bare), or its structured content as the structured output.
    let echoed = call(&executor, "echo", json!({"message": "hi from agentkit"})).await;
    assert!(echoed.is_success(), "{echoed:?}");
    assert_eq!(echoed.output(), None);
    assert_eq!(
        echoed.content()[0].as_text(),
        Some("Echo: hi from agentkit")
    );
    assert_eq!(echoed.to_model_content(), "Echo: hi from agentkit");

    let summed = call(&executor, "get-sum", json!({"a": 2, "b": 3.5})).await;
    assert_eq!(
        summed.content().first().and_then(|part| part.as_text()),
        Some("The sum of 2 and 3.5 is 5.5."),
        "{summed:?}"
    );

    let weather = call(
        &executor,
        "get-structured-content",
        json!({"location": "Chicago"}),
    )
    .await;
    let output = weather.output().unwrap_or_else(|| panic!("{weather:?}"));
    assert!(output["temperature"].is_number(), "{output:?}");
    assert!(output["conditions"].is_string(), "{output:?}");

    // Invalid arguments are refused by the executor, every problem at once, before they
    // reach the server (an input validation error; the server's own refusals are execution
    // errors, below).
    let refused = call(&executor, "get-sum", json!({"a": "two", "c": 1})).await;
    let Some(Error::Validation(invalid)) = refused.error() else {
        panic!("expected an input validation error, got {refused:?}");
    };
    assert_eq!(invalid.direction(), Direction::Input);
    let kinds: Vec<IssueKind> = invalid.errors().iter().map(|i| i.kind()).collect();
    assert_eq!(kinds.len(), 3, "{kinds:?}");
    assert!(kinds.contains(&IssueKind::WrongType), "{kinds:?}");
    assert!(kinds.contains(&IssueKind::MissingParameter), "{kinds:?}");
    assert!(kinds.contains(&IssueKind::UnknownParameter), "{kinds:?}");

    // An `enum` of the server's schema is checked here too: the call never reaches it.
    // (A server's own `isError` refusal reaching the model is tested over HTTP below.)
    let outside_enum = call(
        &executor,
        "get-structured-content",
        json!({"location": "Paris"}),
    )
    .await;
    let Some(Error::Validation(refused)) = outside_enum.error() else {
        panic!("expected a local refusal, got {outside_enum:?}");
    };
    assert_eq!(refused.errors()[0].kind(), IssueKind::NotInEnum);
    assert_eq!(
        refused.errors()[0].to_string(),
        "Parameter 'location': expected one of 'New York', 'Chicago', 'Los Angeles', got 'Paris'"
    );

    let seen = events
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    let terminal: Vec<(&str, &str, Option<ErrorKind>)> = seen
        .iter()
        .filter(|(name, ..)| *name != "tool.execution.started")
        .map(|(name, tool, kind)| (*name, tool.as_str(), *kind))
        .collect();
    assert_eq!(
        terminal,
        [
            ("tool.execution.completed", "echo", None),
            ("tool.execution.completed", "get-sum", None),
            ("tool.execution.completed", "get-structured-content", None),
            (
                "tool.execution.failed",
                "get-sum",
                Some(ErrorKind::InputValidation)
            ),
            (
                "tool.execution.failed",
                "get-structured-content",
                Some(ErrorKind::InputValidation)
            ),
        ]
    );
    assert_eq!(seen.len(), 10, "a started event per call: {seen:?}");
}

#[tokio::test]
async fn clashing_names_are_refused_and_prefixes_keep_servers_apart() {
    let Some(peers) = peers() else { return };
    let first = everything(&peers).await;
    let second = everything(&peers).await;

    let mut registry = ToolRegistry::new();
    let names = bounded(first.register_tools(&mut registry, None))
        .await
        .expect("the first server registers")
        .registered()
        .to_vec();

    // The same names again: refused, every clash listed, nothing registered.
    let clash = bounded(second.register_tools(&mut registry, None))
        .await
        .expect_err("duplicate names are refused");
    assert_eq!(clash.kind(), McpErrorKind::Registration);
    let problems = clash.registration_problems().expect("the problems");
    assert_eq!(problems.problems().len(), names.len(), "{clash}");
    assert!(clash.to_string().contains("'echo'"), "{clash}");
    assert_eq!(registry.len(), names.len());

    // With a prefix, both live side by side; the prefixed tool calls the server's `echo`.
    let prefixed = bounded(second.register_tools(&mut registry, Some("other_")))
        .await
        .expect("prefixed names do not clash")
        .registered()
        .to_vec();
    assert!(
        prefixed.iter().all(|n| n.starts_with("other_")),
        "{prefixed:?}"
    );
    assert_eq!(registry.len(), 2 * names.len());
    let executor = ToolExecutor::new(registry);
    let echoed = call(&executor, "other_echo", json!({"message": "second"})).await;
    assert_eq!(
        echoed.content().first().and_then(|part| part.as_text()),
        Some("Echo: second"),
        "{echoed:?}"
    );

    // A prefix that makes the names invalid: every tool refused, each naming the problem.
    let mut empty = ToolRegistry::new();
    let invalid = bounded(second.register_tools(&mut empty, Some("9")))
        .await
        .expect("the listing succeeds");
    assert!(invalid.registered().is_empty());
    assert_eq!(invalid.refused().len(), names.len());
    assert!(
        invalid.refused()[0].to_string().contains("'9"),
        "{:?}",
        invalid.refused()
    );
    assert!(empty.is_empty());
}

#[tokio::test]
async fn the_client_speaks_streamable_http() {
    // agentkit on both ends (the example server), over loopback HTTP: the transport, not the
    // peer, is under test here; the official client tests the server side.
    let (_server, url) = example_server_over_http().await;
    let client = bounded(McpClient::connect_http(&url))
        .await
        .expect("connects over HTTP");
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, Some("remote_")))
        .await
        .expect("registers");
    assert_eq!(
        import.registered(),
        ["remote_fetch_weather", "remote_convert_currency"]
    );
    // The tags an agentkit server sends come back as tags.
    let weather = registry.lookup("remote_fetch_weather").expect("registered");
    assert_eq!(weather.tag("category"), Some("weather"));
    assert_eq!(weather.tag("mcp_server"), Some("agentkit-example"));
    let executor = ToolExecutor::new(registry);

    let weather = call(&executor, "remote_fetch_weather", json!({"city": "Oslo"})).await;
    let output = weather.output().unwrap_or_else(|| panic!("{weather:?}"));
    assert_eq!(output["city"], "Oslo");
    assert_eq!(output["units"], "imperial");

    // Refused locally: the schema came across and converted.
    let refused = call(&executor, "remote_fetch_weather", json!({"units": 5})).await;
    assert_eq!(
        refused.error().map(Error::kind),
        Some(ErrorKind::InputValidation)
    );

    // Failed remotely: the server's text for the model reaches this side's model. MCP has no
    // field for the error's kind, so a remote retry request arrives as a failure.
    let failed = call(
        &executor,
        "remote_convert_currency",
        json!({"amount": 1, "from": "EUR", "to": "XYZ"}),
    )
    .await;
    assert_eq!(failed.error().map(Error::kind), Some(ErrorKind::Execution));
    assert_eq!(
        failed.to_model_content(),
        "Error: tool 'remote_convert_currency' failed: Error: tool 'convert_currency' asks you to \
         correct the call and try again: no exchange rate for 'XYZ'; use one of EUR, USD, GBP"
    );
}

/// A tool whose failure tells the model what to do, and another whose error is for operators.
struct Failing(agentkit_core::ToolSpec, bool);

impl agentkit_core::Tool for Failing {
    fn spec(&self) -> &agentkit_core::ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        _: &agentkit_core::JsonObject,
        _: &agentkit_core::ToolContext<'_>,
    ) -> Result<agentkit_core::ToolOutput, agentkit_core::BoxError> {
        if self.1 {
            Err(
                agentkit_core::ToolError::failed("geocoder at 10.0.0.7 returned 404")
                    .with_model_message("No city called 'Atlantis'\n(try a real one)")
                    .into(),
            )
        } else {
            Err("connection refused by 10.0.0.7".into())
        }
    }
}

#[tokio::test]
async fn a_remote_error_text_reaches_the_model() {
    // agentkit on both ends, in process: what one server tells the model is what the model
    // of an agent using that server through `McpClient` reads.
    use agentkit_core::mcp::McpServer;
    use agentkit_core::mcp::rmcp::ServiceExt;

    let mut served = ToolRegistry::new();
    let spec = |name: &'static str| {
        agentkit_core::ToolSpec::builder(name)
            .build()
            .expect("spec")
    };
    served
        .register(Failing(spec("lookup"), true))
        .expect("registers");
    served
        .register(Failing(spec("crash"), false))
        .expect("registers");
    let server = McpServer::new(Arc::new(ToolExecutor::new(served)));
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let connection = bounded(().serve(client_io)).await.expect("handshake");
    let client = McpClient::from_connection(connection);
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, Some("remote_")))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    let executor = ToolExecutor::new(registry);

    // The served tool's model message crosses, escaped again on this side (the newline).
    let lookup = call(&executor, "remote_lookup", json!({})).await;
    let remote = "Error: tool 'lookup' failed: No city called 'Atlantis'\\n(try a real one)";
    let Some(Error::Execution(failed)) = lookup.error() else {
        panic!("expected the server's isError result, got {lookup:?}");
    };
    let cause = failed
        .cause()
        .downcast_ref::<McpToolError>()
        .expect("the cause is the server's isError result");
    assert_eq!(cause.text(), remote);
    assert_eq!(failed.model_message(), Some(remote));
    assert_eq!(
        lookup.to_model_content(),
        format!("Error: tool 'remote_lookup' failed: {remote}")
    );

    // The operator's text did not cross: the served side never told its model.
    let crash = call(&executor, "remote_crash", json!({})).await;
    assert_eq!(
        crash.to_model_content(),
        "Error: tool 'remote_crash' failed: Error: tool 'crash' failed."
    );
    assert!(!format!("{crash:?}").contains("10.0.0.7"), "{crash:?}");
}
