use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "t",
    input = [
        { name = "scale", type = float, required = false, default = 1e400 },
    ],
)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: TInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
