// The tool is `Send` and `Sync`, but its `run` holds a `MutexGuard` across an `.await`: one
// error, on the struct's name (where the `Tool` impl asks that the future be `Send`), whose
// note points at the `.await`.
use std::sync::Mutex;

use agentkit_core::{tool, BoxError, JsonObject, ToolContext, ToolHandler, ToolRegistry};

#[tool(name = "count_calls", input = [{ name = "city", type = string }])]
pub struct CountCalls {
    calls: Mutex<i64>,
}

async fn log(_: &str) {}

impl ToolHandler for CountCalls {
    async fn run(&self, input: CountCallsInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut calls = self.calls.lock().unwrap();
        *calls += 1;
        log(&input.city).await;
        Ok(JsonObject::new())
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(CountCalls { calls: Mutex::new(0) }).unwrap();
}
