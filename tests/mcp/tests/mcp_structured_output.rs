//! Structured output that is any JSON value, over MCP (2026-07-28, SEP-2106), both ways, in
//! process over an in-memory duplex stream:
//!
//! - agentkit's server declares a tool's output schema as written (any schema) and answers
//!   with its value (a list, a number, `null`) as `structuredContent`, beside its text block,
//!   to a client on 2026-07-28; to a client on an older revision (rmcp's, and the official
//!   TypeScript SDK's client, which needs the peers: `npm ci --prefix tests/mcp-peers`),
//!   rmcp's server moves such a value into the text block and drops such a schema, as that
//!   revision wants.
//! - agentkit's client compiles a server tool's `outputSchema` and takes its
//!   `structuredContent`, whatever JSON value, as the tool's structured output, validated:
//!   a value that breaks the schema, or none where the schema asks for one, is an output
//!   validation failure with every problem's path. The server that breaks its schemas is
//!   written here with rmcp (the official TypeScript SDK, 1.32.2, refuses a `structuredContent`
//!   or an `outputSchema` that is not an object, on either side).

use std::future::Future;
use std::sync::Arc;

use agentkit_core::mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ContentBlock, Implementation, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ServerCapabilities, ServerConfig, Tool as McpToolInfo,
};
use agentkit_core::mcp::rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService,
};
use agentkit_core::mcp::rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use agentkit_core::mcp::{McpClient, McpServer, Refusal};
use agentkit_core::{
    BoxError, Direction, Error, ErrorKind, IssueKind, JsonObject, Param, ParamType, Tool, ToolCall,
    ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolResult, ToolSchema, ToolSpec,
};
use serde_json::{Value, json};

use tokio::net::TcpListener;

use crate::mcp_support::{PEER_TIMEOUT, official_client, peers};

/// Awaits `future`, failing the test if the peer makes it wait too long.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// A tool that returns `output`, whatever it is asked.
struct Returns {
    spec: ToolSpec,
    output: Value,
}

impl Tool for Returns {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(ToolOutput::structured_only(self.output.clone()))
    }
}

/// The served tools: `(name, output schema, output)`; `None` declares a parameter list.
fn served_tools() -> Vec<(&'static str, Option<Value>, Value)> {
    vec![
        (
            "names",
            Some(json!({"type": "array", "items": {"type": "string"}})),
            json!(["Ada", "Grace"]),
        ),
        (
            "count",
            Some(json!({"type": "integer", "minimum": 0})),
            json!(2),
        ),
        (
            "maybe",
            Some(json!({"type": ["string", "null"]})),
            Value::Null,
        ),
        ("point", None, json!({"x": 1})),
    ]
}

/// agentkit's server over `served_tools`.
fn agentkit_server() -> McpServer {
    let mut registry = ToolRegistry::new();
    for (name, schema, output) in served_tools() {
        let builder = ToolSpec::builder(name);
        let builder = match schema {
            Some(schema) => builder.output_json_schema(schema),
            None => builder.output(
                ToolSchema::new([Param::required("x", ParamType::Integer)]).expect("schema"),
            ),
        };
        let spec = builder.build().expect("spec");
        registry
            .register(Returns { spec, output })
            .expect("registers");
    }
    McpServer::new(Arc::new(ToolExecutor::new(registry)))
}

/// Serves `handler` on one end of a duplex stream; returns the other end.
fn serve<S: ServerHandler>(handler: S) -> tokio::io::DuplexStream {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    client_io
}

/// A client of `io` on `version`: 2026-07-28 through `server/discover`, an older one through
/// `initialize`.
async fn connect(
    io: tokio::io::DuplexStream,
    version: ProtocolVersion,
) -> RunningService<RoleClient, ClientConfig> {
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("structured-output-test", "0.1.0"),
    )
    .with_protocol_version(version.clone());
    let lifecycle = if version.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        }
    };
    bounded(info.serve_with_lifecycle(io, lifecycle))
        .await
        .expect("handshake")
}

