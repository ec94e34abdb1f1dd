//! `minimum = 50, maximum = 1`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "search_docs",
    input = [
        { name = "query", type = string },
        { name = "limit", type = integer, minimum = 50, maximum = 1 },
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
        let limit: i64 = input.limit;
        Ok(SearchDocsOutput {
            hits: (0..limit).map(|i| format!("{} {i}", input.query)).collect(),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SearchDocs).unwrap();
}
