//! No comma between two `enum` values.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, enum = ["metric" "imperial"] },
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
        let units = match input.units {
            FetchWeatherInputUnits::Metric => "C",
            FetchWeatherInputUnits::Imperial => "F",
        };
        Ok(FetchWeatherOutput {
            summary: format!("22 {units} in {}", input.city),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
