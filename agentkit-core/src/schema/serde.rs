//! Loading and saving schemas in the Python original's `{"parameters": [...]}` shape.
//!
//! Loading is written by hand rather than derived: a derived `Deserialize` stops at the first
//! problem, and the Python original's discipline is to report every one.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::param::{Param, ToolSchema};
use super::semantic::{
    SemanticError, SemanticProblem, duplicate_problems, param_location, param_problems,
    partial_problems,
};
use crate::rules::Literal;
use crate::rules::{self, Constraints, Number, ParamType, Problem};

impl ToolSchema {
    /// Loads a schema from the Python original's `{"parameters": [...]}` shape, reporting every problem.
    pub fn from_value(value: Value) -> Result<Self, SemanticError> {
        schema_from_value(value)
    }

    /// Loads a schema from a JSON string in the Python original's shape.
    pub fn from_json(json: &str) -> Result<Self, SemanticError> {
        let value: Value = serde_json::from_str(json).map_err(|e| {
            SemanticError::new(vec![SemanticProblem::new(
                "schema".to_owned(),
                Problem::InvalidJson {
                    message: e.to_string(),
                },
            )])
        })?;
        Self::from_value(value)
    }

    /// Saves the schema in the Python original's `{"parameters": [...]}` shape.
    pub fn to_value(&self) -> Value {
        schema_to_value(self)
    }
}

impl Serialize for ToolSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ToolSchema {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        ToolSchema::from_value(value).map_err(D::Error::custom)
    }
}

pub(crate) fn schema_from_value(value: Value) -> Result<ToolSchema, SemanticError> {
    let mut problems = Vec::new();
    let params = params_from_value(value, "", &mut problems);
    if problems.is_empty() {
        ToolSchema::new(params)
    } else {
        Err(SemanticError::new(problems))
    }
}

/// Reads the parameter list, pushing every problem with locations under `prefix`; the
/// parameters are complete only when no problem was pushed.
pub(crate) fn params_from_value(
    value: Value,
    prefix: &str,
    problems: &mut Vec<SemanticProblem>,
) -> Vec<Param> {
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

/// Reads a list of parameter objects (a schema's `parameters`, or a parameter's `fields`),
/// pushing every problem: each parameter's, whether or not it could be read whole, then the
/// names written twice.
fn params_from_list(
    list: Vec<Value>,
    prefix: &str,
    what: &str,
    problems: &mut Vec<SemanticProblem>,
) -> Vec<Param> {
    let mut params = Vec::with_capacity(list.len());
    let mut names = Vec::with_capacity(list.len());
    for (index, item) in list.into_iter().enumerate() {
        let name_hint = item.get("name").and_then(Value::as_str).map(str::to_owned);
        let location = format!(
            "{prefix}{}",
            param_location(index, name_hint.as_deref()).replacen("parameters", what, 1)
        );
        let (param, found) = param_from_value(item, &location, problems);
        problems.extend(
            found
                .into_iter()
                .map(|p| SemanticProblem::new(location.clone(), p)),
        );
        params.extend(param);
        names.push(name_hint);
    }
    for mut problem in duplicate_problems(names.iter().filter_map(|name| name.as_deref())) {
        problem = problem.prefixed(prefix, "parameters", what);
        problems.push(problem);
    }
    params
}

/// Reads a `fields` list into a schema, reporting its problems under `location`; `None` when
/// it has any.
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
    let fields = params_from_list(list, &format!("{location} "), "fields", problems);
    if problems.len() > before {
        return None;
    }
    ToolSchema::new(fields).ok()
}

