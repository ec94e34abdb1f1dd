use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "plan_trip",
    input = [
        { name = "prefs", type = dictionary, required = false,
          default = { seat = "aisle", bags = "two" },
          fields = [
            { name = "seat", type = string },
            { name = "bags", type = integer, required = false },
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
