use agentkit_core::{tool, BoxError, ToolContext, JsonObject, ToolHandler};

#[tool(
    name = "t",
    input = [
        { name = "stops", type = list, items = dictionary, required = false,
          default = [{ city = "Lyon" }, { city = "Nice", pet = "cat" }],
          fields = [{ name = "city", type = string }] },
    ],
)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: TInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn main() {}
