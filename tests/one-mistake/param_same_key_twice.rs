//! `required = false` twice in one parameter.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "send_invoice",
    input = [
        { name = "customer", type = string },
        { name = "amount", type = float, required = false, required = false, default = 0.0 },
        { name = "currency", type = string, required = false },
    ],
    output = [{ name = "invoice_id", type = string }],
)]
pub struct SendInvoice;

impl ToolHandler for SendInvoice {
    async fn run(
        &self,
        input: SendInvoiceInput,
        _: &ToolContext<'_>,
    ) -> Result<SendInvoiceOutput, BoxError> {
        let amount: f64 = input.amount;
        let currency = input.currency.unwrap_or_else(|| "EUR".to_owned());
        Ok(SendInvoiceOutput {
            invoice_id: format!("{}-{amount}{currency}", input.customer),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(SendInvoice).unwrap();
}
