use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolParams};

#[derive(ToolParams)]
pub struct Args {
    #[param(type = integer)]
    pub days: i64,
}

#[tool(name = "t", input = Args)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, input: Args, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input;
        Ok(JsonObject::new())
    }
}

fn main() {}
