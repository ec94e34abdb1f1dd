//! `McpClient`'s sampling handler (`McpClientBuilder::on_sampling`), against agentkit's own
//! server, whose tool asks the client's model through its context (`ctx.sample`): answered at
//! 2026-07-28 in an `input_required` round (the call sent again with the answer) and at
//! 2025-11-25 as the server's `sampling/createMessage` request over the session, and in a task
//! waiting for input (SEP-2663, with `tasks/update`); the
//! handler's error fails the call with `McpErrorKind::Input`. In process, over an in-memory
//! stream.

// rmcp marks sampling deprecated (SEP-2577); the client here still answers it.
#![allow(deprecated)]

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::mcp::rmcp::ServiceExt;
use agentkit_core::mcp::rmcp::model::{
    CreateMessageRequestParams, CreateMessageResult, ErrorData, SamplingMessage,
};
use agentkit_core::mcp::{McpClient, McpClientBuilder, McpError, McpErrorKind, McpServer};
use agentkit_core::{
    BoxError, ErrorKind, SamplingRequest, ToolCall, ToolContext, ToolExecutor, ToolHandler,
    ToolRegistry, ToolResult, tool,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

use crate::mcp_support::PEER_TIMEOUT;

async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// Asks the client's model for a haiku on `topic`, and answers with it.
#[tool(name = "haiku", input = [{ name = "topic", type = string }], output = String)]
struct Haiku;

impl ToolHandler for Haiku {
    async fn run(&self, input: HaikuInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let request = SamplingRequest::new(format!("A haiku on {}?", input.topic));
        let sampled = ctx.sample(request.with_max_tokens(40)).await?;
        Ok(format!("{} ({})", sampled.text(), sampled.model()))
    }
}

/// `haiku`, run as a task (SEP-2663): what it asks waits in the task for `tasks/update`.
#[tool(name = "haiku_task", task_support = "required", input = [{ name = "topic", type = string }], output = String)]
struct HaikuTask;

impl ToolHandler for HaikuTask {
    async fn run(&self, input: HaikuTaskInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        Haiku.run(HaikuInput { topic: input.topic }, ctx).await
    }
}

/// The prompts the handler was given.
type Prompts = Arc<Mutex<Vec<Value>>>;

/// A builder whose sampling handler answers every request with `reply`, keeping the prompts.
fn answering(reply: &'static str, prompts: &Prompts) -> McpClientBuilder {
    let prompts = Arc::clone(prompts);
    McpClient::builder().on_sampling(move |request: CreateMessageRequestParams| {
        let prompt =
            serde_json::to_value(&request.messages).expect("JSON")[0]["content"]["text"].clone();
        prompts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(prompt);
        async move {
            let message = SamplingMessage::assistant_text(reply);
            Ok(CreateMessageResult::new(message, "test-model".into()))
        }
    })
}

/// Passes every message (a line) between `client` and `server`, but a `server/discover`
/// request, which it answers itself with "method not found": the server then looks like one
/// of 2025-11-25, and the client makes the `initialize` handshake.
async fn without_discover(client: DuplexStream, server: DuplexStream) {
    let (client_read, mut client_write) = tokio::io::split(client);
    let (server_read, mut server_write) = tokio::io::split(server);
    let mut from_client = BufReader::new(client_read).lines();
    let mut from_server = BufReader::new(server_read).lines();
    loop {
        let (line, to) = tokio::select! {
            Ok(Some(line)) = from_client.next_line() => {
                let message: Value = serde_json::from_str(&line).unwrap_or_default();
                if message["method"] == "server/discover" {
                    let refused = json!({"jsonrpc": "2.0", "id": message["id"],
                        "error": {"code": -32601, "message": "Method not found"}});
                    (refused.to_string(), &mut client_write)
                } else {
                    (line, &mut server_write)
                }
            }
            Ok(Some(line)) = from_server.next_line() => (line, &mut client_write),
            else => return,
        };
        if to.write_all(format!("{line}\n").as_bytes()).await.is_err() {
            return;
        }
    }
}

/// An executor over the tools of agentkit's server of `haiku`, connected with `builder`, at
/// 2026-07-28, or at 2025-11-25 when `legacy`.
async fn connect(builder: McpClientBuilder, legacy: bool) -> (McpClient, ToolExecutor) {
    let mut registry = ToolRegistry::new();
    registry.register(Haiku).unwrap();
    registry.register(HaikuTask).unwrap();
    let server = McpServer::new(Arc::new(ToolExecutor::new(registry)));
    let (server_io, mut client_io) = tokio::io::duplex(64 * 1024);
    if legacy {
        let (client_end, proxy_client) = tokio::io::duplex(64 * 1024);
        tokio::spawn(without_discover(proxy_client, client_io));
        client_io = client_end;
    }
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = bounded(builder.connect_transport(client_io))
        .await
        .expect("connects");
    let version = if legacy { "2025-11-25" } else { "2026-07-28" };
    assert_eq!(client.protocol_version().as_deref(), Some(version));
    let mut registry = ToolRegistry::new();
    let import = bounded(client.register_tools(&mut registry, None))
        .await
        .expect("registers");
    assert_eq!(import.registered(), ["haiku", "haiku_task"]);
    (client, ToolExecutor::new(registry))
}

async fn call(executor: &ToolExecutor) -> ToolResult {
    call_tool(executor, "haiku").await
}

async fn call_tool(executor: &ToolExecutor, name: &str) -> ToolResult {
    let call = ToolCall::new("call", name, json!({"topic": "autumn"}));
    bounded(executor.dispatch(&call)).await
}

/// The messages of `error` and of every source under it.
fn chain(error: &(dyn std::error::Error + 'static)) -> Vec<String> {
    let mut messages = Vec::new();
    let mut source = Some(error);
    while let Some(cause) = source {
        messages.push(cause.to_string());
        source = cause.source();
    }
    messages
}

/// The `McpError` under `error`, if any.
fn mcp_error<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a McpError> {
    let mut source = Some(error);
    while let Some(cause) = source {
        if let Some(found) = cause.downcast_ref::<McpError>() {
            return Some(found);
        }
        source = cause.source();
    }
    None
}

#[tokio::test]
async fn the_sampling_handler_answers_in_an_input_required_round() {
    let prompts = Prompts::default();
    let (_client, executor) = connect(answering("Leaves fall", &prompts), false).await;
    let haiku = call(&executor).await;
    assert!(haiku.is_success(), "{haiku:?}");
    assert_eq!(haiku.to_model_content(), "Leaves fall (test-model)");
    assert_eq!(*prompts.lock().unwrap(), [json!("A haiku on autumn?")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sampling_handler_answers_what_a_task_asks() {
    let prompts = Prompts::default();
    let (_client, executor) = connect(answering("Geese fly", &prompts), false).await;
    let haiku = call_tool(&executor, "haiku_task").await;
    assert!(haiku.is_success(), "{haiku:?}");
    assert_eq!(haiku.to_model_content(), "Geese fly (test-model)");
    assert_eq!(*prompts.lock().unwrap(), [json!("A haiku on autumn?")]);
}

#[tokio::test]
async fn the_sampling_handler_answers_the_servers_request_over_a_session() {
    let prompts = Prompts::default();
    let (_client, executor) = connect(answering("Cold moon", &prompts), true).await;
    let haiku = call(&executor).await;
    assert!(haiku.is_success(), "{haiku:?}");
    assert_eq!(haiku.to_model_content(), "Cold moon (test-model)");
    assert_eq!(*prompts.lock().unwrap(), [json!("A haiku on autumn?")]);
    // The client declared the tasks extension at `initialize`: agentkit's server runs the
    // task-only tool as a task in the session too, and asks through it.
    let haiku = call_tool(&executor, "haiku_task").await;
    assert_eq!(
        haiku.to_model_content(),
        "Cold moon (test-model)",
        "{haiku:?}"
    );
}

#[tokio::test]
async fn the_handlers_error_fails_the_call_with_the_input_kind() {
    let builder = McpClient::builder().on_sampling(|_| async {
        Err(ErrorData::invalid_params(
            "the person refused to share the model",
            None,
        ))
    });
    let (_client, executor) = connect(builder, false).await;
    let refused = call(&executor).await;
    let error = refused.error().expect("the call fails");
    assert_eq!(error.kind(), ErrorKind::Execution);
    let mcp = mcp_error(error).expect("an McpError under the call's error");
    assert_eq!(mcp.kind(), McpErrorKind::Input);
    let messages = chain(error).join(" | ");
    assert!(messages.contains("the person refused"), "{messages}");
    // For operators only: the model is told the tool failed, not why.
    assert!(!refused.to_model_content().contains("refused"));
}
