//! `type = int`: another language's word.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "list_orders",
    input = [
        { name = "customer", type = string },
        { name = "limit", type = int },
    ],
    output = [{ name = "count", type = integer }],
)]
pub struct ListOrders;

impl ToolHandler for ListOrders {
    async fn run(
        &self,
        input: ListOrdersInput,
        _: &ToolContext<'_>,
    ) -> Result<ListOrdersOutput, BoxError> {
        Ok(ListOrdersOutput {
            count: input.limit.min(input.customer.len() as i64),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ListOrders).unwrap();
}
