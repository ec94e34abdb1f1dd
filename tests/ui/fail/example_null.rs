//! `examples = [{ city = null }]`: a value the literal refuses, in an input example; the
//! example is not checked for what that leaves missing.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    output = [{ name = "summary", type = string }],
    examples = [{ city = null }],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        Ok(FetchWeatherOutput { summary: format!("sunny in {}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
