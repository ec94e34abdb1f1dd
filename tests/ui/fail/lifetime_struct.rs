use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
pub struct FetchWeather<'a> {
    api_key: &'a str,
}

impl ToolHandler for FetchWeather<'static> {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = (self.api_key, input.city);
        Ok(JsonObject::new())
    }
}

fn main() {}
