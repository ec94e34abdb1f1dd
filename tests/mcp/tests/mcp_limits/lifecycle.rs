//! Stateless serving, shutdown with a grace period, and a deferred call resumed on another replica.

use super::auth::authenticate;
use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_server_answers_calls_without_a_session() {
    let (address, _stop, _task) = serve(server(Arc::default()).stateless()).await;
    let answer = request(&address, "POST", &[("host", "127.0.0.1")], INITIALIZE).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert!(answer.header("mcp-session-id").is_none(), "{answer:?}");
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"whoami","arguments":{"n":1}}}"#;
    let answer = request(
        &address,
        "POST",
        &[
            ("host", "127.0.0.1"),
            ("mcp-protocol-version", "2025-06-18"),
        ],
        body,
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.output()["n"], 1, "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_lets_calls_finish_within_the_grace_period_then_cancels_them() {
    let events: Arc<Mutex<Vec<String>>> = Arc::default();
    let server = server(Arc::clone(&events)).with_shutdown_grace(Duration::from_millis(800));
    let (address, stop, task) = serve(server).await;
    let id = session(&address, &[]).await.unwrap();
    let slow = {
        let (address, id) = (address.clone(), id.clone());
        tokio::spawn(async move { call(&address, &id, "slow", "{}", &[]).await })
    };
    let stuck = {
        let (address, id) = (address.clone(), id.clone());
        tokio::spawn(async move { call(&address, &id, "stuck", "{}", &[]).await })
    };
    // Both calls have started before the shutdown.
    while events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| e.starts_with("tool.execution.started"))
        .count()
        < 2
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.send(()).unwrap();
    // No new connection is accepted once the server stops accepting.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TcpStream::connect(&address).await.is_err() || {
            let answer = tokio::time::timeout(Duration::from_secs(2), session(&address, &[])).await;
            !matches!(answer, Ok(Ok(_)))
        }
    );
    let slow = slow.await.unwrap();
    assert_eq!(slow.message()["result"]["isError"], false, "{slow:?}");
    let stuck = stuck.await.unwrap();
    let result = &stuck.message()["result"];
    assert_eq!(result["isError"], true, "{stuck:?}");
    tokio::time::timeout(Duration::from_secs(5), task)
        .await
        .expect("the server ends after its grace period")
        .unwrap();
    let events = events.lock().unwrap();
    assert!(
        events.contains(&"tool.execution.completed slow".to_owned()),
        "{events:?}"
    );
    assert!(
        events.contains(&"tool.execution.failed stuck".to_owned()),
        "{events:?}"
    );
}

