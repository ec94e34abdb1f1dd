//! A tool that runs as a task and asks the client first
//! ([`McpServer::with_input_before_task`]), served to rmcp's client at 2026-07-28: its
//! questions come in input-required rounds (SEP-2322), and the round where it has its
//! answers is answered with its task (SEP-2663), the call going on in the background with
//! those answers; what it asks after that waits in the task, for `tasks/update`. In process,
//! over an in-memory stream, as `mcp_input_rounds.rs`; the task alone over HTTP is in
//! `mcp_tasks.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agentkit_core::mcp::McpServer;
use agentkit_core::mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, GetTaskParams, Implementation, InitializeRequestParams, InitializeResult,
    InputRequiredResult, InputResponses, ProtocolVersion, ServerCapabilities, TaskPayload,
    TaskStatus, UpdateTaskParams,
};
use agentkit_core::mcp::rmcp::service::{RoleClient, RoleServer, RunningService, serve_directly};
use agentkit_core::mcp::rmcp::{ClientHandler, ErrorData};
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, ToolContext, ToolExecutor, ToolHandler,
    ToolRegistry, tool,
};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// How many times the tools ran (each round of a call is a run), and the gate `enroll`
/// waits at once it has the user's name.
struct Shared {
    runs: AtomicUsize,
    gate: Semaphore,
}

fn shared<'a>(ctx: &'a ToolContext<'_>) -> Result<&'a Arc<Shared>, BoxError> {
    let shared = ctx.dependency::<Arc<Shared>>()?;
    shared.runs.fetch_add(1, Ordering::SeqCst);
    Ok(shared)
}

fn form(field: &str) -> Value {
    json!({"type": "object", "properties": {field: {"type": "string"}}, "required": [field]})
}

fn field(answer: &Elicitation, name: &str) -> String {
    match answer {
        Elicitation::Accept(content) => content
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned(),
        _ => "no answer".to_owned(),
    }
}

/// Asks the user's name, waits at the gate (the work its task is for), then asks their
/// colour.
#[tool(name = "enroll", input = [], output = String, task_support = "required")]
struct Enroll;

impl ToolHandler for Enroll {
    async fn run(&self, _: EnrollInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let shared = shared(ctx)?;
        let name = ElicitationRequest::new("Your name?", form("name")).with_key("user_name");
        let name = ctx.elicit(name).await?;
        shared.gate.acquire().await?.forget();
        let colour = ctx
            .elicit(ElicitationRequest::new("Your colour?", form("color")))
            .await?;
        Ok(format!(
            "{} likes {}",
            field(&name, "name"),
            field(&colour, "color")
        ))
    }
}

/// Asks the user's name, and greets them at once.
#[tool(name = "greet", input = [], output = String, task_support = "optional")]
struct Greet;

impl ToolHandler for Greet {
    async fn run(&self, _: GreetInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        shared(ctx)?;
        let name = ElicitationRequest::new("Your name?", form("name")).with_key("user_name");
        let name = ctx.elicit(name).await?;
        Ok(format!("Hello, {}!", field(&name, "name")))
    }
}

/// A client of 2026-07-28 that answers nothing by itself: the test answers.
#[derive(Clone)]
struct Client {
    tasks: bool,
}

impl Client {
    /// What the client declares (in every request's `_meta`): elicitation, and the tasks
    /// extension when `tasks`.
    fn info(tasks: bool) -> InitializeRequestParams {
        let mut capabilities = ClientCapabilities::builder().enable_elicitation();
        if tasks {
            capabilities = capabilities.enable_tasks();
        }
        InitializeRequestParams::new(
            capabilities.build(),
            Implementation::new("rounds-then-task-client", "0.0.0"),
        )
        .with_protocol_version(ProtocolVersion::V_2026_07_28)
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> InitializeRequestParams {
        Client::info(self.tasks)
    }
}

/// The server of `enroll` and `greet`, both gathering their input before their task, and
/// rmcp's client connected to it.
struct Pair {
    shared: Arc<Shared>,
    client: RunningService<RoleClient, Client>,
}

impl Pair {
    fn new(tasks: bool) -> Pair {
        let mut registry = ToolRegistry::new();
        registry.register(Enroll).unwrap();
        registry.register(Greet).unwrap();
        let shared = Arc::new(Shared {
            runs: AtomicUsize::new(0),
            gate: Semaphore::new(0),
        });
        let executor = ToolExecutor::builder(registry)
            .dependency(Arc::clone(&shared))
            .build();
        let server = McpServer::new(Arc::new(executor))
            .with_input_before_task("enroll")
            .with_input_before_task("greet");
        let (server_side, client_side) = tokio::io::duplex(64 * 1024);
        let client_info = Client::info(tasks);
        let mut server_info =
            InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
        server_info.protocol_version = ProtocolVersion::V_2026_07_28;
        tokio::spawn(async move {
            let running =
                serve_directly::<RoleServer, _, _, _, _>(server, server_side, Some(client_info));
            let _ = running.waiting().await;
        });
        let client = serve_directly::<RoleClient, _, _, _, _>(
            Client { tasks },
            client_side,
            Some(server_info.into()),
        );
        Pair { shared, client }
    }

    fn runs(&self) -> usize {
        self.shared.runs.load(Ordering::SeqCst)
    }

    async fn call(&self, params: CallToolRequestParams) -> CallToolResponse {
        self.client.call_tool_once(params).await.unwrap()
    }

