use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "plan_trip",
    input = [
        { name = "stops", type = list, items = dictionary, fields = [
            { name = "city", type = string },
            { name = "nights", type = intger, required = false },
        ] },
    ],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(&self, input: PlanTripInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input;
        Ok(JsonObject::new())
    }
}

fn main() {}
