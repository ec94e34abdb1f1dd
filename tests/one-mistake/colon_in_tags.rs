//! `tags = { team: "search" }`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search_docs",
    input = [{ name = "query", type = string }],
    output = [{ name = "hits", type = list, items = string }],
    tags = { team: "search" },
)]
pub struct SearchDocs;

impl ToolHandler for SearchDocs {
    async fn run(
        &self,
        input: SearchDocsInput,
        _: &ToolContext<'_>,
    ) -> Result<SearchDocsOutput, BoxError> {
        Ok(SearchDocsOutput {
            hits: vec![input.query],
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SearchDocs).unwrap();
}
