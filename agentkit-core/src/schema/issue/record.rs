//! A [`ValidationIssue`] as a recording keeps it: its fields as JSON, read back into the same
//! issue (its message is derived, and written only for a reader).

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::{Detail, IssueKind, ValidationIssue};
use crate::rules::{Literal, Number, ParamType, ValueKind};

impl Serialize for ValidationIssue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("ValidationIssue", 6)?;
        s.serialize_field("kind", &self.kind)?;
        s.serialize_field("param", &self.param)?;
        s.serialize_field("expected", &self.expected.map(ParamType::as_str))?;
        s.serialize_field("got", &self.got.map(ValueKind::as_str))?;
        match &self.detail {
            Some(Detail::Suggestion(suggestion)) => {
                s.serialize_field("suggestion", suggestion)?;
            }
            Some(detail @ (Detail::Json(_) | Detail::JsonMessage(_))) => {
                s.serialize_field("parser_message", &detail.json_message())?;
            }
            Some(Detail::Enum { allowed, got }) => {
                s.serialize_field("allowed", allowed)?;
                s.serialize_field("value", got)?;
            }
            Some(Detail::Limit { limit, got }) => {
                s.serialize_field("limit", &limit.to_literal())?;
                s.serialize_field("measured", &got.to_literal())?;
            }
            Some(Detail::Schema { keyword, message }) => {
                s.serialize_field("keyword", keyword)?;
                s.serialize_field("detail", message)?;
            }
            None => s.skip_field("suggestion")?,
        }
        s.serialize_field("message", &self.to_string())?;
        s.end()
    }
}

/// Reads back what [`Serialize`] wrote (the `message` is derived, and ignored), so that a
/// recorded failure replays with the same issues.
impl<'de> Deserialize<'de> for ValidationIssue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Fields {
            kind: IssueKind,
            #[serde(default)]
            param: Option<String>,
            #[serde(default)]
            expected: Option<String>,
            #[serde(default)]
            got: Option<String>,
            #[serde(default)]
            suggestion: Option<String>,
            #[serde(default)]
            parser_message: Option<String>,
            #[serde(default)]
            allowed: Option<Vec<Value>>,
            #[serde(default)]
            value: Option<Value>,
            #[serde(default)]
            limit: Option<serde_json::Number>,
            #[serde(default)]
            measured: Option<serde_json::Number>,
            #[serde(default)]
            keyword: Option<String>,
            #[serde(default)]
            detail: Option<String>,
        }
        let fields = Fields::deserialize(deserializer)?;
        let expected = match fields.expected {
            None => None,
            Some(name) => Some(ParamType::from_name(&name).ok_or_else(|| {
                D::Error::custom(format_args!("unknown parameter type '{name}'"))
            })?),
        };
        let got = match fields.got {
            None => None,
            Some(name) => Some(
                value_kind_named(&name)
                    .ok_or_else(|| D::Error::custom(format_args!("unknown value kind '{name}'")))?,
            ),
        };
        let number = |n: serde_json::Number| match n.as_i64() {
            Some(i) => Number::Integer(i),
            None => Number::Float(n.as_f64().unwrap_or(f64::NAN)),
        };
        let schema = match (fields.keyword, fields.detail) {
            (Some(keyword), Some(message)) => Some(Detail::Schema {
                keyword: Cow::Owned(keyword),
                message: message.into_boxed_str(),
            }),
            _ => None,
        };
        let detail = match (fields.suggestion, fields.parser_message) {
            _ if schema.is_some() => schema,
            (Some(suggestion), _) => Some(Detail::Suggestion(Cow::Owned(suggestion))),
            (None, Some(message)) => Some(Detail::JsonMessage(message)),
            (None, None) => match (fields.allowed, fields.limit) {
                (Some(allowed), _) => Some(Detail::Enum {
                    allowed: Cow::Owned(allowed.into_iter().map(Literal::from).collect()),
                    got: fields.value.map_or(Literal::Null, Literal::from),
                }),
                (None, Some(limit)) => Some(Detail::Limit {
                    limit: number(limit),
                    got: fields.measured.map_or(Number::Integer(0), number),
                }),
                (None, None) => None,
            },
        };
        Ok(ValidationIssue {
            kind: fields.kind,
            param: fields.param.map(Cow::Owned),
            expected,
            got,
            detail,
        })
    }
}

fn value_kind_named(name: &str) -> Option<ValueKind> {
    [
        ValueKind::Null,
        ValueKind::Boolean,
        ValueKind::Integer,
        ValueKind::Float,
        ValueKind::String,
        ValueKind::List,
        ValueKind::Dictionary,
    ]
    .into_iter()
    .find(|kind| kind.as_str() == name)
}
