use agentkit_core::{tool, BoxError, ToolContext, ToolHandler, ToolParams};

#[derive(ToolParams)]
pub struct Args {
    pub q: String,
}

#[derive(ToolParams)]
pub struct Found {
    pub ids: Vec<i64>,
}

// `defs` name the parts of a literal; with both sides given as types, there is none.
#[tool(
    name = "find",
    defs = { node = [{ name = "value", type = integer }] },
    input = Args,
    output = Found,
)]
pub struct Find;

impl ToolHandler for Find {
    async fn run(&self, _: Args, _: &ToolContext<'_>) -> Result<Found, BoxError> {
        Ok(Found { ids: Vec::new() })
    }
}

fn main() {}
