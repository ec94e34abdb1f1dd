use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "days", type = integer, required = false, minimum = 1, maximum = 7 },
    ],
    examples = [{ city = "Paris", city = "Lyon" }],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = (input.city, input.units, input.days);
        Ok(JsonObject::new())
    }
}

fn main() {}
