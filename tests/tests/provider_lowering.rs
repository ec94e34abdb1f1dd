//! One schema lowered for every target: each target's documented rules hold at every depth of
//! every declaration of a corpus (the example's tools; pydantic, zod and hand-written schemas
//! of every keyword form; generated schemas), no declared property is ever removed, a strict
//! mode that cannot take a schema falls back to the same API without strict and says why, and
//! the executor still checks the whole schema.

use std::collections::BTreeSet;

use agentkit_core::provider::{
    self, Lowered, Target, anthropic, gemini, lower_json_schema, mcp, openai_chat, openai_responses,
};
use agentkit_core::{JsonSchema, ToolSpec};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::provider_fixtures::registry;

const TARGETS: [Target; 7] = [
    Target::OpenAiStrict,
    Target::OpenAi,
    Target::AnthropicStrict,
    Target::Anthropic,
    Target::GeminiJsonSchema,
    Target::GeminiOpenApi,
    Target::Mcp,
];

/// Schemas as real servers and libraries write them, and one of each keyword form.
fn corpus() -> Vec<(&'static str, Value)> {
    vec![
        (
            "pydantic optional, nested model, enum, defaults",
            json!({
                "type": "object",
                "title": "search_arguments",
                "properties": {
                    "query": {"type": "string", "title": "Query", "minLength": 1},
                    "limit": {"anyOf": [{"type": "integer", "maximum": 50}, {"type": "null"}],
                              "default": null, "title": "Limit"},
                    "sort": {"$ref": "#/$defs/Sort", "default": "relevance"},
                    "filter": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}], "default": null},
                    "owners": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "title": "Owners"},
                },
                "required": ["query"],
                "$defs": {
                    "Sort": {"type": "string", "enum": ["relevance", "date"], "title": "Sort"},
                    "Filter": {"type": "object", "title": "Filter", "properties": {
                        "since": {"type": "string", "format": "date-time"},
                        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
                    }, "required": ["since"]},
                    "Person": {"type": "object", "properties": {
                        "name": {"type": "string"},
                        "email": {"type": "string", "format": "email"},
                    }, "required": ["name"]},
                },
            }),
        ),
        (
            "zod type arrays, record, discriminated union",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "id": {"type": ["string", "number"]},
                    "note": {"type": ["string", "null"]},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "action": {"anyOf": [
                        {"type": "object", "properties": {
                            "kind": {"type": "string", "const": "click"},
                            "x": {"type": "integer"}, "y": {"type": "integer"},
                        }, "required": ["kind", "x", "y"], "additionalProperties": false},
                        {"type": "object", "properties": {
                            "kind": {"type": "string", "const": "type"},
                            "text": {"type": "string", "maxLength": 200},
                        }, "required": ["kind", "text"], "additionalProperties": false},
                    ]},
                },
                "required": ["id", "action"],
                "additionalProperties": false,
            }),
        ),
        (
            "draft-07 definitions",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {"address": {"$ref": "#/definitions/Address"}},
                "definitions": {"Address": {"type": "object", "properties": {
                    "street": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
                }, "required": ["street"]}},
            }),
        ),
        (
            "recursive tree",
            json!({
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node"}},
                "required": ["root"],
                "$defs": {"Node": {"type": "object", "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                }, "required": ["value"]}},
            }),
        ),
        (
            "root recursion",
            json!({
                "type": "object",
                "properties": {"name": {"type": "string"}, "parent": {"$ref": "#"}},
                "required": ["name"],
            }),
        ),
        (
            "allOf and if/then/else",
            json!({
                "type": "object",
                "allOf": [
                    {"properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "integer", "multipleOf": 5}}},
                ],
                "properties": {"mode": {"enum": ["x", "y"]}},
                "if": {"properties": {"mode": {"const": "x"}}},
                "then": {"required": ["b"]},
                "else": {"not": {"required": ["b"]}},
            }),
        ),
        (
            "patternProperties and propertyNames",
            json!({
                "type": "object",
                "properties": {
                    "headers": {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                                "propertyNames": {"maxLength": 20}},
                    "name": {"type": "string"},
                },
            }),
        ),
        (
            "tuples",
            json!({
                "type": "object",
                "properties": {
                    "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                              "minItems": 2, "maxItems": 2},
                    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                             "items": false},
                },
                "required": ["point"],
            }),
        ),
        (
            "draft-07 tuples",
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {
                    "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                             "additionalItems": {"type": "boolean"}},
                },
            }),
        ),
        (
            "formats, patterns, bounds, const, oneOf, dependentRequired",
            json!({
                "type": "object",
                "properties": {
                    "when": {"type": "string", "format": "date"},
                    "site": {"type": "string", "format": "uri"},
                    "host": {"type": "string", "format": "idn-hostname"},
                    "code": {"type": "string", "pattern": "^[A-Z]{3}$", "minLength": 3, "maxLength": 3},
                    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                    "count": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
                    "ids": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                            "uniqueItems": true},
                    "version": {"const": 2},
                    "shape": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {
                        "sides": {"type": "integer"}}, "required": ["sides"]}]},
                    "card": {"type": "string"},
                    "cvc": {"type": "string"},
                    "meta": {"type": "object", "properties": {"k": {"type": "string"}},
                             "additionalProperties": true},
                },
                "dependentRequired": {"card": ["cvc"]},
            }),
        ),
        (
            "a root discriminated union",
            json!({
                "oneOf": [
                    {"type": "object", "properties": {"op": {"const": "add"}, "a": {"type": "number"}, "b": {"type": "number"}}, "required": ["op", "a", "b"]},
                    {"type": "object", "properties": {"op": {"const": "neg"}, "a": {"type": "number"}}, "required": ["op", "a"]},
                ],
            }),
        ),
        (
            "free-form values",
            json!({
                "type": "object",
                "properties": {"payload": {}, "options": {"type": "object"}, "list": {"type": "array"}},
            }),
        ),
    ]
}

