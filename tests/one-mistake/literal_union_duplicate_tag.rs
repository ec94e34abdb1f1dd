//! A tag two variants of a union share.
use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "act",
    input = [
        { name = "action", type = union, variants = [
            { tag = "click", fields = [{ name = "x", type = integer }, { name = "y", type = integer }] },
            { tag = "wait" },
            { tag = "click", fields = [{ name = "text", type = string }] },
        ] },
    ],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, input: ActInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let done = match input.action {
            ActInputAction::Click { x, y } => format!("{x},{y}"),
            ActInputAction::Wait => "waited".to_owned(),
        };
        let mut output = JsonObject::new();
        output.insert("done".into(), done.into());
        Ok(output)
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Act).unwrap();
}
