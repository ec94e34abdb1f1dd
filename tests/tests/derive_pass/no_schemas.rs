//! Without `input` or `output`, the tool takes and returns raw JSON objects, unvalidated.

use agentkit_core::{BoxError, ToolContext, JsonObject, Tool, ToolHandler, tool};

#[tool(name = "echo", description = "Echo the arguments.")]
pub struct Echo;

impl ToolHandler for Echo {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

/// Empty schemas are schemas too: no parameter accepted, none returned.
#[tool(name = "tick", input = [], output = [])]
pub struct Tick;

impl ToolHandler for Tick {
    async fn run(&self, _: TickInput, _: &ToolContext<'_>) -> Result<TickOutput, BoxError> {
        Ok(TickOutput {})
    }
}

pub(crate) fn main() {
    assert!(Echo.spec().input_schema().is_none());
    assert!(Echo.spec().output_schema().is_none());
    assert_eq!(Tick.spec().input_schema().unwrap().parameters().len(), 0);
}
