use agentkit_core::ToolParams;

#[derive(ToolParams)]
#[param(tag = "kind")]
pub struct Args {
    pub city: String,
}

fn main() {}
