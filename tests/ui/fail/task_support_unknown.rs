use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "render_video",
    task_support = "sometimes",
)]
pub struct RenderVideo;

impl ToolHandler for RenderVideo {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {}
