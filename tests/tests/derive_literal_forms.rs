//! The literal grammar of `#[tool(input = [...])]` beyond the six types: tagged unions, maps,
//! any value, tuples, nullable values, constants and named definitions. For each form: the
//! spec's JSON Schema, exactly; validation through the executor; and the typed value `run`
//! receives.

use agentkit_core::{
    BoxError, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolHandler, ToolRegistry,
    block_on, tool,
};
use serde_json::{Value, json};

/// Calls `tool` once with `arguments` through a registry and an executor: the text the model
/// reads back.
fn call<T: Tool + 'static>(tool: T, arguments: Value) -> String {
    let mut registry = ToolRegistry::new();
    registry.register(tool).expect("registers");
    let call = ToolCall::new("c1", "t", arguments.to_string());
    block_on(ToolExecutor::new(registry).dispatch(&call)).to_model_content()
}

/// What `run` received, as its `Debug`: the typed value.
fn seen(input: &impl std::fmt::Debug) -> JsonObject {
    let mut output = JsonObject::new();
    output.insert("seen".into(), Value::String(format!("{input:?}")));
    output
}

#[tool(
    name = "t",
    input = [
        { name = "action", type = union, tag = "kind", description = "What to do", variants = [
            { tag = "click", description = "Click a point", fields = [
                { name = "x", type = integer },
                { name = "y", type = integer },
                { name = "button", type = string, enum = ["left", "right"], required = false },
            ] },
            { tag = "type", fields = [{ name = "text", type = string, min_length = 1 }] },
            { tag = "wait" },
        ] },
    ],
    examples = [{ action = { kind = "click", x = 1, y = 2 } }],
)]
struct Act;

impl ToolHandler for Act {
    async fn run(&self, input: ActInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let described = match &input.action {
            ActInputAction::Click { x, y, button } => format!("click {x} {y} {button:?}"),
            ActInputAction::Type { text } => format!("type {text}"),
            ActInputAction::Wait => "wait".to_owned(),
        };
        let mut output = seen(&input);
        output.insert("described".into(), Value::String(described));
        Ok(output)
    }
}

#[test]
fn a_union_is_a_one_of_whose_variants_fix_the_tag() {
    assert_eq!(
        Act.spec().input_json_schema(),
        json!({
            "type": "object",
            "properties": {"action": {
                "type": "object",
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "kind": {"const": "click"},
                            "x": {"type": "integer"},
                            "y": {"type": "integer"},
                            "button": {"type": "string", "enum": ["left", "right"]},
                        },
                        "required": ["kind", "x", "y"],
                        "additionalProperties": false,
                        "description": "Click a point",
                    },
                    {
                        "type": "object",
                        "properties": {
                            "kind": {"const": "type"},
                            "text": {"type": "string", "minLength": 1},
                        },
                        "required": ["kind", "text"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "wait"}},
                        "required": ["kind"],
                        "additionalProperties": false,
                    },
                ],
                "description": "What to do",
            }},
            "required": ["action"],
            "additionalProperties": false,
        })
    );
    assert!(Act.spec().input_schema().is_none());
}

#[test]
fn a_union_reaches_run_as_the_variant_its_tag_names() {
    let out = call(Act, json!({"action": {"kind": "click", "x": 3, "y": 4, "button": "left"}}));
    assert!(out.contains(r#"click 3 4 Some(Left)"#), "{out}");
    let out = call(Act, json!({"action": {"kind": "type", "text": "hi"}}));
    assert!(out.contains("type hi"), "{out}");
    let out = call(Act, json!({"action": {"kind": "wait"}}));
    assert!(out.contains(r#""described":"wait""#), "{out}");
}

#[test]
fn a_union_reports_the_problems_of_the_variant_its_tag_names() {
    assert_eq!(
        call(Act, json!({"action": {"kind": "click", "x": "3", "z": 1}})),
        "Error: invalid arguments for tool 't':
- Parameter 'action.x': expected type 'integer', got 'string'
- Unknown parameter: 'action.z'; did you mean 'x'?
- Missing required parameter: 'action.y'"
    );
    assert_eq!(
        call(Act, json!({"action": {"kind": "scroll"}})),
        "Error: invalid arguments for tool 't':
- Parameter 'action.kind': expected one of 'click', 'type', 'wait', got 'scroll'"
    );
    assert_eq!(
        call(Act, json!({"action": {"kind": "type", "text": ""}})),
        "Error: invalid arguments for tool 't':
- Parameter 'action.text': must be at least 1 character long, got 0"
    );
}
