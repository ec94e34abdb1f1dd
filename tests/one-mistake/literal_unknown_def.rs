//! `type = nod`: a misspelt definition.
use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "sum_tree",
    defs = { node = [{ name = "value", type = integer }, { name = "children", type = list, items = node }] },
    input = [{ name = "tree", type = nod }],
)]
pub struct SumTree;

impl ToolHandler for SumTree {
    async fn run(&self, input: SumTreeInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        fn sum(node: &SumTreeNode) -> i64 {
            node.value + node.children.iter().map(sum).sum::<i64>()
        }
        let mut output = JsonObject::new();
        output.insert("sum".into(), sum(&input.tree).into());
        Ok(output)
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SumTree).unwrap();
}
