// The documentation's example of an enum with data, in a function: its statements run as
// the test.
pub(crate) fn main() {
use agentkit_core::ToolParams;

#[derive(ToolParams)]
pub struct Scroll {
    pub dy: i64,
}

#[derive(ToolParams)]
#[param(tag = "kind")]
pub enum Action {
    /// Click at a point.
    Click { x: u32, y: u32 },
    Scroll(Scroll),
    #[param(rename = "idle")]
    Wait,
}

let schema = Action::json_schema();
assert_eq!(schema["oneOf"][0]["properties"]["kind"], agentkit_core::serde_json::json!({"const": "click"}));
assert_eq!(schema["oneOf"][1]["required"], agentkit_core::serde_json::json!(["kind", "dy"]));
assert_eq!(schema["oneOf"][2]["properties"]["kind"], agentkit_core::serde_json::json!({"const": "idle"}));
}
