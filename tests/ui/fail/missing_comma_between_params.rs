use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

#[tool(
    name = "book_table",
    input = [
        { name = "restaurant", type = string }
        { name = "guests", type = integer },
        { name = "time", type = string, required = false },
    ],
    output = [{ name = "confirmation", type = string }],
)]
pub struct BookTable;

impl ToolHandler for BookTable {
    async fn run(
        &self,
        input: BookTableInput,
        _: &ToolContext<'_>,
    ) -> Result<BookTableOutput, BoxError> {
        let guests: i64 = input.guests;
        let time: &str = input.time.as_deref().unwrap_or("19:00");
        let confirmation = format!("{} for {guests} at {time}", input.restaurant);
        Ok(BookTableOutput { confirmation })
    }
}

fn main() {}
