//! A tool that asks the client, served to rmcp's client at both revisions of MCP: at
//! 2026-07-28, the call is answered with the questions (an `InputRequiredResult`) and the
//! client calls again with its answers, in as many rounds as the tool needs (SEP-2322); at
//! 2025-11-25, the server sends the client each request while the call runs. The same tool
//! code serves both. In process, over an in-memory stream; the round across replicas is in
//! `mcp_replicas.rs`.

// rmcp marks sampling deprecated (SEP-2577); the tools here still ask for it.
#![allow(deprecated)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agentkit_core::mcp::McpServer;
use agentkit_core::mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientCapabilities, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, ErrorCode,
    Implementation, InitializeRequestParams, InitializeResult, InputRequiredResult, InputResponses,
    ProtocolVersion, SamplingMessage, ServerCapabilities,
};
use agentkit_core::mcp::rmcp::service::{
    RequestContext, RoleClient, RoleServer, RunningService, ServiceError, serve_directly,
};
use agentkit_core::mcp::rmcp::{ClientHandler, ErrorData};
use agentkit_core::{
    AskUser, BoxError, Elicitation, ElicitationRequest, SamplingRequest, ToolContext, ToolExecutor,
    ToolHandler, ToolRegistry, tool,
};
use serde_json::{Value, json};

/// How many times the tools ran: each round of a call is a run.
struct Runs(Arc<AtomicUsize>);

fn count(ctx: &ToolContext<'_>) -> Result<(), BoxError> {
    ctx.dependency::<Runs>()?.0.fetch_add(1, Ordering::SeqCst);
    Ok(())
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

/// Asks the user's name.
#[tool(name = "greet", input = [{ name = "who", type = string, required = false, default = "you" }], output = String)]
struct Greet;

impl ToolHandler for Greet {
    async fn run(&self, input: GreetInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        count(ctx)?;
        let answer = ctx
            .elicit(ElicitationRequest::new(
                format!("Name of {}?", input.who),
                form("name"),
            ))
            .await?;
        Ok(format!("Hello, {}!", field(&answer, "name")))
    }
}

/// Asks the user and the model at once.
#[tool(name = "both", input = [], output = String)]
struct Both;

impl ToolHandler for Both {
    async fn run(&self, _: BothInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        count(ctx)?;
        let user = ctx.elicit(ElicitationRequest::new("Your name?", form("name")));
        let model = ctx.sample(SamplingRequest::new("A greeting?").with_max_tokens(20));
        let (user, model) = tokio::join!(user, model);
        Ok(format!("{} {}", model?.text(), field(&user?, "name")))
    }
}

/// Asks the user twice, the second question once the first is answered.
#[tool(name = "two_steps", input = [], output = String)]
struct TwoSteps;

impl ToolHandler for TwoSteps {
    async fn run(&self, _: TwoStepsInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        count(ctx)?;
        let name = ctx
            .elicit(ElicitationRequest::new("Your name?", form("name")))
            .await?;
        let color = ctx
            .elicit(ElicitationRequest::new("Your colour?", form("color")))
            .await?;
        Ok(format!(
            "{} likes {}",
            field(&name, "name"),
            field(&color, "color")
        ))
    }
}

/// Needs a person's approval, which the policy asks the user for.
#[tool(name = "deploy", requires_approval, input = [], output = String)]
struct Deploy;

impl ToolHandler for Deploy {
    async fn run(&self, _: DeployInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        count(ctx)?;
        Ok("deployed".to_owned())
    }
}

/// The client: answers every question, and counts those the server sent it as requests
/// (2025-11-25) or in an `InputRequiredResult` (2026-07-28: rmcp's client hands those to the
/// same handler).
#[derive(Clone)]
struct Client {
    asked: Arc<AtomicUsize>,
    version: ProtocolVersion,
}

impl Client {
    /// What the client declares: at 2026-07-28, in every request's `_meta`.
    fn info(version: ProtocolVersion) -> InitializeRequestParams {
        let capabilities = ClientCapabilities::builder()
            .enable_elicitation()
            .enable_sampling()
            .build();
        InitializeRequestParams::new(
            capabilities,
            Implementation::new("rounds-test-client", "0.0.0"),
        )
        .with_protocol_version(version)
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> InitializeRequestParams {
        Client::info(self.version.clone())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let content = match &request {
            ElicitRequestParams::FormElicitationParams { message, .. }
                if message.contains("colour") =>
            {
                json!({"color": "green"})
            }
            ElicitRequestParams::FormElicitationParams { message, .. }
                if message.contains("deploy") =>
            {
                json!({"approve": true})
            }
            _ => json!({"name": "Ada"}),
        };
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content))
    }

    async fn create_message(
        &self,
        _: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        Ok(CreateMessageResult::new(
            SamplingMessage::assistant_text("Hi"),
            "test-model".into(),
        ))
    }
}

