//! No comma between two output parameters.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    output = [
        { name = "city", type = string }
        { name = "temperature", type = float },
    ],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        Ok(FetchWeatherOutput {
            city: input.city,
            temperature: 22.5,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
