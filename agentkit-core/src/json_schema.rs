//! Export of tool schemas as JSON Schema, for model providers.

use serde_json::{Map, Value, json};

use crate::rules::ParamType;
use crate::schema::ToolSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Anthropic `input_schema`, MCP `inputSchema`/`outputSchema`, OpenAI non-strict.
    Standard,
    /// OpenAI `strict: true`: every property required, optional ones nullable, no defaults.
    OpenAiStrict,
}

/// The validator refuses integers outside `i64`; the bounds say so, so that the exported
/// schema accepts exactly what the validator accepts.
fn bound_integers(property: &mut Map<String, Value>, ty: ParamType) {
    if ty == ParamType::Integer {
        property.insert("minimum".into(), Value::from(i64::MIN));
        property.insert("maximum".into(), Value::from(i64::MAX));
    }
}

pub(crate) fn export(schema: &ToolSchema, style: Style) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in schema.parameters() {
        let ty = param.param_type().json_schema_type();
        // A dictionary with declared fields is a nested object schema; the keywords below
        // (nullable type, description, default) go on top of it.
        let mut property = match (param.fields(), param.param_type()) {
            (Some(fields), ParamType::Dictionary) => match export(fields, style) {
                Value::Object(object) => object,
                _ => Map::new(),
            },
            _ => Map::new(),
        };
        // An optional parameter accepts `null`: the validator reads it as "absent", and the
        // exported schema must accept exactly what the validator accepts.
        let ty = if param.is_required() {
            Value::from(ty)
        } else {
            json!([ty, "null"])
        };
        property.insert("type".into(), ty);
        bound_integers(&mut property, param.param_type());
        if let Some(items) = param.items() {
            let item = match (param.fields(), items) {
                (Some(fields), ParamType::Dictionary) => export(fields, style),
                _ => {
                    let mut item = Map::new();
                    item.insert("type".into(), Value::from(items.json_schema_type()));
                    bound_integers(&mut item, items);
                    Value::Object(item)
                }
            };
            property.insert("items".into(), item);
        }
        if !param.description().is_empty() {
            property.insert("description".into(), Value::from(param.description()));
        }
        if style == Style::Standard {
            if let Some(default) = param.default_value() {
                property.insert("default".into(), default.to_value());
            }
        }
        if param.is_required() || style == Style::OpenAiStrict {
            required.push(Value::from(param.name()));
        }
        properties.insert(param.name().to_owned(), Value::Object(property));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}
