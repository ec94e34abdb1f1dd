//! `fields` on a string.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "plan_trip",
    input = [
        { name = "origin", type = string, fields = [{ name = "city", type = string }] },
        { name = "days", type = integer },
    ],
    output = [{ name = "plan", type = string }],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(
        &self,
        input: PlanTripInput,
        _: &ToolContext<'_>,
    ) -> Result<PlanTripOutput, BoxError> {
        let origin: String = input.origin;
        Ok(PlanTripOutput {
            plan: format!("{origin}: {} days", input.days),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).unwrap();
}
