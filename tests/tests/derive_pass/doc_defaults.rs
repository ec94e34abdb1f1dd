//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

#[tool(
    name = "plot",
    input = [
        { name = "title", type = string, required = false, default = "Untitled" },
        { name = "offset", type = integer, required = false, default = -1 },
        { name = "scale", type = float, required = false, default = 2 },
        { name = "grid", type = boolean, required = false, default = true },
        { name = "series", type = list, required = false, default = [1, 2.5, "n/a"] },
        { name = "style", type = dictionary, required = false, default = { color = "red", "line-width" = 2 } },
    ],
)]
pub struct Plot;

impl ToolHandler for Plot {
    async fn run(&self, input: PlotInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = (input.title, input.offset, input.scale, input.grid, input.series, input.style);
        Ok(JsonObject::new())
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    let schema = Plot.spec().input_schema().unwrap();
    assert_eq!(schema.parameter("style").unwrap().default_value().unwrap().to_value()["line-width"], 2);
}
