//! JSON Schema written elsewhere (an MCP server's `inputSchema`, a schema of a tool's own),
//! read as far as the six types go: what a [`ToolSchema`] can check of it.

use serde_json::{Map, Value};

use super::param::{Param, ToolSchema};
use crate::rules::ParamType;

impl ToolSchema {
    /// The part of a JSON Schema (an MCP tool's `inputSchema`) that a [`ToolSchema`] can check, or
    /// `None` when the schema does not fit the six types and their nesting.
    ///
    /// It fits when it is an object schema whose properties each have one of JSON Schema's types
    /// `string`, `integer`, `number` (a `float`), `boolean`, `array` (a `list`, with typed items
    /// when `items` has a type) or `object` (a `dictionary`, with declared fields when it has
    /// `properties`), optionally together with `"null"` (the parameter is then optional, since
    /// `null` means absent), and property names are valid parameter names.
    ///
    /// Keywords that only narrow a type (`enum`, `minimum`, `pattern`, `format`, ...) are left to
    /// the server, which validates its own schema: the converted schema is never stricter than
    /// the original, only looser. Defaults are left to the server too. Keywords that change the
    /// shape (`anyOf`, `oneOf`, `allOf`, `not`, `$ref`, `if`, `patternProperties`, a schema as
    /// `additionalProperties`, a property without `type`) do not fit.
    ///
    /// ```
    /// use agentkit_core::ToolSchema;
    /// use serde_json::json;
    ///
    /// let fits = json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "message": {"type": "string", "description": "Message to echo"},
    ///         "count": {"type": "integer", "minimum": 1},
    ///     },
    ///     "required": ["message"],
    /// });
    /// let schema = ToolSchema::from_json_schema(&fits).unwrap();
    /// assert!(schema.parameter("message").unwrap().is_required());
    /// assert!(!schema.parameter("count").unwrap().is_required());
    ///
    /// let does_not_fit = json!({"type": "object", "properties": {"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}});
    /// assert!(ToolSchema::from_json_schema(&does_not_fit).is_none());
    /// ```
    pub fn from_json_schema(schema: &Value) -> Option<ToolSchema> {
        object_fields(schema.as_object()?)
    }
}

/// Keywords that change what a schema accepts beyond one type: the schema does not fit.
const SHAPE_KEYWORDS: &[&str] = &[
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$dynamicRef",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "unevaluatedProperties",
    "prefixItems",
    "unevaluatedItems",
];

fn changes_shape(schema: &Map<String, Value>) -> bool {
    SHAPE_KEYWORDS.iter().any(|k| schema.contains_key(*k))
        || matches!(schema.get("additionalProperties"), Some(Value::Object(extra)) if !extra.is_empty())
}

/// The fields of an object schema.
fn object_fields(schema: &Map<String, Value>) -> Option<ToolSchema> {
    if changes_shape(schema) {
        return None;
    }
    match schema.get("type") {
        None => {}
        Some(Value::String(ty)) if ty == "object" => {}
        Some(_) => return None,
    }
    let required: Vec<&str> = match schema.get("required") {
        None => Vec::new(),
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        Some(_) => return None,
    };
    let empty = Map::new();
    let properties = match schema.get("properties") {
        None => &empty,
        Some(Value::Object(properties)) => properties,
        Some(_) => return None,
    };
    let mut params = Vec::with_capacity(properties.len());
    for (name, property) in properties {
        params.push(param(
            name,
            property.as_object()?,
            required.contains(&name.as_str()),
        )?);
    }
    ToolSchema::new(params).ok()
}

fn param(name: &str, schema: &Map<String, Value>, required: bool) -> Option<Param> {
    if changes_shape(schema) {
        return None;
    }
    let (ty, nullable) = json_type(schema.get("type")?)?;
    // The validator reads `null` as "absent", so a nullable parameter can only be optional.
    let mut param = if required && !nullable {
        Param::required(name.to_owned(), ty)
    } else {
        Param::optional(name.to_owned(), ty)
    };
    if let Some(Value::String(description)) = schema.get("description") {
        param = param.with_description(description.clone());
    }
    match ty {
        ParamType::Dictionary if schema.contains_key("properties") => {
            param = param.with_fields(object_fields(schema)?);
        }
        ParamType::List => {
            if let Some(items) = schema.get("items") {
                let items = items.as_object()?;
                if changes_shape(items) {
                    return None;
                }
                if let Some(item_type) = items.get("type") {
                    let (item_type, nullable) = json_type(item_type)?;
                    if nullable {
                        // A list of "T or null" has no item type here.
                        return Some(param);
                    }
                    param = param.with_items(item_type);
                    if item_type == ParamType::Dictionary && items.contains_key("properties") {
                        param = param.with_fields(object_fields(items)?);
                    }
                }
            }
        }
        _ => {}
    }
    Some(param)
}

/// A JSON Schema `type`: one type, or one type and `"null"`.
fn json_type(ty: &Value) -> Option<(ParamType, bool)> {
    match ty {
        Value::String(ty) => Some((param_type(ty)?, false)),
        Value::Array(types) => match types.as_slice() {
            [Value::String(a), Value::String(b)] if b == "null" => Some((param_type(a)?, true)),
            [Value::String(a), Value::String(b)] if a == "null" => Some((param_type(b)?, true)),
            [Value::String(only)] => Some((param_type(only)?, false)),
            _ => None,
        },
        _ => None,
    }
}

fn param_type(ty: &str) -> Option<ParamType> {
    Some(match ty {
        "string" => ParamType::String,
        "integer" => ParamType::Integer,
        "number" => ParamType::Float,
        "boolean" => ParamType::Boolean,
        "array" => ParamType::List,
        "object" => ParamType::Dictionary,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn convert(schema: Value) -> Option<Value> {
        ToolSchema::from_json_schema(&schema).map(|s| s.to_value())
    }

    #[test]
    fn nested_objects_and_lists_convert() {
        let schema = convert(json!({
            "type": "object",
            "properties": {
                "stops": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                }},
                "tags": {"type": "array", "items": {"type": "string"}},
                "note": {"type": ["string", "null"]},
                "meta": {"type": "object"},
            },
            "required": ["stops", "note"],
        }))
        .unwrap();
        // `serde_json` keeps object keys sorted, so parameters come in name order.
        assert_eq!(
            schema,
            json!({"parameters": [
                {"name": "meta", "type": "dictionary", "required": false},
                {"name": "note", "type": "string", "required": false},
                {"name": "stops", "type": "list", "required": true, "items": "dictionary", "fields": [
                    {"name": "city", "type": "string", "required": true},
                ]},
                {"name": "tags", "type": "list", "required": false, "items": "string"},
            ]})
        );
    }

    #[test]
    fn shapes_outside_the_six_types_do_not_fit() {
        for property in [
            json!({"anyOf": [{"type": "string"}]}),
            json!({"enum": ["a", "b"]}),
            json!({"type": ["string", "integer"]}),
            json!({"type": "null"}),
            json!({"type": "object", "additionalProperties": {"type": "string"}}),
            json!({"type": "array", "items": {"$ref": "#/$defs/x"}}),
        ] {
            let schema = json!({"type": "object", "properties": {"p": property}});
            assert_eq!(convert(schema.clone()), None, "{schema}");
        }
        // A property name agentkit refuses.
        assert_eq!(
            convert(json!({"properties": {"file.path": {"type": "string"}}})),
            None
        );
        assert_eq!(convert(json!({"type": "array"})), None);
        assert_eq!(convert(json!("object")), None);
    }
}
