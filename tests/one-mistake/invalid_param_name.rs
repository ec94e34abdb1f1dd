//! `name = "zip code"`: a space in a parameter name.
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

#[tool(
    name = "lookup_address",
    input = [
        { name = "street", type = string },
        { name = "zip code", type = string },
    ],
    output = [{ name = "address", type = string }],
)]
pub struct LookupAddress;

impl ToolHandler for LookupAddress {
    async fn run(
        &self,
        input: LookupAddressInput,
        _: &ToolContext<'_>,
    ) -> Result<LookupAddressOutput, BoxError> {
        Ok(LookupAddressOutput {
            address: format!("{} {}", input.street, input.zip_code),
        })
    }
}

fn main() {
    let mut registry = ToolRegistry::new();
    registry.register(LookupAddress).unwrap();
}
