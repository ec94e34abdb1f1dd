//! `default = 20i64`: a Rust type suffix.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "list_orders",
    input = [
        { name = "customer", type = string },
        { name = "limit", type = integer, required = false, default = 20i64 },
    ],
    output = [{ name = "orders", type = list, items = string }],
)]
pub struct ListOrders;

impl ToolHandler for ListOrders {
    async fn run(
        &self,
        input: ListOrdersInput,
        _: &ToolContext<'_>,
    ) -> Result<ListOrdersOutput, BoxError> {
        let limit: i64 = input.limit;
        let orders = (0..limit)
            .map(|n| format!("{}-{n}", input.customer))
            .collect();
        Ok(ListOrdersOutput { orders })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ListOrders).unwrap();
}
