use agentkit_core::{tool, BoxError, Credentials, JsonObject, ToolHandler};

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
pub struct FetchWeather<C> {
    client: C,
}

impl<C: Send + Sync + 'static> ToolHandler for FetchWeather<C> {
    async fn run(&self, input: FetchWeatherInput, _: &Credentials) -> Result<JsonObject, BoxError> {
        let _ = (&self.client, input.city);
        Ok(JsonObject::new())
    }
}

fn main() {}
