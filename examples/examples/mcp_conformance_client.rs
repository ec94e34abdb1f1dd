//! An MCP client written with agentkit, for the client scenarios of the official MCP
//! conformance suite (`@modelcontextprotocol/conformance`): the suite starts a server of its
//! own for a scenario, then runs this program with the server's URL as the last argument and
//! the scenario's name in `MCP_CONFORMANCE_SCENARIO`.
//!
//! ```sh
//! npx @modelcontextprotocol/conformance client --scenario tools_call \
//!     --command "cargo run -q --example mcp_conformance_client --features mcp --"
//! ```
//!
//! (`cargo test --workspace` runs the scenarios `initialize`, `tools_call` and `sse-retry`
//! this way; see `tests/mcp/tests/conformance.rs`.)
//!
//! It is how an agent uses a remote server's tools: [`McpClient`] connects and registers
//! them in a [`ToolRegistry`], and the [`ToolExecutor`] over it validates and calls them
//! like any other tool.

use agentkit_core::mcp::McpClient;
use agentkit_core::serde_json::json;
use agentkit_core::{BoxError, ToolCall, ToolExecutor, ToolRegistry};

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let url = std::env::args()
        .next_back()
        .filter(|url| url.starts_with("http"))
        .ok_or("usage: mcp_conformance_client URL (with MCP_CONFORMANCE_SCENARIO set)")?;
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();

    // Connecting is the `initialize` handshake; listing the tools follows it.
    let client = McpClient::connect_http(&url).await?;
    let mut registry = ToolRegistry::new();
    let tools = client.register_tools(&mut registry, None).await?;
    println!("connected to {url}; tools: {tools:?}");
    let executor = ToolExecutor::new(registry);

    // What each scenario expects the client to call.
    let call = match scenario.as_str() {
        // The handshake is all: done.
        "initialize" => None,
        "tools_call" => Some(ToolCall::new(
            "call_1",
            "add_numbers",
            json!({"a": 5, "b": 3}),
        )),
        // The server closes the call's SSE stream before it answers; the answer comes on the
        // stream the client reopens after the `retry` delay the server gave (SEP-1699).
        "sse-retry" => Some(ToolCall::new("call_1", "test_reconnection", json!({}))),
        other => return Err(format!("no steps for the scenario '{other}'").into()),
    };
    if let Some(call) = call {
        let result = executor.dispatch(&call).await;
        println!("{}: {}", call.name(), result.to_model_content());
        if let Some(error) = result.error() {
            return Err(format!("{} failed: {error}", call.name()).into());
        }
    }
    Ok(())
}
