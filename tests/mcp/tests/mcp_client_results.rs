//! What the model sees of a remote tool's result, and what the application keeps: a server
//! (written here with rmcp, in process over a duplex stream) answers as the reference servers
//! do, the JSON of its `structuredContent` again as a text block (server-memory,
//! pretty-printed), its text wrapped in an object to fit an output schema (server-filesystem),
//! and blocks meant for the user alone (`annotations.audience: ["user"]`). The model reads
//! each piece of data once and nothing meant for the user; the application keeps every block.

use std::future::Future;

use agentkit_core::mcp::McpClient;
use agentkit_core::mcp::rmcp::model::{
    Annotations, CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities,
    ClientConfig, ContentBlock, Implementation, ListToolsResult, PaginatedRequestParams, Role,
    ServerCapabilities, ServerConfig, TextContent, Tool as McpToolInfo,
};
use agentkit_core::mcp::rmcp::service::RequestContext;
use agentkit_core::mcp::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use agentkit_core::{Content, JsonObject, ToolCall, ToolExecutor, ToolRegistry, ToolResult};
use serde_json::{Value, json};

use crate::mcp_support::PEER_TIMEOUT;

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// A server whose tools answer as the reference servers do.
#[derive(Clone)]
struct Repeats;

/// The knowledge graph `read_graph` answers with.
fn graph() -> Value {
    json!({"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}], "relations": []})
}

/// A text block for `audience`.
fn for_audience(text: &str, audience: Vec<Role>) -> ContentBlock {
    let mut annotations = Annotations::default();
    annotations.audience = Some(audience);
    let mut block = TextContent::new(text.to_owned());
    block.annotations = Some(annotations);
    ContentBlock::Text(block)
}

impl ServerHandler for Repeats {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = ["read_graph", "list_directory", "summary", "failing"]
            .into_iter()
            .map(|name| McpToolInfo::new(name, "A tool.", JsonObject::new()))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answer = match request.name.as_ref() {
            // server-memory: `JSON.stringify(graph, null, 2)` beside the graph.
            "read_graph" => {
                let text = serde_json::to_string_pretty(&graph()).expect("JSON");
                let mut answer = CallToolResult::success(vec![
                    ContentBlock::text(text),
                    for_audience("1 entity, shown to you", vec![Role::User]),
                ]);
                answer.structured_content = Some(graph());
                answer
            }
            // server-filesystem: the listing as text, and as `{content: text}`.
            "list_directory" => {
                let listing = "[FILE] a.txt\n[DIR] docs";
                let mut answer = CallToolResult::success(vec![ContentBlock::text(listing)]);
                answer.structured_content = Some(json!({ "content": listing }));
                answer
            }
            // A text that says more than the structured output: the model's.
            "summary" => {
                let mut answer = CallToolResult::success(vec![
                    ContentBlock::text("Two files; a.txt changed today."),
                    for_audience("for both", vec![Role::User, Role::Assistant]),
                ]);
                answer.structured_content = Some(json!({"files": 2}));
                answer
            }
            // The model reads an error's text, not what is meant for the user.
            _ => CallToolResult::error(vec![
                ContentBlock::text("the path does not exist"),
                for_audience("stack trace for the user", vec![Role::User]),
            ]),
        };
        Ok(answer.into())
    }
}

async fn executor() -> ToolExecutor {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = Repeats.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("results-test", "0.1.0"),
    );
    let connection = bounded(info.serve(client_io)).await.expect("handshake");
    let client = McpClient::from_connection(connection);
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    ToolExecutor::new(registry)
}

async fn call(executor: &ToolExecutor, name: &str) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, json!({})))).await
}

#[tokio::test]
async fn the_model_reads_repeated_data_once_and_nothing_meant_for_the_user() {
    let executor = executor().await;

    let graph_result = call(&executor, "read_graph").await;
    assert_eq!(graph_result.output(), Some(&graph()), "{graph_result:?}");
    assert!(graph_result.content().is_empty(), "{graph_result:?}");
    let model = graph_result.to_model_content();
    assert_eq!(
        model.matches("wrote the first program").count(),
        1,
        "{model}"
    );
    assert!(!model.contains("shown to you"), "{model}");
    // The application has both blocks, as sent.
    let app = graph_result.app_content();
    assert_eq!(app.len(), 2, "{app:?}");
    let repeated: Value = serde_json::from_str(app[0].as_text().expect("text")).expect("JSON");
    assert_eq!(repeated, graph());
    assert_eq!(app[1], Content::text("1 entity, shown to you"));

    let listing = call(&executor, "list_directory").await;
    let model = listing.to_model_content();
    assert_eq!(model.matches("a.txt").count(), 1, "{model}");
    assert_eq!(
        listing.app_content(),
        [Content::text("[FILE] a.txt\n[DIR] docs")]
    );

    let summary = call(&executor, "summary").await;
    assert_eq!(
        summary.content(),
        [
            Content::text("Two files; a.txt changed today."),
            Content::text("for both")
        ]
    );
    assert!(summary.app_content().is_empty());

    let failing = call(&executor, "failing").await;
    let model = failing.to_model_content();
    assert!(model.contains("the path does not exist"), "{model}");
    assert!(!model.contains("stack trace"), "{model}");
}
