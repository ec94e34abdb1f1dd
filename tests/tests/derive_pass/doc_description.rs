//! Without `description`, the struct's doc comment is the description.

use agentkit_core::{BoxError, ToolContext, JsonObject, Tool, ToolHandler, tool};

/// Look up the current weather
/// for a city.
///
/// Temperatures are in the requested units.
#[tool(name = "fetch_weather", version = "2.1.0")]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

pub(crate) fn main() {
    let spec = FetchWeather.spec();
    assert_eq!(
        spec.description(),
        "Look up the current weather for a city.\n\nTemperatures are in the requested units."
    );
    assert_eq!(spec.version(), "2.1.0");
}
