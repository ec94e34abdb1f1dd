//! A struct holding state (a client and a config), with logic that really awaits.

use std::sync::Arc;

use agentkit_core::{
    BoxError, ToolContext, NoCredentials, Tool, ToolHandler, ToolRegistry, ToolExecutor, block_on,
    tool,
};

/// Stands in for an HTTP client.
pub struct Client {
    base_url: String,
}

#[tool(
    name = "fetch_page",
    description = "Fetch a page from the configured site.",
    input = [{ name = "path", type = string }],
    output = [{ name = "url", type = string }, { name = "bytes", type = integer }],
)]
pub struct FetchPage {
    client: Arc<Client>,
    max_bytes: i64,
}

impl ToolHandler for FetchPage {
    async fn run(&self, input: FetchPageInput, _: &ToolContext<'_>) -> Result<FetchPageOutput, BoxError> {
        let url = std::future::ready(format!("{}/{}", self.client.base_url, input.path)).await;
        Ok(FetchPageOutput {
            bytes: i64::try_from(url.len())?.min(self.max_bytes),
            url,
        })
    }
}

pub(crate) fn main() {
    let tool = FetchPage {
        client: Arc::new(Client { base_url: "https://example.com".into() }),
        max_bytes: 1024,
    };
    assert_eq!(tool.spec().name(), "fetch_page");
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry).credentials(NoCredentials).build();
    let mut inputs = agentkit_core::JsonObject::new();
    inputs.insert("path".into(), "docs".into());
    let result = block_on(executor.execute("fetch_page", inputs));
    assert_eq!(result.output().unwrap()["url"], "https://example.com/docs");
}
