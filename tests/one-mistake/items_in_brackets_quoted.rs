//! `items = ["integer"]`: the item type quoted, in a list.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "sum_numbers",
    input = [{ name = "numbers", type = list, items = ["integer"] }],
    output = [{ name = "total", type = integer }],
)]
pub struct SumNumbers;

impl ToolHandler for SumNumbers {
    async fn run(
        &self,
        input: SumNumbersInput,
        _: &ToolContext<'_>,
    ) -> Result<SumNumbersOutput, BoxError> {
        let total: i64 = input.numbers.iter().sum();
        Ok(SumNumbersOutput { total })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SumNumbers).unwrap();
}
