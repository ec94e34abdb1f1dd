use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolParams};

#[derive(ToolParams)]
pub struct Place {
    pub city: String,
}

#[derive(ToolParams)]
pub struct Args {
    #[param(min_length = 1)]
    pub origin: Place,
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
