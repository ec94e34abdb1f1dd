use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "toggle_feature",
    input = [{ name = "feature", type = string }, { name = "enabled" }],
    output = [{ name = "feature", type = string }, { name = "enabled", type = boolean }],
)]
pub struct ToggleFeature;

impl ToolHandler for ToggleFeature {
    async fn run(
        &self,
        input: ToggleFeatureInput,
        _: &ToolContext<'_>,
    ) -> Result<ToggleFeatureOutput, BoxError> {
        // A parameter whose type cannot be read is a `serde_json::Value`.
        let enabled = input.enabled == true;
        let feature: &str = &input.feature;
        Ok(ToggleFeatureOutput { feature: feature.to_owned(), enabled })
    }
}

fn main() {}
