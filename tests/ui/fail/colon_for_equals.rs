use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [
        { name: "city", type: string },
        { name = "days", type = integer, required = false, default = 1 },
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
        let days: i64 = input.days;
        Ok(FetchWeatherOutput { summary: format!("{city}: {days} days") })
    }
}

fn main() {}
