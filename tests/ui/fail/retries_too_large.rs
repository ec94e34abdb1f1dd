use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "send_report",
    retries = 4294967296,
)]
pub struct SendReport;

impl ToolHandler for SendReport {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {}
