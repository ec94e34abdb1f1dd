use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "plan_trip",
    input = [
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string },
            { name = "country", type = string, required = false },
            { name = "city", type = string, required = false },
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
