use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "search",
    input = [
        { name = "query", type = string },
        { name = "units", type = string, enum = ["metric", 3] },
    ],
)]
pub struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.query;
        Ok(JsonObject::new())
    }
}

fn main() {}
