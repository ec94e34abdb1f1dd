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
use proptest::prelude::*;
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
fn a_tagged_union_is_one_of_closed_objects_each_naming_its_tag() {
    let click = json!({
        "type": "object",
        "description": "Click at a point.",
        "properties": {
            "type": {"const": "click"},
            "x": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "description": "Pixels from the left."},
            "y": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "description": "Pixels from the top."},
        },
        "required": ["type", "x", "y"],
        "additionalProperties": false,
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "action": {
                "type": "object",
                "description": "What to do.",
                "oneOf": [
                    click,
                    {
                        "type": "object",
                        "description": "Type a text.",
                        "properties": {"type": {"const": "type"}, "text": {"type": "string"}},
                        "required": ["type", "text"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "description": "Scroll the page.",
                        "properties": {
                            "type": {"const": "scroll"},
                            "dy": {"type": "integer", "description": "Pixels down (negative: up)."},
                            "times": {"type": "integer", "minimum": 1, "default": 1},
                        },
                        "required": ["type", "dy"],
                        "additionalProperties": false,
                    },
                    {
                        "type": "object",
                        "description": "Wait for the page.",
                        "properties": {"type": {"const": "wait"}},
                        "required": ["type"],
                        "additionalProperties": false,
                    },
                ],
            },
            "note": {"type": "string", "description": "Why."},
        },
        "required": ["action"],
        "additionalProperties": false,
    });
    assert_eq!(ActArgs::json_schema(), schema);
    // The spec declares it, compiled, and no six-type parameter list.
    let spec = Act.spec();
    assert_eq!(spec.input_json_schema(), schema);
    assert!(spec.input_schema().is_none());
    assert_eq!(spec.input_json().unwrap().as_value(), &schema);
    // An enum is a tool's input as well: the union is the whole argument object.
    assert_eq!(
        Action::json_schema()["oneOf"][0],
        schema["properties"]["action"]["oneOf"][0]
    );
}

