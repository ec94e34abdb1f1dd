//! `nullable = null`: neither `true` nor `false`; the handler is written for `true`.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "close_ticket",
    input = [
        { name = "id", type = integer },
        { name = "reason", type = string, nullable = null },
    ],
    output = [{ name = "summary", type = string }],
)]
pub struct CloseTicket;

impl ToolHandler for CloseTicket {
    async fn run(&self, input: CloseTicketInput, _: &ToolContext<'_>) -> Result<CloseTicketOutput, BoxError> {
        let reason: Option<String> = input.reason;
        Ok(CloseTicketOutput { summary: format!("{} closed: {}", input.id, reason.unwrap_or_default()) })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(CloseTicket).unwrap();
}
