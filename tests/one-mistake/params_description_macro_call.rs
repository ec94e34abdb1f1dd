//! `#[param(description = concat!(..))]`: a macro call where a string literal is expected.
use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, ToolParams, ToolRegistry, tool};

#[derive(ToolParams)]
pub struct SearchArgs {
    #[param(description = concat!("What to look ", "for."))]
    pub query: String,
}

#[tool(name = "search", input = SearchArgs)]
pub struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("query".into(), input.query.into());
        Ok(output)
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(Search).unwrap();
}
