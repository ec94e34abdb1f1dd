//! A server with sessions (the default HTTP mode), its session cap and idle expiry set from the
//! command line, for `tests/mcp_session_memory.rs` to flood with `initialize` requests and read
//! the memory of:
//!
//! ```sh
//! mcp_flood_target --max-sessions 1000 --idle-ms 2000 --http 127.0.0.1:0
//! ```
//!
//! It prints `listening on http://ADDRESS/mcp` once it serves.

use std::sync::Arc;
use std::time::Duration;

use agentkit_core::mcp::McpServer;
use agentkit_core::{BoxError, ToolExecutor, ToolRegistry};

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    const USAGE: &str = "usage: mcp_flood_target --max-sessions N --idle-ms MS --http ADDRESS:PORT";
    let (mut max, mut idle, mut address) = (None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        match flag.as_str() {
            "--max-sessions" => max = Some(value.parse::<usize>()?),
            "--idle-ms" => idle = Some(Duration::from_millis(value.parse()?)),
            "--http" => address = Some(value),
            _ => return Err(USAGE.into()),
        }
    }
    let (Some(max), Some(idle), Some(address)) = (max, idle, address) else {
        return Err(USAGE.into());
    };
    let server = McpServer::new(Arc::new(ToolExecutor::new(ToolRegistry::new())))
        .with_max_sessions(max)
        .with_session_idle_timeout(idle);
    let listener = tokio::net::TcpListener::bind(address.as_str()).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    server.serve_http(listener).await;
    Ok(())
}
