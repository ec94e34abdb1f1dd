//! `max-days` and `max_days`: one Rust field.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "forecast",
    input = [
        { name = "max-days", type = integer },
        { name = "max_days", type = integer, required = false },
    ],
    output = [{ name = "days", type = integer }],
)]
pub struct Forecast;

impl ToolHandler for Forecast {
    async fn run(
        &self,
        input: ForecastInput,
        _: &ToolContext<'_>,
    ) -> Result<ForecastOutput, BoxError> {
        Ok(ForecastOutput {
            days: input.max_days,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Forecast).unwrap();
}
