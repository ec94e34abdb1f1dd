use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "act",
    input = [{ name = "q", type = string }],
    output = [{ name = "labels", type = map, values = string }],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, _: ActInput, _: &ToolContext<'_>) -> Result<ActOutput, BoxError> {
        Err("not yet".into())
    }
}

fn main() {}
