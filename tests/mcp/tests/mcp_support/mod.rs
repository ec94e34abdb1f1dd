//! What the MCP interoperability tests share: finding the peers (the official MCP SDK client,
//! the reference server and the conformance suite, pinned in `tests/mcp-peers`, installed on
//! first use), running them with bounded waits, and the example servers' binaries.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long any one peer may take before the test fails instead of hanging.
pub(crate) const PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// The `tests/mcp-peers` directory, with its pinned `node_modules` installed.
///
/// When the peers are missing and `npm` is on `PATH`, this installs them (`npm ci`, from the
/// committed lockfile) once, so `cargo test --workspace` works on a fresh clone. When Node.js
/// or npm is missing (the installer is unavailable), it prints a loud skip line and returns
/// `None`; `AGENTKIT_SKIP_MCP_PEERS=1` does the same on purpose. Under CI (`CI=true`, as CI
/// runs `.ci/run`), a missing Node.js or npm fails the test instead: `.ci/run` installs them,
/// and a skipped interoperability test there would pass unseen. A failed install fails the
/// test, with npm's output.
pub(crate) fn peers() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp-peers");
    if std::env::var("AGENTKIT_SKIP_MCP_PEERS").as_deref() == Ok("1") {
        return skip("AGENTKIT_SKIP_MCP_PEERS=1");
    }
    let unavailable = |why: &str| {
        assert!(
            !in_ci(),
            "\n!!! MCP interoperability test cannot run under CI: {why}\n"
        );
        skip(why)
    };
    if !runs("node") {
        return unavailable(
            "Node.js (`node`, version 20 or later) is not on PATH, so the official MCP client \
             and reference server cannot run; install Node.js to run these tests",
        );
    }
    if !installed(&dir) {
        if !runs("npm") {
            return unavailable(
                "the MCP peers are not installed and `npm` is not on PATH to install them; \
                 install npm, or run `npm ci --prefix tests/mcp-peers`",
            );
        }
        install(&dir);
    }
    Some(dir)
}

/// Prints a loud skip line and returns `None`.
fn skip<T>(why: &str) -> Option<T> {
    // Straight to the process's stderr: the test harness captures `eprintln!` of passing
    // tests, and a skip must be seen.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! SKIPPED MCP interoperability test: {why}\n"
    );
    None
}

/// Whether the tests run under CI (`CI` set to anything but `false` or `0`).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|ci| !ci.is_empty() && ci != "false" && ci != "0")
}

fn runs(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn installed(dir: &Path) -> bool {
    [
        "sdk",
        "server-everything",
        "conformance",
        "conformance-next",
    ]
    .iter()
    .all(|p| {
        dir.join("node_modules/@modelcontextprotocol")
            .join(p)
            .join("package.json")
            .is_file()
    }) && pinned_node(dir).is_file()
}

/// The Node.js that the conformance suite runs on (it needs version 22 or later), pinned in
/// `tests/mcp-peers` as the npm package `node`, whose install script fetches the binary for
/// this platform from the npm registry: the system's Node.js may be older.
pub(crate) fn pinned_node(peers: &Path) -> PathBuf {
    peers.join("node_modules/.bin/node")
}

/// The conformance suite's command line, run as `<pinned node> <it> server|client ...`;
/// panics, saying why, when the pinned Node.js does not run or is too old.
pub(crate) fn conformance_suite(peers: &Path) -> PathBuf {
    let node = pinned_node(peers);
    let version = std::process::Command::new(&node).arg("--version").output();
    let version = match &version {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        _ => panic!(
            "\n!!! {} does not run ({version:?}): the conformance suite needs the Node.js 22 \
             pinned in tests/mcp-peers; reinstall the peers (rm -rf tests/mcp-peers/node_modules \
             && npm ci --prefix tests/mcp-peers), with npm allowed to run the install script \
             of the package `node`\n",
            node.display()
        ),
    };
    let major: u32 = version
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|major| major.parse().ok())
        .unwrap_or(0);
    assert!(
        major >= 22,
        "\n!!! the conformance suite needs Node.js 22 or later; {} is {version}\n",
        node.display()
    );
    peers.join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
}

