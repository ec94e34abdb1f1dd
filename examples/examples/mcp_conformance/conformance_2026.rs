//! The conformance suite's tools for MCP 2026-07-28 (`@modelcontextprotocol/conformance`
//! 0.2): those that ask the client (its user, its model, its roots) and which a client of
//! 2026-07-28 answers in rounds (SEP-2322: the call is answered with an
//! `InputRequiredResult`, and the client calls again with its answers), and the stateless
//! scenario's diagnostic tools.
//!
//! They are written as any tool that asks the client is, with [`ToolContext::elicit`],
//! [`ToolContext::sample`] and [`ToolContext::list_roots`]: the same code serves a client of
//! 2025-11-25, which is sent each request while the call runs. What the revision changes is
//! the server's ([`McpServer`](agentkit_core::mcp::McpServer)'s "Asking the client"). A
//! question is named (`with_key`) only where the suite expects a particular key.

use agentkit_core::serde_json::json;
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, LogLevel, SamplingRequest, ToolContext, ToolHandler,
    ToolRegistry, tool,
};

/// A form of one required field, `name`, of `kind` (`string`, `boolean`, ...).
fn form(name: &str, kind: &str) -> agentkit_core::serde_json::Value {
    json!({
        "type": "object",
        "properties": {name: {"type": kind}},
        "required": [name],
    })
}

/// The field `name` of an accepted answer, as text; `None` for any other answer.
fn field(answer: &Elicitation, name: &str) -> Option<String> {
    match answer {
        Elicitation::Accept(content) => content.get(name).map(|value| match value.as_str() {
            Some(text) => text.to_owned(),
            None => value.to_string(),
        }),
        _ => None,
    }
}

/// Asks the user's name, and greets them.
#[tool(name = "test_input_required_result_elicitation", input = [], output = String)]
struct Greet;

impl ToolHandler for Greet {
    async fn run(&self, _: GreetInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let question = ElicitationRequest::new("What is your name?", form("name", "string"))
            .with_key("user_name");
        let answer = ctx.elicit(question).await?;
        let name = field(&answer, "name").unwrap_or_else(|| "stranger".to_owned());
        Ok(format!("Hello, {name}!"))
    }
}

/// Asks the client's model a question, and returns its answer.
#[tool(name = "test_input_required_result_sampling", input = [], output = String)]
struct AskModel;

impl ToolHandler for AskModel {
    async fn run(&self, _: AskModelInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let question = SamplingRequest::new("What is the capital of France?")
            .with_max_tokens(100)
            .with_key("capital_question");
        let answer = ctx.sample(question).await?;
        Ok(format!("The model says: {}", answer.text()))
    }
}

/// Asks the client for its roots, and lists them.
#[tool(name = "test_input_required_result_list_roots", input = [], output = String)]
struct ListRoots;

impl ToolHandler for ListRoots {
    async fn run(&self, _: ListRootsInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let roots = ctx.list_roots().await?;
        let uris: Vec<&str> = roots.iter().map(|root| root.uri()).collect();
        Ok(format!("The client's roots: {}", uris.join(", ")))
    }
}

/// Asks the user to confirm. Between the rounds, the server carries the call in its sealed
/// `requestState`; that the call completes shows the state came back whole (`state-ok`).
#[tool(name = "test_input_required_result_request_state", input = [], output = String)]
struct Confirm;

impl ToolHandler for Confirm {
    async fn run(&self, _: ConfirmInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let question =
            ElicitationRequest::new("Please confirm", form("ok", "boolean")).with_key("confirm");
        let answer = ctx.elicit(question).await?;
        let ok = field(&answer, "ok").unwrap_or_else(|| "no answer".to_owned());
        Ok(format!("state-ok: confirmed {ok}"))
    }
}

/// Asks the user, the model and the client's roots at once: one round asks all three.
#[tool(name = "test_input_required_result_multiple_inputs", input = [], output = String)]
struct AskAll;

impl ToolHandler for AskAll {
    async fn run(&self, _: AskAllInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let name = ElicitationRequest::new("What is your name?", form("name", "string"))
            .with_key("user_name");
        let greeting = SamplingRequest::new("Generate a greeting")
            .with_max_tokens(50)
            .with_key("greeting");
        let (name, greeting, roots) =
            tokio::join!(ctx.elicit(name), ctx.sample(greeting), ctx.list_roots());
        let name = field(&name?, "name").unwrap_or_else(|| "stranger".to_owned());
        Ok(format!(
            "{} {name} (with {} roots)",
            greeting?.text(),
            roots?.len()
        ))
    }
}

