//! `default = ["news", null]`: a list with a value the literal refuses.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search",
    input = [
        { name = "query", type = string },
        { name = "sources", type = list, items = string, required = false, default = ["news", null] },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchInput, _: &ToolContext<'_>) -> Result<SearchOutput, BoxError> {
        let sources: Vec<String> = input.sources;
        Ok(SearchOutput {
            summary: format!("{} in {}", input.query, sources.join(", ")),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Search).unwrap();
}
