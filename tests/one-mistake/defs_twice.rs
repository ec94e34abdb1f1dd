//! `defs` written twice; a parameter refers to a definition of the second.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "locate",
    defs = { point = [{ name = "x", type = integer }, { name = "y", type = integer }] },
    defs = { place = [{ name = "city", type = string }] },
    input = [{ name = "at", type = place }],
    output = [{ name = "summary", type = string }],
)]
pub struct Locate;

impl ToolHandler for Locate {
    async fn run(&self, input: LocateInput, _: &ToolContext<'_>) -> Result<LocateOutput, BoxError> {
        let city: String = input.at.city;
        Ok(LocateOutput { summary: city })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Locate).unwrap();
}