#[test]
fn the_executor_reports_the_problems_of_the_variant_the_tag_chose() {
    let executor = executor(Act);
    let refused = |arguments: Value| {
        let (ok, text) = dispatch(&executor, "act", arguments.clone());
        assert!(!ok, "{arguments} ran: {text}");
        text.strip_prefix("Error: invalid arguments for tool 'act':\n")
            .unwrap_or(&text)
            .to_owned()
    };
    // One line per problem of the chosen variant, with its path; none for the others.
    assert_eq!(
        refused(json!({"action": {"type": "click", "x": -1}})),
        "- Parameter 'action.x': must be at least 0, got -1\n- Missing required parameter: 'action.y'"
    );
    assert_eq!(
        refused(json!({"action": {"type": "scroll", "dy": "up", "times": 0}})),
        "- Parameter 'action.dy': expected type 'integer', got 'string'\n\
         - Parameter 'action.times': must be at least 1, got 0"
    );
    // Closed: a key of another variant is refused, with the tag it would need.
    assert!(
        refused(json!({"action": {"type": "type", "text": "hi", "x": 1}})).contains("'action.x'")
    );
    // An unknown tag names the tags there are.
    assert_eq!(
        refused(json!({"action": {"type": "fly"}})),
        "- Parameter 'action.type': expected one of 'click', 'type', 'scroll', 'wait', got 'fly'"
    );
    // Valid calls reach the handler as the Rust value, defaults filled.
    for (arguments, did) in [
        (
            json!({"action": {"type": "click", "x": 3, "y": 4}}),
            "Click { x: 3, y: 4 }",
        ),
        (
            json!({"action": {"type": "type", "text": "hi"}, "note": null}),
            "Type { text: \"hi\" }",
        ),
        (
            json!({"action": {"type": "scroll", "dy": -2}}),
            "Scroll(Scroll { dy: -2, times: 1 })",
        ),
        (json!({"action": {"type": "wait"}}), "Wait"),
    ] {
        let (ok, text) = dispatch(&executor, "act", arguments);
        assert!(ok, "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["did"], did);
    }
}

#[test]
fn a_tagged_value_converts_both_ways() {
    use agentkit_core::{FromParam, IntoParam};
    for (action, value) in [
        (
            Action::Click { x: 1, y: 2 },
            json!({"type": "click", "x": 1, "y": 2}),
        ),
        (
            Action::Type { text: "a".into() },
            json!({"type": "type", "text": "a"}),
        ),
        (
            Action::Scroll(Scroll { dy: 5, times: 2 }),
            json!({"type": "scroll", "dy": 5, "times": 2}),
        ),
        (Action::Wait, json!({"type": "wait"})),
    ] {
        assert_eq!(action.clone().into_value(), Some(value.clone()));
        assert_eq!(Action::from_value(Some(&value)), Some(action));
    }
    // What does not fit is no value (a typed error for a tool's input), never a panic.
    for bad in [
        json!({"type": "fly"}),
        json!({"x": 1, "y": 2}),
        json!({"type": 1}),
        json!({"type": "click", "x": 1}),
        json!({"type": "click", "x": -1, "y": 0}),
        json!("click"),
    ] {
        assert_eq!(Action::from_value(Some(&bad)), None, "{bad}");
    }
    let error = <Action as agentkit_core::__private::FromInputs>::from_inputs(
        json!({"type": "fly"}).as_object().unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "parameter 'type' is not a valid dictionary"
    );
}

/// The tag and the values renamed, unit variants as objects.
#[derive(Debug, Clone, PartialEq, ToolParams)]
#[param(tag = "kind")]
enum Shape {
    #[param(rename = "circle")]
    Round {
        radius: f64,
    },
    Square {
        side: f64,
    },
    #[param(rename = "dot")]
    Point,
}

#[test]
fn the_tag_key_and_variant_values_can_be_renamed() {
    use agentkit_core::{FromParam, IntoParam};
    let schema = Shape::json_schema();
    let tags: Vec<&Value> = schema["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|variant| &variant["properties"]["kind"]["const"])
        .collect();
    assert_eq!(tags, [&json!("circle"), &json!("square"), &json!("dot")]);
    assert_eq!(
        schema["oneOf"][2],
        json!({"type": "object", "properties": {"kind": {"const": "dot"}}, "required": ["kind"], "additionalProperties": false})
    );
    assert_eq!(Shape::Point.into_value(), Some(json!({"kind": "dot"})));
    assert_eq!(
        Shape::from_value(Some(&json!({"kind": "circle", "radius": 2.5}))),
        Some(Shape::Round { radius: 2.5 })
    );
    // A fieldless enum with a tag is a union of tag-only objects, not a string.
    #[derive(Debug, PartialEq, ToolParams)]
    #[param(tag = "op")]
    enum Toggle {
        On,
        Off,
    }
    assert_eq!(Toggle::Off.into_value(), Some(json!({"op": "off"})));
    assert_eq!(Toggle::json_schema()["oneOf"][0]["required"], json!(["op"]));
}

/// A tool whose whole input is a tagged union.
#[tool(name = "draw", description = "Draw a shape.", input = Shape)]
struct Draw;

impl ToolHandler for Draw {
    async fn run(&self, input: Shape, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let area = match input {
            Shape::Round { radius } => std::f64::consts::PI * radius * radius,
            Shape::Square { side } => side * side,
            Shape::Point => 0.0,
        };
        let mut output = JsonObject::new();
        output.insert("area".into(), area.into());
        Ok(output)
    }
}

#[test]
fn an_enum_is_a_tool_input_whole() {
    let executor = executor(Draw);
    assert_eq!(Draw.spec().input_json_schema(), Shape::json_schema());
    assert_eq!(
        dispatch(&executor, "draw", json!({"kind": "square", "side": 3})),
        (true, r#"{"area":9.0}"#.to_owned())
    );
    assert_eq!(
        dispatch(&executor, "draw", json!({"kind": "square"})),
        (
            false,
            "Error: invalid arguments for tool 'draw':\n- Missing required parameter: 'side'"
                .into()
        )
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Tally {
    /// Votes per option.
    votes: HashMap<String, u8>,
    /// Labels, some of them unset.
    labels: Option<BTreeMap<String, Option<String>>>,
    /// Anything the caller wants kept.
    extra: Value,
}

#[tool(name = "tally", description = "Count votes.", input = Tally)]
struct CountVotes;

impl ToolHandler for CountVotes {
    async fn run(&self, input: Tally, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let total: u64 = input.votes.values().map(|&v| u64::from(v)).sum();
        let mut output = JsonObject::new();
        output.insert("total".into(), total.into());
        output.insert("labels".into(), input.labels.map_or(0, |l| l.len()).into());
        output.insert("extra".into(), input.extra);
        Ok(output)
    }
}

#[test]
fn maps_and_any_value_are_objects_of_their_values_and_anything() {
    assert_eq!(
        Tally::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "votes": {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 255},
                    "description": "Votes per option.",
                },
                "labels": {
                    "type": "object",
                    "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "description": "Labels, some of them unset.",
                },
                "extra": {"description": "Anything the caller wants kept."},
            },
            "required": ["votes", "extra"],
            "additionalProperties": false,
        })
    );
    let executor = executor(CountVotes);
    assert_eq!(
        dispatch(
            &executor,
            "tally",
            json!({"votes": {"a": 1, "b": 300, "c": "x"}, "labels": {"a": 1}, "extra": null})
        ),
        (
            false,
            "Error: invalid arguments for tool 'tally':\n\
             - Parameter 'labels.a': matches none of the 2 allowed forms (string, null)\n\
             - Parameter 'votes.b': must be at most 255, got 300\n\
             - Parameter 'votes.c': expected type 'integer', got 'string'"
                .into()
        )
    );
    let (ok, text) = dispatch(
        &executor,
        "tally",
        json!({"votes": {"a": 1, "b": 2}, "labels": {"a": "x", "b": null}, "extra": [1, {"k": true}]}),
    );
    assert!(ok, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"total": 3, "labels": 2, "extra": [1, {"k": true}]})
    );
    // `null` for an optional field is absent; for `Value`, a value like any other.
    let (ok, text) = dispatch(
        &executor,
        "tally",
        json!({"votes": {}, "labels": null, "extra": null}),
    );
    assert!(ok, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"total": 0, "labels": 0, "extra": null})
    );
}

