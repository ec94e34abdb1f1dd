//! Tools run as tasks (MCP 2026-07-28's `io.modelcontextprotocol/tasks` extension, SEP-2663),
//! seen from a raw HTTP client: a task made at once and its result fetched with `tasks/get`,
//! a task cancelled with `tasks/cancel` (its call ending with its terminal event), a tool that
//! needs a task refused to a client without the extension, the cap on live tasks, another
//! principal's task unknown, and tools that are not tasks called plainly.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::{McpServer, Unauthorized};
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, JsonObject, Principal, TaskSupport, Tool,
    ToolContext, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// Answers with its arguments and the principal's subject, after `delay`.
struct Echo {
    spec: ToolSpec,
    delay: Duration,
}

impl Tool for Echo {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        tokio::time::sleep(self.delay).await;
        let mut output = inputs.clone();
        let subject = ctx.principal().map_or("nobody", Principal::subject);
        output.insert("subject".into(), json!(subject));
        Ok(output.into())
    }
}

/// `name`, whose `n`, when given, is an integer, declared to run as a task as `support` says.
fn echo(name: &'static str, delay: Duration, support: TaskSupport) -> Echo {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    Echo {
        spec: ToolSpec::builder(name)
            .input_json_schema(schema)
            .task_support(support)
            .build()
            .expect("spec"),
        delay,
    }
}

/// Asks the user two questions at once, and answers with what they said.
struct Ask {
    spec: ToolSpec,
}

impl Tool for Ask {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let form = json!({"type": "object", "properties": {"word": {"type": "string"}}});
        let (first, second) = tokio::join!(
            ctx.elicit(ElicitationRequest::new("First word?", form.clone())),
            ctx.elicit(ElicitationRequest::new("Second word?", form)),
        );
        let word = |answer: Elicitation| match answer {
            Elicitation::Accept(content) => content["word"].as_str().unwrap_or("?").to_owned(),
            _ => "no answer".to_owned(),
        };
        Ok(format!("{} {}", word(first?), word(second?)).into())
    }
}

/// Events as `"<event> <tool>"`.
type Events = Arc<Mutex<Vec<String>>>;

/// A server of `quick` (optional), `stuck` (an hour, optional), `only_task` (required),
/// `plain` (never a task) and `ask` (optional), whose events are collected: `quick` and
/// `only_task` declare it in their specs, the server says it for `stuck` and `ask`.
fn server(events: &Events) -> McpServer {
    let mut registry = ToolRegistry::new();
    let forbidden = TaskSupport::Forbidden;
    let quick = echo("quick", Duration::ZERO, TaskSupport::Optional);
    registry.register(quick).unwrap();
    let stuck = echo("stuck", Duration::from_secs(3600), forbidden);
    registry.register(stuck).unwrap();
    let only_task = echo("only_task", Duration::ZERO, TaskSupport::Required);
    registry.register(only_task).unwrap();
    let plain = echo("plain", Duration::ZERO, forbidden);
    registry.register(plain).unwrap();
    let ask = ToolSpec::builder("ask").build().unwrap();
    registry.register(Ask { spec: ask }).unwrap();
    let events = Arc::clone(events);
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            events
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.tool_name()));
        })
        .build();
    McpServer::new(Arc::new(executor))
        .with_task_support("stuck", TaskSupport::Optional)
        .with_task_support("ask", TaskSupport::Optional)
}

fn seen(events: &Events, event: &str) -> bool {
    events
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|seen| seen == event)
}

/// The server on a free loopback port: its URL, and the sender that shuts it down.
async fn serve(server: McpServer) -> (String, oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.serve_http_until(listener, async {
        let _ = stopped.await;
    }));
    (url, stop)
}

/// A client session over raw JSON-RPC: one that declared the tasks extension or not, with a
/// bearer token or not.
struct Client {
    http: reqwest::Client,
    url: String,
    session: String,
    token: Option<&'static str>,
    /// The server's answer to `initialize`.
    initialized: Value,
}

impl Client {
    async fn connect(url: &str, tasks: bool, token: Option<&'static str>) -> Client {
        let capabilities = match tasks {
            true => json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
            false => json!({}),
        };
        Client::connect_with(url, capabilities, token).await
    }