/// The protocol version `connection` agreed on.
fn negotiated(connection: &RunningService<RoleClient, ClientConfig>) -> Option<ProtocolVersion> {
    connection
        .peer()
        .peer_info()
        .map(|info| info.protocol_version.clone())
}

/// `tools/list` of `connection`, by name: each tool's `outputSchema`.
async fn output_schemas(
    connection: &RunningService<RoleClient, ClientConfig>,
) -> Vec<(String, Option<Value>)> {
    let tools = bounded(connection.list_all_tools())
        .await
        .expect("tools/list");
    tools
        .into_iter()
        .map(|tool| {
            let schema = tool.output_schema.map(|s| Value::Object((*s).clone()));
            (tool.name.into_owned(), schema)
        })
        .collect()
}

async fn call_raw(
    connection: &RunningService<RoleClient, ClientConfig>,
    name: &'static str,
) -> CallToolResult {
    bounded(connection.call_tool(CallToolRequestParams::new(name)))
        .await
        .expect("tools/call")
}

/// Registers the tools of `connection` under `remote_` and returns an executor over them.
async fn executor_over(connection: RunningService<RoleClient, ClientConfig>) -> ToolExecutor {
    let client = McpClient::from_connection(connection);
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, Some("remote_")))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    ToolExecutor::new(registry)
}

async fn call(executor: &ToolExecutor, name: &str) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, json!({})))).await
}

#[tokio::test]
async fn a_served_tool_answers_any_json_value_as_structured_content_on_2026_07_28() {
    let connection = connect(serve(agentkit_server()), ProtocolVersion::V_2026_07_28).await;
    assert_eq!(negotiated(&connection), Some(ProtocolVersion::V_2026_07_28));
    // Every output schema as declared, any schema.
    let schemas = output_schemas(&connection).await;
    for (name, schema, _) in served_tools() {
        let declared = schemas
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, s)| s.clone())
            .expect("an outputSchema");
        if let Some(schema) = schema {
            assert_eq!(declared, schema, "{name}");
        }
    }
    // Each value as `structuredContent`, and its JSON in the text block.
    for (name, _, output) in served_tools() {
        let answer = call_raw(&connection, name).await;
        assert_eq!(answer.is_error, Some(false), "{name}");
        assert_eq!(answer.structured_content.as_ref(), Some(&output), "{name}");
        let text = answer.content[0].as_text().expect("a text block");
        assert_eq!(text.text, output.to_string(), "{name}");
    }
    // agentkit's client on the same connection: each value is the tool's output, validated,
    // and the text block that repeats it is not a content part.
    let executor = executor_over(connection).await;
    for (name, _, output) in served_tools() {
        let result = call(&executor, &format!("remote_{name}")).await;
        assert_eq!(result.output(), Some(&output), "{name}: {result:?}");
        assert!(result.content().is_empty(), "{name}: {result:?}");
        let spec = executor
            .registry()
            .lookup(&format!("remote_{name}"))
            .expect("registered");
        assert!(spec.output_json().is_some(), "{name}: compiled");
    }
}

