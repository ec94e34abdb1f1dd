//! `default = 10u32`: an unsigned suffix.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "retry_job",
    input = [
        { name = "job", type = string },
        { name = "attempts", type = integer, required = false, default = 10u32 },
    ],
    output = [{ name = "status", type = string }],
)]
pub struct RetryJob;

impl ToolHandler for RetryJob {
    async fn run(
        &self,
        input: RetryJobInput,
        _: &ToolContext<'_>,
    ) -> Result<RetryJobOutput, BoxError> {
        let attempts: i64 = input.attempts;
        Ok(RetryJobOutput {
            status: format!("{} x{attempts}", input.job),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(RetryJob).unwrap();
}
