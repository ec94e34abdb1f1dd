use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [
        ( name = "city", type = string ),
        { name = "units", type = string, required = false, default = "metric" },
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
        let city: String = input.city;
        let units: String = input.units;
        Ok(FetchWeatherOutput { summary: format!("{city} in {units}") })
    }
}

fn main() {}
