//! A tool struct holding an `Rc<Cell<_>>`: neither `Send` nor `Sync`.
use std::cell::Cell;
use std::rc::Rc;

use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "count_calls",
    input = [{ name = "city", type = string }],
    output = [{ name = "calls", type = integer }],
)]
pub struct CountCalls {
    calls: Rc<Cell<i64>>,
}

impl ToolHandler for CountCalls {
    async fn run(&self, _: CountCallsInput, _: &ToolContext<'_>) -> Result<CountCallsOutput, BoxError> {
        self.calls.set(self.calls.get() + 1);
        Ok(CountCallsOutput { calls: self.calls.get() })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(CountCalls { calls: Rc::new(Cell::new(0)) }).unwrap();
}
