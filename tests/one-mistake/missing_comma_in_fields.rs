//! No comma between two declared fields of a dictionary.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "plan_trip",
    input = [
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string }
            { name = "country", type = string },
        ] },
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
        let days: i64 = input.days;
        let origin = input.origin;
        Ok(PlanTripOutput {
            plan: format!("{}, {}: {days} days", origin.city, origin.country),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).unwrap();
}
