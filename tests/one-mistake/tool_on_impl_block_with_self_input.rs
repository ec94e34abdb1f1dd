//! `#[tool]` on the `impl ToolHandler` block, whose `run` names `Self::Input`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

/// Searches the docs.
pub struct SearchDocs {
    index: Vec<String>,
}

#[tool(
    name = "search_docs",
    input = [
        { name = "query", type = string },
        { name = "limit", type = integer, required = false, default = 5 },
    ],
    output = [{ name = "hits", type = list, items = string }],
)]
impl ToolHandler for SearchDocs {
    async fn run(&self, input: Self::Input, _: &ToolContext<'_>) -> Result<Self::Output, BoxError> {
        let limit = usize::try_from(input.limit)?;
        let hits = self
            .index
            .iter()
            .filter(|doc| doc.contains(&input.query))
            .take(limit)
            .cloned()
            .collect();
        Ok(SearchDocsOutput { hits })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SearchDocs { index: Vec::new() }).unwrap();
}
