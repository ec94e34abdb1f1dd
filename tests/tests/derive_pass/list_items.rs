//! Lists with declared items: typed `Vec`s in the input and the output, item types in the spec.

use agentkit_core::{
    tool, BoxError, ToolContext, JsonObject, ParamType, Tool, ToolHandler,
};
use serde_json::Value;

#[tool(
    name = "rank",
    description = "Rank documents by score.",
    input = [
        { name = "ids", type = list, items = string },
        { name = "weights", type = list, items = float, required = false, default = [1.0, 2] },
        { name = "flags", type = list, items = boolean, required = false },
        { name = "pages", type = list, items = integer, required = false, default = [1, -2] },
        { name = "rows", type = list, items = list, required = false },
        { name = "docs", type = list, items = dictionary, required = false },
        { name = "anything", type = list, required = false },
    ],
    output = [
        { name = "ranked", type = list, items = string },
        { name = "scores", type = list, items = float },
    ],
)]
pub struct Rank;

impl ToolHandler for Rank {
    async fn run(&self, input: RankInput, _: &ToolContext<'_>) -> Result<RankOutput, BoxError> {
        let ids: Vec<String> = input.ids;
        let weights: Vec<f64> = input.weights;
        let _: Option<Vec<bool>> = input.flags;
        let _: Vec<i64> = input.pages;
        let _: Option<Vec<Vec<Value>>> = input.rows;
        let _: Option<Vec<agentkit_core::JsonObject>> = input.docs;
        let _: Option<Vec<Value>> = input.anything;
        let scores = weights.iter().copied().take(ids.len()).collect();
        Ok(RankOutput { ranked: ids, scores })
    }
}

pub(crate) fn main() {
    let spec = Rank.spec();
    let input = spec.input_schema().expect("declared");
    assert_eq!(input.parameter("ids").and_then(|p| p.items()), Some(ParamType::String));
    assert_eq!(input.parameter("anything").and_then(|p| p.items()), None);
    let _: JsonObject = JsonObject::new();
}
