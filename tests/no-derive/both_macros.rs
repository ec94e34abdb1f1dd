use agentkit_core::{ToolParams, tool};

#[tool(name = "fetch_weather", input = WeatherArgs)]
pub struct FetchWeather;

#[derive(ToolParams)]
pub struct WeatherArgs {
    pub city: String,
}

// Nothing else is an error: not the handler, nor the registration, nor the struct's uses.
impl agentkit_core::ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: WeatherArgs,
        _: &agentkit_core::ToolContext<'_>,
    ) -> Result<agentkit_core::JsonObject, agentkit_core::BoxError> {
        let mut output = agentkit_core::JsonObject::new();
        output.insert("city".to_owned(), input.city.into());
        Ok(output)
    }
}

fn main() {
    let mut registry = agentkit_core::ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
    let _args = WeatherArgs {
        city: String::new(),
    };
}
