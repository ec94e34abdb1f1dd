//! `default = -1i64`: a negative number with a suffix.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "shift_dates",
    input = [
        { name = "date", type = string },
        { name = "offset", type = integer, required = false, default = -1i64 },
    ],
    output = [{ name = "date", type = string }],
)]
pub struct ShiftDates;

impl ToolHandler for ShiftDates {
    async fn run(
        &self,
        input: ShiftDatesInput,
        _: &ToolContext<'_>,
    ) -> Result<ShiftDatesOutput, BoxError> {
        let offset: i64 = input.offset;
        Ok(ShiftDatesOutput {
            date: format!("{}{offset:+}", input.date),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(ShiftDates).unwrap();
}
