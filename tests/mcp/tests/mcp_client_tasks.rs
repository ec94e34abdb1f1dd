//! `McpClient` calling tools its server runs as tasks.
//!
//! MCP 2026-07-28's `io.modelcontextprotocol/tasks` extension (SEP-2663), against agentkit's
//! own `McpServer` in process (and over streamable HTTP): a tool that needs a task is
//! imported and called as one (the client declares the extension, polls `tasks/get` and
//! reads the result from the ended task), what the task asks the user is answered with
//! `tasks/update`, and a call the executor gives up on cancels its task with `tasks/cancel`.
//!
//! MCP 2025-11-25's tasks (SEP-1686), over stdio and over streamable HTTP: the reference
//! server's `simulate-research-query` (`execution.taskSupport: "required"`) called as a task,
//! its question answered on the way; and a tool that needs a task, of a server that does not
//! declare tasks, refused at import, over SSE and over JSON bodies (where the session the
//! second `initialize` opens is ended at once); what such a task reports
//! (progress, log messages) reaching the executor's observers; and the stdio server's process,
//! which the client starts itself to read these, asked to exit when the client goes. Needs
//! the peers
//! (`npm ci --prefix tests/mcp-peers`).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::rmcp::ServiceExt;
use agentkit_core::mcp::rmcp::model::{ElicitResult, ElicitationAction};
use agentkit_core::mcp::{McpClient, McpClientBuilder, McpServer, McpTool, Refusal};
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, ErrorKind, JsonObject, TaskSupport, Tool, ToolCall,
    ToolContext, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolResult, ToolSpec,
};
use serde_json::{Value, json};

use crate::mcp_support::{
    PEER_TIMEOUT, everything_server, everything_server_over_http,
    everything_server_over_http_answering_json, node_over_http, peers,
};

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// Answers with its arguments after `delay`; asks the user's name first when `asks`.
struct Job {
    spec: ToolSpec,
    delay: Duration,
    asks: bool,
}

impl Tool for Job {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let mut output = inputs.clone();
        if self.asks {
            let form = json!({"type": "object", "properties": {"name": {"type": "string"}}});
            let answer = ctx
                .elicit(ElicitationRequest::new("Your name?", form))
                .await?;
            let name = match answer {
                Elicitation::Accept(content) => content["name"].clone(),
                _ => json!("no answer"),
            };
            output.insert("name".into(), name);
        }
        tokio::time::sleep(self.delay).await;
        Ok(output.into())
    }
}

fn job(name: &'static str, delay: Duration, asks: bool) -> Job {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    Job {
        spec: ToolSpec::builder(name)
            .input_json_schema(schema)
            .task_support(TaskSupport::Required)
            .build()
            .expect("spec"),
        delay,
        asks,
    }
}

/// Events of the server's executor, as `"<event> <tool>"`.
type Events = Arc<Mutex<Vec<String>>>;

/// agentkit's server of `report` (a task, at once), `ask` (a task that asks the user's name)
/// and `stuck` (a task of an hour), every one `Required`, and its executor's events.
fn server() -> (McpServer, Events) {
    let mut registry = ToolRegistry::new();
    registry
        .register(job("report", Duration::ZERO, false))
        .unwrap();
    registry.register(job("ask", Duration::ZERO, true)).unwrap();
    let hour = Duration::from_secs(3600);
    registry.register(job("stuck", hour, false)).unwrap();
    let events = Events::default();
    let seen = Arc::clone(&events);
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            seen.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.tool_name()));
        })
        .build();
    (McpServer::new(Arc::new(executor)), events)
}

/// An executor (with `timeout`) over the tools of `client`, connected to [`server`].
async fn import(client: &McpClient, timeout: Duration) -> ToolExecutor {
    assert_eq!(client.protocol_version().as_deref(), Some("2026-07-28"));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    assert_eq!(import.registered(), ["report", "ask", "stuck"]);
    ToolExecutor::builder(registry)
        .default_timeout(timeout)
        .build()
}

/// [`server`] over an in-memory stream; the client connected with `builder`, and an executor
/// over its tools (with `timeout`).
async fn connect(
    builder: McpClientBuilder,
    timeout: Duration,
) -> (McpClient, ToolExecutor, Events) {
    let (server, events) = server();
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = bounded(builder.connect_transport(client_io))
        .await
        .expect("connects");
    let executor = import(&client, timeout).await;
    (client, executor, events)
}

