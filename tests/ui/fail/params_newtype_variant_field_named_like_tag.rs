use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub struct Shape {
    pub kind: String,
    pub size: f64,
}

#[derive(ToolParams)]
#[param(tag = "kind")]
pub enum Item {
    Shape(Shape),
    Blank,
}

fn main() {}
