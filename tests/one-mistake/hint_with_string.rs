//! `idempotent = "yes"`: a hint is a boolean.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    idempotent = "yes",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "days", type = integer, required = false, minimum = 1, maximum = 7 },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
        ] },
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
        let days = input.days.unwrap_or(1);
        let stops = input.stops.map_or(0, |stops| stops.len());
        Ok(FetchWeatherOutput {
            summary: format!("{days} days in {}, {}, {stops} stops", input.city, input.units),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
