//! Every parameter in `( ... )`, as tuples.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "convert_currency",
    input = [
        ( name = "amount", type = float ),
        ( name = "from", type = string ),
        ( name = "to", type = string ),
    ],
    output = [{ name = "amount", type = float }],
)]
pub struct ConvertCurrency;

impl ToolHandler for ConvertCurrency {
    async fn run(
        &self,
        input: ConvertCurrencyInput,
        _: &ToolContext<'_>,
    ) -> Result<ConvertCurrencyOutput, BoxError> {
        let rate = if input.from == input.to { 1.0 } else { 0.9 };
        Ok(ConvertCurrencyOutput {
            amount: input.amount * rate,
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ConvertCurrency).unwrap();
}
