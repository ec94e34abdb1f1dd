//! `items = null`: not a type; the handler is written for `items = string`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search",
    input = [
        { name = "query", type = string },
        { name = "sources", type = list, items = null },
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