/// Every tool of the corpus, as a spec with its JSON Schema, and the example's six-type tools
/// (`provider_sdks` runs their declarations through the providers' SDKs).
pub(crate) fn specs() -> Vec<ToolSpec> {
    let mut specs: Vec<ToolSpec> = corpus()
        .into_iter()
        .enumerate()
        .map(|(index, (name, schema))| {
            ToolSpec::builder(format!("tool_{index}"))
                .description(name)
                .input_json_schema(schema)
                .build()
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        })
        .collect();
    specs.extend(registry().specs().cloned());
    specs
}

/// Generated schemas: objects, arrays, tuples, unions, type lists, maps, `allOf`, references
/// into `$defs`, and the assertion keywords, nested (`provider_sdks` sends their declarations
/// to the providers' SDKs).
pub(crate) fn generated() -> impl Strategy<Value = Value> {
    let name = prop::sample::select(vec!["a", "b", "kind", "x-y", "n"]);
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "string", "minLength": 2, "pattern": "^[a-z]+$"})),
        Just(json!({"type": "string", "format": "uuid"})),
        Just(json!({"type": "integer", "minimum": 0, "maximum": 9, "default": 1})),
        Just(json!({"type": "number", "multipleOf": 0.5})),
        Just(json!({"type": ["string", "integer", "null"]})),
        Just(json!({"enum": ["p", "q", 3]})),
        Just(json!({"const": "fixed"})),
        Just(json!({"type": "boolean"})),
        Just(json!({"$ref": "#/$defs/Item"})),
        Just(json!({"type": "null"})),
    ];
    let schema = leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            (
                prop::collection::btree_map(name.clone(), inner.clone(), 1..4),
                any::<bool>(),
                any::<bool>()
            )
                .prop_map(|(properties, closed, require)| {
                    let mut object = json!({"type": "object", "properties": properties});
                    if require {
                        let first = object["properties"]
                            .as_object()
                            .unwrap()
                            .keys()
                            .next()
                            .cloned();
                        object["required"] = json!([first]);
                    }
                    if closed {
                        object["additionalProperties"] = json!(false);
                    }
                    object
                }),
            inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items, "minItems": 2})),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|prefix| json!({"type": "array", "prefixItems": prefix})),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|variants| json!({"anyOf": variants})),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|variants| json!({"oneOf": variants})),
            inner
                .clone()
                .prop_map(|values| json!({"type": "object", "additionalProperties": values})),
            inner
                .clone()
                .prop_map(|part| json!({"allOf": [part, {"description": "more"}]})),
            inner.prop_map(|not| json!({"type": "string", "not": not})),
        ]
    });
    (
        prop::collection::btree_map(
            prop::sample::select(vec!["p", "q", "r"]),
            schema.clone(),
            1..4,
        ),
        schema,
    )
        .prop_map(|(mut properties, item)| {
            properties.insert("item", json!({"$ref": "#/$defs/Item"}));
            json!({"type": "object", "properties": properties, "$defs": {"Item": item}})
        })
}

mod rules;
mod targets;
