use agentkit_core::{tool, BoxError, Credentials, JsonObject, ToolHandler};

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
pub struct FetchWeather<'a> {
    api_key: &'a str,
}

impl ToolHandler for FetchWeather<'static> {
    async fn run(&self, input: FetchWeatherInput, _: &Credentials) -> Result<JsonObject, BoxError> {
        let _ = (self.api_key, input.city);
        Ok(JsonObject::new())
    }
}

fn main() {}
