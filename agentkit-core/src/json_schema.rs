//! Export of tool schemas as JSON Schema: one exact form for validation, and the forms model
//! providers are sent (see `provider`).

use serde_json::{Map, Value, json};

use crate::rules::ParamType;
use crate::schema::ToolSchema;

/// Which JSON Schema to export. The styles differ only where a reader needs something
/// different: a validator must accept exactly what ours accepts; a model needs to know what
/// to send, in as few tokens as the API allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// [`ToolSchema::to_json_schema`]: accepts exactly what the validator accepts (optional
    /// parameters nullable, integers bounded to `i64`, defaults given).
    Validation,
    /// Provider declarations without a strict mode, and Anthropic's strict tool use: optional
    /// parameters are simply not required, defaults are given, integer bounds are left out.
    Declaration,
    /// OpenAI `strict: true`: every property required, optional ones nullable, no `default`
    /// keyword (the default is stated in the description instead), no integer bounds.
    OpenAiStrict,
}

/// The validator refuses integers outside `i64`; the bounds say so, so that the exported
/// schema accepts exactly what the validator accepts. Models are not sent them: they cost
/// some sixty characters per integer and tell the model nothing it would act on.
fn bound_integers(property: &mut Map<String, Value>, ty: ParamType, style: Style) {
    if ty == ParamType::Integer && style == Style::Validation {
        property.insert("minimum".into(), Value::from(i64::MIN));
        property.insert("maximum".into(), Value::from(i64::MAX));
    }
}

/// `description` followed by "Defaults to <value>.", for schemas that cannot carry a
/// `default` keyword: the model still learns what leaving the parameter out (sending `null`)
/// means.
fn describe_default(description: &str, default: &Value) -> String {
    let sentence = format!("Defaults to {default}.");
    let description = description.trim_end();
    match description.chars().last() {
        None => sentence,
        Some('.' | '!' | '?') => format!("{description} {sentence}"),
        Some(_) => format!("{description}. {sentence}"),
    }
}

pub(crate) fn export(schema: &ToolSchema, style: Style) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in schema.parameters() {
        let ty = param.param_type().json_schema_type();
        // A dictionary with declared fields is a nested object schema; the keywords below
        // (type, description, default) go on top of it.
        let mut property = match (param.fields(), param.param_type()) {
            (Some(fields), ParamType::Dictionary) => match export(fields, style) {
                Value::Object(object) => object,
                _ => Map::new(),
            },
            _ => Map::new(),
        };
        // An optional parameter accepts `null`: the validator reads it as "absent". The
        // validation schema must say so, and OpenAI's strict mode, where every property is
        // required, needs it to leave one out. Other declarations just leave it unrequired.
        let nullable = !param.is_required() && style != Style::Declaration;
        let ty = if nullable {
            json!([ty, "null"])
        } else {
            Value::from(ty)
        };
        property.insert("type".into(), ty);
        bound_integers(&mut property, param.param_type(), style);
        if let Some(items) = param.items() {
            let item = match (param.fields(), items) {
                (Some(fields), ParamType::Dictionary) => export(fields, style),
                _ => {
                    let mut item = Map::new();
                    item.insert("type".into(), Value::from(items.json_schema_type()));
                    bound_integers(&mut item, items, style);
                    Value::Object(item)
                }
            };
            property.insert("items".into(), item);
        }
        let default = param.default_value().map(|d| d.to_value());
        match (&default, style) {
            (Some(default), Style::OpenAiStrict) => {
                let description = describe_default(param.description(), default);
                property.insert("description".into(), Value::from(description));
            }
            _ if !param.description().is_empty() => {
                property.insert("description".into(), Value::from(param.description()));
            }
            _ => {}
        }
        if let (Some(default), Style::Validation | Style::Declaration) = (default, style) {
            property.insert("default".into(), default);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_appended_as_a_sentence() {
        assert_eq!(describe_default("", &json!(5)), "Defaults to 5.");
        assert_eq!(
            describe_default("Days ahead", &json!(5)),
            "Days ahead. Defaults to 5."
        );
        assert_eq!(
            describe_default("Days ahead. ", &json!("US")),
            "Days ahead. Defaults to \"US\"."
        );
        assert_eq!(
            describe_default("Which units?", &json!(["a"])),
            "Which units? Defaults to [\"a\"]."
        );
    }
}
