//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

/// Look up the weather forecast for a city.
#[tool(
    name = "forecast",
    title = "Weather forecast",
    read_only,
    open_world,
    input = [
        { name = "city", type = string },
        { name = "days", type = integer, required = false, minimum = 1, maximum = 7, default = 1 },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"] },
    ],
    examples = [
        { city = "Paris" },
        { city = "Denver", days = 3, units = "imperial" },
    ],
)]
pub struct Forecast;

impl ToolHandler for Forecast {
    async fn run(&self, input: ForecastInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("summary".into(), format!("{} days in {}", input.days, input.city).into());
        Ok(output)
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    use serde_json::json;
    let spec = Forecast.spec();
    let annotations = spec.annotations();
    assert_eq!(annotations.title(), Some("Weather forecast"));
    assert_eq!(annotations.read_only(), Some(true));
    assert_eq!(annotations.open_world(), Some(true));
    assert_eq!(annotations.destructive(), None);
    assert_eq!(
        serde_json::Value::from(spec.examples().iter().cloned().map(serde_json::Value::Object).collect::<Vec<_>>()),
        json!([{"city": "Paris"}, {"city": "Denver", "days": 3, "units": "imperial"}])
    );
}
