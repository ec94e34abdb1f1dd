//! What the MCP interoperability tests share: finding the peers (the official MCP SDK client
//! and the reference server, installed by `npm ci --prefix tests/mcp-peers`), running them
//! with bounded waits, and the example server's binary.

#![allow(dead_code, unreachable_pub)] // each test file uses a part

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long any one peer may take before the test fails instead of hanging.
pub const PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// The `tests/mcp-peers` directory, when its `node_modules` are installed.
///
/// Missing peers fail the test with a loud message, unless `AGENTKIT_SKIP_MCP_PEERS=1`, in
/// which case this prints a loud skip line and returns `None`.
pub fn peers() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-peers");
    let installed = ["sdk", "server-everything"].iter().all(|p| {
        dir.join("node_modules/@modelcontextprotocol")
            .join(p)
            .is_dir()
    });
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if installed && node {
        return Some(dir);
    }
    let missing = if node {
        "the MCP peers are not installed: run `npm ci --prefix tests/mcp-peers` (`.ci/run` does)"
    } else {
        "Node.js (`node`, version 20 or later) is not on PATH; install it, then run \
         `npm ci --prefix tests/mcp-peers`"
    };
    if std::env::var("AGENTKIT_SKIP_MCP_PEERS").as_deref() == Ok("1") {
        eprintln!(
            "\n!!! SKIPPED MCP interoperability test (AGENTKIT_SKIP_MCP_PEERS=1): {missing}\n"
        );
        return None;
    }
    panic!(
        "\n\n!!! {missing}.\n!!! (Set AGENTKIT_SKIP_MCP_PEERS=1 to skip the MCP interoperability tests.)\n"
    );
}

/// The example MCP server (`examples/examples/mcp_server.rs`), built as a binary of this crate.
pub fn example_server() -> &'static str {
    env!("CARGO_BIN_EXE_mcp_server")
}

/// The reference server's entry point, to run with `node <it> stdio`.
pub fn everything_server(peers: &Path) -> PathBuf {
    peers.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// Runs the official MCP TypeScript SDK client (`client.mjs`): it connects over `transport`
/// (`["stdio", command, args...]` or `["http", url]`), lists the tools, makes `calls`, and
/// reports what it saw as `{"server", "tools", "calls": [{"result"} | {"error"}]}`.
pub async fn official_client(peers: &Path, calls: &Value, transport: &[&str]) -> Value {
    let (mode, target) = transport.split_first().expect("a transport");
    let run = Command::new("node")
        .arg(peers.join("client.mjs"))
        .arg(mode)
        .arg(calls.to_string())
        .args(target)
        .current_dir(peers)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(PEER_TIMEOUT, run)
        .await
        .expect("the official MCP client did not finish in time")
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the official MCP client failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The example server over streamable HTTP on a free loopback port, and its URL. The process
/// ends when the `Child` is dropped.
pub async fn example_server_over_http() -> (Child, String) {
    let mut child = Command::new(example_server())
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the example server starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut line = String::new();
    tokio::time::timeout(PEER_TIMEOUT, BufReader::new(stdout).read_line(&mut line))
        .await
        .expect("the example server did not print its address in time")
        .expect("the example server's stdout is readable");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (child, url)
}

/// The text of the first content block of an MCP tool result.
pub fn first_text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content in {result}"))
}
