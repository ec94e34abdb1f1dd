use agentkit_core::tool;

#[tool(name = "fetch_weather", input = [{ name = "city", type = string }])]
pub struct FetchWeather;

fn main() {}
