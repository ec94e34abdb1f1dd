use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolParams};

#[derive(ToolParams)]
pub enum Units {
    Metric,
    Imperial,
}

#[derive(ToolParams)]
pub struct Args {
    #[param(default = "kelvin")]
    pub units: Units,
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
