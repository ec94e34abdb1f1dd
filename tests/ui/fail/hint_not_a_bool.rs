use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "delete_file",
    idempotent = "yes",
)]
pub struct DeleteFile;

impl ToolHandler for DeleteFile {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {}
