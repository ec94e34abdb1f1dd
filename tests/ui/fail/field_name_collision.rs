use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "fetch_forecast",
    input = [
        { name = "max-days", type = integer, required = false },
        { name = "max_days", type = integer, required = false },
    ],
)]
pub struct FetchForecast;

impl ToolHandler for FetchForecast {
    async fn run(&self, input: FetchForecastInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.max_days;
        Ok(JsonObject::new())
    }
}

fn main() {}
