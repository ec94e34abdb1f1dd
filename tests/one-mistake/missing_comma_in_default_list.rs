//! No comma between two items of a default list.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search_news",
    input = [
        { name = "query", type = string },
        { name = "sources", type = list, items = string, required = false, default = ["web" "news"] },
    ],
    output = [{ name = "hits", type = list, items = string }],
)]
pub struct SearchNews;

impl ToolHandler for SearchNews {
    async fn run(
        &self,
        input: SearchNewsInput,
        _: &ToolContext<'_>,
    ) -> Result<SearchNewsOutput, BoxError> {
        let sources: Vec<String> = input.sources;
        let hits = sources
            .iter()
            .map(|source| format!("{source}: {}", input.query))
            .collect();
        Ok(SearchNewsOutput { hits })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SearchNews).unwrap();
}
