use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler};

pub struct Args {
    pub city: String,
}

#[tool(name = "t", input = Args)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, input: Args, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let _ = input.city;
        Ok(JsonObject::new())
    }
}

fn main() {}