/// Two replicas sharing a directory of deferred calls: a call deferred on one resumes on the
/// other once decided, once; a pending call says it still waits; another principal cannot
/// resume it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_deferred_on_one_replica_resumes_on_another() {
    use agentkit_core::mcp::{DeferredStore, DirectoryStore};
    let dir = std::env::temp_dir().join(format!("agentkit-deferred-{}", std::process::id()));
    let store = DirectoryStore::new(&dir).unwrap();
    let replica = || {
        let mut registry = ToolRegistry::new();
        registry
            .register(Whoami {
                spec: ToolSpec::builder("deploy")
                    .requires_approval()
                    .build()
                    .unwrap(),
                delay: Duration::ZERO,
            })
            .unwrap();
        // No approval policy: every call that needs approval is deferred.
        McpServer::new(Arc::new(ToolExecutor::new(registry)))
            .stateless()
            .with_auth(authenticate, ProtectedResource::new("http://127.0.0.1/mcp"))
            .with_deferred_store(store.clone())
    };
    let (a, _stop_a, _task_a) = serve(replica()).await;
    let (b, _stop_b, _task_b) = serve(replica()).await;
    let post = |address: String, body: String, token: &'static str| async move {
        let auth = format!("Bearer {token}");
        request(
            &address,
            "POST",
            &[
                ("host", "127.0.0.1"),
                ("mcp-protocol-version", "2025-06-18"),
                ("authorization", &auth),
            ],
            &body,
        )
        .await
        .message()
    };
    let deploy = |meta: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"deploy","arguments":{{"env":"prod"}}{meta}}}}}"#
        )
    };

    let deferred = post(a.clone(), deploy(""), "alice").await;
    let result = &deferred["result"];
    assert_eq!(result["isError"], false, "{deferred}");
    let id = result["_meta"]["io.agentkit/deferred"]
        .as_str()
        .expect("an id")
        .to_owned();
    let resume = format!(r#","_meta":{{"io.agentkit/resume":"{id}"}}"#);

    // Undecided: it still waits, under the same id.
    let waiting = post(b.clone(), deploy(&resume), "alice").await;
    assert_eq!(
        waiting["result"]["_meta"]["io.agentkit/deferred"],
        id.as_str(),
        "{waiting}"
    );
    // Another principal does not know of it.
    let other = post(b.clone(), deploy(&resume), "root").await;
    assert!(
        other["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no deferred call"),
        "{other}"
    );

    store.decide(&id, &Approval::Allow).unwrap();
    let resumed = post(b.clone(), deploy(&resume), "alice").await;
    let text = resumed["result"]["content"][0]["text"].as_str().unwrap();
    let output: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        output,
        json!({"env": "prod", "subject": "nobody"}),
        "{resumed}"
    );
    assert!(resumed["result"]["_meta"].is_null(), "{resumed}");
    // Once.
    let again = post(a.clone(), deploy(&resume), "alice").await;
    assert!(
        again["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no deferred call"),
        "{again}"
    );
    // An id that is not one of ours never reaches the file system.
    let forged = deploy(r#","_meta":{"io.agentkit/resume":"../../etc/passwd"}"#);
    let forged = post(a, forged, "alice").await;
    assert!(forged["error"].is_object(), "{forged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Answers `released` once the test lets it.
struct Held {
    spec: ToolSpec,
    release: Arc<tokio::sync::Notify>,
}

impl Tool for Held {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        self.release.notified().await;
        Ok("released".into())
    }
}

/// With other sessions live, a call's response headers wait for its first message, so that a
/// quick call goes out in one write; but only for a while: a call still running past it has
/// its headers and rmcp's priming event sent while it runs (here, it runs until the test has
/// read them), and its result follows on the same stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_call_gets_its_headers_while_it_runs_with_other_sessions_live() {
    const REVISION: &str = "2025-11-25";
    let release = Arc::new(tokio::sync::Notify::new());
    let spec = ToolSpec::builder("held").build().unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(Held {
            spec,
            release: Arc::clone(&release),
        })
        .unwrap();
    let (address, _stop, _task) =
        serve(McpServer::new(Arc::new(ToolExecutor::new(registry)))).await;
    let initialize = INITIALIZE.replace("2025-06-18", REVISION);
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let answer = request(&address, "POST", &[("host", "127.0.0.1")], &initialize).await;
        let id = answer
            .header("mcp-session-id")
            .expect("a session")
            .to_owned();
        let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        let headers = [
            ("host", "127.0.0.1"),
            ("mcp-session-id", id.as_str()),
            ("mcp-protocol-version", REVISION),
        ];
        assert_eq!(
            request(&address, "POST", &headers, initialized)
                .await
                .status,
            202
        );
        sessions.push(id);
    }

    let body =
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"held","arguments":{}}}"#;
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let text = format!(
        "POST /mcp HTTP/1.1\r\nconnection: close\r\nhost: 127.0.0.1\r\nmcp-session-id: {}\r\n\
         mcp-protocol-version: {REVISION}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n\r\n{body}",
        sessions[0],
        body.len()
    );
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut reader = BufReader::new(stream);
    // The tool runs until released: the headers must come without its result.
    let mut head = String::new();
    loop {
        let mut line = String::new();
        tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut line))
            .await
            .expect("the headers while the call runs")
            .unwrap();
        if line.trim_end().is_empty() {
            break;
        }
        head.push_str(&line);
    }
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("text/event-stream"), "{head}");
    release.notify_one();
    let mut rest = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), reader.read_to_end(&mut rest))
        .await
        .expect("the result once released")
        .unwrap();
    let rest = String::from_utf8_lossy(&rest);
    let data: Vec<&str> = rest
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .collect();
    // rmcp's priming event (no message), then the result.
    assert_eq!(data.first(), Some(&""), "{rest}");
    let result: Value = serde_json::from_str(data.last().expect("a result")).unwrap();
    assert_eq!(result["id"], 7, "{result}");
    assert_eq!(
        result["result"]["content"][0]["text"], "released",
        "{result}"
    );
}
