// A tool's field is an `Rc`: one error, on the field's type; none from the `ToolHandler`
// impl, its future, the `Tool` impl or `register`.
use std::rc::Rc;

use agentkit_core::{tool, BoxError, ToolContext, ToolHandler, ToolRegistry};

#[tool(
    name = "lookup_city",
    input = [{ name = "city", type = string }],
    output = [{ name = "country", type = string }],
)]
pub struct LookupCity {
    cache: Rc<Vec<(String, String)>>,
}

impl ToolHandler for LookupCity {
    async fn run(
        &self,
        input: LookupCityInput,
        _: &ToolContext<'_>,
    ) -> Result<LookupCityOutput, BoxError> {
        let country = self.cache.iter().find(|(city, _)| *city == input.city);
        Ok(LookupCityOutput { country: country.map(|(_, c)| c.clone()).unwrap_or_default() })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(LookupCity { cache: Rc::new(Vec::new()) }).unwrap();
}
