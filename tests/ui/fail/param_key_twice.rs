use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

// The `}, {` between `amount` and `currency` is left out: one parameter with `name` and
// `type` twice.
#[tool(
    name = "send_invoice",
    input = [
        { name = "customer", type = string },
        { name = "amount", type = float, name = "currency", type = string, required = false },
        { name = "due_days", type = integer, required = false, default = 30 },
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
        let due_days: i64 = input.due_days;
        let invoice_id = format!("{}-{amount}{currency}-{due_days}", input.customer);
        Ok(SendInvoiceOutput { invoice_id })
    }
}

fn main() {}
