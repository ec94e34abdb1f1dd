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

/// The schema objects of `schema`, at every depth, with their JSON pointers: the values of
/// `properties`, `$defs`, `items`, `prefixItems`, `anyOf`, `additionalProperties`.
fn schemas(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut found = Vec::new();
    let mut pending = vec![(String::new(), schema)];
    while let Some((pointer, value)) = pending.pop() {
        let Value::Object(map) = value else { continue };
        found.push((pointer.clone(), map));
        for key in ["properties", "$defs"] {
            if let Some(Value::Object(children)) = map.get(key) {
                for (name, child) in children {
                    pending.push((format!("{pointer}/{key}/{name}"), child));
                }
            }
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(children)) = map.get(key) {
                for (index, child) in children.iter().enumerate() {
                    pending.push((format!("{pointer}/{key}/{index}"), child));
                }
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child @ Value::Object(_)) = map.get(key) {
                pending.push((format!("{pointer}/{key}"), child));
            }
        }
    }
    found
}

fn assert_keywords(lowered: &Value, allowed: &[&str], target: Target) {
    for (pointer, schema) in schemas(lowered) {
        for key in schema.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{target:?}: `{key}` at '{pointer}' in {lowered}"
            );
        }
    }
}

fn is_object(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(ty)) => ty == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

fn names(list: Option<&Value>) -> BTreeSet<String> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Each `$ref` names the root or an entry of the root's `$defs`.
fn assert_refs_resolve(lowered: &Value) {
    for (pointer, schema) in schemas(lowered) {
        if let Some(reference) = schema.get("$ref") {
            let reference = reference.as_str().unwrap();
            assert_eq!(schema.len(), 1, "a $ref alone at '{pointer}'");
            let target = reference.strip_prefix('#').unwrap();
            assert!(
                target.is_empty() || target.starts_with("/$defs/"),
                "{reference}"
            );
            assert!(
                lowered.pointer(target).is_some(),
                "{reference} in {lowered}"
            );
        }
    }
}

