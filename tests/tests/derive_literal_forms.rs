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
fn a_union_is_declared_to_models_whole_and_without_strict() {
    // Until each provider gets its own lowering, a tool with a JSON Schema of its own is
    // declared without a strict mode, its schema whole: never with its parameters dropped.
    let spec = Act.spec();
    let tools = agentkit_core::provider::openai_chat::strict_tools([spec]);
    assert_eq!(tools[0]["function"]["strict"], json!(false));
    assert_eq!(tools[0]["function"]["parameters"], spec.input_json_schema());
}

#[test]
fn a_union_reaches_run_as_the_variant_its_tag_names() {
    let out = call(
        Act,
        json!({"action": {"kind": "click", "x": 3, "y": 4, "button": "left"}}),
    );
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

#[tool(
    name = "t",
    defs = {
        node = [
            { name = "value", type = integer },
            { name = "children", type = list, items = node, required = false },
            { name = "next", type = node, required = false },
        ],
    },
    input = [
        { name = "labels", type = map, values = string, description = "Labels by key" },
        { name = "stops", type = map, values = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
        ] },
        { name = "payload", type = any, required = false },
        { name = "point", type = tuple, items = [float, float], required = false, default = [0.0, 0.0] },
        { name = "note", type = string, nullable = true },
        { name = "version", type = integer, const = 2, required = false },
        { name = "steps", type = list, items = union, tag = "op", required = false, variants = [
            { tag = "add", fields = [{ name = "n", type = integer }] },
            { tag = "neg" },
        ] },
        { name = "tree", type = node, required = false },
    ],
    examples = [{ labels = { team = "data" }, note = "x", tree = { value = 1, children = [{ value = 2 }] } }],
)]
struct Forms;

impl ToolHandler for Forms {
    async fn run(&self, input: FormsInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        // Each field has the Rust type its form says.
        let _: &std::collections::HashMap<String, String> = &input.labels;
        let _: &Option<std::collections::HashMap<String, FormsInputStops>> = &input.stops;
        let _: &Option<Value> = &input.payload;
        let _: (f64, f64) = input.point;
        let _: &Option<String> = &input.note;
        let _: &Option<i64> = &input.version;
        let _: &Option<Vec<FormsInputSteps>> = &input.steps;
        let _: &Option<FormsNode> = &input.tree;
        if let Some(tree) = &input.tree {
            let _: &Option<Box<FormsNode>> = &tree.next;
            let _: &Option<Vec<FormsNode>> = &tree.children;
        }
        Ok(seen(&input))
    }
}

#[test]
fn each_form_is_its_json_schema_keyword() {
    assert_eq!(
        Forms.spec().input_json_schema(),
        json!({
            "type": "object",
            "properties": {
                "labels": {
                    "type": "object",
                    "additionalProperties": {"type": "string"},
                    "description": "Labels by key",
                },
                "stops": {"type": "object", "additionalProperties": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string"},
                        "nights": {"type": "integer", "default": 1},
                    },
                    "required": ["city"],
                    "additionalProperties": false,
                }},
                "payload": {},
                "point": {
                    "type": "array",
                    "prefixItems": [{"type": "number"}, {"type": "number"}],
                    "items": false,
                    "minItems": 2,
                    "default": [0.0, 0.0],
                },
                "note": {"type": ["string", "null"]},
                "version": {"type": "integer", "const": 2},
                "steps": {"type": "array", "items": {"type": "object", "oneOf": [
                    {
                        "type": "object",
                        "properties": {"op": {"const": "add"}, "n": {"type": "integer"}},
                        "required": ["op", "n"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "properties": {"op": {"const": "neg"}},
                        "required": ["op"],
                        "additionalProperties": false,
                    },
                ]}},
                "tree": {"$ref": "#/$defs/node"},
            },
            "required": ["labels", "note"],
            "additionalProperties": false,
            "$defs": {"node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    "next": {"$ref": "#/$defs/node"},
                },
                "required": ["value"],
                "additionalProperties": false,
            }},
        })
    );
}

