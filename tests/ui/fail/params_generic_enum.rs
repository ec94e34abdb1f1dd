use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub enum Action<T> {
    Set { value: T },
    Clear,
}

fn main() {}
