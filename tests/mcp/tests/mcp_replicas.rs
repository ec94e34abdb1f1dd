//! Stateless replicas behind a real load balancer: three replica processes (the example
//! `examples/examples/mcp_replica.rs`) sharing a directory of deferred calls, behind nginx
//! started by the test, driven through it by the official MCP TypeScript SDK client. Calls
//! land on every replica; a replica killed while the client is connected costs no call; a
//! call deferred by one replica is resumed on another.
//!
//! Needs the peers (`npm ci --prefix tests/mcp-peers`) and nginx (`.ci/run` installs Debian's
//! `nginx-light`); without them, the test says so loudly and skips, and under CI it fails.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::Approval;
use agentkit_core::mcp::{DEFERRED_META, DeferredStore, DirectoryStore, RESUME_META};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};

use crate::mcp_support::{PEER_TIMEOUT, first_text, official_client, peers, system_program};

/// A replica process, and the lines it printed after its address: one per executor event,
/// such as `a tool.execution.deferred deploy`.
struct Replica {
    name: &'static str,
    child: Child,
    address: String,
    events: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    async fn start(name: &'static str, store: &Path) -> Replica {
        Replica::start_with(name, store, &[]).await
    }

    /// A replica started with `more` on its command line.
    async fn start_with(name: &'static str, store: &Path, more: &[&str]) -> Replica {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp_replica"))
            .args(["--name", name, "--http", "127.0.0.1:0", "--store"])
            .arg(store)
            .args(more)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the replica starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let first = tokio::time::timeout(PEER_TIMEOUT, lines.next_line())
            .await
            .expect("the replica prints its address in time")
            .expect("readable stdout")
            .expect("a first line");
        let address = first
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix("/mcp"))
            .unwrap_or_else(|| panic!("unexpected first line: {first:?}"))
            .to_owned();
        let events = Arc::<Mutex<Vec<String>>>::default();
        let collected = Arc::clone(&events);
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                collected
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(line);
            }
        });
        Replica {
            name,
            child,
            address,
            events,
        }
    }

    /// Whether the replica printed `event` for tool `tool`.
    fn saw(&self, event: &str, tool: &str) -> bool {
        let line = format!("{} tool.execution.{event} {tool}", self.name);
        self.events
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&line)
    }
}

/// A directory of its own under the system's temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("agentkit-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// nginx in front of `upstreams` (`host:port` each), round robin, in the foreground, as the
/// current user, with its configuration, pid, logs and temporary files in `dir`; and the URL
/// of the MCP endpoint through it. nginx ends when the `Child` is dropped.
///
/// Its access log, `dir/access.log`, has a line `STATUS UPSTREAMS` per request, where
/// UPSTREAMS lists each replica tried, in order (`127.0.0.1:1, 127.0.0.1:2`).
async fn load_balancer(nginx: &Path, dir: &Path, upstreams: &[&str]) -> (Child, String) {
    // nginx cannot report a port it picked: the test picks a free one, which another process
    // may take before nginx binds it; then nginx exits, and the test tries another.
    for _ in 0..5 {
        let port = {
            let probe = TcpListener::bind("127.0.0.1:0").await.unwrap();
            probe.local_addr().unwrap().port()
        };
        if let Some(started) = start_nginx(nginx, dir, upstreams, port).await {
            return started;
        }
    }
    panic!("nginx found no free port in 5 tries");
}

