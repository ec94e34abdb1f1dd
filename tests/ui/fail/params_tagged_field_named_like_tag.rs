use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub enum Token {
    Word { r#type: String, text: String },
    Space,
}

fn main() {}
