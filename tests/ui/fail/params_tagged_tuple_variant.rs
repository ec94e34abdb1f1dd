use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub enum Action {
    Click(i64, i64),
    Wait,
}

fn main() {}
