//! `type`, `enum` and `const`.

use serde_json::{Map, Value};

use super::{as_i128, equal, list, show, shown, type_name};
use crate::rules::ParamType;
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::compile::Compiler;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, Types};
use crate::schema::json::validate::{Cx, Loc};
use crate::schema::literal::value_kind;

pub(in crate::schema::json) fn compile(
    c: &mut Compiler<'_, '_>,
    map: &Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    let at = |k: &str| format!("{}/{k}", place.location);
    if let Some(ty) = map.get("type") {
        let mut types = Types(0);
        let mut ok = true;
        let mut one = |name: &Value| match name.as_str().and_then(Types::named) {
            Some(t) => types = types.with(t),
            None => ok = false,
        };
        match ty {
            Value::Array(names) => names.iter().for_each(&mut one),
            name => one(name),
        }
        if ok {
            // `number` includes `integer`.
            if types.contains(Types::NUMBER) {
                types = types.with(Types::INTEGER);
            }
            out.push(Keyword::Type(types));
        } else {
            let names: Vec<&str> = Types::NAMES.iter().map(|(n, _)| *n).collect();
            let found = ty.as_str().map_or_else(|| ty.to_string(), str::to_owned);
            let hint = ty
                .as_str()
                .and_then(|t| crate::rules::suggest(t, names.iter().copied()))
                .map(|s| format!("; did you mean '{s}'?"))
                .unwrap_or_default();
            c.problem(
                &at("type"),
                format!(
                    "`type` must be one of {} or a list of them, got '{found}'{hint}",
                    names.join(", ")
                ),
            );
        }
    }
    match map.get("enum") {
        None => {}
        Some(Value::Array(values)) => out.push(Keyword::Enum(values.clone().into_boxed_slice())),
        Some(_) => c.problem(&at("enum"), "`enum` must be an array"),
    }
    if let Some(value) = map.get("const") {
        out.push(Keyword::Const(value.clone()));
    }
}

/// Whether `value` is of one of `types`.
#[inline]
pub(in crate::schema::json) fn matches(types: Types, value: &Value) -> bool {
    let t = match value {
        Value::Null => Types::NULL,
        Value::Bool(_) => Types::BOOLEAN,
        // `number` takes every number; only `integer` alone asks whether it is one.
        Value::Number(_) if types.contains(Types::NUMBER) => Types::NUMBER,
        Value::Number(n) if n.is_i64() || n.is_u64() || whole_float(n) => Types::INTEGER,
        Value::Number(_) => Types::NUMBER,
        Value::String(_) => Types::STRING,
        Value::Array(_) => Types::ARRAY,
        Value::Object(_) => Types::OBJECT,
    };
    types.contains(t)
}

/// Whether a float is an integer (`2.0` is), out of line: inlined in a loop over a node's
/// keywords, its reading of the value is hoisted before the loop, where every value (an
/// object too) pays for it.
#[cold]
#[inline(never)]
fn whole_float(n: &serde_json::Number) -> bool {
    as_i128(n).is_some()
}

pub(in crate::schema::json) fn check_type(
    cx: &mut Cx<'_>,
    types: Types,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    if matches(types, value) {
        return true;
    }
    cx.report(|| {
        // The six types' own message where the schema names one of them by the same word.
        let single = match types {
            Types::STRING => Some(ParamType::String),
            Types::BOOLEAN => Some(ParamType::Boolean),
            t if t == Types::INTEGER => Some(ParamType::Integer),
            _ => None,
        };
        let got = type_name(value);
        match single {
            Some(expected) if got != "number" => {
                ValidationIssue::wrong_type_at(loc.name(), expected, value_kind(value))
            }
            _ => {
                // `number` stands for both; name it once.
                let names: Vec<&str> = types
                    .names()
                    .filter(|n| !(*n == "integer" && types.contains(Types::NUMBER)))
                    .collect();
                let expected = names.join("' or '");
                ValidationIssue::schema(
                    IssueKind::WrongType,
                    loc.name(),
                    "type",
                    Some(value_kind(value)),
                    format!("expected type '{expected}', got '{got}'"),
                )
            }
        }
    });
    false
}

pub(in crate::schema::json) fn check_enum(
    cx: &mut Cx<'_>,
    values: &[Value],
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    if values.iter().any(|v| equal(v, value)) {
        return true;
    }
    cx.report(|| {
        // One string, written in place.
        let mut message = String::with_capacity(96);
        message.push_str("expected one of ");
        list(&mut message, values.iter());
        message.push_str(", got ");
        show(&mut message, value);
        ValidationIssue::schema(
            IssueKind::NotInEnum,
            loc.name(),
            "enum",
            Some(value_kind(value)),
            message,
        )
    });
    false
}

pub(in crate::schema::json) fn check_const(
    cx: &mut Cx<'_>,
    expected: &Value,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    if equal(expected, value) {
        return true;
    }
    cx.report(|| {
        ValidationIssue::schema(
            IssueKind::NotInEnum,
            loc.name(),
            "const",
            Some(value_kind(value)),
            format!("expected {}, got {}", shown(expected), shown(value)),
        )
    });
    false
}
