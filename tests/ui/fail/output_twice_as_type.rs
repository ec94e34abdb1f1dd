//! `output` written twice, as a list and as a type; the handler returns the type.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolParams, ToolRegistry, tool};

#[derive(ToolParams)]
pub struct Summary {
    pub summary: String,
}

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    output = [{ name = "summary", type = string }],
    output = Summary,
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<Summary, BoxError> {
        Ok(Summary { summary: format!("sunny in {}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
