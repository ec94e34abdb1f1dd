//! The verdict walk (`verdict.rs`) against the full walk and the `jsonschema` crate, on a
//! schema of each of its plans and of the nodes it leaves to the full walk.

use serde_json::{Value, json};

use super::shape_tests::assert_verdicts_agree;
use crate::schema::json::{JsonSchemaOptions, SchemaLimits};

/// Leaves, unions (tagged by distinct strings, by values that are not, untagged), `not`,
/// `allOf` and `$ref`, arrays, and nodes the full walk takes (`uniqueItems`,
/// `patternProperties`, `contains`, `if`).
const SCHEMAS: &[&str] = &[
    r#"{"type": "integer", "minimum": 0, "maximum": 10}"#,
    r#"{"enum": ["a", "bc", "defg", "hijklmnop", "a long value past sixteen bytes", 1, null]}"#,
    r#"{"const": "kind"}"#,
    r#"{"oneOf": [{"properties": {"t": {"const": "a"}, "x": {"type": "integer"}}, "required": ["t", "x"]},
                  {"properties": {"t": {"const": "b"}, "y": {"type": "string"}}, "required": ["t"]},
                  {"type": "array"}]}"#,
    r#"{"anyOf": [{"properties": {"t": {"const": 1}, "x": {"type": "integer"}}},
                  {"properties": {"t": {"enum": [1]}, "y": {"type": "string"}}}]}"#,
    r#"{"oneOf": [{"properties": {"t": {"const": "a"}}}, {"properties": {"t": {"const": "a"}}}]}"#,
    r#"{"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 3}]}"#,
    r##"{"not": {"type": "string"}, "allOf": [{"$ref": "#/$defs/small"}], "$defs": {"small": {"maximum": 5}}}"##,
    r#"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}"#,
    r#"{"type": "array", "prefixItems": [{"type": "string"}], "items": false}"#,
    r#"{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}"#,
    r#"{"type": "array", "contains": {"type": "string"}, "maxContains": 1}"#,
    r#"{"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": false}"#,
    r#"{"if": {"properties": {"t": {"const": "a"}}}, "then": {"required": ["x"]}, "else": {"required": ["y"]}}"#,
    r##"{"$ref": "#/$defs/node", "$defs": {"node": {"type": "object",
        "properties": {"v": {"type": "integer"}, "c": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        "required": ["v"]}}}"##,
];

fn instances() -> Vec<Value> {
    vec![
        json!(0),
        json!(3),
        json!(5.0),
        json!(11),
        json!(-1),
        json!("a"),
        json!("bc"),
        json!("bd"),
        json!("defg"),
        json!("defh"),
        json!("hijklmnop"),
        json!("hijklmnoq"),
        json!("a long value past sixteen bytes"),
        json!("a long value past sixteen bytez"),
        json!("kind"),
        json!(1),
        json!(null),
        json!([]),
        json!(["a"]),
        json!(["a", 1, 2]),
        json!(["a", 1, 2, 3]),
        json!(["a", "b"]),
        json!([1, 1]),
        json!({"t": "a", "x": 1}),
        json!({"t": "a"}),
        json!({"t": "b"}),
        json!({"t": "b", "y": 1}),
        json!({"t": "c", "x": 1}),
        json!({"t": 1, "x": 1, "y": "s"}),
        json!({"t": 1, "x": "s"}),
        json!({"t": 2}),
        json!({"x": 1}),
        json!({"y": 1}),
        json!({"x1": 1, "x2": 2}),
        json!({"x1": 1, "y": 2}),
        json!({"v": 1, "c": [{"v": 2}, {"v": 3, "c": []}]}),
        json!({"v": 1, "c": [{"v": 2}, {"c": []}]}),
        json!({"v": 1, "c": [{"v": "2"}]}),
    ]
}

/// The verdict agrees with `validate` (with the policy's closing of objects and without),
/// and, where JSON Schema alone decides, with the `jsonschema` crate.
#[test]
fn the_verdict_walk_agrees_with_the_full_walk() {
    assert_verdicts_agree(SCHEMAS, &instances());
}

/// The verdict walk counts evaluations and depth as the full walk does: past a limit, both
/// refuse the value.
#[test]
fn the_verdict_walk_stops_at_the_limits() {
    let schema: Value = serde_json::from_str(SCHEMAS[14]).unwrap();
    let deep = (0..40).fold(json!({"v": 0}), |inner, v| json!({"v": v, "c": [inner]}));
    let wide = json!({"v": 0, "c": (0..40).map(|v| json!({"v": v})).collect::<Vec<_>>()});
    for (limits, value) in [
        (SchemaLimits::default().with_max_eval_depth(20), &deep),
        (SchemaLimits::default().with_max_evaluations(30), &wide),
    ] {
        let tight = JsonSchemaOptions::standard()
            .limits(limits)
            .build(schema.clone())
            .unwrap();
        let roomy = JsonSchemaOptions::standard().build(schema.clone()).unwrap();
        assert!(roomy.is_valid(value));
        assert!(!tight.is_valid(value), "{value}");
        let issues = tight.validate(&mut value.clone());
        assert!(!issues.is_empty(), "{value}");
    }
}
