use agentkit_core::{tool, BoxError, ToolContext, ToolHandler};

pub struct Forecast {
    pub temperature: f64,
}

#[tool(name = "t", input = [{ name = "city", type = string }], output = Forecast)]
pub struct T;

impl ToolHandler for T {
    async fn run(&self, _: TInput, _: &ToolContext<'_>) -> Result<Forecast, BoxError> {
        Ok(Forecast { temperature: 21.5 })
    }
}

fn main() {}