async fn call(executor: &ToolExecutor, name: &str, arguments: Value) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, arguments))).await
}

fn seen(events: &Events, event: &str) -> bool {
    events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|seen| seen == event)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_task_is_called_as_one() {
    let (_client, executor, events) = connect(McpClient::builder(), PEER_TIMEOUT).await;
    // The server refuses a `Required` tool to a client without the extension (-32021): the
    // result proves the call ran as a task.
    let reported = call(&executor, "report", json!({"n": 7})).await;
    assert!(reported.is_success(), "{reported:?}");
    assert_eq!(reported.to_model_content(), r#"{"n":7}"#);
    assert!(
        seen(&events, "tool.execution.completed report"),
        "{events:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_task_is_called_as_one_over_streamable_http() {
    let (server, events) = server();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.serve_http_until(listener, async {
        let _ = stopped.await;
    }));
    let client = bounded(McpClient::connect_http(&url))
        .await
        .expect("connects");
    let executor = import(&client, PEER_TIMEOUT).await;
    let reported = call(&executor, "report", json!({"n": 3})).await;
    assert_eq!(reported.to_model_content(), r#"{"n":3}"#, "{reported:?}");
    assert!(
        seen(&events, "tool.execution.completed report"),
        "{events:?}"
    );
    let _ = stop.send(());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_task_asks_is_answered_by_the_application() {
    let builder = McpClient::builder().on_elicitation(|_| async {
        ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"}))
    });
    let (_client, executor, _) = connect(builder, PEER_TIMEOUT).await;
    let asked = call(&executor, "ask", json!({})).await;
    assert!(asked.is_success(), "{asked:?}");
    assert_eq!(asked.to_model_content(), r#"{"name":"Ada"}"#);

    // Without a handler the client declares no elicitation, so the tool cannot ask: its task
    // completes with the failed call (`isError`), rather than waiting for an answer.
    let (_client, executor, _) = connect(McpClient::builder(), PEER_TIMEOUT).await;
    let unasked = call(&executor, "ask", json!({})).await;
    assert_eq!(
        unasked.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Execution),
        "{unasked:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_the_executor_gives_up_on_cancels_its_task() {
    // The executor's deadline passes while the task runs (an hour): the call ends as timed
    // out, and the client cancels the task, which ends the server's call.
    let (_client, executor, events) = connect(McpClient::builder(), Duration::from_secs(2)).await;
    let stuck = call(&executor, "stuck", json!({})).await;
    assert_eq!(
        stuck.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Timeout)
    );
    bounded(async {
        while !seen(&events, "tool.execution.failed stuck") {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn the_reference_servers_task_only_tool_is_called_as_a_task() {
    let Some(peers) = peers() else { return };
    let mut command = tokio::process::Command::new("node");
    command.arg(everything_server(&peers)).arg("stdio");
    command.stderr(std::process::Stdio::null());
    research(|builder| builder.connect_stdio(command)).await;
}

#[tokio::test]
async fn the_reference_servers_task_only_tool_is_called_as_a_task_over_streamable_http() {
    let Some(peers) = peers() else { return };
    let (_server, url) = everything_server_over_http(&peers).await;
    research(|builder| async move { builder.connect_http(&url).await }).await;
}

/// The same, with the server answering each request with a JSON body rather than an SSE
/// stream: what it says of tasks in `initialize` and `tools/list` is read all the same. (Such
/// a server cannot ask anything in the middle of a request: the TypeScript SDK drops the
/// question, so only the plain call is made.)
#[tokio::test]
async fn the_reference_servers_task_only_tool_is_called_as_a_task_over_http_answering_json() {
    let Some(peers) = peers() else { return };
    let (_server, url) = everything_server_over_http_answering_json(&peers).await;
    research_asking(
        false,
        |builder| async move { builder.connect_http(&url).await },
    )
    .await;
}

/// Connects to the reference server with `connect`, and calls `simulate-research-query`, a
/// tool it runs only as a task, plainly and with a question on the way.
async fn research<F, Fut>(connect: F)
where
    F: FnOnce(McpClientBuilder) -> Fut,
    Fut: Future<Output = Result<McpClient, agentkit_core::mcp::McpError>>,
{
    research_asking(true, connect).await;
}

/// [`research`], the call with a question on the way made only when `asks`.
async fn research_asking<F, Fut>(asks: bool, connect: F)
where
    F: FnOnce(McpClientBuilder) -> Fut,
    Fut: Future<Output = Result<McpClient, agentkit_core::mcp::McpError>>,
{
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let builder = McpClient::builder().on_elicitation(move |request| {
        let message = serde_json::to_value(&request).expect("JSON")["message"].clone();
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(message);
        async {
            ElicitResult::new(ElicitationAction::Accept)
                .with_content(json!({"interpretation": "programming"}))
        }
    });
    let client = bounded(connect(builder))
        .await
        .expect("server-everything starts");
    assert_eq!(client.protocol_version().as_deref(), Some("2025-11-25"));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    assert!(
        import
            .registered()
            .iter()
            .any(|name| name == "simulate-research-query"),
        "{:?}",
        import.registered()
    );
    let executor = ToolExecutor::new(registry);

    // It runs only as a task: called as one, it goes through its four stages and answers.
    let plain = call(
        &executor,
        "simulate-research-query",
        json!({"topic": "rust"}),
    )
    .await;
    assert!(plain.is_success(), "{plain:?}");
    let report = plain.to_model_content();
    assert!(report.contains("# Research Report: rust"), "{report}");
    if !asks {
        return;
    }

    // An ambiguous query: the task asks which meaning, through `tasks/result`, and the
    // application's answer shapes the report.
    let ambiguous = json!({"topic": "python", "ambiguous": true});
    let clarified = call(&executor, "simulate-research-query", ambiguous).await;
    assert!(clarified.is_success(), "{clarified:?}");
    let report = clarified.to_model_content();
    assert!(report.contains("python (programming)"), "{report}");
    let asked = asked.lock().unwrap().clone();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0].as_str().is_some_and(|m| m.contains("python")),
        "{asked:?}"
    );
}

/// A server of 2025-11-25 over stdio (a few lines of JavaScript), listing `research`, which
/// needs a task, and `echo`, with no tasks capability.
const NO_TASKS_SERVER: &str = r#"
const readline = require("node:readline");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
// Told to exit by its stdin closing: says so in the file named by its argument, if any.
process.stdin.on("end", () => {
  if (process.argv[1]) require("node:fs").writeFileSync(process.argv[1], "ended");
  process.exit(0);
});
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const schema = { type: "object" };
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-11-25",
      capabilities: { tools: {} }, serverInfo: { name: "no-tasks", version: "1" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [
      { name: "research", inputSchema: schema, execution: { taskSupport: "required" } },
      { name: "echo", inputSchema: schema, execution: { taskSupport: "forbidden" } } ] } });
  } else {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  }
});
"#;

