//! The example of the same name in agentkit-derive's documentation.

// Cargo.toml: agentkit = { package = "agentkit-core", version = "0.1", features = ["derive"] }
extern crate agentkit_core as agentkit; // (stands in for the renamed dependency)

use agentkit::{BoxError, JsonObject, ToolContext, ToolHandler};

#[agentkit::tool(crate = "agentkit", name = "ping")]
pub struct Ping;

impl ToolHandler for Ping {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn main() {
    use agentkit::Tool;
    assert_eq!(Ping.spec().name(), "ping");
}
