use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub struct Args<T> {
    pub value: T,
}

fn main() {}
