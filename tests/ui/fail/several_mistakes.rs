use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

// Every mistake is reported in one build, each where it is written.
#[tool(
    name = "fetch weather",
    version = "1.0",
    input = [
        { name = "city", type = string },
        { name = "days", type = intger, required = false },
        { name = "units", type = string, requred = false },
        { name = "city", type = string, required = false },
        { name = "country", type = string, required = true, default = "US" },
        { name = "limit", type = integer, required = false, default = 2.5 },
        { name = "verbose", required = false },
    ],
    credentials = ["weather-api-key", "weather-api-key"],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.city;
        Ok(JsonObject::new())
    }
}

fn main() {}
