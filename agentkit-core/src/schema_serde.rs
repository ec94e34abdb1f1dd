//! Loading and saving schemas in the seed's `{"parameters": [...]}` shape.
//!
//! Loading is written by hand rather than derived: a derived `Deserialize` stops at the first
//! problem, and the seed's discipline is to report every one.

use serde_json::{Map, Value};

use crate::error::{SemanticError, SemanticProblem};
use crate::rules::{self, ParamType, Problem};
use crate::schema::{Literal, Param, ToolSchema, param_location};

pub(crate) fn schema_from_value(value: Value) -> Result<ToolSchema, SemanticError> {
    let mut problems = Vec::new();
    let params = params_from_value(value, "", &mut problems);
    // The rules run on every parameter that parsed, so a schema with a structural mistake
    // still has its other mistakes reported in the same error.
    problems.extend(crate::schema::rule_problems(
        params.iter().map(|(index, param)| (*index, param)),
    ));
    if problems.is_empty() {
        ToolSchema::new(params.into_iter().map(|(_, param)| param))
    } else {
        Err(SemanticError::new(problems))
    }
}

/// Reads the parameter list, pushing structural problems with locations under `prefix`.
pub(crate) fn params_from_value(
    value: Value,
    prefix: &str,
    problems: &mut Vec<SemanticProblem>,
) -> Vec<(usize, Param)> {
    let at = |location: String| format!("{prefix}{location}");
    let mut object = match value {
        Value::Object(object) => object,
        _ => {
            problems.push(SemanticProblem::new(
                at("schema".to_owned()),
                Problem::NotAnObject {
                    what: "a schema",
                    example: r#"{"parameters": [{"name": "city", "type": "string"}]}"#,
                },
            ));
            return Vec::new();
        }
    };
    let list = object.remove("parameters");
    for key in object.keys() {
        problems.push(SemanticProblem::new(
            at("schema".to_owned()),
            Problem::UnknownKey {
                found: key.clone(),
                suggestion: rules::suggest(key, ["parameters"]),
                allowed: &["parameters"],
            },
        ));
    }
    let list = match list {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(_) => {
            problems.push(SemanticProblem::new(
                at("schema".to_owned()),
                Problem::InvalidKeyValue {
                    key: "parameters",
                    expected: "a list of parameter objects",
                },
            ));
            return Vec::new();
        }
    };
    params_from_list(list, prefix, "parameters", problems)
}

/// Reads a list of parameter objects (a schema's `parameters`, or a parameter's `fields`).
fn params_from_list(
    list: Vec<Value>,
    prefix: &str,
    what: &str,
    problems: &mut Vec<SemanticProblem>,
) -> Vec<(usize, Param)> {
    let mut params = Vec::with_capacity(list.len());
    for (index, item) in list.into_iter().enumerate() {
        let name_hint = item.get("name").and_then(Value::as_str).map(str::to_owned);
        let location = format!(
            "{prefix}{}",
            param_location(index, name_hint.as_deref()).replacen("parameters", what, 1)
        );
        match param_from_value(item, &location, problems) {
            Ok(param) => params.push((index, param)),
            Err(found) => problems.extend(
                found
                    .into_iter()
                    .map(|p| SemanticProblem::new(location.clone(), p)),
            ),
        }
    }
    params
}

/// Reads a `fields` list into a schema, reporting its problems under `location`.
fn fields_from_value(
    value: Value,
    location: &str,
    problems: &mut Vec<SemanticProblem>,
) -> Option<ToolSchema> {
    let Value::Array(list) = value else {
        problems.push(SemanticProblem::new(
            location.to_owned(),
            Problem::InvalidKeyValue {
                key: "fields",
                expected: "a list of parameter objects",
            },
        ));
        return None;
    };
    let before = problems.len();
    let prefix = format!("{location} ");
    let fields = params_from_list(list, &prefix, "fields", problems);
    let mut rule_problems =
        crate::schema::rule_problems(fields.iter().map(|(index, param)| (*index, param)));
    for problem in &mut rule_problems {
        *problem = problem.clone().prefixed(&prefix, "parameters", "fields");
    }
    problems.extend(rule_problems);
    if problems.len() > before {
        return None;
    }
    ToolSchema::new(fields.into_iter().map(|(_, param)| param)).ok()
}

