//! `items = [string]` on an output.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "list_cities",
    input = [{ name = "country", type = string }],
    output = [{ name = "cities", type = list, items = [string] }],
)]
pub struct ListCities;

impl ToolHandler for ListCities {
    async fn run(
        &self,
        input: ListCitiesInput,
        _: &ToolContext<'_>,
    ) -> Result<ListCitiesOutput, BoxError> {
        let cities: Vec<String> = vec![format!("capital of {}", input.country)];
        Ok(ListCitiesOutput { cities })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ListCities).unwrap();
}
