//! `type = intger` inside `fields`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "plan_trip",
    input = [
        { name = "stop", type = dictionary, fields = [
            { name = "city", type = string },
            { name = "nights", type = intger },
        ] },
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
        let nights: i64 = input.stop.nights;
        Ok(PlanTripOutput {
            plan: format!("{}: {nights} nights", input.stop.city),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).unwrap();
}
