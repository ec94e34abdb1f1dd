//! `items = strng`: a misspelt item type.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "tag_photos",
    input = [{ name = "tags", type = list, items = strng }],
    output = [{ name = "count", type = integer }],
)]
pub struct TagPhotos;

impl ToolHandler for TagPhotos {
    async fn run(
        &self,
        input: TagPhotosInput,
        _: &ToolContext<'_>,
    ) -> Result<TagPhotosOutput, BoxError> {
        let tags: Vec<String> = input.tags;
        Ok(TagPhotosOutput {
            count: tags.len() as i64,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(TagPhotos).unwrap();
}
