//! `McpClient` honours the caching hints of MCP 2026-07-28 (SEP-2549): a tool list the server
//! says is fresh for a while (`ttlMs`) is reused within that time rather than asked for again,
//! and one that is stale at once (agentkit's default, `CacheHints::NONE`) is asked for each
//! time. Counted on agentkit's own server, in process: the `tools/list` requests it reads.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use agentkit_core::mcp::rmcp::ServiceExt;
use agentkit_core::mcp::rmcp::model::CacheScope;
use agentkit_core::mcp::{CacheHints, McpClient, McpServer};
use agentkit_core::{BoxError, Tool, ToolExecutor};
use agentkit_core::{JsonObject, ToolContext, ToolOutput, ToolRegistry, ToolSpec};
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream, ReadBuf};

use crate::mcp_support::PEER_TIMEOUT;

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// The server's end of the stream, counting the `tools/list` requests read through it (one
/// JSON message a line).
struct Counting {
    inner: DuplexStream,
    line: Vec<u8>,
    lists: Arc<AtomicUsize>,
}

impl AsyncRead for Counting {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        let read = buf.filled()[before..].to_vec();
        for byte in read {
            if byte == b'\n' {
                let line = std::mem::take(&mut self.line);
                let message: serde_json::Value = serde_json::from_slice(&line).unwrap_or_default();
                if message["method"] == "tools/list" {
                    self.lists.fetch_add(1, Ordering::SeqCst);
                }
            } else {
                self.line.push(byte);
            }
        }
        polled
    }
}

impl AsyncWrite for Counting {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

struct Noop(ToolSpec);

impl Tool for Noop {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok("done".into())
    }
}

/// A client of agentkit's server of one tool, whose lists carry `hints`, and the count of
/// the `tools/list` requests the server read.
async fn connect(hints: CacheHints) -> (McpClient, Arc<AtomicUsize>) {
    let mut registry = ToolRegistry::new();
    registry
        .register(Noop(ToolSpec::builder("noop").build().unwrap()))
        .unwrap();
    let server = McpServer::new(Arc::new(ToolExecutor::new(registry))).with_cache_hints(hints);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let lists = Arc::new(AtomicUsize::new(0));
    let counting = Counting {
        inner: server_io,
        line: Vec::new(),
        lists: Arc::clone(&lists),
    };
    tokio::spawn(async move {
        if let Ok(running) = server.serve(counting).await {
            let _ = running.waiting().await;
        }
    });
    let client = bounded(McpClient::builder().connect_transport(client_io))
        .await
        .expect("connects");
    assert_eq!(client.protocol_version().as_deref(), Some("2026-07-28"));
    (client, lists)
}

#[tokio::test]
async fn a_tool_list_is_reused_within_its_time_to_live() {
    for scope in [CacheScope::Public, CacheScope::Private] {
        let (client, lists) = connect(CacheHints::new(Duration::from_secs(600), scope)).await;
        let listed = bounded(client.tools(Some("a_"))).await.expect("lists");
        assert_eq!(listed.tools().len(), 1);
        let mut registry = ToolRegistry::new();
        let import = bounded(client.register_tools(&mut registry, None))
            .await
            .expect("registers");
        assert_eq!(import.registered(), ["noop"]);
        let again = bounded(client.tools(Some("b_"))).await.expect("lists");
        assert_eq!(again.tools()[0].remote_name(), "noop");
        assert_eq!(lists.load(Ordering::SeqCst), 1, "{scope:?}");
    }
}

#[tokio::test]
async fn a_list_stale_at_once_is_asked_for_each_time() {
    let (client, lists) = connect(CacheHints::NONE).await;
    for _ in 0..3 {
        bounded(client.tools(None)).await.expect("lists");
    }
    assert_eq!(lists.load(Ordering::SeqCst), 3);
}
