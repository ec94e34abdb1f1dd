//! Type-first tools beyond the six types: `#[derive(ToolParams)]` on enums with data (tagged
//! unions), maps, any value, boxes and recursive types, tuples and nullable items. Each form
//! has its JSON Schema written from the Rust types, is validated in full by the executor
//! (every problem with its path, the tagged variant's problems only), and converts to and
//! from the user's own types.

use std::collections::{BTreeMap, HashMap};

use agentkit_core::{
    BoxError, JsonObject, JsonSchema, Tool, ToolCall, ToolContext, ToolExecutor, ToolHandler,
    ToolParams, ToolRegistry, block_on, tool,
};
use serde_json::{Value, json};

/// What to do in the browser.
#[derive(Debug, Clone, PartialEq, ToolParams)]
enum Action {
    /// Click at a point.
    Click {
        /// Pixels from the left.
        x: u32,
        /// Pixels from the top.
        y: u32,
    },
    /// Type a text.
    Type { text: String },
    /// Scroll the page.
    Scroll(Scroll),
    /// Wait for the page.
    Wait,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Scroll {
    /// Pixels down (negative: up).
    dy: i64,
    #[param(default = 1, minimum = 1)]
    times: i64,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct ActArgs {
    /// What to do.
    action: Action,
    /// Why.
    note: Option<String>,
}

#[tool(name = "act", description = "Act in the browser.", input = ActArgs)]
struct Act;

impl ToolHandler for Act {
    async fn run(&self, input: ActArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("did".into(), format!("{:?}", input.action).into());
        Ok(output)
    }
}

fn executor(tool: impl Tool) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    ToolExecutor::new(registry)
}

fn dispatch(executor: &ToolExecutor, name: &str, arguments: Value) -> (bool, String) {
    let result = block_on(executor.dispatch(&ToolCall::new("c1", name, arguments.to_string())));
    (result.is_success(), result.to_model_content())
}

#[test]
fn smoke() {
    println!("{:#}", ActArgs::json_schema());
    let ex = executor(Act);
    for args in [
        json!({"action": {"type": "click", "x": 1}}),
        json!({"action": {"type": "click", "x": 1, "y": 2}}),
        json!({"action": {"type": "scroll", "dy": 1}}),
        json!({"action": {"type": "wait"}}),
        json!({"action": {"type": "fly"}}),
    ] {
        println!("{:?}", dispatch(&ex, "act", args));
    }
}
