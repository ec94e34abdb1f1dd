use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolParams, tool};

#[derive(ToolParams)]
pub enum Units {
    Metric,
    Imperial,
}

#[derive(ToolParams)]
pub struct WeatherArgs {
    /// City name (e.g., 'San Francisco')
    pub city: String,
    #[param(default = "US")]
    pub country: String,
    #[param(default = "imperial")]
    pub units: Units,
}

#[derive(ToolParams)]
pub struct Weather {
    pub city: String,
    pub temperature: f64,
}

/// Look up the current weather for a city.
#[tool(name = "fetch_weather", input = WeatherArgs, output = Weather)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: WeatherArgs, _: &ToolContext<'_>) -> Result<Weather, BoxError> {
        let temperature = match input.units {
            Units::Metric => 22.0,
            Units::Imperial => 72.0,
        };
        Ok(Weather { city: input.city, temperature })
    }
}

pub(crate) fn main() {
    use agentkit_core::{Tool, ToolCall, ToolExecutor, ToolRegistry, block_on};
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather).unwrap();
    assert_eq!(FetchWeather.spec().description(), "Look up the current weather for a city.");
    let result = block_on(ToolExecutor::new(registry).dispatch(&ToolCall::new("c1", "fetch_weather", r#"{"city":"Paris"}"#)));
    assert_eq!(result.output().unwrap()["temperature"], 72.0);
}
