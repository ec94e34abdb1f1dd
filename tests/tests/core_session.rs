//! Behaviour of what a tool can say to and ask of its caller outside MCP: log messages reach
//! the observers (bounded, free of the call's secrets), and questions for a client (its
//! user, its model) fail with a typed error when there is no client; a policy that asks the
//! user defers then. (Over MCP, the conformance suite's scenarios hold the rest.)

use std::sync::{Arc, Mutex};

use agentkit_core::{
    Approval, ApprovalPolicy, ApprovalRequest, AskUser, BoxError, ClientError, ElicitationRequest,
    InMemoryCredentials, JsonObject, LogLevel, SamplingRequest, Tool, ToolCall, ToolContext,
    ToolEvent, ToolExecutor, ToolObserver, ToolOutput, ToolRegistry, ToolSpec, ToolStatus,
    block_on,
};
use serde_json::json;

/// Logs, then asks its client's user and model, and says what came of it.
struct Curious(ToolSpec);

impl Tool for Curious {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let key = ctx.credential("key")?.expose();
        ctx.log(LogLevel::Info, format!("starting with {key}"));
        ctx.log(LogLevel::Debug, "x".repeat(5_000));
        let elicited = ctx
            .elicit(ElicitationRequest::new(
                "Your name?",
                json!({"type": "object"}),
            ))
            .await;
        let sampled = ctx.sample(SamplingRequest::new("Hello?")).await;
        let roots = ctx.list_roots().await;
        let unavailable = |e: &ClientError| e.is_unavailable();
        Ok(format!(
            "capabilities: {:?}; elicit: {}; sample: {}; roots: {}",
            ctx.client_capabilities(),
            elicited.as_ref().err().is_some_and(unavailable),
            sampled.err().map(|e| e.to_string()).unwrap_or_default(),
            roots.err().map(|e| e.to_string()).unwrap_or_default(),
        )
        .into())
    }
}

#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<(LogLevel, String)>>>);

impl ToolObserver for Logs {
    fn on_event(&self, event: &ToolEvent<'_>) {
        if let ToolEvent::Log { message, .. } = event {
            assert_eq!(event.name(), "tool.execution.log");
            self.0
                .lock()
                .unwrap()
                .push((message.level(), message.text().to_owned()));
        }
    }
}

#[test]
fn logs_reach_observers_and_questions_without_a_client_fail_typed() {
    let spec = ToolSpec::builder("curious")
        .credential("key")
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.register(Curious(spec)).unwrap();
    let logs = Logs::default();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("key", "sk-live-SESSION-1"))
        .observer(logs.clone())
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("1", "curious", "{}")));
    assert_eq!(
        result.to_model_content(),
        "capabilities: None; elicit: true; sample: the tool is not being served to a client, \
         so it cannot ask its model; roots: the tool is not being served to a client, so it \
         cannot list its roots"
    );
    let logs = logs.0.lock().unwrap();
    assert_eq!(logs.len(), 2);
    assert_eq!(
        logs[0],
        (LogLevel::Info, "starting with [redacted]".to_owned())
    );
    assert_eq!(logs[1].0, LogLevel::Debug);
    assert_eq!(
        logs[1].1.chars().count(),
        1_001,
        "cut to 1000 characters and '…'"
    );
}

#[test]
fn a_policy_that_asks_the_user_defers_where_there_is_no_client_to_ask() {
    let spec = ToolSpec::builder("delete_file")
        .requires_approval()
        .build()
        .unwrap();
    let ask = |request: &ApprovalRequest<'_>| {
        assert!(!request.can_ask_user());
        Approval::ask("May I?")
    };
    for policy in [Arc::new(AskUser) as Arc<dyn ApprovalPolicy>, Arc::new(ask)] {
        let mut registry = ToolRegistry::new();
        registry
            .register(
                crate::core_fixtures::FnTool::new(spec.clone(), |_, _| Ok(JsonObject::new())).0,
            )
            .unwrap();
        let executor = ToolExecutor::builder(registry)
            .approval(move |request: &ApprovalRequest<'_>| policy.decide(request))
            .build();
        let result = block_on(executor.dispatch(&ToolCall::new("1", "delete_file", "{}")));
        assert_eq!(result.status(), ToolStatus::Deferred);
    }
}
