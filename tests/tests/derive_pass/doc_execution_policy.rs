//! The example of the same name in agentkit-derive's documentation.

use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

/// Render the monthly report: slow, synchronous, and it sends an email.
#[tool(
    name = "send_report",
    timeout = "30s",
    blocking,
    sequential,
    requires_approval,
    retries = 2,
)]
pub struct SendReport;

impl ToolHandler for SendReport {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

pub(crate) fn main() {
    use agentkit_core::Tool;
    let spec = SendReport.spec();
    assert_eq!(spec.timeout(), Some(std::time::Duration::from_secs(30)));
    assert!(spec.is_blocking() && spec.is_sequential() && spec.requires_approval());
    assert_eq!(spec.retries(), Some(2));
}
