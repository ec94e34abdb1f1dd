//! No comma between two keys of a parameter.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "toggle_feature",
    input = [
        { name = "feature", type = string },
        { name = "enabled" type = boolean },
    ],
    output = [{ name = "feature", type = string }, { name = "enabled", type = boolean }],
)]
pub struct ToggleFeature;

impl ToolHandler for ToggleFeature {
    async fn run(
        &self,
        input: ToggleFeatureInput,
        _: &ToolContext<'_>,
    ) -> Result<ToggleFeatureOutput, BoxError> {
        let enabled: bool = input.enabled;
        Ok(ToggleFeatureOutput {
            feature: input.feature,
            enabled,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ToggleFeature).unwrap();
}
