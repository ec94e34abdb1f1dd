use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "t",
    input = [
        { name = "units", type = string, requred = false, default = "metric" },
    ],
)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: TInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
