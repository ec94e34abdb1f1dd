//! An optional output with a default is an `Option` in the output struct: `run` may leave it
//! out, and output validation fills the default in, as validation fills an input's.

use agentkit_core::{
    block_on, tool, BoxError, ToolContext, ToolCall, ToolExecutor, ToolHandler, ToolRegistry,
};
use serde_json::json;

#[tool(
    name = "forecast",
    input = [{ name = "city", type = string }],
    output = [
        { name = "city", type = string },
        { name = "units", type = string, required = false, default = "metric" },
        { name = "note", type = string, required = false },
    ],
)]
pub struct Forecast;

impl ToolHandler for Forecast {
    async fn run(&self, input: ForecastInput, _: &ToolContext<'_>) -> Result<ForecastOutput, BoxError> {
        let units: Option<String> = None;
        let note: Option<String> = None;
        Ok(ForecastOutput { city: input.city, units, note })
    }
}

pub(crate) fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Forecast).unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("1", "forecast", r#"{"city": "Oslo"}"#)));
    assert_eq!(
        result.output().cloned(),
        Some(json!({"city": "Oslo", "units": "metric"}))
    );
}
