use agentkit_derive::tool;

#[tool(name = "fetch_weather")]
pub struct FetchWeather;

fn main() {
    // The struct is still there: only the attribute is an error.
    let _tool = FetchWeather;
}
