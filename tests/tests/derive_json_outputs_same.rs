//! `#[derive(ToolParams)]` and the literal `output = [...]` say the same output JSON Schema,
//! form by form (the behaviour of each: `derive_json_outputs`).

use std::collections::HashMap;

use agentkit_core::{BoxError, Tool, ToolContext, ToolHandler, ToolParams, tool};
use serde_json::Value;

use super::derive_json_outputs::Outcome;

/// The literal tool `$name`, whose handler is never called.
macro_rules! literal {
    ($name:ident, $output:ident, $($attr:tt)*) => {
        #[tool(name = "t", $($attr)*)]
        struct $name;

        impl ToolHandler for $name {
            async fn run(
                &self,
                _: agentkit_core::JsonObject,
                _: &ToolContext<'_>,
            ) -> Result<$output, BoxError> {
                Err("never called".into())
            }
        }
    };
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct UnionOut {
    result: Outcome,
}

literal!(UnionTool, UnionToolOutput, output = [
    { name = "result", type = union, variants = [
        { tag = "found", description = "Found it.", fields = [
            { name = "id", type = integer, minimum = 1 },
            { name = "title", type = string },
        ] },
        { tag = "missing", fields = [{ name = "reason", type = string }] },
        { tag = "pending" },
    ] },
]);

#[test]
fn a_tagged_union() {
    assert_eq!(
        UnionTool.spec().output_json_schema(),
        Some(UnionOut::json_schema())
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct MapOut {
    labels: HashMap<String, String>,
    counts: Option<HashMap<String, i64>>,
}

literal!(MapTool, MapToolOutput, output = [
    { name = "labels", type = map, values = string },
    { name = "counts", type = map, values = integer, required = false },
]);

#[test]
fn a_map() {
    assert_eq!(
        MapTool.spec().output_json_schema(),
        Some(MapOut::json_schema())
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct AnyOut {
    payload: Value,
}

literal!(AnyTool, AnyToolOutput, output = [{ name = "payload", type = any }]);

#[test]
fn any_value() {
    assert_eq!(
        AnyTool.spec().output_json_schema(),
        Some(AnyOut::json_schema())
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct TupleOut {
    point: (f64, f64),
    span: Option<(i64, String)>,
}

literal!(TupleTool, TupleToolOutput, output = [
    { name = "point", type = tuple, items = [float, float] },
    { name = "span", type = tuple, items = [integer, string], required = false },
]);

#[test]
fn a_tuple() {
    assert_eq!(
        TupleTool.spec().output_json_schema(),
        Some(TupleOut::json_schema())
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Tree {
    value: i64,
    children: Vec<Tree>,
    next: Option<Box<Tree>>,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct TreeOut {
    tree: Tree,
}

literal!(TreeTool, TreeToolOutput,
    defs = { Tree = [
        { name = "value", type = integer },
        { name = "children", type = list, items = Tree },
        { name = "next", type = Tree, required = false },
    ] },
    output = [{ name = "tree", type = Tree }],
);

#[test]
fn a_recursive_type() {
    assert_eq!(
        TreeTool.spec().output_json_schema(),
        Some(TreeOut::json_schema())
    );
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct Stop {
    city: String,
    #[param(default = 1)]
    nights: i64,
}

#[derive(Debug, Clone, PartialEq, ToolParams)]
struct NestedOut {
    /// Steps, in order.
    steps: Vec<Outcome>,
    stops: HashMap<String, Stop>,
}

literal!(NestedTool, NestedToolOutput, output = [
    { name = "steps", type = list, items = union, description = "Steps, in order.", variants = [
        { tag = "found", description = "Found it.", fields = [
            { name = "id", type = integer, minimum = 1 },
            { name = "title", type = string },
        ] },
        { tag = "missing", fields = [{ name = "reason", type = string }] },
        { tag = "pending" },
    ] },
    { name = "stops", type = map, values = dictionary, fields = [
        { name = "city", type = string },
        { name = "nights", type = integer, required = false, default = 1 },
    ] },
]);

#[test]
fn forms_inside_lists_and_maps() {
    assert_eq!(
        NestedTool.spec().output_json_schema(),
        Some(NestedOut::json_schema())
    );
}