#[test]
fn each_form_reaches_run_typed() {
    let out = call(
        Forms,
        json!({
            "labels": {"team": "data"},
            "stops": {"lyon": {"city": "Lyon"}},
            "payload": [1, {"a": null}],
            "point": [1.5, 2],
            "note": null,
            "version": 2,
            "steps": [{"op": "add", "n": 3}, {"op": "neg"}],
            "tree": {"value": 1, "children": [{"value": 2}], "next": {"value": 3}},
        }),
    );
    for part in [
        r#"labels: {\"team\": \"data\"}"#,
        // The default of a map's dictionary values is filled in.
        r#"stops: Some({\"lyon\": FormsInputStops { city: \"Lyon\", nights: 1 }})"#,
        r#"payload: Some(Array [Number(1), Object {\"a\": Null}])"#,
        "point: (1.5, 2.0)",
        "note: None",
        "version: Some(2)",
        "steps: Some([Add { n: 3 }, Neg])",
        "tree: Some(FormsNode { value: 1, children: Some([FormsNode { value: 2, children: None, next: None }]), next: Some(FormsNode { value: 3, children: None, next: None }) })",
    ] {
        assert!(out.contains(part), "{part} in {out}");
    }
    // Left out, a tuple gets its default.
    let out = call(Forms, json!({"labels": {}, "note": "n"}));
    assert!(out.contains("point: (0.0, 0.0)"), "{out}");
    assert!(out.contains(r#"note: Some(\"n\")"#), "{out}");
}

#[test]
fn each_form_is_validated_with_paths() {
    assert_eq!(
        call(
            Forms,
            json!({
                "labels": {"team": 1},
                "point": [1.5],
                "version": 3,
                "steps": [{"op": "add"}, {"op": "mul"}],
                "tree": {"value": 1, "children": [{"value": "2"}]},
            }),
        ),
        "Error: invalid arguments for tool 't':
- Parameter 'labels.team': expected type 'string', got 'integer'
- Parameter 'point': must have at least 2 items, got 1
- Missing required parameter: 'steps[0].n'
- Parameter 'steps[1].op': expected one of 'add', 'neg', got 'mul'
- Parameter 'tree.children[0].value': expected type 'integer', got 'string'
- Parameter 'version': expected 2, got 3
- Missing required parameter: 'note'"
    );
    // `null` is a nullable parameter's value, not its absence: it is required, and given.
    assert!(!call(Forms, json!({"labels": {}, "note": null})).starts_with("Error"));
    // A tuple longer than its positions is refused too.
    assert!(
        call(
            Forms,
            json!({"labels": {}, "note": "n", "point": [1, 2, 3]})
        )
        .contains("Parameter 'point"),
    );
}

/// `#[derive(ToolParams)]` and the literal say the same JSON Schema for each form.
mod derive_and_literal_say_the_same {
    use std::collections::HashMap;

    use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolHandler, ToolParams, tool};
    use serde_json::Value;

    /// The literal tool `$name`, whose handler is never called.
    macro_rules! literal {
        ($name:ident, $input:ident, $($attr:tt)*) => {
            #[tool(name = "t", $($attr)*)]
            struct $name;

            impl ToolHandler for $name {
                async fn run(&self, _: $input, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
                    Ok(JsonObject::new())
                }
            }
        };
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    enum Action {
        /// Click a point.
        Click {
            x: i64,
            y: i64,
        },
        Type {
            text: String,
        },
        Wait,
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct UnionArgs {
        action: Action,
    }

    literal!(UnionTool, UnionToolInput, input = [
        { name = "action", type = union, variants = [
            { tag = "click", description = "Click a point.", fields = [
                { name = "x", type = integer },
                { name = "y", type = integer },
            ] },
            { tag = "type", fields = [{ name = "text", type = string }] },
            { tag = "wait" },
        ] },
    ]);

    #[test]
    fn a_tagged_union() {
        assert_eq!(
            UnionTool.spec().input_json_schema(),
            UnionArgs::json_schema()
        );
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct MapArgs {
        labels: HashMap<String, String>,
        counts: Option<HashMap<String, i64>>,
    }

    literal!(MapTool, MapToolInput, input = [
        { name = "labels", type = map, values = string },
        { name = "counts", type = map, values = integer, required = false },
    ]);

    #[test]
    fn a_map() {
        assert_eq!(MapTool.spec().input_json_schema(), MapArgs::json_schema());
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct AnyArgs {
        payload: Value,
    }

    literal!(AnyTool, AnyToolInput, input = [{ name = "payload", type = any }]);

    #[test]
    fn any_value() {
        assert_eq!(AnyTool.spec().input_json_schema(), AnyArgs::json_schema());
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct TupleArgs {
        point: (f64, f64),
        span: Option<(i64, String)>,
    }

    literal!(TupleTool, TupleToolInput, input = [
        { name = "point", type = tuple, items = [float, float] },
        { name = "span", type = tuple, items = [integer, string], required = false },
    ]);

    #[test]
    fn a_tuple() {
        assert_eq!(
            TupleTool.spec().input_json_schema(),
            TupleArgs::json_schema()
        );
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct Node {
        value: i64,
        children: Vec<Node>,
        next: Option<Box<Node>>,
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct TreeArgs {
        tree: Node,
    }

    literal!(TreeTool, TreeToolInput,
        defs = { Node = [
            { name = "value", type = integer },
            { name = "children", type = list, items = Node },
            { name = "next", type = Node, required = false },
        ] },
        input = [{ name = "tree", type = Node }],
    );

    #[test]
    fn a_recursive_type() {
        assert_eq!(TreeTool.spec().input_json_schema(), TreeArgs::json_schema());
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct Stop {
        city: String,
        #[param(default = 1)]
        nights: i64,
    }

    #[derive(Debug, Clone, PartialEq, ToolParams)]
    struct NestedArgs {
        /// Steps, in order.
        steps: Vec<Action>,
        then: Option<Action>,
        stops: HashMap<String, Stop>,
    }

    literal!(NestedTool, NestedToolInput, input = [
        { name = "steps", type = list, items = union, description = "Steps, in order.", variants = [
            { tag = "click", description = "Click a point.", fields = [
                { name = "x", type = integer },
                { name = "y", type = integer },
            ] },
            { tag = "type", fields = [{ name = "text", type = string }] },
            { tag = "wait" },
        ] },
        { name = "then", type = union, required = false, variants = [
            { tag = "click", description = "Click a point.", fields = [
                { name = "x", type = integer },
                { name = "y", type = integer },
            ] },
            { tag = "type", fields = [{ name = "text", type = string }] },
            { tag = "wait" },
        ] },
        { name = "stops", type = map, values = dictionary, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
        ] },
    ]);

    #[test]
    fn forms_inside_lists_options_and_maps() {
        assert_eq!(
            NestedTool.spec().input_json_schema(),
            NestedArgs::json_schema()
        );
    }
}

#[tool(
    name = "t",
    defs = {
        expr = { type = union, tag = "op", variants = [
            { tag = "not", fields = [{ name = "of", type = expr }] },
            { tag = "all", fields = [{ name = "of", type = list, items = expr }] },
            { tag = "is", fields = [{ name = "field", type = string }, { name = "value", type = any }] },
        ] },
    },
    input = [{ name = "filter", type = expr }],
)]
struct Filter;

impl ToolHandler for Filter {
    async fn run(&self, input: FilterInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        /// How many conditions the expression tests.
        fn count(expr: &FilterExpr) -> usize {
            match expr {
                FilterExpr::Not { of } => count(of),
                FilterExpr::All { of } => of.iter().map(count).sum(),
                FilterExpr::Is { .. } => 1,
            }
        }
        let mut output = seen(&input);
        output.insert("conditions".into(), count(&input.filter).into());
        Ok(output)
    }
}

#[test]
fn a_recursive_union_reaches_run_as_a_boxed_enum() {
    let out = call(
        Filter,
        json!({"filter": {"op": "all", "of": [
            {"op": "is", "field": "city", "value": "Paris"},
            {"op": "not", "of": {"op": "is", "field": "days", "value": 3}},
        ]}}),
    );
    assert!(out.contains(r#""conditions":2"#), "{out}");
    assert!(out.contains("Not { of: Is {"), "{out}");
    assert_eq!(
        call(
            Filter,
            json!({"filter": {"op": "not", "of": {"op": "is", "value": 1}}})
        ),
        "Error: invalid arguments for tool 't':
- Missing required parameter: 'filter.of.field'"
    );
}