/// OpenAI's strict mode: a closed object at the root, every object closed with every
/// property required, every schema typed, only the keywords of the supported subset.
fn assert_openai_strict(lowered: &Value) {
    assert_eq!(lowered["type"], "object");
    assert_keywords(
        lowered,
        &[
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "anyOf",
            "enum",
            "$ref",
            "$defs",
            "description",
            "title",
            "pattern",
            "format",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
        ],
        Target::OpenAiStrict,
    );
    assert_refs_resolve(lowered);
    assert!(lowered.get("anyOf").is_none(), "a union at the root");
    for (pointer, schema) in schemas(lowered) {
        let typed = ["type", "anyOf", "$ref", "enum"]
            .iter()
            .any(|k| schema.contains_key(*k));
        assert!(typed, "untyped at '{pointer}': {lowered}");
        if let Some(Value::Array(types)) = schema.get("type") {
            assert!(
                types.iter().filter(|t| *t != "null").count() <= 1,
                "{pointer}"
            );
        }
        if is_object(schema) {
            assert_eq!(
                schema.get("additionalProperties"),
                Some(&json!(false)),
                "{pointer}"
            );
            let declared: BTreeSet<String> = schema["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            assert_eq!(names(schema.get("required")), declared, "{pointer}");
        }
    }
}

/// Anthropic's strict tool use: every object closed, no recursion, `minItems` of 0 or 1, an
/// `enum` of plain values, only the supported keywords.
fn assert_anthropic_strict(lowered: &Value) {
    assert_eq!(lowered["type"], "object");
    assert_keywords(
        lowered,
        &[
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "anyOf",
            "enum",
            "const",
            "$ref",
            "$defs",
            "description",
            "title",
            "default",
            "pattern",
            "format",
            "minItems",
        ],
        Target::AnthropicStrict,
    );
    assert_refs_resolve(lowered);
    for (pointer, schema) in schemas(lowered) {
        if is_object(schema) {
            assert_eq!(
                schema.get("additionalProperties"),
                Some(&json!(false)),
                "{pointer}"
            );
        }
        if let Some(n) = schema.get("minItems") {
            assert!(n.as_u64().unwrap() <= 1, "{pointer}");
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            assert!(
                values.iter().all(|v| !v.is_object() && !v.is_array()),
                "{pointer}"
            );
        }
        if let Some(reference) = schema.get("$ref") {
            assert_ne!(reference, "#", "recursion at '{pointer}'");
        }
    }
    // No `$defs` entry reaches itself.
    if let Some(Value::Object(defs)) = lowered.get("$defs") {
        for name in defs.keys() {
            let mut seen = BTreeSet::new();
            let mut pending = vec![name.clone()];
            while let Some(next) = pending.pop() {
                for (_, schema) in schemas(&defs[&next]) {
                    if let Some(Value::String(reference)) = schema.get("$ref") {
                        let to = reference.trim_start_matches("#/$defs/").to_owned();
                        assert_ne!(&to, name, "{name} is recursive");
                        if seen.insert(to.clone()) {
                            pending.push(to);
                        }
                    }
                }
            }
        }
    }
}

fn assert_gemini_json_schema(lowered: &Value) {
    assert_eq!(lowered["type"], "object");
    assert_keywords(
        lowered,
        &[
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "prefixItems",
            "anyOf",
            "enum",
            "$ref",
            "$defs",
            "description",
            "title",
            "default",
            "format",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern",
        ],
        Target::GeminiJsonSchema,
    );
    assert_refs_resolve(lowered);
}

/// The OpenAPI subset: one type in capitals, no `$ref`, no `additionalProperties`, an
/// `enum` of strings only.
fn assert_gemini_openapi(lowered: &Value) {
    assert_eq!(lowered["type"], "OBJECT");
    assert_keywords(
        lowered,
        &[
            "type",
            "nullable",
            "properties",
            "required",
            "items",
            "anyOf",
            "enum",
            "description",
            "title",
            "default",
            "format",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "pattern",
            "minProperties",
            "maxProperties",
        ],
        Target::GeminiOpenApi,
    );
    let types = [
        "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
    ];
    for (pointer, schema) in schemas(lowered) {
        if let Some(ty) = schema.get("type") {
            assert!(
                types.contains(&ty.as_str().unwrap_or("")),
                "{ty} at '{pointer}'"
            );
        }
        if let Some(Value::Array(values)) = schema.get("enum") {
            assert!(values.iter().all(Value::is_string), "{pointer}");
        }
        // Typed, but for a schema of any value, which the subset has no type for.
        let any_value = schema.keys().all(|k| k == "description" || k == "title");
        assert!(
            schema.contains_key("type") || schema.contains_key("anyOf") || any_value,
            "untyped at '{pointer}': {lowered}"
        );
    }
}

/// Every property name `original` declares, at any depth, is declared in `lowered` too, or,
/// where the target cannot declare the schema holding it (a map's values in the OpenAPI
/// subset, a `not`), stated in a description.
///
/// The names inside `not`, `if`/`then`/`else`, `dependentSchemas`, `contains` and
/// `propertyNames` are not parameters to send: those keywords are stated (in bounded text)
/// wherever a target cannot declare them, and so are a map's values in the OpenAPI subset.
fn assert_properties_kept(original: &Value, lowered: &Value, target: Target) {
    let declared = property_names(lowered, &[]);
    let text = lowered.to_string();
    let mut stated = vec![
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "contains",
        "propertyNames",
    ];
    if target == Target::GeminiOpenApi {
        stated.extend(["additionalProperties", "patternProperties"]);
    }
    for name in property_names(original, &stated) {
        assert!(
            declared.contains(&name)
                || text.contains(&format!("\\\"{name}\\\""))
                || text.contains(&format!("'{name}'")),
            "'{name}' was removed: {lowered}"
        );
    }
}

fn property_names(value: &Value, skip: &[&str]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(properties)) = map.get("properties") {
                    found.extend(properties.keys().cloned());
                }
                for (key, child) in map {
                    if !skip.contains(&key.as_str()) {
                        pending.push(child);
                    }
                }
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}

