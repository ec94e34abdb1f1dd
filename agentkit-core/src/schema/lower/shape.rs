//! Target-specific shapes of one schema: nullable for OpenAI's strict mode, the OpenAPI
//! subset's `nullable` and types.

use serde_json::{Map, Value, json};

/// An optional property made nullable, for a target where every property is required:
/// `null` then stands for "left out", which the executor reads as absent.
pub(super) fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    if map.contains_key("$ref") {
        let reference = std::mem::take(map);
        *map = Map::from_iter([(
            "anyOf".to_owned(),
            json!([Value::Object(reference), {"type": "null"}]),
        )]);
        return;
    }
    match map.get_mut("type") {
        Some(Value::String(ty)) if ty != "null" => {
            let ty = std::mem::take(ty);
            map.insert("type".into(), json!([ty, "null"]));
        }
        Some(Value::Array(types)) if !types.contains(&Value::from("null")) => {
            types.push(Value::from("null"));
        }
        _ => {}
    }
    if let Some(Value::Array(variants)) = map.get_mut("anyOf")
        && !variants
            .iter()
            .any(|v| v.get("type") == Some(&Value::from("null")))
    {
        variants.push(json!({"type": "null"}));
    }
    if let Some(Value::Array(values)) = map.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

/// The OpenAPI subset's way of saying "or null": `nullable: true`, for a type list with
/// `NULL` and for a `NULL` variant of a union.
pub(super) fn openapi_nullable(out: &mut Map<String, Value>) {
    let null = Value::from("NULL");
    let mut nullable = false;
    if let Some(Value::Array(types)) = out.get_mut("type") {
        let before = types.len();
        types.retain(|ty| *ty != null);
        nullable |= types.len() < before;
        if let Ok([one]) = <[Value; 1]>::try_from(types.clone()) {
            out.insert("type".into(), one);
        }
    }
    if let Some(Value::Array(variants)) = out.get_mut("anyOf") {
        let before = variants.len();
        variants
            .retain(|v| v.get("type") != Some(&null) || v.as_object().is_some_and(|m| m.len() > 1));
        nullable |= variants.len() < before;
        if variants.is_empty() {
            out.remove("anyOf");
            out.insert("type".into(), null);
            nullable = false;
        }
    }
    // A union of one form left (`Optional[X]`'s) is that form: the subset wants a `type`.
    if let Some(Value::Array(variants)) = out.get("anyOf")
        && let ([Value::Object(only)], false) = (variants.as_slice(), out.contains_key("type"))
    {
        let only = only.clone();
        out.remove("anyOf");
        for (key, value) in only {
            out.entry(key).or_insert(value);
        }
    }
    if nullable {
        out.insert("nullable".into(), Value::Bool(true));
    }
}

/// The OpenAPI subset's type of a value.
pub(super) fn openapi_type_of(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::String(_) => "STRING",
        Value::Number(n) if n.is_i64() || n.is_u64() => "INTEGER",
        Value::Number(_) => "NUMBER",
        Value::Bool(_) => "BOOLEAN",
        Value::Array(_) => "ARRAY",
        Value::Object(_) => "OBJECT",
        Value::Null => return None,
    })
}
