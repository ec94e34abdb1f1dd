//! `type = integer, default = "3"`: the type or the default is the mistake; the handler is
//! written for the fix that makes the type a string.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "forecast",
    input = [
        { name = "city", type = string },
        { name = "days", type = integer, required = false, default = "3" },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct Forecast;

impl ToolHandler for Forecast {
    async fn run(&self, input: ForecastInput, _: &ToolContext<'_>) -> Result<ForecastOutput, BoxError> {
        let days: String = input.days;
        Ok(ForecastOutput {
            summary: format!("{days} days in {}", input.city),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Forecast).unwrap();
}