/// The command line of the conformance suite's next release, pinned beside the current one
/// under the alias `@modelcontextprotocol/conformance-next`, for the scenarios only it has;
/// checks the pinned Node.js as [`conformance_suite`] does.
pub(crate) fn conformance_next_suite(peers: &Path) -> PathBuf {
    conformance_suite(peers);
    peers.join("node_modules/@modelcontextprotocol/conformance-next/dist/index.js")
}

/// Runs `npm ci` in `dir`, once across the test threads and processes that need it: a lock
/// directory (created atomically) lets one install while the others wait for it.
fn install(dir: &Path) {
    static IN_PROCESS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = IN_PROCESS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let lock = dir.join(".install-lock");
    let deadline = std::time::Instant::now() + Duration::from_secs(300);
    while std::fs::create_dir(&lock).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "\n!!! waited 5 minutes for another process installing the MCP peers; remove {} if \
             none is running\n",
            lock.display()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let result = if installed(dir) {
        None
    } else {
        eprintln!(
            "installing the MCP peers: npm ci --prefix {}",
            dir.display()
        );
        Some(
            std::process::Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(dir)
                .output(),
        )
    };
    let _ = std::fs::remove_dir(&lock);
    if let Some(result) = result {
        let out = result.expect("npm runs");
        assert!(
            out.status.success() && installed(dir),
            "\n!!! `npm ci --prefix tests/mcp-peers` failed ({}):\n{}\n{}\n",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
    }
}

/// The conformance suite's servers for the client scenario `scenario`, started by the suite in
/// its interactive mode (no client command: it serves until stopped), and their URL, for a
/// test to connect its own client to. The suite ends when the `Child` is dropped.
pub(crate) async fn conformance_scenario_servers(peers: &Path, scenario: &str) -> (Child, String) {
    scenario_servers(peers, &conformance_suite(peers), scenario).await
}

/// [`conformance_scenario_servers`], of the suite's next release, for the scenarios only it
/// has (`auth/wif-jwt-bearer`).
pub(crate) async fn conformance_next_scenario_servers(
    peers: &Path,
    scenario: &str,
) -> (Child, String) {
    scenario_servers(peers, &conformance_next_suite(peers), scenario).await
}

async fn scenario_servers(peers: &Path, suite: &Path, scenario: &str) -> (Child, String) {
    let mut child = Command::new(pinned_node(peers))
        .arg(suite)
        .args(["client", "--scenario", scenario])
        .current_dir(peers)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the conformance suite starts");
    let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
    let url = tokio::time::timeout(PEER_TIMEOUT, async {
        while let Some(line) = lines
            .next_line()
            .await
            .expect("the suite's stdout is readable")
        {
            if let Some(url) = line.strip_prefix("Server URL: ") {
                return url.trim().to_owned();
            }
        }
        panic!("the conformance suite ended without printing its server's URL")
    })
    .await
    .expect("the conformance suite did not print its server's URL in time");
    (child, url)
}

/// The example MCP server (`examples/examples/mcp_server.rs`), built as a binary of this crate.
pub(crate) fn example_server() -> &'static str {
    env!("CARGO_BIN_EXE_mcp_server")
}

/// The reference server's entry point, to run with `node <it> stdio`.
pub(crate) fn everything_server(peers: &Path) -> PathBuf {
    peers.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// Runs `node` with the module `script` and `args` the way `node <script> <args>...` would,
/// with the port the server it starts listens on changed to a free one (`PORT=0`, and
/// `net.Server.listen` wrapped to say which): for the reference server, which listens on
/// `$PORT` and prints only the port it was given. With `ANSWER_JSON` set, the TypeScript SDK's
/// server transport is made to answer every request with a JSON body rather than an SSE
/// stream, as `enableJsonResponse: true` does (the reference server has no option for it);
/// run from the peers' directory then, whose SDK is the one the reference server loads.
const ON_A_FREE_PORT: &str = r#"
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () =>
    console.log(`listening on http://127.0.0.1:${this.address().port}/mcp`));
  return listen.apply(this, args);
};
const start = () => import(require("node:url").pathToFileURL(process.argv[1]).href);
if (process.env.ANSWER_JSON) {
  import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").then((sdk) => {
    const transport = sdk.WebStandardStreamableHTTPServerTransport.prototype;
    const handle = transport.handleRequest;
    transport.handleRequest = function (...args) {
      this._enableJsonResponse = true;
      return handle.apply(this, args);
    };
    return start();
  });
} else {
  start();
}
"#;

