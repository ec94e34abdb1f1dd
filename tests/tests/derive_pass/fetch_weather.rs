//! The example from the macro's documentation: a unit struct with input, output, tags and
//! a credential.

use agentkit_core::{BoxError, ToolContext, Tool, ToolHandler, tool};

#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
    version = "1.0.0",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US", description = "ISO country code" },
        { name = "units", type = string, required = false, default = "imperial" },
    ],
    output = [
        { name = "city", type = string },
        { name = "country", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
        { name = "conditions", type = string },
    ],
    tags = { category = "weather", "x-team" = "data" },
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
        Ok(FetchWeatherOutput {
            city: input.city,
            country: input.country,
            temperature: 72.0,
            units: input.units,
            conditions: "sunny".into(),
        })
    }
}

pub(crate) fn main() {
    let spec = FetchWeather.spec();
    assert_eq!(spec.name(), "fetch_weather");
    assert_eq!(spec.tag("x-team"), Some("data"));
}
