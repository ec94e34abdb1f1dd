use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
pub struct FetchWeather<C> {
    client: C,
}

impl<C: Send + Sync + 'static> ToolHandler for FetchWeather<C> {
    async fn run(&self, input: FetchWeatherInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = (&self.client, input.city);
        Ok(JsonObject::new())
    }
}

fn main() {}
