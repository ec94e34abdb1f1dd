use std::collections::HashMap;

use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolParams};

#[derive(ToolParams)]
pub struct Counts {
    pub counts: HashMap<String, i64>,
}

#[tool(name = "t", output = Counts)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: JsonObject, _: &ToolContext<'_>) -> Result<Counts, BoxError> {
        Ok(Counts { counts: HashMap::new() })
    }
}

fn main() {}
