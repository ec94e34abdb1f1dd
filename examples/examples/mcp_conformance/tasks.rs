//! The tools of the suite's `tasks-*` scenarios (MCP 2026-07-28's `io.modelcontextprotocol/tasks`
//! extension, SEP-2663): a tool that never runs as a task, and tools that do, which take a
//! while, fail, panic or ask the user, one of them in input-required rounds before it becomes
//! a task. Each says so in its declaration (`#[tool(task_support = "optional")]`, and
//! [`McpServer::with_input_before_task`](agentkit_core::mcp::McpServer::with_input_before_task)
//! for the last); `McpServer` does the rest, and the tools are written as any other.

use std::time::Duration;

use agentkit_core::serde_json::json;
use agentkit_core::{
    BoxError, Elicitation, ElicitationRequest, ToolContext, ToolError, ToolHandler, ToolRegistry,
    tool,
};

/// Greets, at once: never a task.
#[tool(
    name = "greet",
    input = [{ name = "name", type = string, description = "Who to greet" }],
    output = String,
)]
struct Greet;

impl ToolHandler for Greet {
    async fn run(&self, input: GreetInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        Ok(format!("Hello, {}!", input.name))
    }
}

/// Works for `seconds`, then answers. Run as a task, `tasks/cancel` ends the sleep: the call
/// is cancelled as when a client cancels a plain call.
#[tool(
    name = "slow_compute",
    input = [
        { name = "seconds", type = float, minimum = 0, maximum = 600, description = "How long to work" },
        { name = "label", type = string, required = false, default = "job", description = "A name for the job" },
    ],
    output = String,
    task_support = "optional",
)]
struct SlowCompute;

impl ToolHandler for SlowCompute {
    async fn run(&self, input: SlowComputeInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        tokio::time::sleep(Duration::from_secs_f64(input.seconds)).await;
        Ok(format!("{} computed in {} s", input.label, input.seconds))
    }
}

/// Works for a second, then fails: the task completes, its result an error for the model.
/// Only as a task: a client that did not declare the extension is refused (the suite's
/// `tasks-required-task-error`).
#[tool(name = "failing_job", input = [], output = String, task_support = "required")]
struct FailingJob;

impl ToolHandler for FailingJob {
    async fn run(&self, _: FailingJobInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        tokio::time::sleep(Duration::from_secs(1)).await;
        Err(ToolError::failed("the job failed, as the suite asks").into())
    }
}

/// Panics: a failure of the server, not an answer, so its task fails.
#[tool(
    name = "protocol_error_job",
    input = [],
    output = String,
    task_support = "optional"
)]
struct ProtocolErrorJob;

impl ToolHandler for ProtocolErrorJob {
    async fn run(&self, _: ProtocolErrorJobInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        panic!("the job breaks, as the suite asks")
    }
}

/// Asks the user to confirm before deleting (nothing is deleted). Run as a task, the question
/// waits in the task (`input_required`) for the client's `tasks/update`.
#[tool(
    name = "confirm_delete",
    input = [{ name = "filename", type = string, description = "The file to delete" }],
    output = String,
    task_support = "optional",
)]
struct ConfirmDelete;

impl ToolHandler for ConfirmDelete {
    async fn run(
        &self,
        input: ConfirmDeleteInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        let answer = ctx
            .elicit(confirmation(&format!("Delete {}?", input.filename)))
            .await?;
        Ok(match confirmed(&answer) {
            true => format!("Deleted {}", input.filename),
            false => format!("Kept {}", input.filename),
        })
    }
}

/// Asks the user two questions at once: the task waits for both answers.
#[tool(name = "multi_input", input = [], output = String, task_support = "optional")]
struct MultiInput;

impl ToolHandler for MultiInput {
    async fn run(&self, _: MultiInputInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let (first, second) = tokio::join!(
            ctx.elicit(confirmation("First question: go on?")),
            ctx.elicit(confirmation("Second question: go on?")),
        );
        Ok(format!(
            "first: {}, second: {}",
            confirmed(&first?),
            confirmed(&second?)
        ))
    }
}

/// The tool that asks in input-required rounds before it becomes a task.
pub(crate) const INPUT_BEFORE_TASK: &str = "test_tool_with_task";

/// Asks the user's name, then works a moment and greets them: only as a task. For a client
/// of 2026-07-28, the question comes in an input-required round and the call becomes its
/// task once answered (the suite's `tasks-mrtr-composition`), the name in its result; served
/// with [`INPUT_BEFORE_TASK`].
#[tool(
    name = "test_tool_with_task",
    input = [],
    output = String,
    task_support = "required"
)]
struct GreetAsTask;

impl ToolHandler for GreetAsTask {
    async fn run(&self, _: GreetAsTaskInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let form = json!({
            "type": "object",
            "properties": {"name": {"type": "string", "description": "Your name"}},
            "required": ["name"],
        });
        let question = ElicitationRequest::new("What is your name?", form).with_key("user_name");
        let name = match ctx.elicit(question).await? {
            Elicitation::Accept(content) => content
                .get("name")
                .and_then(|name| name.as_str())
                .unwrap_or("stranger")
                .to_owned(),
            _ => "stranger".to_owned(),
        };
        // The work the task is for: the call is a task from here.
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok(format!("Hello, {name}!"))
    }
}

/// A yes-or-no question.
fn confirmation(message: &str) -> ElicitationRequest {
    let form = json!({
        "type": "object",
        "properties": {"confirm": {"type": "boolean", "description": "Yes or no"}},
        "required": ["confirm"],
    });
    ElicitationRequest::new(message, form)
}

/// Whether the user said yes.
fn confirmed(answer: &Elicitation) -> bool {
    match answer {
        Elicitation::Accept(content) => content
            .get("confirm")
            .and_then(|confirm| confirm.as_bool())
            .unwrap_or(false),
        _ => false,
    }
}

/// Registers the tools of the tasks scenarios.
pub(crate) fn register(registry: &mut ToolRegistry) -> Result<(), BoxError> {
    registry.register(Greet)?;
    registry.register(SlowCompute)?;
    registry.register(FailingJob)?;
    registry.register(ProtocolErrorJob)?;
    registry.register(ConfirmDelete)?;
    registry.register(MultiInput)?;
    registry.register(GreetAsTask)?;
    Ok(())
}
