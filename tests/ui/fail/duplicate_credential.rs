use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    credentials = ["weather-api-key", "geo-api-key", "weather-api-key"],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.city;
        Ok(JsonObject::new())
    }
}

fn main() {}
