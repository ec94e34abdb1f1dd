use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_forecast",
    input = [
        { name = "city", type = string },
        { name = "days", type = integer, required = false, default = "3" },
    ],
)]
pub struct FetchForecast;

impl ToolHandler for FetchForecast {
    async fn run(&self, input: FetchForecastInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.days;
        Ok(JsonObject::new())
    }
}

fn main() {}
