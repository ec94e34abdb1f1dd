//! `default = std::concat!(..)`: a macro call, by its path, where a literal is expected.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = false, default = std::concat!("met", "ric") },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let units: String = input.units;
        Ok(FetchWeatherOutput { summary: format!("22 degrees in {}, {units}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