/// nginx listening on `port`, as [`load_balancer`] starts it, or `None` if the port was
/// taken.
async fn start_nginx(
    nginx: &Path,
    dir: &Path,
    upstreams: &[&str],
    port: u16,
) -> Option<(Child, String)> {
    let servers: String = upstreams
        .iter()
        .map(|address| format!("        server {address};\n"))
        .collect();
    let d = dir.display();
    // Passive failover: no `keepalive` to the replicas, so each request opens a connection,
    // and one to a dead replica is refused before anything is sent; `proxy_next_upstream`
    // passes the request to the next replica then, and on a 502 or 503, and
    // (`non_idempotent`) even a POST that a replica took and died on: every MCP request is a
    // POST, and here a call run twice does no harm. `proxy_buffering off` passes server-sent
    // events on as they come; `Host` is the client's, a loopback name the replicas accept.
    let conf = format!(
        "daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstream '$status $upstream_addr';
    access_log {d}/access.log upstream;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    upstream replicas {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Connection \"\";
            proxy_buffering off;
            proxy_next_upstream error timeout http_502 http_503 non_idempotent;
            proxy_connect_timeout 2s;
            proxy_read_timeout 60s;
        }}
    }}
}}
"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, conf).unwrap();
    let mut child = Command::new(nginx)
        .arg("-e")
        .arg(dir.join("error.log"))
        .arg("-p")
        .arg(dir)
        .arg("-c")
        .arg(&path)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("nginx starts");
    let address = format!("127.0.0.1:{port}");
    let deadline = tokio::time::Instant::now() + PEER_TIMEOUT;
    while TcpStream::connect(&address).await.is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            let log = std::fs::read_to_string(dir.join("error.log")).unwrap_or_default();
            if log.contains("Address already in use") {
                return None;
            }
            panic!("nginx exited ({status}):\n{log}");
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "nginx did not listen in time"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Some((child, format!("http://{address}/mcp")))
}

/// The replica named by the output of each of `calls`, each of which must have succeeded
/// (`replica` and `deploy` both name the replica that ran them).
fn replicas_named(calls: &[Value]) -> Vec<String> {
    calls
        .iter()
        .map(|call| {
            let result = &call["result"];
            assert_eq!(result["isError"], false, "{call}");
            let output: Value = serde_json::from_str(first_text(result)).unwrap();
            output["replica"].as_str().expect("a replica").to_owned()
        })
        .collect()
}

