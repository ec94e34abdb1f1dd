use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

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
        Ok(TagPhotosOutput { count: (longest + input.album.len()) as i64 })
    }
}

fn main() {}
