//! `fields = null`: not a list of fields; the handler reads the field it meant.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "plan_trip",
    input = [{ name = "origin", type = dictionary, fields = null }],
    output = [{ name = "summary", type = string }],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(&self, input: PlanTripInput, _: &ToolContext<'_>) -> Result<PlanTripOutput, BoxError> {
        let city: String = input.origin.city;
        Ok(PlanTripOutput { summary: format!("from {city}") })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).unwrap();
}