/// A server of the three tools, its runs counted, and rmcp's client connected to it at
/// `version`, over an in-memory stream.
struct Pair {
    runs: Arc<AtomicUsize>,
    client: RunningService<RoleClient, Client>,
    asked: Arc<AtomicUsize>,
}

impl Pair {
    fn new(version: ProtocolVersion) -> Pair {
        let mut registry = ToolRegistry::new();
        registry.register(Greet).unwrap();
        registry.register(Both).unwrap();
        registry.register(TwoSteps).unwrap();
        registry.register(Deploy).unwrap();
        let runs = Arc::new(AtomicUsize::new(0));
        let executor = ToolExecutor::builder(registry)
            .dependency(Runs(Arc::clone(&runs)))
            .approval(AskUser)
            .build();
        let server = McpServer::new(Arc::new(executor));
        let (server_side, client_side) = tokio::io::duplex(64 * 1024);
        let client_info = Client::info(version.clone());
        let mut server_info =
            InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
        server_info.protocol_version = version.clone();
        tokio::spawn(async move {
            let running =
                serve_directly::<RoleServer, _, _, _, _>(server, server_side, Some(client_info));
            let _ = running.waiting().await;
        });
        let handler = Client {
            asked: Arc::default(),
            version,
        };
        let asked = Arc::clone(&handler.asked);
        let client = serve_directly::<RoleClient, _, _, _, _>(
            handler,
            client_side,
            Some(server_info.into()),
        );
        Pair {
            runs,
            client,
            asked,
        }
    }

    fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    /// One round of `params`: the questions it returns (the call must not complete).
    async fn input_required(&self, params: CallToolRequestParams) -> InputRequiredResult {
        match self.client.call_tool_once(params).await.unwrap() {
            CallToolResponse::InputRequired(input) => input,
            other => panic!("expected an InputRequiredResult, got {other:?}"),
        }
    }
}

/// The method of each question of a round, by key.
fn questions(input: &InputRequiredResult) -> Vec<(String, String)> {
    input
        .input_requests
        .iter()
        .flatten()
        .map(|(key, request)| {
            let request = serde_json::to_value(request).unwrap();
            (key.clone(), request["method"].as_str().unwrap().to_owned())
        })
        .collect()
}

fn text(result: &agentkit_core::mcp::rmcp::model::CallToolResult) -> String {
    let result = serde_json::to_value(result).unwrap();
    assert_eq!(result["isError"], false, "{result}");
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn responses(pairs: &[(&str, Value)]) -> InputResponses {
    pairs
        .iter()
        .map(|(key, value)| ((*key).to_owned(), value.clone()))
        .collect()
}

#[tokio::test]
async fn a_question_is_answered_in_a_second_round_at_2026_07_28() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let first = pair
        .input_required(CallToolRequestParams::new("greet"))
        .await;
    assert_eq!(
        questions(&first),
        [("elicitation-1".to_owned(), "elicitation/create".to_owned())]
    );
    assert!(first.request_state.is_some());
    // No request went to the client while the call ran.
    assert_eq!(pair.asked.load(Ordering::SeqCst), 0);

    // rmcp's client answers the question through its handler, and calls again.
    let result = pair
        .client
        .call_tool(CallToolRequestParams::new("greet"))
        .await
        .unwrap();
    assert_eq!(text(&result), "Hello, Ada!");
    assert_eq!(pair.asked.load(Ordering::SeqCst), 1);
    // One run for the lone first round, two for the call: asked, then answered.
    assert_eq!(pair.runs(), 3);
}

#[tokio::test]
async fn two_questions_asked_at_once_come_in_one_round() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let first = pair
        .input_required(CallToolRequestParams::new("both"))
        .await;
    assert_eq!(
        questions(&first),
        [
            ("elicitation-1".to_owned(), "elicitation/create".to_owned()),
            ("sampling-1".to_owned(), "sampling/createMessage".to_owned()),
        ]
    );
    let result = pair
        .client
        .call_tool(CallToolRequestParams::new("both"))
        .await
        .unwrap();
    assert_eq!(text(&result), "Hi Ada");
    // Both answered in the call's one round of questions: two runs for it.
    assert_eq!(pair.asked.load(Ordering::SeqCst), 2);
    assert_eq!(pair.runs(), 3);
}

