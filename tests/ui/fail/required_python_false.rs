use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "search_docs",
    input = [
        { name = "query", type = string },
        { name = "limit", type = integer, required = False },
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
        let limit: i64 = input.limit.unwrap_or(10);
        let hits: Vec<String> = (0..limit).map(|i| format!("{} #{i}", input.query)).collect();
        Ok(SearchDocsOutput { hits })
    }
}

fn main() {}