/// A tree, in a struct that contains itself.
#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Node {
    name: String,
    #[param(default = [])]
    children: Vec<Node>,
}

/// A filter expression, in an enum that contains itself.
#[derive(Debug, Clone, PartialEq, ToolParams)]
enum Expr {
    And { items: Vec<Expr> },
    Not { expr: Box<Expr> },
    Leaf { field: String, equals: Value },
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Query {
    tree: Node,
    filter: Option<Expr>,
}

#[tool(name = "query", description = "Query a tree.", input = Query)]
struct RunQuery;

impl ToolHandler for RunQuery {
    async fn run(&self, input: Query, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        fn count(node: &Node) -> usize {
            1 + node.children.iter().map(count).sum::<usize>()
        }
        let mut output = JsonObject::new();
        output.insert("nodes".into(), count(&input.tree).into());
        output.insert("filtered".into(), input.filter.is_some().into());
        Ok(output)
    }
}

/// A chain of `depth` nodes, the last one called `leaf`.
fn chain(depth: usize, leaf: Value) -> Value {
    (1..depth).fold(json!({"name": leaf}), |child, level| {
        json!({"name": format!("n{level}"), "children": [{"name": "sibling"}, child]})
    })
}

#[test]
fn recursive_types_are_references_into_defs() {
    assert_eq!(
        Node::json_schema(),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}, "default": []},
            },
            "required": ["name"],
            "additionalProperties": false,
        })
    );
    let schema = Query::json_schema();
    assert_eq!(
        schema["properties"]["tree"],
        json!({"$ref": "#/$defs/Node"})
    );
    assert_eq!(
        schema["properties"]["filter"],
        json!({"$ref": "#/$defs/Expr"})
    );
    assert_eq!(
        schema["$defs"]["Node"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Node"})
    );
    let expr = &schema["$defs"]["Expr"];
    assert_eq!(
        expr["oneOf"][0]["properties"]["items"],
        json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}})
    );
    assert_eq!(
        expr["oneOf"][1]["properties"]["expr"],
        json!({"$ref": "#/$defs/Expr"})
    );
    assert_eq!(expr["oneOf"][2]["properties"]["equals"], json!({}));
    JsonSchema::new(schema).expect("compiles");
}

