//! The example of the same name in agentkit-derive's documentation.

use std::sync::Arc;

use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};

/// Search the product catalogue.
#[tool(
    name = "search_products",
    input = [
        { name = "query", type = string },
        { name = "limit", type = integer, required = false, default = 10 },
        { name = "in-stock", type = boolean, required = false },
    ],
    output = [{ name = "results", type = list }],
)]
pub struct SearchProducts {
    catalogue: Arc<Vec<String>>,
}

impl ToolHandler for SearchProducts {
    async fn run(
        &self,
        input: SearchProductsInput,
        _: &ToolContext<'_>,
    ) -> Result<SearchProductsOutput, BoxError> {
        // `in-stock` is the field `in_stock`; an optional parameter without a default is an `Option`.
        let _only_in_stock: Option<bool> = input.in_stock;
        let limit = usize::try_from(input.limit)?;
        let hits = std::future::ready(self.catalogue.iter().filter(|p| p.contains(&input.query))).await;
        Ok(SearchProductsOutput { results: hits.take(limit).map(|p| p.as_str().into()).collect() })
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    let tool = SearchProducts { catalogue: Arc::new(vec!["lamp".into()]) };
    assert_eq!(tool.spec().description(), "Search the product catalogue.");
}