#[tokio::test]
async fn a_tool_that_needs_tasks_the_server_does_not_declare_is_refused_at_import() {
    let Some(_) = peers() else { return };
    let client = connect_over_stdio(NO_TASKS_SERVER).await;
    research_is_refused_at_import(&client).await;
}

/// A client of the server over stdio that `node -e <script>` is.
async fn connect_over_stdio(script: &str) -> McpClient {
    let mut command = tokio::process::Command::new("node");
    command.args(["-e", script]);
    bounded(McpClient::connect_stdio(command))
        .await
        .expect("the server starts")
}

/// A client of the server over streamable HTTP that `node -e <script> <args>...` starts
/// (`script_and_args`), and the server's process, which ends when dropped.
async fn connect_to_script(script_and_args: &[&str]) -> (tokio::process::Child, McpClient) {
    let mut command = tokio::process::Command::new("node");
    command.arg("-e").args(script_and_args);
    let (server, url) = node_over_http(command).await;
    let client = bounded(McpClient::connect_http(&url))
        .await
        .expect("connects");
    (server, client)
}

/// `client`'s server, of 2025-11-25, lists `research`, which needs a task, and `echo`, and
/// declares no tasks: `echo` is registered, `research` refused, saying why.
async fn research_is_refused_at_import(client: &McpClient) {
    assert_eq!(client.protocol_version().as_deref(), Some("2025-11-25"));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.registered(), ["echo"]);
    let [refused] = import.refused() else {
        panic!("one tool refused: {:?}", import.refused());
    };
    assert_eq!(refused.name(), "research");
    assert_eq!(refused.reason(), &Refusal::TaskRequired);
    assert!(
        refused.to_string().contains("runs only as a task"),
        "{refused}"
    );
    assert!(registry.lookup("research").is_none());
}