/// Checks one lowering of `original` for `target` against the rules of the target it was
/// lowered for.
fn check(original: &Value, target: Target, lowered: &Lowered) {
    let schema = lowered.schema();
    match (target, lowered.target()) {
        (Target::OpenAiStrict, Target::OpenAiStrict) => assert_openai_strict(schema),
        (Target::AnthropicStrict, Target::AnthropicStrict) => assert_anthropic_strict(schema),
        (Target::OpenAiStrict, Target::OpenAi) | (Target::AnthropicStrict, Target::Anthropic) => {
            let reason = lowered
                .not_strict_because()
                .expect("a reason for leaving strict");
            assert!(reason.contains("cannot declare this schema"), "{reason}");
        }
        (Target::GeminiJsonSchema, _) => assert_gemini_json_schema(schema),
        (Target::GeminiOpenApi, _) => assert_gemini_openapi(schema),
        (Target::Mcp, _) => assert_eq!(schema, original),
        (asked, got) => assert_eq!(asked, got),
    }
    if matches!(lowered.target(), Target::OpenAi | Target::Anthropic) {
        assert_eq!(schema["type"], "object", "{target:?}: {schema}");
    }
    if !lowered.is_strict() && target != Target::OpenAiStrict && target != Target::AnthropicStrict {
        assert_eq!(lowered.not_strict_because(), None);
    }
    assert_properties_kept(original, schema, lowered.target());
    // Every JSON Schema form is a valid schema of its draft (the OpenAPI subset is not JSON
    // Schema: its types are in capitals).
    if lowered.target() != Target::GeminiOpenApi {
        assert!(jsonschema::meta::is_valid(schema), "{target:?}: {schema}");
    }
}

#[test]
fn every_target_s_rules_hold_for_every_declaration_of_the_corpus() {
    for spec in specs() {
        let original = match spec.input_json() {
            Some(schema) => schema.as_value().clone(),
            None => provider::lower(&spec, Target::Mcp).into_schema(),
        };
        for target in TARGETS {
            let lowered = provider::lower(&spec, target);
            check(&original, target, &lowered);
        }
    }
}

/// What each corpus schema gets in each strict mode: only the schemas a strict mode cannot
/// take at all leave it, each with its reason.
#[test]
fn strict_modes_are_left_only_by_the_schemas_they_cannot_take() {
    let strict = |target| -> Vec<(&str, bool)> {
        corpus()
            .into_iter()
            .map(|(name, schema)| (name, lower_json_schema(&schema, target).is_strict()))
            .collect()
    };
    let openai: Vec<&str> = strict(Target::OpenAiStrict)
        .into_iter()
        .filter(|(_, s)| !s)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        openai,
        [
            "zod type arrays, record, discriminated union",
            "patternProperties and propertyNames",
            "formats, patterns, bounds, const, oneOf, dependentRequired",
            "a root discriminated union",
            "free-form values",
        ]
    );
    let anthropic: Vec<&str> = strict(Target::AnthropicStrict)
        .into_iter()
        .filter(|(_, s)| !s)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(
        anthropic,
        [
            "zod type arrays, record, discriminated union",
            "recursive tree",
            "root recursion",
            "patternProperties and propertyNames",
            "formats, patterns, bounds, const, oneOf, dependentRequired",
            "free-form values",
        ]
    );
}

#[test]
fn a_schema_strict_mode_cannot_take_is_declared_without_strict_and_says_why() {
    let spec = ToolSpec::builder("tag")
        .input_json_schema(json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["id"],
        }))
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert_eq!(lowered.target(), Target::OpenAi);
    assert_eq!(
        lowered.not_strict_because(),
        Some(
            "OpenAI's strict mode cannot declare this schema: '/properties/labels' takes keys it does not name (a map)"
        )
    );
    for declared in [
        openai_chat::strict_tools([&spec])[0]["function"].clone(),
        openai_responses::strict_tools([&spec])[0].clone(),
    ] {
        assert_eq!(declared["strict"], false);
        assert_eq!(
            &declared["parameters"],
            spec.input_json().unwrap().as_value()
        );
    }
    let declared = &anthropic::strict_tools([&spec])[0];
    assert!(declared.get("strict").is_none());
    assert_eq!(
        &declared["input_schema"],
        spec.input_json().unwrap().as_value()
    );
    assert!(
        provider::lower(&spec, Target::AnthropicStrict)
            .not_strict_because()
            .unwrap()
            .contains("a map")
    );
}

