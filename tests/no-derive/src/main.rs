use agentkit_derive::{ToolParams, tool};

#[tool(name = "fetch_weather")]
pub struct FetchWeather;

#[derive(ToolParams)]
pub struct WeatherArgs {
    pub city: String,
}

fn main() {
    // The structs are still there: only the macros are errors.
    let _tool = FetchWeather;
    let _args = WeatherArgs { city: String::new() };
}
