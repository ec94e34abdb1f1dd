// A tool's field is a `RefCell`: one error, on the field's type, saying what to use.
use std::cell::RefCell;

use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "count_calls",
    input = [],
    output = [{ name = "calls", type = integer }],
)]
pub struct CountCalls {
    calls: RefCell<i64>,
}

impl ToolHandler for CountCalls {
    async fn run(&self, _: CountCallsInput, _: &ToolContext<'_>) -> Result<CountCallsOutput, BoxError> {
        *self.calls.borrow_mut() += 1;
        Ok(CountCallsOutput { calls: *self.calls.borrow() })
    }
}

fn main() {}