/// A server of 2025-11-25 over streamable HTTP (a few lines of JavaScript, on Node.js's own
/// HTTP server, on a free port), listing `research`, which needs a task, and `echo`, with no
/// tasks capability; it answers each request with an SSE stream of one event, as the
/// TypeScript SDK's servers do (with the argument `json`, with a JSON body, as they do with
/// `enableJsonResponse`), and knows no `server/discover`.
const NO_TASKS_HTTP_SERVER: &str = r#"
const http = require("node:http");
const schema = { type: "object" };
const answer = (m) => {
  if (m.method === "initialize") {
    return { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} },
      serverInfo: { name: "no-tasks", version: "1" } } };
  } else if (m.method === "tools/list") {
    return { result: { tools: [
      { name: "research", inputSchema: schema, execution: { taskSupport: "required" } },
      { name: "echo", inputSchema: schema, execution: { taskSupport: "forbidden" } } ] } };
  }
  return { error: { code: -32601, message: "Method not found" } };
};
const server = http.createServer((req, res) => {
  if (req.method !== "POST") return res.writeHead(405).end();
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const m = JSON.parse(body);
    if (m.id === undefined) return res.writeHead(202).end();
    const reply = JSON.stringify({ jsonrpc: "2.0", id: m.id, ...answer(m) });
    if (process.argv[1] === "json") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(reply);
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`event: message\ndata: ${reply}\n\n`);
  });
});
server.listen(0, "127.0.0.1", () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`));
"#;

#[tokio::test]
async fn a_tool_that_needs_tasks_the_server_does_not_declare_is_refused_at_import_over_http() {
    let Some(_) = peers() else { return };
    let (_server, client) = connect_to_script(&[NO_TASKS_HTTP_SERVER]).await;
    research_is_refused_at_import(&client).await;
}

#[tokio::test]
async fn a_tool_that_needs_tasks_the_server_does_not_declare_is_refused_at_import_answering_json() {
    let Some(_) = peers() else { return };
    let (_server, client) = connect_to_script(&[NO_TASKS_HTTP_SERVER, "json"]).await;
    research_is_refused_at_import(&client).await;
}

#[tokio::test]
async fn the_stdio_server_is_asked_to_exit_when_the_client_goes() {
    let Some(_) = peers() else { return };
    let ended = std::env::temp_dir().join(format!("agentkit-stdio-exit-{}", std::process::id()));
    let _ = std::fs::remove_file(&ended);
    let mut command = tokio::process::Command::new("node");
    command.args(["-e", NO_TASKS_SERVER]).arg(&ended);
    let client = bounded(McpClient::connect_stdio(command))
        .await
        .expect("the server starts");
    bounded(client.tools(None)).await.expect("lists");
    assert!(!ended.exists());
    drop(client);
    // Its stdin closed, the server exits on its own (else it is killed, and writes nothing).
    bounded(async {
        while !ended.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let _ = std::fs::remove_file(&ended);
}

/// A server of 2025-11-25 over stdio (a few lines of JavaScript) that runs `count` only as a
/// task and reports on it: progress 1 of 2 with the `tools/call` request's token and a log
/// message before it answers that call with the task, and progress 2 of 2 before it answers
/// the `tasks/get` that finds the task completed.
const REPORTING_TASK_SERVER: &str = r#"
const readline = require("node:readline");
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const progress = (progressToken, progress) =>
  send({ jsonrpc: "2.0", method: "notifications/progress",
    params: { progressToken, progress, total: 2 } });
let token;
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const task = { taskId: "t1", status: "working", pollInterval: 10,
    createdAt: new Date().toISOString(), lastUpdatedAt: new Date().toISOString(), ttl: 60000 };
  let result;
  if (m.method === "initialize") {
    result = { protocolVersion: "2025-11-25",
      capabilities: { tools: {}, logging: {}, tasks: { requests: { tools: { call: {} } } } },
      serverInfo: { name: "reporting", version: "1" } };
  } else if (m.method === "tools/list") {
    result = { tools: [{ name: "count", inputSchema: { type: "object" },
      execution: { taskSupport: "required" } }] };
  } else if (m.method === "tools/call" && m.params.task) {
    token = m.params._meta && m.params._meta.progressToken;
    progress(token, 1);
    send({ jsonrpc: "2.0", method: "notifications/message",
      params: { level: "info", data: "counting" } });
    result = { task };
  } else if (m.method === "tasks/get") {
    progress(token, 2);
    result = { ...task, status: "completed" };
  } else if (m.method === "tasks/result") {
    result = { content: [{ type: "text", text: "counted to 2" }] };
  } else {
    return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  }
  send({ jsonrpc: "2.0", id: m.id, result });
});
"#;

#[tokio::test]
async fn what_a_task_of_2025_11_25_reports_reaches_the_observers() {
    let Some(_) = peers() else { return };
    let client = connect_over_stdio(REPORTING_TASK_SERVER).await;
    assert_eq!(client.protocol_version().as_deref(), Some("2025-11-25"));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.registered(), ["count"]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let observed = Arc::clone(&seen);
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            let entry = match event {
                ToolEvent::Progress { progress, .. } => {
                    format!("progress {} of {:?}", progress.progress(), progress.total())
                }
                ToolEvent::Log { message, .. } => format!("log {}", message.text()),
                ToolEvent::Completed { .. } => "completed".to_owned(),
                _ => return,
            };
            observed
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(entry);
        })
        .build();
    let counted = call(&executor, "count", json!({})).await;
    assert_eq!(counted.to_model_content(), "counted to 2", "{counted:?}");
    let seen = seen.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(
        seen,
        [
            "progress 1 of Some(2.0)",
            "log counting",
            "progress 2 of Some(2.0)",
            "completed"
        ]
    );
}

/// A server of 2025-11-25 over streamable HTTP that answers with JSON bodies and keeps
/// sessions: each `initialize` opens one, a `DELETE` ends it, and `tools/list` lists one tool
/// named after how many are open (`open_<n>`).
const SESSIONS_HTTP_SERVER: &str = r#"
const http = require("node:http");
const open = new Set();
let opened = 0;
const server = http.createServer((req, res) => {
  const session = req.headers["mcp-session-id"];
  if (req.method === "DELETE") {
    open.delete(session);
    return res.writeHead(200).end();
  }
  if (req.method !== "POST") return res.writeHead(405).end();
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const m = JSON.parse(body);
    if (m.id === undefined) return res.writeHead(202).end();
    const headers = { "content-type": "application/json" };
    let result;
    if (m.method === "initialize") {
      const id = `s${++opened}`;
      open.add(id);
      headers["mcp-session-id"] = id;
      result = { protocolVersion: "2025-11-25", capabilities: { tools: {} },
        serverInfo: { name: "sessions", version: "1" } };
    } else if (m.method === "tools/list") {
      result = { tools: [{ name: `open_${open.size}`, inputSchema: { type: "object" } }] };
    } else {
      return res.writeHead(200, headers).end(JSON.stringify({ jsonrpc: "2.0", id: m.id,
        error: { code: -32601, message: "Method not found" } }));
    }
    res.writeHead(200, headers).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
  });
});
server.listen(0, "127.0.0.1", () =>
  console.log(`listening on http://127.0.0.1:${server.address().port}/mcp`));
"#;

#[tokio::test]
async fn the_session_a_second_initialize_opens_is_ended_at_once() {
    let Some(_) = peers() else { return };
    let (_server, client) = connect_to_script(&[SESSIONS_HTTP_SERVER]).await;
    assert_eq!(client.protocol_version().as_deref(), Some("2025-11-25"));
    // The `initialize` answered with a JSON body was sent again to read it whole; the
    // session that opened is ended before the client goes on: one is open, the client's.
    let tools = bounded(client.tools(None)).await.expect("lists");
    let names: Vec<_> = tools.tools().iter().map(McpTool::remote_name).collect();
    assert_eq!(names, ["open_1"]);
}