#[tokio::test]
async fn questions_asked_one_after_the_other_take_a_round_each() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let first = pair
        .input_required(CallToolRequestParams::new("two_steps"))
        .await;
    assert_eq!(
        questions(&first),
        [("elicitation-1".to_owned(), "elicitation/create".to_owned())]
    );
    // The second round carries the first answer in its state, and asks the next question.
    let retry = CallToolRequestParams::new("two_steps")
        .with_input_responses(responses(&[(
            "elicitation-1",
            accept(json!({"name": "Bo"})),
        )]))
        .with_request_state(first.request_state.clone().unwrap());
    let second = pair.input_required(retry).await;
    assert_eq!(
        questions(&second),
        [("elicitation-2".to_owned(), "elicitation/create".to_owned())]
    );
    assert_ne!(second.request_state, first.request_state);
    // The third answers it; the first answer comes from the state alone.
    let retry = CallToolRequestParams::new("two_steps")
        .with_input_responses(responses(&[(
            "elicitation-2",
            accept(json!({"color": "red"})),
        )]))
        .with_request_state(second.request_state.clone().unwrap());
    match pair.client.call_tool_once(retry).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "Bo likes red"),
        other => panic!("expected the result, got {other:?}"),
    }

    // rmcp's client drives the three rounds itself.
    let result = pair
        .client
        .call_tool(CallToolRequestParams::new("two_steps"))
        .await
        .unwrap();
    assert_eq!(text(&result), "Ada likes green");
    assert_eq!(pair.asked.load(Ordering::SeqCst), 2);
}

/// The error a call was refused with.
fn refusal(outcome: Result<CallToolResponse, ServiceError>) -> ErrorData {
    match outcome {
        Err(ServiceError::McpError(error)) => error,
        other => panic!("expected the call to be refused, got {other:?}"),
    }
}

#[tokio::test]
async fn a_changed_state_is_refused() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let first = pair
        .input_required(CallToolRequestParams::new("greet"))
        .await;
    let state = first.request_state.unwrap();
    let answers = responses(&[("elicitation-1", accept(json!({"name": "Eve"})))]);
    let mut changed = state.clone().into_bytes();
    // A character of the sealed payload, changed.
    let at = changed.len() / 2;
    changed[at] = if changed[at] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(changed).unwrap();
    for bad in [changed, format!("{state}x"), "made up".to_owned()] {
        let retry = CallToolRequestParams::new("greet")
            .with_input_responses(answers.clone())
            .with_request_state(bad);
        let error = refusal(pair.client.call_tool_once(retry).await);
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
        assert!(error.message.contains("requestState"), "{error:?}");
    }
    // The call never ran past its question with the forged states.
    assert_eq!(pair.runs(), 1);
}

#[tokio::test]
async fn a_state_sealed_for_other_arguments_or_another_tool_is_refused() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let arguments = |who: &str| json!({"who": who}).as_object().unwrap().clone();
    let first = pair
        .input_required(CallToolRequestParams::new("greet").with_arguments(arguments("Ada")))
        .await;
    let state = first.request_state.unwrap();
    let answers = responses(&[("elicitation-1", accept(json!({"name": "Eve"})))]);
    let other_arguments = CallToolRequestParams::new("greet")
        .with_arguments(arguments("Bob"))
        .with_input_responses(answers.clone())
        .with_request_state(state.clone());
    let other_tool = CallToolRequestParams::new("two_steps")
        .with_input_responses(answers.clone())
        .with_request_state(state.clone());
    for retry in [other_arguments, other_tool] {
        let error = refusal(pair.client.call_tool_once(retry).await);
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
    }
    // With its own arguments, the state is good.
    let own = CallToolRequestParams::new("greet")
        .with_arguments(arguments("Ada"))
        .with_input_responses(answers)
        .with_request_state(state);
    match pair.client.call_tool_once(own).await.unwrap() {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "Hello, Eve!"),
        other => panic!("expected the result, got {other:?}"),
    }
}

#[tokio::test]
async fn an_answer_that_is_not_one_is_refused() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let retry = CallToolRequestParams::new("greet")
        .with_input_responses(responses(&[("elicitation-1", json!(12345))]));
    let error = refusal(pair.client.call_tool_once(retry).await);
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
    assert!(error.message.contains("elicitation-1"), "{error:?}");
}

#[tokio::test]
async fn a_2025_11_25_client_is_sent_the_request_while_the_call_runs() {
    let pair = Pair::new(ProtocolVersion::V_2025_11_25);
    // One round: the server asked the client during the call, and the tool ran once.
    match pair
        .client
        .call_tool_once(CallToolRequestParams::new("both"))
        .await
        .unwrap()
    {
        CallToolResponse::Complete(result) => assert_eq!(text(&result), "Hi Ada"),
        other => panic!("expected the result, got {other:?}"),
    }
    assert_eq!(pair.asked.load(Ordering::SeqCst), 2);
    assert_eq!(pair.runs(), 1);
}

#[tokio::test]
async fn the_approval_policy_asks_the_user_in_a_round_too() {
    let pair = Pair::new(ProtocolVersion::V_2026_07_28);
    let first = pair
        .input_required(CallToolRequestParams::new("deploy"))
        .await;
    assert_eq!(
        questions(&first),
        [("elicitation-1".to_owned(), "elicitation/create".to_owned())]
    );
    // The tool did not run: the policy asked before it.
    assert_eq!(pair.runs(), 0);
    let result = pair
        .client
        .call_tool(CallToolRequestParams::new("deploy"))
        .await
        .unwrap();
    assert_eq!(text(&result), "deployed");
    assert_eq!(pair.runs(), 1);
}