#[test]
fn a_deep_tree_with_one_bad_leaf_is_one_problem_with_its_path() {
    let executor = executor(RunQuery);
    let filter = json!({"type": "not", "expr": {"type": "and", "items": [
        {"type": "leaf", "field": "a", "equals": 1},
        {"type": "not", "expr": {"type": "leaf", "field": "b", "equals": null}},
    ]}});
    let (ok, text) = dispatch(
        &executor,
        "query",
        json!({"tree": chain(5, json!("leaf")), "filter": filter}),
    );
    assert!(ok, "{text}");
    assert_eq!(text, r#"{"filtered":true,"nodes":9}"#);
    // `null` for the optional filter (a `$ref`) is absent.
    let (ok, text) = dispatch(
        &executor,
        "query",
        json!({"tree": {"name": "r"}, "filter": null}),
    );
    assert_eq!(
        (ok, text.as_str()),
        (true, r#"{"filtered":false,"nodes":1}"#)
    );
    let (ok, text) = dispatch(&executor, "query", json!({"tree": chain(5, json!(7))}));
    assert!(!ok);
    assert_eq!(
        text,
        "Error: invalid arguments for tool 'query':\n\
         - Parameter 'tree.children[1].children[1].children[1].children[1].name': expected type 'string', got 'integer'"
    );
    let bad_filter = json!({"type": "and", "items": [{"type": "not", "expr": {"type": "leaf", "field": 1, "equals": 2}}]});
    let (ok, text) = dispatch(
        &executor,
        "query",
        json!({"tree": {"name": "r"}, "filter": bad_filter}),
    );
    assert!(!ok);
    assert_eq!(
        text,
        "Error: invalid arguments for tool 'query':\n\
         - Parameter 'filter.items[0].expr.field': expected type 'string', got 'integer'"
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Move {
    /// Row and column.
    from: (u8, u8),
    to: (u8, u8),
    /// A name, a flag that may be null, a weight.
    tag: Option<(String, Option<bool>, f64)>,
}

#[test]
fn tuples_are_lists_of_exactly_their_elements() {
    use agentkit_core::{FromParam, IntoParam};
    let schema = Move::json_schema();
    let cell = json!({"type": "integer", "minimum": 0, "maximum": 255});
    assert_eq!(
        schema["properties"]["from"],
        json!({"type": "array", "prefixItems": [cell, cell], "items": false, "minItems": 2, "description": "Row and column."})
    );
    assert_eq!(
        schema["properties"]["tag"]["prefixItems"][1],
        json!({"anyOf": [{"type": "boolean"}, {"type": "null"}]})
    );
    assert_eq!(schema["required"], json!(["from", "to"]));
    let compiled = JsonSchema::new(schema).unwrap();
    let mut wrong = json!({"from": [1], "to": [1, 2, 3], "tag": ["a", null, 1.5]});
    let issues: Vec<String> = compiled
        .validate(&mut wrong)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        issues,
        [
            "Parameter 'from': must have at least 2 items, got 1",
            "Parameter 'to[2]': is not allowed: the list takes at most 2 items",
        ]
    );
    let value = json!({"from": [1, 2], "to": [3, 4], "tag": ["a", null, 1.5]});
    let moved = Move::from_value(Some(&value)).unwrap();
    assert_eq!(moved.tag, Some(("a".to_owned(), None, 1.5)));
    assert_eq!(moved.into_value(), Some(value));
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
enum Units {
    Metric,
    Imperial,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Sheet {
    /// Cells, empty ones null.
    #[param(min_items = 1)]
    cells: Vec<Option<f64>>,
    rows: Vec<Vec<String>>,
    bytes: Vec<u8>,
    units: Vec<Units>,
}

#[test]
fn lists_of_what_six_type_items_cannot_say_are_json_schema() {
    use agentkit_core::{FromParam, IntoParam};
    assert_eq!(
        Sheet::json_schema()["properties"],
        json!({
            "cells": {
                "type": "array",
                "items": {"anyOf": [{"type": "number"}, {"type": "null"}]},
                "minItems": 1,
                "description": "Cells, empty ones null.",
            },
            "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            "bytes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
            "units": {"type": "array", "items": {"type": "string", "enum": ["metric", "imperial"]}},
        })
    );
    let compiled = JsonSchema::new(Sheet::json_schema()).unwrap();
    let mut bad = json!({"cells": [1.5, null, "x"], "rows": [["a"], [1]], "bytes": [256], "units": ["kelvin"]});
    let issues: Vec<String> = compiled
        .validate(&mut bad)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        issues,
        [
            "Parameter 'bytes[0]': must be at most 255, got 256",
            "Parameter 'cells[2]': matches none of the 2 allowed forms (number, null)",
            "Parameter 'rows[1][0]': expected type 'string', got 'integer'",
            "Parameter 'units[0]': expected one of 'metric', 'imperial', got 'kelvin'",
        ]
    );
    let value =
        json!({"cells": [1.5, null], "rows": [["a"]], "bytes": [0, 255], "units": ["imperial"]});
    let sheet = Sheet::from_value(Some(&value)).unwrap();
    assert_eq!(sheet.cells, [Some(1.5), None]);
    assert_eq!(sheet.into_value(), Some(value));
}

#[test]
fn a_struct_of_the_six_types_keeps_its_static_parameter_list() {
    use agentkit_core::__private::{FromInputs, IntoOutput};
    assert!(<Scroll as FromInputs>::PARAM_LIST.is_some());
    assert!(<Scroll as FromInputs>::JSON_SCHEMA.is_none());
    assert!(<Scroll as IntoOutput>::JSON_SCHEMA.is_none());
    for json_only in [
        <ActArgs as FromInputs>::JSON_SCHEMA,
        <Tally as FromInputs>::JSON_SCHEMA,
        <Node as FromInputs>::JSON_SCHEMA,
        <Move as FromInputs>::JSON_SCHEMA,
        <Sheet as FromInputs>::JSON_SCHEMA,
    ] {
        let schema = json_only.expect("declared as JSON Schema");
        assert!(schema().is_ok());
    }
    assert!(<Sheet as FromInputs>::PARAM_LIST.is_none());
    // Its JSON Schema is the six-type export, as before.
    assert_eq!(Scroll::json_schema(), Scroll::schema().to_json_schema());
}

fn actions() -> impl Strategy<Value = Action> {
    prop_oneof![
        (any::<u32>(), any::<u32>()).prop_map(|(x, y)| Action::Click { x, y }),
        ".{0,8}".prop_map(|text| Action::Type { text }),
        (any::<i64>(), 1..100i64).prop_map(|(dy, times)| Action::Scroll(Scroll { dy, times })),
        Just(Action::Wait),
    ]
}

fn trees() -> impl Strategy<Value = Node> {
    let leaf = "[a-z]{1,4}".prop_map(|name| Node {
        name,
        children: Vec::new(),
    });
    leaf.prop_recursive(6, 40, 4, |inner| {
        ("[a-z]{1,4}", prop::collection::vec(inner, 0..4))
            .prop_map(|(name, children)| Node { name, children })
    })
}

/// The paths of the nodes' names in `tree`, depth first: `name`, `children[0].name`, ...
fn name_paths(tree: &Value, prefix: &str, paths: &mut Vec<String>) {
    paths.push(format!("{prefix}name"));
    for (index, child) in tree["children"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        name_paths(child, &format!("{prefix}children[{index}]."), paths);
    }
}

/// `tree` with the name at `path` (as [`name_paths`] writes it) replaced by `bad`.
fn corrupt(tree: &mut Value, path: &str, bad: Value) {
    let mut node = tree;
    let mut rest = path;
    while let Some(after) = rest.strip_prefix("children[") {
        let (index, after) = after.split_once("].").unwrap();
        node = &mut node["children"][index.parse::<usize>().unwrap()];
        rest = after;
    }
    node["name"] = bad;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every Rust value converts to JSON its schema accepts (ours and the `jsonschema`
    /// crate's reading of it), and back to itself.
    #[test]
    fn tagged_values_round_trip_through_their_schema(action in actions()) {
        use agentkit_core::{FromParam, IntoParam};
        let schema = Action::json_schema();
        let value = action.clone().into_value().unwrap();
        prop_assert!(JsonSchema::new(schema.clone()).unwrap().is_valid(&value), "{}", value);
        prop_assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&value), "{}", value);
        prop_assert_eq!(Action::from_value(Some(&value)), Some(action));
    }

    /// A tree of any shape round-trips; one bad name anywhere in it is one problem, at its
    /// path.
    #[test]
    fn one_bad_name_in_any_tree_is_one_problem_at_its_path(
        tree in trees(),
        pick in any::<prop::sample::Index>(),
    ) {
        use agentkit_core::{FromParam, IntoParam};
        let schema = Node::json_schema();
        let compiled = JsonSchema::new(schema.clone()).unwrap();
        let value = tree.clone().into_value().unwrap();
        prop_assert!(compiled.is_valid(&value));
        prop_assert!(jsonschema::validator_for(&schema).unwrap().is_valid(&value));
        prop_assert_eq!(Node::from_value(Some(&value)), Some(tree));
        let mut paths = Vec::new();
        name_paths(&value, "", &mut paths);
        let path = pick.get(&paths);
        let mut bad = value.clone();
        corrupt(&mut bad, path, json!(7));
        let issues: Vec<String> = compiled.validate(&mut bad).iter().map(ToString::to_string).collect();
        prop_assert_eq!(
            issues,
            vec![format!("Parameter '{path}': expected type 'string', got 'integer'")]
        );
    }
}

#[derive(Debug, ToolParams)]
struct Totals {
    totals: HashMap<String, i64>,
}

#[tool(name = "totals", description = "Sum totals.", input = Totals)]
struct SumTotals;

impl ToolHandler for SumTotals {
    async fn run(&self, input: Totals, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut output = JsonObject::new();
        output.insert("sum".into(), input.totals.values().sum::<i64>().into());
        Ok(output)
    }
}

#[test]
fn a_valid_value_the_rust_type_cannot_hold_is_a_typed_error_not_a_panic() {
    // JSON Schema's `integer` takes any whole number; `i64` does not hold this one. The
    // conversion fails as the tool's error, typed, and the model is told the tool failed.
    let executor = executor(SumTotals);
    let call = ToolCall::new(
        "c1",
        "totals",
        json!({"totals": {"a": 1, "b": u64::MAX}}).to_string(),
    );
    let result = block_on(executor.dispatch(&call));
    assert!(!result.is_success());
    assert_eq!(result.to_model_content(), "Error: tool 'totals' failed.");
    let error = result.error().unwrap();
    assert!(
        error
            .to_string()
            .contains("parameter 'totals' is not a valid dictionary"),
        "{error}"
    );
    assert_eq!(
        dispatch(&executor, "totals", json!({"totals": {"a": 1, "b": 2}})),
        (true, r#"{"sum":3}"#.to_owned())
    );
}
