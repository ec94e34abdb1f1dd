//! `type` written twice in one parameter; the handler uses the second.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "forecast",
    input = [
        { name = "city", type = string },
        { name = "days", type = string, type = integer },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct Forecast;

impl ToolHandler for Forecast {
    async fn run(&self, input: ForecastInput, _: &ToolContext<'_>) -> Result<ForecastOutput, BoxError> {
        let days: i64 = input.days;
        Ok(ForecastOutput { summary: format!("{days} days in {}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Forecast).unwrap();
}
