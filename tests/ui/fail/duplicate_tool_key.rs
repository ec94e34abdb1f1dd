use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
    input = [{ name = "city", type = string }],
    description = "Weather.",
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.city;
        Ok(JsonObject::new())
    }
}

fn main() {}