    async fn connect_with(url: &str, capabilities: Value, token: Option<&'static str>) -> Client {
        let mut client = Client {
            http: reqwest::Client::new(),
            url: url.to_owned(),
            session: String::new(),
            token,
            initialized: Value::Null,
        };
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": capabilities,
                "clientInfo": {"name": "raw", "version": "0"},
            },
        });
        let response = client.post(&initialize).send().await.unwrap();
        assert_eq!(response.status(), 200);
        client.session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        client.initialized = message(&response.text().await.unwrap());
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let response = client.post(&initialized).send().await.unwrap();
        assert_eq!(response.status(), 202);
        client
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .body(body.to_string());
        if !self.session.is_empty() {
            request = request
                .header("mcp-session-id", &self.session)
                .header("mcp-protocol-version", "2025-06-18");
        }
        if let Some(token) = self.token {
            request = request.bearer_auth(token);
        }
        request
    }

    /// Sends request `method` with `params`: its JSON-RPC answer (`result` or `error`).
    async fn request(&self, method: &str, params: Value) -> Value {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        message(&self.post(&body).send().await.unwrap().text().await.unwrap())
    }

    async fn call(&self, tool: &str, arguments: Value) -> Value {
        let params = json!({"name": tool, "arguments": arguments});
        self.request("tools/call", params).await
    }

    async fn get(&self, task: &str) -> Value {
        self.request("tasks/get", json!({"taskId": task})).await
    }

    /// Polls task `task` until it has ended: its last `tasks/get`.
    async fn ended(&self, task: &str) -> Value {
        self.until(task, &["completed", "failed", "cancelled"])
            .await
    }

    /// Polls task `task` until its status is one of `statuses`, `working` until then: its
    /// last `tasks/get`.
    async fn until(&self, task: &str, statuses: &[&str]) -> Value {
        for _ in 0..1000 {
            let answer = self.get(task).await;
            let status = answer["result"]["status"].as_str().unwrap_or_default();
            if statuses.contains(&status) {
                return answer;
            }
            assert_eq!(status, "working", "{answer}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("task {task} did not reach {statuses:?}");
    }
}

/// The JSON-RPC message of a body: plain JSON, or the last message of an SSE stream.
fn message(text: &str) -> Value {
    let message = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| data.starts_with('{'))
        .unwrap_or(text);
    serde_json::from_str(message).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The id of the task `answer` made.
fn task_id(answer: &Value) -> String {
    assert_eq!(answer["result"]["resultType"], "task", "{answer}");
    answer["result"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task id: {answer}"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_made_at_once_and_its_result_fetched_with_tasks_get() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events)).await;
    let client = Client::connect(&url, true, None).await;

    // The server declares the extension.
    let info = &client.initialized;
    assert_eq!(
        info["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{info}"
    );

    let created = client.call("quick", json!({"n": 7})).await;
    let id = task_id(&created);
    let task = &created["result"];
    assert_eq!(task["status"], "working", "{created}");
    assert_eq!(task["ttlMs"], 300_000, "{created}");
    assert!(task["pollIntervalMs"].as_u64().is_some(), "{created}");
    assert!(task.get("result").is_none() && task.get("content").is_none());

    let ended = client.ended(&id).await;
    let result = &ended["result"];
    assert_eq!(result["status"], "completed", "{ended}");
    assert_eq!(result["taskId"], id.as_str());
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["result"]["isError"], false, "{ended}");
    let text = result["result"]["content"][0]["text"].as_str().unwrap();
    let output: Value = serde_json::from_str(text).unwrap();
    assert_eq!(output, json!({"n": 7, "subject": "nobody"}));
    // Through the executor, as any call.
    assert!(seen(&events, "tool.execution.completed quick"));

    // Invalid arguments: the task completes with the validation error, for the model.
    let created = client.call("quick", json!({"n": "seven"})).await;
    let ended = client.ended(&task_id(&created)).await;
    assert_eq!(ended["result"]["status"], "completed", "{ended}");
    assert_eq!(ended["result"]["result"]["isError"], true, "{ended}");

    // An unknown id is invalid params.
    let unknown = client.get("no-such-task").await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_task_ends_its_call_with_the_terminal_event() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events)).await;
    let client = Client::connect(&url, true, None).await;

    let id = task_id(&client.call("stuck", json!({})).await);
    assert_eq!(client.get(&id).await["result"]["status"], "working");
    let ack = client.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");

    let ended = client.ended(&id).await;
    assert_eq!(ended["result"]["status"], "cancelled", "{ended}");
    assert!(ended["result"].get("result").is_none(), "{ended}");
    assert!(seen(&events, "tool.execution.failed stuck"), "{events:?}");
    // Cancelling an ended task is acknowledged, and changes nothing.
    let again = client.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(
        again["result"],
        json!({"resultType": "complete"}),
        "{again}"
    );
    assert_eq!(client.get(&id).await["result"]["status"], "cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_task_is_refused_to_a_client_without_the_extension() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events)).await;
    let client = Client::connect(&url, false, None).await;

    let refused = client.call("only_task", json!({})).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{refused}"
    );
    // Refused before it ran.
    assert!(!seen(&events, "tool.execution.started only_task"));
    // The tasks methods too, for a client without the extension.
    let get = client.get("anything").await;
    assert_eq!(get["error"]["code"], -32021, "{get}");

    // A client that declares it in the request's `_meta` gets its task.
    let params = json!({
        "name": "only_task", "arguments": {},
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}},
        }},
    });
    let created = client.request("tools/call", params).await;
    task_id(&created);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_that_are_not_tasks_for_this_client_are_called_plainly() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events)).await;

    // An optional tool, for a client without the extension.
    let without = Client::connect(&url, false, None).await;
    let answer = without.call("quick", json!({"n": 1})).await;
    assert!(answer["result"].get("taskId").is_none(), "{answer}");
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap(),
        json!({"n": 1, "subject": "nobody"})
    );

    // A tool that is never a task, for a client with the extension.
    let with = Client::connect(&url, true, None).await;
    let answer = with.call("plain", json!({})).await;
    assert!(answer["result"].get("taskId").is_none(), "{answer}");
    assert!(answer["result"]["content"].is_array(), "{answer}");

    // An unknown tool is still invalid params, not a task.
    let unknown = with.call("nope", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_tasks_are_capped() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events).with_max_tasks(2)).await;
    let client = Client::connect(&url, true, None).await;

    let first = task_id(&client.call("stuck", json!({})).await);
    task_id(&client.call("stuck", json!({})).await);
    let refused = client.call("stuck", json!({})).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("maximum of 2 tasks"), "{message}");

    // Room again once one has ended; the ended one is still there to read.
    client
        .request("tasks/cancel", json!({"taskId": first}))
        .await;
    assert_eq!(client.ended(&first).await["result"]["status"], "cancelled");
    task_id(&client.call("stuck", json!({})).await);
    assert_eq!(client.get(&first).await["result"]["status"], "cancelled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_principals_task_is_not_found() {
    fn authenticate(token: &str) -> Result<Principal, Unauthorized> {
        match token {
            "alice" | "bob" => Ok(Principal::new(token)),
            _ => Err(Unauthorized::invalid_token()),
        }
    }
    let events = Events::default();
    let metadata = agentkit_core::mcp::ProtectedResource::new("http://127.0.0.1/mcp")
        .authorization_server("https://auth.example.com");
    let server = server(&events).with_auth(authenticate, metadata);
    let (url, _stop) = serve(server).await;
    let alice = Client::connect(&url, true, Some("alice")).await;
    let bob = Client::connect(&url, true, Some("bob")).await;

    let id = task_id(&alice.call("stuck", json!({})).await);
    for method in ["tasks/get", "tasks/cancel"] {
        let answer = bob.request(method, json!({"taskId": id})).await;
        assert_eq!(answer["error"]["code"], -32602, "{method}: {answer}");
        // As an id that never was.
        let never = bob.request(method, json!({"taskId": "never"})).await;
        assert_eq!(answer["error"]["message"], never["error"]["message"]);
    }
    // Bob's cancel did nothing: Alice's task still runs, and is hers to end.
    assert_eq!(alice.get(&id).await["result"]["status"], "working");
    alice.request("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(alice.ended(&id).await["result"]["status"], "cancelled");

    // Her principal reached the tool.
    let id = task_id(&alice.call("quick", json!({})).await);
    let ended = alice.ended(&id).await;
    let text = ended["result"]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert!(text.contains(r#""subject":"alice""#), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_task_asks_waits_in_it_until_the_client_answers_with_tasks_update() {
    let events = Events::default();
    let (url, _stop) = serve(server(&events)).await;
    let capabilities = json!({
        "elicitation": {},
        "extensions": {"io.modelcontextprotocol/tasks": {}},
    });
    let client = Client::connect_with(&url, capabilities, None).await;

    let id = task_id(&client.call("ask", json!({})).await);
    // Both questions asked (they are asked at once, one after the other).
    let mut waiting = client.until(&id, &["input_required"]).await;
    while waiting["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .len()
        < 2
    {
        waiting = client.until(&id, &["input_required"]).await;
    }
    let asked = waiting["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .clone();
    let mut keys = asked.keys().cloned();
    let (first, second) = (keys.next().unwrap(), keys.next().unwrap());
    for question in asked.values() {
        assert_eq!(question["method"], "elicitation/create", "{question}");
        assert!(
            question["params"]["message"]
                .as_str()
                .unwrap()
                .ends_with("word?")
        );
    }
    let answer_to = |key: &str, word: &str| {
        let first_word = asked[key]["params"]["message"] == "First word?";
        (
            first_word,
            json!({"action": "accept", "content": {"word": word}}),
        )
    };

    // One answer, and one to a question never asked: the task waits for the other.
    let (first_is_first, reply) = answer_to(&first, "hello");
    let update = json!({"taskId": id, "inputResponses": {first.clone(): reply, "never-asked": {}}});
    let ack = client.request("tasks/update", update).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let still = client.get(&id).await;
    assert_eq!(still["result"]["status"], "input_required", "{still}");
    let left: Vec<&String> = still["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(left, [&second], "{still}");

    let (_, reply) = answer_to(&second, "world");
    let update = json!({"taskId": id, "inputResponses": {second.clone(): reply}});
    client.request("tasks/update", update).await;
    let ended = client.ended(&id).await;
    assert_eq!(ended["result"]["status"], "completed", "{ended}");
    let text = ended["result"]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    let expected = match first_is_first {
        true => "hello world",
        false => "world hello",
    };
    assert_eq!(text, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_deferred_in_a_task_is_kept_to_resume_as_a_plain_call() {
    use agentkit_core::mcp::{DEFERRED_META, DirectoryStore, RESUME_META};
    let dir = std::env::temp_dir().join(format!("agentkit-task-deferred-{}", std::process::id()));
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::builder("deploy")
        .requires_approval()
        .build()
        .unwrap();
    registry
        .register(Echo {
            spec,
            delay: Duration::ZERO,
        })
        .unwrap();
    // No approval policy: every call that needs approval is deferred.
    let server = McpServer::new(Arc::new(ToolExecutor::new(registry)))
        .with_deferred_store(DirectoryStore::new(&dir).unwrap())
        .with_task_support("deploy", TaskSupport::Optional);
    let (url, _stop) = serve(server).await;
    let client = Client::connect(&url, true, None).await;

    let id = task_id(&client.call("deploy", json!({"env": "prod"})).await);
    let ended = client.ended(&id).await;
    assert_eq!(ended["result"]["status"], "completed", "{ended}");
    let deferred = ended["result"]["result"]["_meta"][DEFERRED_META]
        .as_str()
        .unwrap_or_else(|| panic!("a deferred id: {ended}"))
        .to_owned();

    // Resumed as a plain call (not a task): undecided, it still waits under the same id.
    let params = json!({
        "name": "deploy", "arguments": {"env": "prod"},
        "_meta": {RESUME_META: deferred},
    });
    let waiting = client.request("tools/call", params).await;
    assert!(waiting["result"].get("taskId").is_none(), "{waiting}");
    assert_eq!(
        waiting["result"]["_meta"][DEFERRED_META],
        deferred.as_str(),
        "{waiting}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
