use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "search",
    input = [
        { name = "query", type = string },
        { name = "sources", type = list, items = string, required = false, default = ["web", 2] },
    ],
)]
pub struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.sources;
        Ok(JsonObject::new())
    }
}

fn main() {}