    /// The first round of `tool`: its one question, asked by the key `user_name`.
    async fn first_round(&self, tool: &str) -> InputRequiredResult {
        match self.call(CallToolRequestParams::new(tool.to_owned())).await {
            CallToolResponse::InputRequired(input) => {
                let keys: Vec<&String> = input
                    .input_requests
                    .iter()
                    .flatten()
                    .map(|(key, _)| key)
                    .collect();
                assert_eq!(keys, ["user_name"], "{input:?}");
                assert!(input.request_state.is_some());
                input
            }
            other => panic!("expected an InputRequiredResult, got {other:?}"),
        }
    }

    /// The round of `tool` that answers `first` with the name Ada.
    async fn answer(&self, tool: &str, first: &InputRequiredResult) -> CallToolResponse {
        let answers: InputResponses = [(
            "user_name".to_owned(),
            json!({"action": "accept", "content": {"name": "Ada"}}),
        )]
        .into_iter()
        .collect();
        let retry = CallToolRequestParams::new(tool.to_owned())
            .with_input_responses(answers)
            .with_request_state(first.request_state.clone().unwrap());
        self.call(retry).await
    }

    /// Polls task `id` until its status is not `working`: its payload.
    async fn until_not_working(&self, id: &str) -> TaskPayload {
        for _ in 0..1000 {
            let got = self
                .client
                .get_task(GetTaskParams::new(id.to_owned()))
                .await
                .unwrap();
            if got.task.payload != TaskPayload::Working {
                return got.task.payload;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("task {id} stayed working");
    }
}

/// The task a round answered with: it carries neither a `requestState` nor questions.
fn task(answer: CallToolResponse) -> CreateTaskResult {
    match answer {
        CallToolResponse::Task(task) => {
            let wire = serde_json::to_value(&task).unwrap();
            assert_eq!(wire["resultType"], "task", "{wire}");
            assert!(wire.get("requestState").is_none(), "{wire}");
            assert!(wire.get("inputRequests").is_none(), "{wire}");
            task
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

/// The text of a completed task's result.
fn completed_text(payload: &TaskPayload) -> String {
    match payload {
        TaskPayload::Completed { result } => {
            assert_eq!(result["isError"], false, "{result:?}");
            result["content"][0]["text"].as_str().unwrap().to_owned()
        }
        other => panic!("expected a completed task, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_gathers_its_input_in_rounds_then_goes_on_as_a_task_that_asks_through_itself() {
    let pair = Pair::new(true);
    let first = pair.first_round("enroll").await;
    assert_eq!(pair.runs(), 1);

    // The answer: the tool goes on to wait at the gate, and the call is its task from there.
    let task = task(pair.answer("enroll", &first).await);
    assert_eq!(task.task.status, TaskStatus::Working);
    let id = task.task.task_id;
    let got = pair
        .client
        .get_task(GetTaskParams::new(id.clone()))
        .await
        .unwrap();
    assert_eq!(got.task.payload, TaskPayload::Working);

    // Past the gate it asks again: in the task now, not in a round.
    pair.shared.gate.add_permits(1);
    let asked = match pair.until_not_working(&id).await {
        TaskPayload::InputRequired { input_requests } => input_requests,
        other => panic!("expected the task to ask, got {other:?}"),
    };
    assert_eq!(asked.len(), 1, "{asked:?}");
    let (key, question) = asked.into_iter().next().unwrap();
    let question = serde_json::to_value(question).unwrap();
    assert_eq!(question["params"]["message"], "Your colour?", "{question}");
    let answer = json!({"action": "accept", "content": {"color": "green"}});
    let update = UpdateTaskParams::new(id.clone(), [(key, answer)].into_iter().collect());
    pair.client.update_task(update).await.unwrap();

    // The name came from the rounds, the colour through the task; the run the task went on
    // with is the last round's, not a run of its own.
    let ended = pair.until_not_working(&id).await;
    assert_eq!(completed_text(&ended), "Ada likes green");
    assert_eq!(pair.runs(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_ends_in_its_last_round_answers_with_its_task_complete() {
    let pair = Pair::new(true);
    let first = pair.first_round("greet").await;
    let task = task(pair.answer("greet", &first).await);
    assert_eq!(task.task.status, TaskStatus::Completed);
    let got = pair
        .client
        .get_task(GetTaskParams::new(task.task.task_id))
        .await
        .unwrap();
    assert_eq!(completed_text(&got.task.payload), "Hello, Ada!");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_that_goes_on_after_its_rounds_is_cancelled_with_tasks_cancel() {
    let pair = Pair::new(true);
    let first = pair.first_round("enroll").await;
    let id = task(pair.answer("enroll", &first).await).task.task_id;
    // Its deadline is the task's now: cancelling it ends the call waiting at the gate.
    let cancel = CancelTaskParams::new(id.clone());
    pair.client.cancel_task(cancel).await.unwrap();
    assert_eq!(pair.until_not_working(&id).await, TaskPayload::Cancelled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_the_extension_gets_the_plain_result_after_the_rounds() {
    let pair = Pair::new(false);
    let first = pair.first_round("greet").await;
    match pair.answer("greet", &first).await {
        CallToolResponse::Complete(result) => {
            let result = serde_json::to_value(result).unwrap();
            assert_eq!(result["content"][0]["text"], "Hello, Ada!", "{result}");
        }
        other => panic!("expected the result, got {other:?}"),
    }
}

/// A tool that needs a task is refused to a client without the extension, before it runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_that_needs_a_task_is_refused_without_the_extension_before_any_round() {
    let pair = Pair::new(false);
    let refused = pair
        .client
        .call_tool_once(CallToolRequestParams::new("enroll"))
        .await;
    let error: ErrorData = match refused {
        Err(agentkit_core::mcp::rmcp::service::ServiceError::McpError(error)) => error,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert_eq!(error.code.0, -32021, "{error:?}");
    assert_eq!(pair.runs(), 0);
}
