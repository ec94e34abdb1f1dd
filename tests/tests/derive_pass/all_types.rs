//! All six types, required, optional and defaulted, with every kind of default literal.

use agentkit_core::{
    BoxError, ToolContext, JsonObject, Literal, Tool, ToolHandler, tool,
};
use serde_json::{Map, Value, json};

#[tool(
    name = "everything",
    input = [
        { name = "s", type = string },
        { name = "i", type = integer },
        { name = "f", type = float },
        { name = "b", type = boolean },
        { name = "l", type = list },
        { name = "d", type = dictionary },
        { name = "opt-s", type = string, required = false },
        { name = "opt_i", type = integer, required = false },
        { name = "opt_f", type = float, required = false },
        { name = "opt_b", type = boolean, required = false },
        { name = "opt_l", type = list, required = false },
        { name = "opt_d", type = dictionary, required = false },
        { name = "def_s", type = string, required = false, default = "US" },
        { name = "def_i", type = integer, required = false, default = -5 },
        { name = "def_f", type = float, required = false, default = -1.5 },
        { name = "def_f_int", type = float, required = false, default = 2 },
        { name = "def_b", type = boolean, required = false, default = true },
        { name = "def_l", type = list, required = false, default = ["a", 1, 2.5, false, [1, 2]] },
        { name = "def_d", type = dictionary, required = false, default = { unit = "C", "max-days" = 7, nested = { deep = [true] } } },
        { name = "type", type = string, required = false },
        { name = "self", type = string, required = false },
        { name = "gen", type = string, required = false },
        { name = "async", type = string, required = false },
        { name = "_", type = string, required = false },
    ],
)]
pub struct Everything;

impl ToolHandler for Everything {
    async fn run(&self, input: EverythingInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let EverythingInput {
            s, i, f, b, l, d, opt_s, opt_i, opt_f, opt_b, opt_l, opt_d,
            def_s, def_i, def_f, def_f_int, def_b, def_l, def_d, r#type,
            self_, r#gen, r#async, __,
        } = input;
        let _: [Option<String>; 4] = [self_, r#gen, r#async, __];
        let _: (String, i64, f64, bool, Vec<Value>, Map<String, Value>) = (s, i, f, b, l, d);
        let _: (Option<String>, Option<i64>, Option<f64>, Option<bool>) = (opt_s, opt_i, opt_f, opt_b);
        let _: (Option<Vec<Value>>, Option<Map<String, Value>>) = (opt_l, opt_d);
        let _: (String, i64, f64, f64, bool) = (def_s, def_i, def_f, def_f_int, def_b);
        let _: (Vec<Value>, Map<String, Value>, Option<String>) = (def_l, def_d, r#type);
        Ok(JsonObject::new())
    }
}

pub(crate) fn main() {
    let schema = Everything.spec().input_schema().unwrap();
    let default = |name: &str| schema.parameter(name).unwrap().default_value().unwrap().to_value();
    assert_eq!(default("def_i"), json!(-5));
    assert_eq!(default("def_f"), json!(-1.5));
    assert_eq!(schema.parameter("def_f_int").unwrap().default_value(), Some(&Literal::Integer(2)));
    assert_eq!(default("def_l"), json!(["a", 1, 2.5, false, [1, 2]]));
    assert_eq!(default("def_d"), json!({"unit": "C", "max-days": 7, "nested": {"deep": [true]}}));
}
