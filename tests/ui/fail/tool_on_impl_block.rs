use agentkit_core::{tool, BoxError, ToolContext, ToolHandler, ToolRegistry};

pub struct FetchWeather;

#[tool(
    name = "fetch_weather",
    input = [{ name = "city", type = string }],
    output = [{ name = "summary", type = string }],
)]
impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let city: String = input.city;
        Ok(FetchWeatherOutput { summary: format!("sunny in {city}") })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
