//! `enum = []`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search_docs",
    input = [
        { name = "query", type = string },
        { name = "sort", type = string, required = false, enum = [] },
    ],
    output = [{ name = "hits", type = list, items = string }],
)]
pub struct SearchDocs;

impl ToolHandler for SearchDocs {
    async fn run(
        &self,
        input: SearchDocsInput,
        _: &ToolContext<'_>,
    ) -> Result<SearchDocsOutput, BoxError> {
        let sort: Option<String> = input.sort;
        Ok(SearchDocsOutput {
            hits: vec![input.query, sort.unwrap_or_default()],
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SearchDocs).unwrap();
}