/// Asks the user two questions, the second once the first is answered: two rounds.
#[tool(name = "test_input_required_result_multi_round", input = [], output = String)]
struct TwoSteps;

impl ToolHandler for TwoSteps {
    async fn run(&self, _: TwoStepsInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let first = ElicitationRequest::new("Step 1: What is your name?", form("name", "string"))
            .with_key("step1");
        let name = field(&ctx.elicit(first).await?, "name").unwrap_or_default();
        let second = ElicitationRequest::new(
            "Step 2: What is your favorite color?",
            form("color", "string"),
        )
        .with_key("step2");
        let color = field(&ctx.elicit(second).await?, "color").unwrap_or_default();
        Ok(format!("{name} likes {color}"))
    }
}

/// Asks the user to confirm; the suite changes the `requestState` it gets back, which the
/// server must refuse.
#[tool(name = "test_input_required_result_tampered_state", input = [], output = String)]
struct Tampered;

impl ToolHandler for Tampered {
    async fn run(&self, _: TamperedInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let question = ElicitationRequest::new("Please confirm", form("ok", "boolean"));
        let answer = ctx.elicit(question).await?;
        Ok(format!(
            "confirmed {}",
            field(&answer, "ok").unwrap_or_default()
        ))
    }
}

/// Asks the client only what it declared it can answer.
#[tool(name = "test_input_required_result_capabilities", input = [], output = String)]
struct WhatItCan;

impl ToolHandler for WhatItCan {
    async fn run(&self, _: WhatItCanInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let can = ctx.client_capabilities().unwrap_or_default();
        let user = async {
            if !can.elicitation() {
                return Ok(None);
            }
            let question = ElicitationRequest::new("What is your name?", form("name", "string"));
            ctx.elicit(question)
                .await
                .map(|answer| field(&answer, "name"))
        };
        let model = async {
            if !can.sampling() {
                return Ok(None);
            }
            let question = SamplingRequest::new("Say hello").with_max_tokens(20);
            ctx.sample(question)
                .await
                .map(|answer| Some(answer.text().to_owned()))
        };
        let (user, model) = tokio::join!(user, model);
        Ok(format!(
            "user: {}, model: {}",
            user?.unwrap_or_else(|| "not asked".to_owned()),
            model?.unwrap_or_else(|| "not asked".to_owned())
        ))
    }
}

/// Needs the client's model: a client that did not declare sampling is told so (the missing
/// capability error, for a client of 2026-07-28).
#[tool(name = "test_missing_capability", input = [], output = String)]
struct NeedsModel;

impl ToolHandler for NeedsModel {
    async fn run(&self, _: NeedsModelInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let answer = ctx
            .sample(SamplingRequest::new("Say hello").with_max_tokens(20))
            .await?;
        Ok(answer.text().to_owned())
    }
}

/// Asks the user while the call's response streams: the stream carries the call's result
/// (for a client of 2026-07-28, the question in it), never a request of its own.
#[tool(name = "test_streaming_elicitation", input = [], output = String)]
struct StreamingQuestion;

impl ToolHandler for StreamingQuestion {
    async fn run(
        &self,
        _: StreamingQuestionInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        ctx.log(LogLevel::Info, "about to ask the user");
        let question = ElicitationRequest::new("Continue?", form("ok", "boolean"));
        let answer = ctx.elicit(question).await?;
        Ok(format!(
            "continue: {}",
            field(&answer, "ok").unwrap_or_default()
        ))
    }
}

/// Logs while it runs: a client of 2026-07-28 gets the messages only when its request sets a
/// log level.
#[tool(name = "test_logging_tool", input = [], output = String)]
struct Logs;

impl ToolHandler for Logs {
    async fn run(&self, _: LogsInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        ctx.log(LogLevel::Info, "Tool execution started");
        ctx.log(LogLevel::Warning, "Tool execution half done");
        ctx.log(LogLevel::Info, "Tool execution completed");
        Ok("Logged three messages".to_owned())
    }
}

/// Registers the tools.
pub(crate) fn register(registry: &mut ToolRegistry) -> Result<(), BoxError> {
    registry.register(Greet)?;
    registry.register(AskModel)?;
    registry.register(ListRoots)?;
    registry.register(Confirm)?;
    registry.register(AskAll)?;
    registry.register(TwoSteps)?;
    registry.register(Tampered)?;
    registry.register(WhatItCan)?;
    registry.register(NeedsModel)?;
    registry.register(StreamingQuestion)?;
    registry.register(Logs)?;
    Ok(())
}
