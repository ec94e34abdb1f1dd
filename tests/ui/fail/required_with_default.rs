use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "country", type = string, required = true, default = "US" },
    ],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.country;
        Ok(JsonObject::new())
    }
}

fn main() {}
