//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US" },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "imperial" },
    ],
    output = [
        { name = "city", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
    ],
    tags = { category = "weather" },
    credentials = ["weather-api-key"],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let _key = ctx.credential("weather-api-key")?;
        // `units` is the generated enum `FetchWeatherInputUnits`, its values as variants.
        let temperature = match input.units {
            FetchWeatherInputUnits::Metric => 22.0,
            FetchWeatherInputUnits::Imperial => 72.0,
        };
        Ok(FetchWeatherOutput { city: input.city, temperature, units: input.units.to_string() })
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    assert_eq!(FetchWeather.spec().name(), "fetch_weather");
}
