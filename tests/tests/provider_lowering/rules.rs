//! Each target's documented rules, checked at every depth of a lowered declaration, and
//! that no declared property was removed.

use super::*;

/// The schema objects of `schema`, at every depth, with their JSON pointers: the values of
/// `properties`, `$defs`, `items`, `prefixItems`, `anyOf`, `additionalProperties`.
pub(super) fn schemas(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
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

pub(super) fn assert_keywords(lowered: &Value, allowed: &[&str], target: Target) {
    for (pointer, schema) in schemas(lowered) {
        for key in schema.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{target:?}: `{key}` at '{pointer}' in {lowered}"
            );
        }
    }
}

pub(super) fn is_object(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(ty)) => ty == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    }
}

pub(super) fn names(list: Option<&Value>) -> BTreeSet<String> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect()
}

/// Each `$ref` names the root or an entry of the root's `$defs`.
pub(super) fn assert_refs_resolve(lowered: &Value) {
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
pub(super) fn assert_openai_strict(lowered: &Value) {
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
pub(super) fn assert_anthropic_strict(lowered: &Value) {
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

pub(super) fn assert_gemini_json_schema(lowered: &Value) {
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
pub(super) fn assert_gemini_openapi(lowered: &Value) {
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
pub(super) fn assert_properties_kept(original: &Value, lowered: &Value, target: Target) {
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

pub(super) fn property_names(value: &Value, skip: &[&str]) -> BTreeSet<String> {
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
pub(super) fn check(original: &Value, target: Target, lowered: &Lowered) {
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
