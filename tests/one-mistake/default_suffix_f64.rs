//! `default = 2.5f64`: a Rust type suffix on a float.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "scale_image",
    input = [
        { name = "path", type = string },
        { name = "factor", type = float, required = false, default = 2.5f64 },
    ],
    output = [{ name = "width", type = float }],
)]
pub struct ScaleImage;

impl ToolHandler for ScaleImage {
    async fn run(
        &self,
        input: ScaleImageInput,
        _: &ToolContext<'_>,
    ) -> Result<ScaleImageOutput, BoxError> {
        let factor: f64 = input.factor;
        Ok(ScaleImageOutput {
            width: factor * input.path.len() as f64,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ScaleImage).unwrap();
}
