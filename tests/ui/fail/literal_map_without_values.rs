use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "act",
    input = [{ name = "labels", type = map }],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, _: ActInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
