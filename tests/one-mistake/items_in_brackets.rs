//! `items = [string]`: the item type in a list.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "tag_photos",
    input = [
        { name = "album", type = string },
        { name = "tags", type = list, items = [string] },
    ],
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
        let longest = tags.iter().map(String::len).max().unwrap_or(0);
        Ok(TagPhotosOutput {
            count: i64::try_from(longest + input.album.len())?,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(TagPhotos).unwrap();
}
