use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "toggle_feature",
    input = [{ name = "feature", type = str }, { name = "enabled", type = boolean }],
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
        let feature: &str = &input.feature;
        Ok(ToggleFeatureOutput { feature: feature.to_owned(), enabled })
    }
}

fn main() {}
