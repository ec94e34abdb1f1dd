use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "act",
    defs = { string = [{ name = "x", type = integer }] },
    input = [{ name = "q", type = integer }],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, _: ActInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
