use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

// An output literal may use the forms beyond the six types, and is checked by the same rules
// as an input: here, a tag two variants share, reported on the second.
#[tool(
    name = "act",
    input = [{ name = "q", type = string }],
    output = [
        { name = "result", type = union, variants = [
            { tag = "found", fields = [{ name = "id", type = integer }] },
            { tag = "found", fields = [{ name = "ids", type = list, items = integer }] },
        ] },
    ],
)]
pub struct Act;

impl ToolHandler for Act {
    async fn run(&self, _: ActInput, _: &ToolContext<'_>) -> Result<ActOutput, BoxError> {
        Err("not yet".into())
    }
}

fn main() {}