/// Waits until `condition` holds; fails the test, saying `what`, if it does not within a
/// generous time.
async fn eventually(what: &str, condition: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + PEER_TIMEOUT;
    while !condition() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not so in time: {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// Runs the official client on `calls`, one of which is a pause (see `client.mjs`): at the
/// pause, runs `at_pause`, then lets the client go on. Returns what the client saw.
async fn official_client_with_pause(
    peers: &Path,
    calls: &Value,
    url: &str,
    at_pause: impl AsyncFnOnce(),
) -> Value {
    let mut child = Command::new("node")
        .arg(peers.join("client.mjs"))
        .args(["http", &calls.to_string(), url])
        .current_dir(peers)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs");
    let mut stderr = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut before = Vec::new();
    let paused = tokio::time::timeout(PEER_TIMEOUT, async {
        while let Some(line) = stderr.next_line().await.unwrap() {
            if line == "paused" {
                return true;
            }
            before.push(line);
        }
        false
    })
    .await
    .expect("the official client pauses in time");
    assert!(
        paused,
        "the client ended before its pause:\n{}",
        before.join("\n")
    );
    at_pause().await;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"go on\n").await.unwrap();
    // Nothing more is to come: a second pause would go on at once rather than hang.
    drop(stdin);
    let mut stdout = String::new();
    let mut rest = String::new();
    let mut out = child.stdout.take().unwrap();
    let mut err = stderr.into_inner();
    let finished = async {
        let (read, _) = tokio::join!(
            out.read_to_string(&mut stdout),
            err.read_to_string(&mut rest)
        );
        read.unwrap();
        child.wait().await.unwrap()
    };
    let status = tokio::time::timeout(PEER_TIMEOUT, finished)
        .await
        .expect("the official client finishes in time");
    assert!(
        status.success(),
        "the official client failed ({status}):\n{stdout}\n{rest}"
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stateless_replicas_behind_nginx_answer_every_call_and_resume_deferred_calls_on_any() {
    let Some(peers) = peers() else { return };
    let Some(nginx) = system_program("nginx", "the load balancer in front of the replicas") else {
        return;
    };
    let dir = TempDir::new("replicas");
    let store = DirectoryStore::new(dir.0.join("deferred")).unwrap();
    let mut replicas = Vec::new();
    for name in ["a", "b", "c"] {
        replicas.push(Replica::start(name, &dir.0.join("deferred")).await);
    }
    let upstreams: Vec<&str> = replicas.iter().map(|r| r.address.as_str()).collect();
    let nginx_dir = dir.0.join("nginx");
    std::fs::create_dir_all(&nginx_dir).unwrap();
    let (_nginx, url) = load_balancer(&nginx, &nginx_dir, &upstreams).await;

    // Calls land on every replica, and a deploy is deferred by one of them.
    let replica_call = json!({"name": "replica", "arguments": {}});
    let deploy = json!({"name": "deploy", "arguments": {"service": "web"}});
    let mut calls = vec![replica_call.clone(); 9];
    calls.push(deploy.clone());
    let seen = official_client(&peers, &json!(calls), &["http", &url]).await;
    let results = seen["calls"].as_array().expect("calls");
    let named = replicas_named(&results[..9]);
    for replica in &replicas {
        let answered = named.iter().filter(|name| *name == replica.name).count();
        assert!(
            answered > 0,
            "replica {} answered no call: {named:?}",
            replica.name
        );
    }
    // `isError`: deploy declares an output schema, which a call that has not run cannot match.
    let deferred = &results[9]["result"];
    assert_eq!(deferred["isError"], true, "{deferred}");
    assert!(deferred.get("structuredContent").is_none(), "{deferred}");
    let id = deferred["_meta"][DEFERRED_META]
        .as_str()
        .unwrap_or_else(|| panic!("a deferred call's id: {deferred}"))
        .to_owned();
    // Its replica printed the event before it answered; the test reads it a moment later.
    let deferred_by = || -> Vec<usize> {
        (0..replicas.len())
            .filter(|&i| replicas[i].saw("deferred", "deploy"))
            .collect()
    };
    eventually("a replica says it deferred the call", || {
        !deferred_by().is_empty()
    })
    .await;
    let [deferrer] = deferred_by()[..] else {
        panic!("one replica deferred the call: {:?}", deferred_by());
    };

    // One client across the death of the replica that deferred the call: an undecided resume
    // still waits; then, paused between two calls, the test decides the call and kills that
    // replica; every later call succeeds, the resume on another replica.
    let mut resume = deploy.clone();
    resume["_meta"] = json!({ (RESUME_META): id });
    let mut calls = vec![replica_call.clone(); 3];
    calls.extend([resume.clone(), json!({"pause": true}), resume]);
    calls.extend(vec![replica_call; 30]);
    let killed = replicas[deferrer].name;
    let killed_address = replicas[deferrer].address.clone();
    let access_log = nginx_dir.join("access.log");
    let mut logged_before_kill = 0;
    let seen = official_client_with_pause(&peers, &json!(calls), &url, async || {
        store.decide(&id, &Approval::Allow).unwrap();
        let replica = &mut replicas[deferrer];
        // SIGKILL, and waits until it is gone: its port refuses connections from now on.
        replica.child.kill().await.unwrap();
        logged_before_kill = std::fs::read_to_string(&access_log)
            .unwrap()
            .lines()
            .count();
    })
    .await;
    let results = seen["calls"].as_array().expect("calls");
    assert_eq!(results.len(), 35, "{seen}");
    replicas_named(&results[..3]);
    let waiting = &results[3]["result"];
    assert_eq!(waiting["isError"], true, "{waiting}");
    assert_eq!(waiting["_meta"][DEFERRED_META], id.as_str(), "{waiting}");

    let resumed = &results[4]["result"];
    assert_eq!(resumed["isError"], false, "{resumed}");
    let output: Value = serde_json::from_str(first_text(resumed)).unwrap();
    assert_eq!(output, resumed["structuredContent"], "{resumed}");
    assert_eq!(output["service"], "web", "{resumed}");
    let ran_on = output["replica"].as_str().unwrap();
    assert_ne!(ran_on, killed, "{resumed}");
    assert!(resumed["_meta"].get(DEFERRED_META).is_none(), "{resumed}");
    let runner = replicas.iter().find(|r| r.name == ran_on).unwrap();
    eventually("the replica says it ran the call", || {
        runner.saw("completed", "deploy")
    })
    .await;

    // Every call after the kill succeeded (`replicas_named` checks each), on the other two.
    let after = replicas_named(&results[5..]);
    for replica in &replicas {
        let answered = after.iter().filter(|name| *name == replica.name).count();
        if replica.name == killed {
            assert_eq!(answered, 0, "{after:?}");
        } else {
            assert!(
                answered > 0,
                "replica {} answered no call: {after:?}",
                replica.name
            );
        }
    }
    assert_eq!(seen["errors"], json!([]), "{seen}");

    // And not by luck: nginx sent a request to the dead replica, and passed it on to a live
    // one, which answered.
    let log = std::fs::read_to_string(&access_log).unwrap();
    let failed_over = log.lines().skip(logged_before_kill).any(|line| {
        line.strip_prefix("200 ")
            .is_some_and(|tried| tried.starts_with(&format!("{killed_address}, ")))
    });
    assert!(
        failed_over,
        "no request failed over from {killed_address}:\n{log}"
    );
}

/// A `tools/call` of `params` to the replica at `address`, as a client of MCP 2026-07-28
/// that can ask its user sends it (no session: what it declares is in the request); the
/// JSON-RPC response.
async fn call_2026(address: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "replica-test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    });
    let name = params["name"].as_str().unwrap().to_owned();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let response = reqwest::Client::new()
        .post(format!("http://{address}/mcp"))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .header("MCP-Protocol-Version", "2026-07-28")
        .header("Mcp-Method", "tools/call")
        .header("Mcp-Name", name)
        .body(body.to_string())
        .send()
        .await
        .expect("the replica answers");
    let text = response.text().await.unwrap();
    // A JSON body, or server-sent events whose `data` is the response.
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .unwrap_or(&text);
    serde_json::from_str(json.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_waiting_for_its_client_takes_its_next_round_on_any_replica_with_the_key() {
    let dir = TempDir::new("input-rounds");
    let store = dir.0.join("deferred");
    let key = ["--state-key", "the replicas' shared key, 32 bytes or more"];
    let a = Replica::start_with("a", &store, &key).await;
    let b = Replica::start_with("b", &store, &key).await;
    let other = ["--state-key", "another deployment's key, as long as that"];
    let c = Replica::start_with("c", &store, &other).await;

    // Round 1 on replica a: the question, and the state.
    let first = call_2026(&a.address, json!({"name": "greet", "arguments": {}})).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let requests = result["inputRequests"].as_object().expect("input requests");
    assert_eq!(requests.len(), 1, "{first}");
    let (question, request) = requests.iter().next().unwrap();
    assert_eq!(request["method"], "elicitation/create", "{first}");
    let state = result["requestState"].as_str().expect("a requestState");

    // The retry on replica b, which kept nothing of round 1: the state carries the call.
    let retry = json!({
        "name": "greet",
        "arguments": {},
        "inputResponses": {question: {"action": "accept", "content": {"name": "Ada"}}},
        "requestState": state,
    });
    let second = call_2026(&b.address, retry.clone()).await;
    let result = &second["result"];
    assert_eq!(result["isError"], false, "{second}");
    assert_eq!(
        result["structuredContent"],
        json!({"greeting": "Hello, Ada!", "replica": "b"}),
        "{second}"
    );
    eventually("replica b says it ran the call", || {
        b.saw("completed", "greet")
    })
    .await;
    assert!(!a.saw("completed", "greet"));

    // A replica with another key refuses the state.
    let refused = call_2026(&c.address, retry).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(!c.saw("completed", "greet"));
}
