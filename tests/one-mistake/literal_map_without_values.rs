//! A map that does not say the type of its values.
use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "label",
    input = [{ name = "labels", type = map }, { name = "point", type = tuple, items = [float, float] }],
)]
pub struct Label;

impl ToolHandler for Label {
    async fn run(&self, input: LabelInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let (x, y) = input.point;
        let mut output = JsonObject::new();
        output.insert("at".into(), format!("{x},{y}").into());
        Ok(output)
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Label).unwrap();
}
