//! `enum = null`: not a list of values; the handler matches on the enum it meant.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, enum = null },
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
        let degrees = match input.units {
            FetchWeatherInputUnits::Metric => 22,
            FetchWeatherInputUnits::Imperial => 72,
        };
        Ok(FetchWeatherOutput { summary: format!("{degrees} degrees in {}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