#[tokio::test]
async fn a_client_on_an_older_revision_gets_a_value_that_is_not_an_object_as_text() {
    let connection = connect(serve(agentkit_server()), ProtocolVersion::V_2025_11_25).await;
    assert_eq!(negotiated(&connection), Some(ProtocolVersion::V_2025_11_25));
    // Output schemas whose root is not an object are dropped; the object one stays.
    let schemas = output_schemas(&connection).await;
    for (name, schema) in &schemas {
        assert_eq!(schema.is_some(), name == "point", "{name}: {schema:?}");
    }
    let names = call_raw(&connection, "names").await;
    assert_eq!(names.structured_content, None);
    assert_eq!(
        names.content[0].as_text().map(|t| t.text.as_str()),
        Some(r#"["Ada","Grace"]"#)
    );
    let point = call_raw(&connection, "point").await;
    assert_eq!(point.structured_content, Some(json!({"x": 1})));
    // agentkit's client there: no output schema, so the text is a content part, unchecked.
    let executor = executor_over(connection).await;
    let result = call(&executor, "remote_names").await;
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.output(), None);
    assert_eq!(result.to_model_content(), r#"["Ada","Grace"]"#);
    let result = call(&executor, "remote_point").await;
    assert_eq!(result.output(), Some(&json!({"x": 1})));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_official_typescript_client_reads_a_value_that_is_not_an_object_as_text() {
    // The SDK (1.32.2) speaks 2025-11-25, whose `structuredContent` is an object, and checks
    // a result's `structuredContent` against the tool's `outputSchema`.
    let Some(peers) = peers() else { return };
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    let server = tokio::spawn(agentkit_server().serve_http(listener));
    let calls: Vec<Value> = served_tools()
        .iter()
        .map(|(name, _, _)| json!({"name": name, "arguments": {}}))
        .collect();
    let seen = official_client(&peers, &json!(calls), &["http", &url]).await;
    server.abort();
    assert_eq!(seen["errors"], json!([]), "{seen}");
    let tools = seen["tools"].as_array().expect("tools");
    for tool in tools {
        let object_output = tool["name"] == "point";
        assert_eq!(tool.get("outputSchema").is_some(), object_output, "{tool}");
    }
    for ((name, _, output), call) in served_tools()
        .iter()
        .zip(seen["calls"].as_array().expect("calls"))
    {
        let result = &call["result"];
        assert_eq!(result["isError"], json!(false), "{name}: {call}");
        assert_eq!(
            result["content"][0]["text"],
            output.to_string(),
            "{name}: {call}"
        );
        if *name == "point" {
            assert_eq!(&result["structuredContent"], output, "{name}: {call}");
        } else {
            assert!(result.get("structuredContent").is_none(), "{name}: {call}");
        }
    }
}

/// A server, written with rmcp, whose tools answer `structuredContent` that may break the
/// `outputSchema` they declare: `(name, outputSchema, structuredContent)`.
#[derive(Clone)]
struct Loose;

const LOOSE_TOOLS: &[(&str, Option<&str>, Option<&str>)] = &[
    (
        "numbers",
        Some(r#"{"type": "array", "items": {"type": "integer"}}"#),
        Some("[1, 2, 3]"),
    ),
    (
        "bad_numbers",
        Some(r#"{"type": "array", "items": {"type": "integer"}, "maxItems": 2}"#),
        Some(r#"[1, "two", 3.5]"#),
    ),
    (
        "count",
        Some(r#"{"type": "integer", "minimum": 0}"#),
        Some("-1"),
    ),
    ("silent", Some(r#"{"type": "array"}"#), None),
    ("free", None, Some(r#""a string""#)),
    (
        "rows",
        Some(
            r##"{"$defs": {"row": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
                "type": "array", "items": {"$ref": "#/$defs/row"}}"##,
        ),
        Some(r#"[{"id": 1}, {"id": "2"}, {}]"#),
    ),
];

impl ServerHandler for Loose {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = LOOSE_TOOLS
            .iter()
            .map(|(name, schema, _)| {
                let tool = McpToolInfo::new(*name, "A tool.", JsonObject::new());
                match schema {
                    Some(schema) => {
                        let schema: JsonObject = serde_json::from_str(schema).expect("JSON");
                        tool.with_raw_output_schema(Arc::new(schema))
                    }
                    None => tool,
                }
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (_, _, content) = LOOSE_TOOLS
            .iter()
            .find(|(name, _, _)| *name == request.name)
            .ok_or_else(|| ErrorData::invalid_params("no such tool", None))?;
        let text = content.unwrap_or("done");
        let mut answer = CallToolResult::success(vec![ContentBlock::text(text)]);
        answer.structured_content = content.map(|c| serde_json::from_str(c).expect("JSON"));
        Ok(answer.into())
    }
}

/// The issues of `result`'s output validation failure, as `(param, kind)`.
fn output_issues(result: &ToolResult) -> Vec<(Option<String>, IssueKind)> {
    let Some(Error::Validation(error)) = result.error() else {
        panic!("expected an output validation failure, got {result:?}");
    };
    assert_eq!(
        result.error().map(Error::kind),
        Some(ErrorKind::OutputValidation)
    );
    assert_eq!(error.direction(), Direction::Output);
    // The model is told only that the result was invalid, never the server's values.
    assert_eq!(
        result.to_model_content(),
        format!(
            "Error: tool '{}' failed: it produced an invalid result.",
            result.tool_name()
        )
    );
    error
        .errors()
        .iter()
        .map(|issue| (issue.param().map(str::to_owned), issue.kind()))
        .collect()
}

#[tokio::test]
async fn the_client_validates_a_servers_structured_content_of_any_kind_against_its_output_schema() {
    let connection = connect(serve(Loose), ProtocolVersion::V_2026_07_28).await;
    let executor = executor_over(connection).await;
    let owned = |param: &str| Some(param.to_owned());

    let numbers = call(&executor, "remote_numbers").await;
    assert_eq!(numbers.output(), Some(&json!([1, 2, 3])), "{numbers:?}");
    assert!(numbers.content().is_empty(), "the repeated text is dropped");

    // Not an output schema's: any value, unchecked.
    let free = call(&executor, "remote_free").await;
    assert_eq!(free.output(), Some(&json!("a string")), "{free:?}");

    assert_eq!(
        output_issues(&call(&executor, "remote_bad_numbers").await),
        [
            (owned("[1]"), IssueKind::WrongType),
            (owned("[2]"), IssueKind::WrongType),
            (None, IssueKind::TooLong),
        ]
    );
    assert_eq!(
        output_issues(&call(&executor, "remote_count").await),
        [(None, IssueKind::BelowMinimum)]
    );
    assert_eq!(
        output_issues(&call(&executor, "remote_rows").await),
        [
            (owned("[1].id"), IssueKind::WrongType),
            (owned("[2].id"), IssueKind::MissingParameter),
        ]
    );
    // No `structuredContent` where the schema asks for one.
    assert_eq!(
        output_issues(&call(&executor, "remote_silent").await),
        [(None, IssueKind::MissingParameter)]
    );
}

/// A server whose one tool declares an `outputSchema` agentkit's validator cannot take.
#[derive(Clone)]
struct Unreadable;

impl ServerHandler for Unreadable {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema: JsonObject = serde_json::from_value(
            json!({"type": "array", "items": {"$ref": "https://example.com/item"}}),
        )
        .expect("JSON");
        let tool = McpToolInfo::new("fetch", "A tool.", JsonObject::new())
            .with_raw_output_schema(Arc::new(schema));
        let plain = McpToolInfo::new("plain", "A tool.", JsonObject::new());
        Ok(ListToolsResult::with_all_items(vec![tool, plain]))
    }
}

#[tokio::test]
async fn a_server_tool_whose_output_schema_cannot_be_compiled_is_refused_alone_saying_why() {
    let connection = connect(serve(Unreadable), ProtocolVersion::V_2026_07_28).await;
    let client = McpClient::from_connection(connection);
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("the listing succeeds");
    // Refused, not registered unvalidated; the server's other tool is registered all the same.
    assert_eq!(import.registered(), ["plain"]);
    let [refused] = import.refused() else {
        panic!("one tool refused: {import:?}");
    };
    assert_eq!(refused.name(), "fetch");
    assert!(matches!(refused.reason(), Refusal::Invalid(_)));
    let text = refused.to_string();
    assert!(text.contains("output_schema"), "{text}");
    assert!(text.contains("example.com"), "{text}");
    assert!(registry.lookup("fetch").is_none());
    assert!(registry.lookup("plain").is_some());
}
