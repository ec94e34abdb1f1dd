use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub enum Action {
    Click { x: i64, y: i64 },
    #[param(rename = "click")]
    DoubleClick { x: i64, y: i64 },
}

fn main() {}
