use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "send_report",
    blocking = "yes",
)]
pub struct SendReport;

impl ToolHandler for SendReport {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {}
