//! `type = string, type = dictionary, fields = [...]`: the first type is not checked against
//! the `fields` meant for the second, and the handler uses the generated struct.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "plan_trip",
    input = [
        { name = "origin", type = string, type = dictionary, fields = [{ name = "city", type = string }] },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(&self, input: PlanTripInput, _: &ToolContext<'_>) -> Result<PlanTripOutput, BoxError> {
        let origin: PlanTripInputOrigin = input.origin;
        Ok(PlanTripOutput { summary: format!("from {}", origin.city) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).unwrap();
}