/// Reads one parameter object: the parameter, when it could be read whole and breaks no rule,
/// and every problem with it (structural ones, then those of the rules that could run on what
/// was read). Problems inside its `fields` go to `nested`, with their own locations.
fn param_from_value(
    value: Value,
    location: &str,
    nested: &mut Vec<SemanticProblem>,
) -> (Option<Param>, Vec<Problem>) {
    let Value::Object(object) = value else {
        return (
            None,
            vec![Problem::InvalidKeyValue {
                key: "parameters",
                expected: "a list of objects, one per parameter",
            }],
        );
    };
    let mut problems = Vec::new();
    let mut name = None;
    let mut ty = None;
    // `None` once a value could not be read, so that no rule runs on a guess.
    let mut required = Some(None);
    let mut default = None;
    let mut description = None;
    let mut items = Some(None);
    let mut fields = Some(None);
    // `None` once a constraint could not be read.
    let mut constraints = Some(Constraints::NONE);
    // The keys already reported (misspelt, or with a value that cannot be read): they are not
    // reported missing too, and no rule runs on a guess of their value.
    let mut reported = Vec::new();
    for (key, value) in object {
        match rules::check_param_key(&key) {
            Err(p) => {
                if let Problem::UnknownKey {
                    suggestion: Some(suggestion),
                    ..
                } = &p
                {
                    reported.push(*suggestion);
                }
                problems.push(p);
            }
            Ok("name") => match value {
                Value::String(s) => name = Some(s),
                _ => {
                    reported.push("name");
                    problems.push(Problem::InvalidKeyValue {
                        key: "name",
                        expected: "a string",
                    });
                }
            },
            Ok("type") => match value {
                Value::String(s) => match s.parse::<ParamType>() {
                    Ok(t) => ty = Some(t),
                    Err(p) => {
                        reported.push("type");
                        problems.push(p);
                    }
                },
                _ => {
                    reported.push("type");
                    problems.push(Problem::InvalidKeyValue {
                        key: "type",
                        expected: "one of the strings string, integer, float, boolean, list, dictionary",
                    });
                }
            },
            Ok("required") => match value {
                Value::Bool(b) => required = Some(Some(b)),
                _ => {
                    required = None;
                    problems.push(Problem::InvalidKeyValue {
                        key: "required",
                        expected: "true or false",
                    });
                }
            },
            Ok("default") => default = Some(Literal::from(value)),
            Ok("fields") => fields = fields_from_value(value, location, nested).map(Some),
            Ok("items") => match value {
                Value::String(s) => match s.parse::<ParamType>() {
                    Ok(t) => items = Some(Some(t)),
                    Err(p) => {
                        items = None;
                        problems.push(p);
                    }
                },
                _ => {
                    items = None;
                    problems.push(Problem::InvalidKeyValue {
                        key: "items",
                        expected: "one of the strings string, integer, float, boolean, list, dictionary",
                    });
                }
            },
            Ok(
                key @ ("enum" | "minimum" | "maximum" | "min_length" | "max_length" | "min_items"
                | "max_items"),
            ) => {
                // Once one could not be read, the others are still checked for their shape.
                let mut scratch = Constraints::NONE;
                let read =
                    read_constraint(constraints.as_mut().unwrap_or(&mut scratch), key, value);
                if let Err(problem) = read {
                    constraints = None;
                    problems.push(problem);
                }
            }
            Ok(_) => match value {
                Value::String(s) => description = Some(s),
                _ => problems.push(Problem::InvalidKeyValue {
                    key: "description",
                    expected: "a string",
                }),
            },
        }
    }
    if name.is_none() && !reported.contains(&"name") {
        problems.push(Problem::MissingKey { key: "name" });
    }
    if ty.is_none() && !reported.contains(&"type") {
        problems.push(Problem::MissingKey { key: "type" });
    }
    if reported.contains(&"required") && required == Some(None) {
        required = None;
    }
    let required = required.map(|r| r.unwrap_or(true));
    match (name, ty, required, items, fields, constraints) {
        (Some(name), Some(ty), Some(required), Some(items), Some(fields), Some(constraints))
            if problems.is_empty() =>
        {
            let mut param = if required {
                Param::required(name, ty)
            } else {
                Param::optional(name, ty)
            };
            if let Some(default) = default {
                param = param.with_default(default);
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
            param = with_constraints(param, constraints);
            let found = param_problems(&param);
            if found.is_empty() {
                (Some(param), found)
            } else {
                (None, found)
            }
        }
        (name, ty, required, items, fields, constraints) => {
            let found = partial_problems(
                name.as_deref(),
                ty,
                required,
                items,
                fields.as_ref().map(Option::as_ref),
                default.as_ref(),
                constraints.as_ref(),
            );
            problems.extend(found);
            (None, problems)
        }
    }
}

/// Reads the constraint `key` into `constraints`.
fn read_constraint(constraints: &mut Constraints, key: &str, value: Value) -> Result<(), Problem> {
    let number = |value: &Value| match value {
        Value::Number(n) => Some(match n.as_i64() {
            Some(i) => Number::Integer(i),
            None => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        }),
        _ => None,
    };
    let count = |value: &Value| value.as_u64().and_then(|n| usize::try_from(n).ok());
    let invalid =
        |key: &'static str, expected: &'static str| Err(Problem::InvalidKeyValue { key, expected });
    const COUNT: &str = "a whole number, 0 or more";
    match key {
        "enum" => match value {
            Value::Array(values) => {
                constraints.enum_values = Some(
                    values
                        .into_iter()
                        .map(Literal::from)
                        .collect::<Vec<_>>()
                        .into(),
                );
                Ok(())
            }
            _ => invalid("enum", "a list of the allowed values, strings or integers"),
        },
        "minimum" => match number(&value) {
            Some(n) => {
                constraints.minimum = Some(n);
                Ok(())
            }
            None => invalid("minimum", "a number"),
        },
        "maximum" => match number(&value) {
            Some(n) => {
                constraints.maximum = Some(n);
                Ok(())
            }
            None => invalid("maximum", "a number"),
        },
        "min_length" => count(&value).map_or_else(
            || invalid("min_length", COUNT),
            |n| {
                constraints.min_length = Some(n);
                Ok(())
            },
        ),
        "max_length" => count(&value).map_or_else(
            || invalid("max_length", COUNT),
            |n| {
                constraints.max_length = Some(n);
                Ok(())
            },
        ),
        "min_items" => count(&value).map_or_else(
            || invalid("min_items", COUNT),
            |n| {
                constraints.min_items = Some(n);
                Ok(())
            },
        ),
        _ => count(&value).map_or_else(
            || invalid("max_items", COUNT),
            |n| {
                constraints.max_items = Some(n);
                Ok(())
            },
        ),
    }
}

/// `param` with `constraints`, through the public builders.
fn with_constraints(mut param: Param, constraints: Constraints) -> Param {
    let Constraints {
        enum_values,
        minimum,
        maximum,
        min_length,
        max_length,
        min_items,
        max_items,
    } = constraints;
    if let Some(values) = enum_values {
        param = param.with_enum(values.into_owned());
    }
    if let Some(n) = minimum {
        param = param.with_minimum(n);
    }
    if let Some(n) = maximum {
        param = param.with_maximum(n);
    }
    if let Some(n) = min_length {
        param = param.with_min_length(n);
    }
    if let Some(n) = max_length {
        param = param.with_max_length(n);
    }
    if let Some(n) = min_items {
        param = param.with_min_items(n);
    }
    if let Some(n) = max_items {
        param = param.with_max_items(n);
    }
    param
}

fn number_value(n: Number) -> Value {
    n.to_literal().to_value()
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
            if let Some(fields) = p.fields()
                && let Value::Object(mut nested) = schema_to_value(fields)
                && let Some(list) = nested.remove("parameters")
            {
                object.insert("fields".into(), list);
            }
            if let Some(values) = p.enum_values() {
                let values = values.iter().map(Literal::to_value).collect();
                object.insert("enum".into(), Value::Array(values));
            }
            for (key, bound) in [("minimum", p.minimum()), ("maximum", p.maximum())] {
                if let Some(bound) = bound {
                    object.insert(key.into(), number_value(bound));
                }
            }
            for (key, count) in [
                ("min_length", p.min_length()),
                ("max_length", p.max_length()),
                ("min_items", p.min_items()),
                ("max_items", p.max_items()),
            ] {
                if let Some(count) = count {
                    object.insert(key.into(), Value::from(count));
                }
            }
            Value::Object(object)
        })
        .collect();
    let mut object = Map::new();
    object.insert("parameters".into(), Value::Array(parameters));
    Value::Object(object)
}
