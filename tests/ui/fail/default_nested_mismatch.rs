use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "t",
    input = [
        { name = "trip", type = dictionary, required = false,
          default = { name = "tour", stops = [{ city = "Lyon" }, { city = "Nice", nights = "two" }] },
          fields = [
            { name = "name", type = string },
            { name = "stops", type = list, items = dictionary, fields = [
                { name = "city", type = string },
                { name = "nights", type = integer, required = false, default = 1 },
            ] },
        ] },
    ],
)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: TInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
