//! Type-first tools beyond the six types: `#[derive(ToolParams)]` on maps, any value, boxes
//! and recursive types, tuples and nullable items (enums with data: `derive_tagged_unions`).
//! Each form has its JSON Schema written from the Rust types, is validated in full by the
//! executor (every problem with its path), and converts to and from the user's own types.

use std::collections::{BTreeMap, HashMap};

use agentkit_core::{
    BoxError, JsonObject, JsonSchema, Tool, ToolCall, ToolContext, ToolExecutor, ToolHandler,
    ToolParams, ToolRegistry, block_on, tool,
};
use proptest::prelude::*;
use serde_json::{Value, json};

pub(crate) fn executor(tool: impl Tool) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    ToolExecutor::new(registry)
}

pub(crate) fn dispatch(executor: &ToolExecutor, name: &str, arguments: Value) -> (bool, String) {
    let result = block_on(executor.dispatch(&ToolCall::new("c1", name, arguments.to_string())));
    (result.is_success(), result.to_model_content())
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

#[tool(name = "move_piece", description = "Move a piece.", input = Move)]
struct MovePiece;

impl ToolHandler for MovePiece {
    async fn run(&self, input: Move, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let moved = format!("{:?} {:?} {:?}", input.from, input.to, input.tag);
        Ok(JsonObject::from_iter([("moved".into(), moved.into())]))
    }
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
    JsonSchema::new(schema).unwrap();
    let executor = executor(MovePiece);
    assert_eq!(
        dispatch(
            &executor,
            "move_piece",
            json!({"from": [1], "to": [1, 2, 3], "tag": ["a", null, 1.5]})
        ),
        (
            false,
            "Error: invalid arguments for tool 'move_piece':\n\
             - Parameter 'from': must have at least 2 items, got 1\n\
             - Parameter 'to[2]': is not allowed: the list takes at most 2 items"
                .into()
        )
    );
    assert_eq!(
        dispatch(
            &executor,
            "move_piece",
            json!({"from": [1, 2], "to": [3, 4], "tag": ["a", null, 1.5]})
        ),
        (
            true,
            r#"{"moved":"(1, 2) (3, 4) Some((\"a\", None, 1.5))"}"#.into()
        )
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

#[tool(name = "fill", description = "Fill a sheet.", input = Sheet)]
struct Fill;

impl ToolHandler for Fill {
    async fn run(&self, input: Sheet, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let cells = format!("{:?}", input.cells);
        Ok(JsonObject::from_iter([("cells".into(), cells.into())]))
    }
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
    let executor = executor(Fill);
    assert_eq!(
        dispatch(
            &executor,
            "fill",
            json!({"cells": [1.5, null, "x"], "rows": [["a"], [1]], "bytes": [256], "units": ["kelvin"]})
        ),
        (
            false,
            "Error: invalid arguments for tool 'fill':\n\
             - Parameter 'bytes[0]': must be at most 255, got 256\n\
             - Parameter 'cells[2]': matches none of the 2 allowed forms (number, null)\n\
             - Parameter 'rows[1][0]': expected type 'string', got 'integer'\n\
             - Parameter 'units[0]': expected one of 'metric', 'imperial', got 'kelvin'"
                .into()
        )
    );
    // A null item is `None`, in its place.
    assert_eq!(
        dispatch(
            &executor,
            "fill",
            json!({"cells": [null, 2.0], "rows": [], "bytes": [], "units": []})
        ),
        (true, r#"{"cells":"[None, Some(2.0)]"}"#.into())
    );
    let value =
        json!({"cells": [1.5, null], "rows": [["a"]], "bytes": [0, 255], "units": ["imperial"]});
    let sheet = Sheet::from_value(Some(&value)).unwrap();
    assert_eq!(sheet.cells, [Some(1.5), None]);
    assert_eq!(sheet.into_value(), Some(value));
}

#[test]
fn a_struct_of_the_six_types_keeps_its_static_parameter_list() {
    use super::derive_tagged_unions::Scroll;
    use agentkit_core::__private::{FromInputs, IntoOutput};
    assert!(<Scroll as FromInputs>::PARAM_LIST.is_some());
    assert!(<Scroll as FromInputs>::JSON_SCHEMA.is_none());
    assert!(<Scroll as IntoOutput>::JSON_SCHEMA.is_none());
    for json_only in [
        <super::derive_tagged_unions::ActArgs as FromInputs>::JSON_SCHEMA,
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
