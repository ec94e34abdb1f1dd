//! JSON values as a schema sees them: the object arguments arrive as ([`JsonObject`]), the
//! kind of a value as messages name it, and the conversions of a [`Literal`] default to and
//! from JSON.

use std::borrow::Cow;

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::rules::{Literal, ValueKind};

/// A JSON object: what a tool receives as inputs and returns as output.
pub type JsonObject = Map<String, Value>;

/// The kind of a JSON value.
pub(crate) fn value_kind(value: &Value) -> ValueKind {
    match value {
        Value::Null => ValueKind::Null,
        Value::Bool(_) => ValueKind::Boolean,
        Value::Number(n) if n.is_i64() || n.is_u64() => ValueKind::Integer,
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.is_finite() {
                ValueKind::Integer
            } else {
                ValueKind::Float
            }
        }
        Value::String(_) => ValueKind::String,
        Value::Array(_) => ValueKind::List,
        Value::Object(_) => ValueKind::Dictionary,
    }
}

impl Literal {
    /// Converts to a [`serde_json::Value`].
    pub fn to_value(&self) -> Value {
        match self {
            Literal::Null => Value::Null,
            Literal::Boolean(b) => Value::Bool(*b),
            Literal::Integer(i) => Value::from(*i),
            // A non-finite float has no JSON form; a schema refuses a default holding one, so
            // `null` is never filled in.
            Literal::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            // Likewise refused by a schema; converted as closely as JSON allows.
            #[allow(clippy::cast_precision_loss)]
            Literal::OutOfRange(i) => u64::try_from(*i).map_or_else(
                |_| serde_json::Number::from_f64(*i as f64).map_or(Value::Null, Value::Number),
                Value::from,
            ),
            Literal::String(s) => Value::String(s.as_ref().to_owned()),
            Literal::List(items) => Value::Array(items.iter().map(Literal::to_value).collect()),
            Literal::Dictionary(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.as_ref().to_owned(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

impl From<Value> for Literal {
    fn from(value: Value) -> Self {
        match value {
            Value::Null => Literal::Null,
            Value::Bool(b) => Literal::Boolean(b),
            // Exactly the number: `2.0` stays a float (a schema makes it an integer where one
            // is declared, as validation does), and an integer beyond `i64` is kept as such so
            // that a schema can refuse it instead of rounding it to a float.
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => Literal::Integer(i),
                (None, Some(u)) => Literal::OutOfRange(i128::from(u)),
                (None, None) => Literal::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Literal::String(Cow::Owned(s)),
            Value::Array(items) => {
                Literal::List(Cow::Owned(items.into_iter().map(Literal::from).collect()))
            }
            Value::Object(map) => Literal::Dictionary(Cow::Owned(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Literal::from(v)))
                    .collect(),
            )),
        }
    }
}

impl From<&'static str> for Literal {
    fn from(s: &'static str) -> Self {
        Literal::String(Cow::Borrowed(s))
    }
}

impl From<String> for Literal {
    fn from(s: String) -> Self {
        Literal::String(Cow::Owned(s))
    }
}

impl From<i64> for Literal {
    fn from(i: i64) -> Self {
        Literal::Integer(i)
    }
}

impl From<f64> for Literal {
    fn from(f: f64) -> Self {
        Literal::Float(f)
    }
}

impl From<bool> for Literal {
    fn from(b: bool) -> Self {
        Literal::Boolean(b)
    }
}

impl Serialize for Literal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}
