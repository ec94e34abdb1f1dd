use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolParams};

pub struct Place {
    pub city: String,
}

#[derive(ToolParams)]
pub struct Args {
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
