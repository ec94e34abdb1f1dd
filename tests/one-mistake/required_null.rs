//! `required = null`: neither `true` nor `false`; the handler is written for `false`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = null },
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
        let units: Option<String> = input.units;
        Ok(FetchWeatherOutput {
            summary: format!("22 degrees in {}, {}", input.city, units.unwrap_or_default()),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
