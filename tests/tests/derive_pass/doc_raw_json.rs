//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

#[tool(name = "echo", description = "Return the arguments unchanged.")]
pub struct Echo;

impl ToolHandler for Echo {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    assert!(Echo.spec().input_schema().is_none());
}
