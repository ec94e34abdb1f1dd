use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = "false" },
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
        let units: String = input.units.unwrap_or_else(|| "metric".to_owned());
        Ok(FetchWeatherOutput { summary: format!("{} in {units}", input.city) })
    }
}

fn main() {}
