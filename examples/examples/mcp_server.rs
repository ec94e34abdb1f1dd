//! The README's example tools, served to any MCP client (Claude Desktop, an IDE, the MCP
//! Inspector, another agent).
//!
//! Over stdio (what a host starts as a child process):
//!
//! ```sh
//! cargo run --example mcp_server --features mcp
//! ```
//!
//! Over streamable HTTP on a loopback address (port 0 picks a free port; the address is
//! printed on stdout, the endpoint is any path such as `/mcp`):
//!
//! ```sh
//! cargo run --example mcp_server --features mcp -- --http 127.0.0.1:8080
//! ```
//!
//! Every call goes through the executor: arguments are validated (a call with mistakes comes
//! back as one `isError` result listing every mistake), the weather key is resolved, the
//! output is validated. `convert_currency` asks the model to correct a currency it has no rate for ("XYZ").

use std::sync::Arc;
use std::time::Duration;

use agentkit_core::mcp::McpServer;
use agentkit_core::{BoxError, InMemoryCredentials, ToolExecutor, ToolRegistry};

mod tools;

use tools::{ConvertCurrency, FetchWeather};

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather)?;
    registry.register(ConvertCurrency {
        rates: vec![("EUR", 1.0), ("USD", 1.08), ("GBP", 0.85)],
    })?;
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-demo-not-a-real-key"))
        .build();
    let server = McpServer::new(Arc::new(executor))
        .with_name("agentkit-example", env!("CARGO_PKG_VERSION"))
        .with_timeout(Duration::from_secs(30));

    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            // Stdout carries the protocol; say hello on stderr.
            eprintln!("agentkit example MCP server on stdio");
            server.serve_stdio().await?;
        }
        [flag, address] if flag == "--http" => {
            let listener = tokio::net::TcpListener::bind(address.as_str()).await?;
            // The bound address (port 0 picks one), for whoever started us.
            println!("listening on http://{}/mcp", listener.local_addr()?);
            server.serve_http(listener).await;
        }
        _ => return Err("usage: mcp_server [--http ADDRESS:PORT]".into()),
    }
    Ok(())
}
