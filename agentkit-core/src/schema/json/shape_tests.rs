//! The one-pass verdict of common object nodes (`node::Shape`), against the full walk and
//! the `jsonschema` crate.

use serde_json::{Value, json};

use crate::schema::json::JsonSchemaOptions;

/// Object nodes of the one-pass verdict ([`Shape`](super::node::Shape)): open, closed by
/// `additionalProperties`, closed by the policy, applied in place (`allOf`, unions) where
/// what they evaluate decides the enclosing node's closing, and nested.
const SCHEMAS: &[&str] = &[
    r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}, "required": ["a"]}"#,
    r#"{"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}}"#,
    r#"{"properties": {"a": {"type": "integer"}}, "additionalProperties": false, "required": ["a"]}"#,
    r#"{"allOf": [{"properties": {"a": {"type": "integer"}}}], "properties": {"b": {"type": "string"}}}"#,
    r#"{"allOf": [{"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}], "unevaluatedProperties": false}"#,
    r#"{"oneOf": [{"properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["kind"]},
                  {"properties": {"kind": {"const": "b"}, "y": {"type": "string"}}, "required": ["kind", "y"]}]}"#,
    r#"{"properties": {"o": {"type": "object", "properties": {"p": {"type": "integer"}}}}}"#,
    r#"{"type": ["object", "string"], "properties": {"a": {"type": "integer"}}}"#,
];

fn instances() -> Vec<Value> {
    vec![
        json!({"a": 1}),
        json!({"a": 1, "b": "x"}),
        json!({"a": "1", "b": "x"}),
        json!({"b": "x"}),
        json!({"a": 1, "c": 1}),
        json!({"a": 1, "c": "x"}),
        json!({"a": "x", "c": 1}),
        json!({"kind": "a", "x": 1}),
        json!({"kind": "b", "y": "x"}),
        json!({"kind": "b", "x": 1}),
        json!({"kind": "a", "x": 1, "y": "x"}),
        json!({"o": {"p": 1}}),
        json!({"o": {"p": 1, "q": 2}}),
        json!({"o": {"p": "1"}}),
        json!({"o": 1}),
        json!({}),
        json!("a"),
        json!(1),
    ]
}

/// The one-pass verdict agrees with the full walk (`validate`), and, where JSON Schema
/// alone decides, with the `jsonschema` crate.
#[test]
fn the_one_pass_verdict_of_an_object_is_the_full_walks() {
    assert_verdicts_agree(SCHEMAS, &instances());
    // The policy's closing counts the keys a subschema applied in place declares.
    let schema = serde_json::from_str(SCHEMAS[3]).unwrap();
    let closed = JsonSchemaOptions::default().build(schema).unwrap();
    assert!(closed.is_valid(&json!({"a": 1, "b": "x"})));
    assert!(!closed.is_valid(&json!({"a": 1, "c": 1})));
}

/// Asserts, for each schema of `schemas` on each of `instances`, that the verdict
/// (`is_valid`) is the full walk's (`validate` finds nothing), with the policy's closing of
/// objects and without, and, where JSON Schema alone decides, the `jsonschema` crate's.
pub(super) fn assert_verdicts_agree(schemas: &[&str], instances: &[Value]) {
    for text in schemas {
        let schema: Value = serde_json::from_str(text).unwrap();
        let reference = jsonschema::validator_for(&schema).unwrap();
        let standard = JsonSchemaOptions::standard().build(schema.clone()).unwrap();
        let closed = JsonSchemaOptions::default().build(schema.clone()).unwrap();
        for instance in instances {
            assert_eq!(
                standard.is_valid(instance),
                reference.is_valid(instance),
                "{schema} on {instance}"
            );
            for validator in [&standard, &closed] {
                assert_eq!(
                    validator.is_valid(instance),
                    validator.validate(&mut instance.clone()).is_empty(),
                    "{schema} on {instance}"
                );
            }
        }
    }
}
