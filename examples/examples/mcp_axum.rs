//! The README's example tools served over MCP from an axum application: the server's
//! streamable HTTP service mounted at `/mcp` in a `Router`, beside the application's own
//! routes.
//!
//! ```sh
//! cargo run -p agentkit-examples --example mcp_axum --features axum -- 127.0.0.1:8080
//! ```
//!
//! (Port 0 picks a free port; the endpoint is printed on stdout.) The service brings the
//! server's limits with it (`Host` and `Origin`, body size, sessions: see `McpServer`'s
//! "Limits"), so nothing in front of it needs to repeat them. With `McpServer::with_auth`,
//! route the protected resource metadata's path (`/.well-known/oauth-protected-resource`)
//! to the same service, for clients to find the authorization server.

use std::sync::Arc;
use std::time::Duration;

use agentkit_core::mcp::McpServer;
use agentkit_core::{BoxError, InMemoryCredentials, ToolExecutor, ToolRegistry};
use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt;

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
        .with_name("agentkit-axum-example", env!("CARGO_PKG_VERSION"))
        .with_timeout(Duration::from_secs(30));

    let app = Router::new()
        .route_service("/mcp", server.streamable_http_service())
        .route("/healthz", get(|| async { "ok" }));

    let address = std::env::args().nth(1);
    let listener =
        tokio::net::TcpListener::bind(address.as_deref().unwrap_or("127.0.0.1:8080")).await?;
    // The bound address (port 0 picks one), for whoever started us.
    println!("listening on http://{}/mcp", listener.local_addr()?);
    // TCP_NODELAY on every connection, as `McpServer::serve_http` sets it. An MCP answer is
    // written in more than one small segment (the headers, then each event of the stream),
    // and without it Nagle's algorithm holds the second until the client ACKs the first,
    // which the client delays by up to 40 ms: every call on a reused connection then takes
    // about 44 ms instead of a fraction of a millisecond. (axum 0.8 has no
    // `Serve::tcp_nodelay`; `tap_io` runs on each accepted stream.)
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, app).await?;
    Ok(())
}