/// What a model following a strict declaration sends (`null` for every optional property it
/// leaves out) passes the executor's checks, and a call the whole schema refuses is still
/// refused though the declaration only stated the keyword.
#[test]
fn validation_stays_exact_whatever_the_declaration_loosened() {
    let spec = ToolSpec::builder("search")
        .input_json_schema(corpus()[0].1.clone())
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert!(lowered.is_strict());
    assert!(lowered.loosened().iter().any(|l| l.keyword == "minLength"));
    assert!(
        lowered.schema()["properties"]["query"]["description"]
            .as_str()
            .unwrap()
            .contains("At least 1 character long.")
    );
    let schema = spec.input_json().unwrap();
    let mut strict_call = json!({"query": "rust", "limit": null, "sort": null, "filter": null,
                                 "owners": [{"name": "Ann", "email": null}]});
    assert_eq!(schema.validate(&mut strict_call), []);
    let mut too_short = json!({"query": ""});
    assert_eq!(schema.validate(&mut too_short).len(), 1);

    // Inside a union's variant too: the optional property the model sends as `null`.
    let spec = ToolSpec::builder("draw")
        .input_json_schema(json!({"type": "object", "properties": {"shape": {"anyOf": [
            {"type": "object", "properties": {"r": {"type": "number"}, "label": {"type": "string"}},
             "required": ["r"]},
            {"type": "string"},
        ]}}, "required": ["shape"]}))
        .build()
        .unwrap();
    let lowered = provider::lower(&spec, Target::OpenAiStrict);
    assert!(lowered.is_strict());
    let variant = &lowered.schema()["properties"]["shape"]["anyOf"][0];
    assert_eq!(
        variant["properties"]["label"]["type"],
        json!(["string", "null"])
    );
    let mut strict_call = json!({"shape": {"r": 1.5, "label": null}});
    assert_eq!(spec.input_json().unwrap().validate(&mut strict_call), []);
}

#[test]
fn the_openapi_subset_writes_references_out_and_recursion_to_a_bounded_depth() {
    let (_, tree) = corpus().swap_remove(3);
    let lowered = lower_json_schema(&tree, Target::GeminiOpenApi);
    assert!(!lowered.schema().to_string().contains("$ref"));
    let root = &lowered.schema()["properties"]["root"];
    assert_eq!(root["properties"]["value"]["type"], "INTEGER");
    let child = &root["properties"]["children"]["items"];
    assert_eq!(child["properties"]["value"]["type"], "INTEGER");
    // Past the second level written out, the type alone, which says so.
    let third = &child["properties"]["children"]["items"];
    assert_eq!(third["type"], "OBJECT");
    assert!(third.get("properties").is_none());
    assert!(
        third["description"]
            .as_str()
            .unwrap()
            .contains("nested further")
    );
    assert!(lowered.loosened().iter().any(|l| l.keyword == "$ref"));
}

#[test]
fn declarations_use_the_lowering_of_their_target() {
    for spec in specs() {
        let pairs = [
            (
                openai_chat::strict_tools([&spec])[0]["function"]["parameters"].clone(),
                Target::OpenAiStrict,
            ),
            (
                openai_chat::tools([&spec])[0]["function"]["parameters"].clone(),
                Target::OpenAi,
            ),
            (
                openai_responses::strict_tools([&spec])[0]["parameters"].clone(),
                Target::OpenAiStrict,
            ),
            (
                anthropic::strict_tools([&spec])[0]["input_schema"].clone(),
                Target::AnthropicStrict,
            ),
            (
                anthropic::tools([&spec])[0]["input_schema"].clone(),
                Target::Anthropic,
            ),
            (
                gemini::tools([&spec])[0]["functionDeclarations"][0]["parametersJsonSchema"]
                    .clone(),
                Target::GeminiJsonSchema,
            ),
            (
                gemini::openapi_tools([&spec])[0]["functionDeclarations"][0]["parameters"].clone(),
                Target::GeminiOpenApi,
            ),
            (mcp::tool(&spec)["inputSchema"].clone(), Target::Mcp),
        ];
        for (declared, target) in pairs {
            assert_eq!(
                &declared,
                provider::lower(&spec, target).schema(),
                "{target:?}"
            );
        }
        let strict = provider::lower(&spec, Target::OpenAiStrict).is_strict();
        assert_eq!(
            openai_chat::strict_tools([&spec])[0]["function"]["strict"],
            strict
        );
    }
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_target_s_rules_hold_for_generated_schemas(schema in generated()) {
        // Lowering meets only schemas a tool could be built with.
        prop_assume!(JsonSchema::new(schema.clone()).is_ok());
        for target in TARGETS {
            let lowered = lower_json_schema(&schema, target);
            check(&schema, target, &lowered);
        }
    }
}