/// The reference server over streamable HTTP (`node <it> streamableHttp`) on a free port, and
/// its URL. The process ends when the `Child` is dropped.
pub(crate) async fn everything_server_over_http(peers: &Path) -> (Child, String) {
    node_over_http(everything_over_http(peers)).await
}

/// [`everything_server_over_http`], answering every request with a JSON body (the
/// TypeScript SDK's `enableJsonResponse`).
pub(crate) async fn everything_server_over_http_answering_json(peers: &Path) -> (Child, String) {
    let mut command = everything_over_http(peers);
    command.current_dir(peers).env("ANSWER_JSON", "1");
    node_over_http(command).await
}

fn everything_over_http(peers: &Path) -> Command {
    let mut command = Command::new("node");
    command
        .args(["-e", ON_A_FREE_PORT])
        .arg(everything_server(peers))
        .arg("streamableHttp")
        .env("PORT", "0")
        // It logs the port it was given (0) there.
        .stderr(Stdio::null());
    command
}

/// Starts `command`, a Node.js server over streamable HTTP that prints
/// `listening on <its URL>` on its stdout once it serves, and reads that URL.
pub(crate) async fn node_over_http(mut command: Command) -> (Child, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node starts");
    let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
    let url = tokio::time::timeout(PEER_TIMEOUT, async {
        loop {
            let line = lines
                .next_line()
                .await
                .expect("the server's stdout is readable");
            let line = line.expect("the server exited before it listened");
            if let Some(url) = line.strip_prefix("listening on ") {
                break url.to_owned();
            }
        }
    })
    .await
    .expect("the server did not print its URL in time");
    // Its further lines (the reference server logs each request) go nowhere, rather than
    // filling the pipe until the server blocks.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, url)
}

/// Runs the official MCP TypeScript SDK client (`client.mjs`): it connects over `transport`
/// (`["stdio", command, args...]` or `["http", url]`), lists the tools, makes `calls`, and
/// reports what it saw as `{"server", "tools", "calls": [{"result"} | {"error"}],
/// "progressNotifications", "errors"}`. A call with `"progress": true` asks for progress, and
/// its entry gets the notifications it was given as `"progress"` (see `client.mjs`).
pub(crate) async fn official_client(peers: &Path, calls: &Value, transport: &[&str]) -> Value {
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
pub(crate) async fn example_server_over_http() -> (Child, String) {
    server_over_http(example_server()).await
}

/// The conformance example server (`examples/examples/mcp_conformance/`) over streamable
/// HTTP on a free loopback port, and its URL. The process ends when the `Child` is dropped.
pub(crate) async fn conformance_server_over_http() -> (Child, String) {
    server_over_http(conformance_server()).await
}

/// The conformance example server's binary, to run over stdio (without arguments).
pub(crate) fn conformance_server() -> &'static str {
    env!("CARGO_BIN_EXE_mcp_conformance")
}

/// The example client for the conformance suite's client scenarios
/// (`examples/examples/mcp_conformance_client.rs`).
pub(crate) fn conformance_client() -> &'static str {
    env!("CARGO_BIN_EXE_mcp_conformance_client")
}

/// Starts `binary --http 127.0.0.1:0` and reads the URL it prints once it serves.
async fn server_over_http(binary: &str) -> (Child, String) {
    let mut child = Command::new(binary)
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
pub(crate) fn first_text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text content in {result}"))
}

/// The program `name`, from `PATH` or else from `/usr/sbin` and `/usr/local/sbin` (where
/// servers such as nginx are installed, often off a user's `PATH`). When it is missing, this
/// prints a loud skip line saying `why` the test needs it and returns `None`; under CI
/// (`CI=true`), it fails the test instead: `.ci/run` installs it.
pub(crate) fn system_program(name: &str, why: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file());
    if found.is_none() {
        let why = format!("`{name}` is not installed ({why}); install it to run this test");
        assert!(!in_ci(), "\n!!! test cannot run under CI: {why}\n");
        return skip(&why);
    }
    found
}
