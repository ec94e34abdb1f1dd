//! `default = { seat: "aisle" }`: a colon in a default dictionary.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "book_flight",
    input = [
        { name = "flight", type = string },
        { name = "prefs", type = dictionary, required = false, default = { seat: "aisle" }, fields = [
            { name = "seat", type = string },
            { name = "meal", type = string, required = false },
        ] },
    ],
    output = [{ name = "booking", type = string }],
)]
pub struct BookFlight;

impl ToolHandler for BookFlight {
    async fn run(
        &self,
        input: BookFlightInput,
        _: &ToolContext<'_>,
    ) -> Result<BookFlightOutput, BoxError> {
        let seat: String = input.prefs.seat;
        let meal = input.prefs.meal.unwrap_or_else(|| "standard".to_owned());
        Ok(BookFlightOutput {
            booking: format!("{} {seat} {meal}", input.flight),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(BookFlight).unwrap();
}