fn param_from_value(
    value: Value,
    location: &str,
    nested: &mut Vec<SemanticProblem>,
) -> Result<Param, Vec<Problem>> {
    let Value::Object(object) = value else {
        return Err(vec![Problem::InvalidKeyValue {
            key: "parameters",
            expected: "a list of objects, one per parameter",
        }]);
    };
    let mut problems = Vec::new();
    let mut name = None;
    let mut ty = None;
    let mut required = None;
    let mut default = None;
    let mut description = None;
    let mut items = None;
    let mut fields = None;
    let mut fields_failed = false;
    for (key, value) in object {
        match rules::check_param_key(&key) {
            Err(p) => problems.push(p),
            Ok("name") => match value {
                Value::String(s) => name = Some(s),
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "name",
                    expected: "a string",
                }),
            },
            Ok("type") => match value {
                Value::String(s) => match s.parse::<ParamType>() {
                    Ok(t) => ty = Some(t),
                    Err(p) => problems.push(p),
                },
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "type",
                    expected: "one of the strings string, integer, float, boolean, list, dictionary",
                }),
            },
            Ok("required") => match value {
                Value::Bool(b) => required = Some(b),
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "required",
                    expected: "true or false",
                }),
            },
            Ok("default") => default = Some(value),
            Ok("fields") => match fields_from_value(value, location, nested) {
                Some(schema) => fields = Some(schema),
                None => fields_failed = true,
            },
            Ok("items") => match value {
                Value::String(s) => match s.parse::<ParamType>() {
                    Ok(t) => items = Some(t),
                    Err(p) => problems.push(p),
                },
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "items",
                    expected: "one of the strings string, integer, float, boolean, list, dictionary",
                }),
            },
            Ok(_) => match value {
                Value::String(s) => description = Some(s),
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "description",
                    expected: "a string",
                }),
            },
        }
    }
    if name.is_none() {
        problems.push(Problem::MissingKey { key: "name" });
    }
    if ty.is_none()
        && !problems
            .iter()
            .any(|p| matches!(p, Problem::UnknownType { .. }))
    {
        problems.push(Problem::MissingKey { key: "type" });
    }
    match (name, ty) {
        (Some(name), Some(ty)) if problems.is_empty() && !fields_failed => {
            let mut param = if required.unwrap_or(true) {
                Param::required(name, ty)
            } else {
                Param::optional(name, ty)
            };
            if let Some(default) = default {
                param = param.with_default(Literal::from(default));
            }
            if let Some(description) = description {
                param = param.with_description(description);
            }
            if let Some(items) = items {
                param = param.with_items(items);
            }
            if let Some(fields) = fields {
                param = param.with_fields(fields);
            }
            Ok(param)
        }
        _ => Err(problems),
    }
}

pub(crate) fn schema_to_value(schema: &ToolSchema) -> Value {
    let parameters = schema
        .parameters()
        .iter()
        .map(|p| {
            let mut object = Map::new();
            object.insert("name".into(), Value::from(p.name()));
            object.insert("type".into(), Value::from(p.param_type().as_str()));
            object.insert("required".into(), Value::from(p.is_required()));
            if let Some(default) = p.default_value() {
                object.insert("default".into(), default.to_value());
            }
            if !p.description().is_empty() {
                object.insert("description".into(), Value::from(p.description()));
            }
            if let Some(items) = p.items() {
                object.insert("items".into(), Value::from(items.as_str()));
            }
            if let Some(fields) = p.fields() {
                if let Value::Object(mut nested) = schema_to_value(fields) {
                    if let Some(list) = nested.remove("parameters") {
                        object.insert("fields".into(), list);
                    }
                }
            }
            Value::Object(object)
        })
        .collect();
    let mut object = Map::new();
    object.insert("parameters".into(), Value::Array(parameters));
    Value::Object(object)
}
