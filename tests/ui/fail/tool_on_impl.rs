use agentkit_core::{tool, BoxError, JsonObject, ToolContext};

pub struct FetchWeather;

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
impl FetchWeather {
    pub async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {}
