use agentkit_core::ToolParams;

// A newtype variant's fields sit beside the tag: it holds a struct deriving `ToolParams`.
#[derive(ToolParams)]
pub enum Units {
    Metric,
    Custom(String),
}

fn main() {}
