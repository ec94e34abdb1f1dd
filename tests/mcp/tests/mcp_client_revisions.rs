//! `McpClient` at MCP's revision 2026-07-28: it finds the server with `server/discover` (no
//! handshake), and a call whose result asks for input first (`input_required`, SEP-2322) is
//! answered and sent again, the server's `requestState` echoed as it was. An elicitation is
//! answered by the application's handler, the form's defaults filled in where the answer
//! leaves a field out (SEP-1034), or declined without a handler; a sampling request, without
//! a sampling handler, fails the call with `McpErrorKind::Input` (the handler itself:
//! `mcp_client_sampling.rs`). The server is written here with rmcp, in process over a duplex stream. (The
//! conformance suite runs the same over HTTP, with the headers, and the fallback to
//! 2025-11-25: `conformance.rs`.)

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ElicitResult,
    ElicitationAction, InputRequiredResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool as McpToolInfo,
};
use agentkit_core::mcp::rmcp::service::RequestContext;
use agentkit_core::mcp::rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use agentkit_core::mcp::{McpClient, McpClientBuilder};
use agentkit_core::{JsonObject, ToolCall, ToolExecutor, ToolRegistry, ToolResult};
use serde_json::{Value, json};

use crate::mcp_support::PEER_TIMEOUT;

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// What the server received on each round of a call: the request's `inputResponses` and
/// `requestState`.
type Rounds = Arc<Mutex<Vec<(Option<Value>, Option<String>)>>>;

/// A server whose tools ask for input before they answer.
#[derive(Clone, Default)]
struct Asks {
    rounds: Rounds,
}

/// An `input_required` result asking for `request` under the key `"form"`, with `state`.
fn input_required(request: Value, state: Option<&str>) -> InputRequiredResult {
    let mut result = json!({"resultType": "input_required", "inputRequests": {"form": request}});
    if let Some(state) = state {
        result["requestState"] = json!(state);
    }
    serde_json::from_value(result).expect("an input_required result")
}

impl ServerHandler for Asks {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = ["book", "summarize"]
            .into_iter()
            .map(|name| McpToolInfo::new(name, "A tool.", JsonObject::new()))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answers = request
            .input_responses
            .as_ref()
            .map(|answers| serde_json::to_value(answers).expect("JSON"));
        self.rounds
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((answers.clone(), request.request_state.clone()));
        let Some(answers) = answers else {
            // The first round: ask.
            let asked = match request.name.as_ref() {
                "book" => input_required(
                    json!({"method": "elicitation/create", "params": {
                        "mode": "form",
                        "message": "Who is travelling?",
                        "requestedSchema": {"type": "object", "properties": {
                            "name": {"type": "string"},
                            "seats": {"type": "integer", "default": 1},
                            "window": {"type": "boolean", "default": true},
                        }, "required": ["name"]},
                    }}),
                    Some("opaque: round 1 {\"x\": 1}"),
                ),
                _ => input_required(
                    json!({"method": "sampling/createMessage", "params": {
                        "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize"}}],
                        "maxTokens": 100,
                    }}),
                    None,
                ),
            };
            return Ok(CallToolResponse::InputRequired(asked));
        };
        let form = &answers["form"];
        let text = format!("{} {}", form["action"], form["content"]);
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

/// An executor over the tools of an `Asks` server, connected with `builder`.
async fn connect(builder: McpClientBuilder) -> (McpClient, ToolExecutor, Rounds) {
    let server = Asks::default();
    let rounds = Arc::clone(&server.rounds);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = bounded(builder.connect_transport(client_io))
        .await
        .expect("connects");
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.refused(), []);
    (client, ToolExecutor::new(registry), rounds)
}

async fn call(executor: &ToolExecutor, name: &str) -> ToolResult {
    bounded(executor.dispatch(&ToolCall::new("call", name, json!({})))).await
}

#[tokio::test]
async fn an_elicitation_in_a_result_is_answered_by_the_application_and_the_call_sent_again() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let builder = McpClient::builder().on_elicitation(move |request| {
        let message = serde_json::to_value(&request).expect("JSON")["message"].clone();
        seen.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(message);
        // The person gives a name and keeps the rest as proposed.
        async { ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"})) }
    });
    let (client, executor, rounds) = connect(builder).await;
    // No handshake: the server was found with `server/discover`.
    assert_eq!(client.protocol_version().as_deref(), Some("2026-07-28"));

    let booked = call(&executor, "book").await;
    assert!(booked.is_success(), "{booked:?}");
    assert_eq!(
        booked.to_model_content(),
        r#""accept" {"name":"Ada","seats":1,"window":true}"#
    );
    assert_eq!(*asked.lock().unwrap(), [json!("Who is travelling?")]);
    let rounds = rounds.lock().unwrap().clone();
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    assert_eq!(rounds[0], (None, None));
    // The state comes back as it was sent, untouched.
    assert_eq!(rounds[1].1.as_deref(), Some("opaque: round 1 {\"x\": 1}"));
}

#[tokio::test]
async fn without_a_handler_an_elicitation_is_declined_and_sampling_fails_the_call() {
    let (_client, executor, rounds) = connect(McpClient::builder()).await;
    let declined = call(&executor, "book").await;
    assert_eq!(declined.to_model_content(), r#""decline" null"#);

    // Without a sampling handler the client samples no model: the call fails, telling
    // operators why, and is not sent again.
    let before = rounds.lock().unwrap().len();
    let summarized = call(&executor, "summarize").await;
    let error = summarized.error().expect("the call fails");
    let mut chain = String::new();
    let mut source: Option<&dyn std::error::Error> = Some(error);
    while let Some(cause) = source {
        chain.push_str(&cause.to_string());
        source = cause.source();
    }
    assert!(chain.contains("sampling"), "{chain}");
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    let mut kind = None;
    while let Some(cause) = source {
        if let Some(mcp) = cause.downcast_ref::<agentkit_core::mcp::McpError>() {
            kind = Some(mcp.kind());
        }
        source = cause.source();
    }
    assert_eq!(kind, Some(agentkit_core::mcp::McpErrorKind::Input));
    assert!(!summarized.to_model_content().contains("sampling"));
    assert_eq!(rounds.lock().unwrap().len(), before + 1);
}
