//! `input` written twice; the handler is written for the second list.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    input = [{ name = "town", type = string }, { name = "city", type = string }],
    output = [{ name = "summary", type = string }],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let town: String = input.town;
        Ok(FetchWeatherOutput { summary: format!("sunny in {town}") })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
