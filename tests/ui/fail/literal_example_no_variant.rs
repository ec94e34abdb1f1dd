use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "act",
    input = [
        { name = "action", type = union, variants = [
            { tag = "click", fields = [{ name = "x", type = integer }] },
            { tag = "wait" },
        ] },
    ],
    examples = [{ action = { type = "click", x = 1 } }, { action = { type = "hover", x = 1 } }],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, _: ActInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
