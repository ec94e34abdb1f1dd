//! `name = stringify!(..)`: a macro call where a string literal is expected.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = stringify!(fetch_weather),
    input = [{ name = "city", type = string }],
    output = [{ name = "summary", type = string }],
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