/// Strict tool use's limits on a request: the tools past them go without strict, each with
/// the reason, and the declarations say the same.
#[test]
fn anthropic_s_request_limits_send_the_tools_past_them_without_strict() {
    let optional = |n: usize| {
        ToolSpec::builder(format!("t{n}"))
            .input_json_schema(json!({"type": "object", "properties": {
                "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"},
            }}))
            .build()
            .unwrap()
    };
    // Three optional parameters each: eight tools take the 24.
    let specs: Vec<ToolSpec> = (0..10).map(optional).collect();
    let fallbacks = anthropic::not_strict(specs.iter());
    let names: Vec<&str> = fallbacks.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["t8", "t9"]);
    assert!(
        fallbacks[0].1.contains("24 optional parameters"),
        "{}",
        fallbacks[0].1
    );
    let declared = anthropic::strict_tools(specs.iter());
    for (index, tool) in declared.as_array().unwrap().iter().enumerate() {
        assert_eq!(tool.get("strict").is_some(), index < 8, "{tool}");
    }
    // Tools without parameters: twenty are strict.
    let plain: Vec<ToolSpec> = (0..22)
        .map(|n| ToolSpec::builder(format!("p{n}")).build().unwrap())
        .collect();
    let fallbacks = anthropic::not_strict(plain.iter());
    assert_eq!(fallbacks.len(), 2);
    assert!(fallbacks[0].1.contains("20 strict tools"));
    // Unions: pydantic's `Optional`s, each a union and not required.
    let unions = ToolSpec::builder("u")
        .input_json_schema(json!({"type": "object", "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "d": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "e": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        }, "required": ["a", "b", "c", "d", "e"]}))
        .build()
        .unwrap();
    let fallbacks = anthropic::not_strict([&unions, &unions, &unions, &unions]);
    assert_eq!(fallbacks.len(), 1);
    assert!(fallbacks[0].1.contains("16 union parameters"));
}

/// Hostile schemas lower to a bounded declaration: many properties, deep nesting, and
/// references that would multiply when written out.
#[test]
fn hostile_schemas_lower_to_bounded_declarations() {
    let wide: Map<String, Value> = (0..6_000)
        .map(|n| (format!("p{n}"), json!({"type": "string", "minLength": 1})))
        .collect();
    let wide = json!({"type": "object", "properties": wide});
    for target in TARGETS {
        let lowered = lower_json_schema(&wide, target);
        let declared = lowered.schema()["properties"].as_object().unwrap().len();
        assert_eq!(declared, 6_000, "{target:?}");
    }
    // OpenAI's limit of 5,000 properties.
    assert!(
        lower_json_schema(&wide, Target::OpenAiStrict)
            .not_strict_because()
            .unwrap()
            .contains("6000 properties")
    );

    let mut deep = json!({"type": "string"});
    for _ in 0..120 {
        deep = json!({"type": "object", "properties": {"next": deep}, "required": ["next"]});
    }
    for target in TARGETS {
        let lowered = lower_json_schema(&deep, target);
        assert!(lowered.schema().to_string().len() < 1 << 20, "{target:?}");
    }
    assert!(!lower_json_schema(&deep, Target::OpenAiStrict).is_strict());

    // Each level refers to the next twice: 2^30 schemas written out in full.
    let mut defs = Map::new();
    for level in 0..30 {
        defs.insert(
            format!("L{level}"),
            json!({"type": "object", "properties": {
                "left": {"$ref": format!("#/$defs/L{}", level + 1)},
                "right": {"$ref": format!("#/$defs/L{}", level + 1)},
            }}),
        );
    }
    defs.insert("L30".into(), json!({"type": "string"}));
    let shared =
        json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": defs});
    let lowered = lower_json_schema(&shared, Target::GeminiOpenApi);
    assert!(lowered.schema().to_string().len() < 1 << 24);
    assert!(!lowered.schema().to_string().contains("$ref"));
    // Where references stay references, the declaration is as small as the schema.
    let kept = lower_json_schema(&shared, Target::OpenAiStrict);
    assert!(kept.is_strict(), "{:?}", kept.not_strict_because());
    assert_eq!(kept.schema()["$defs"].as_object().unwrap().len(), 31);
}
