//! `input = params!(..)`: a macro call where the list of parameters is expected.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[allow(unused_macros)]
macro_rules! params {
    ($($name:literal),*) => { [$({ name = $name, type = string }),*] };
}

#[tool(
    name = "fetch_weather",
    input = params!("city"),
    output = [{ name = "summary", type = string }],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        Ok(FetchWeatherOutput { summary: format!("sunny in {}", input.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
}
