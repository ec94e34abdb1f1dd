//! JSON written at compile time: the schema a literal declares, as text the generated code
//! hands to the validator. The macro cannot depend on `serde_json` (it would be built twice,
//! once for the host), and needs only to write.

use std::fmt::Write as _;

use crate::rules::Literal;

/// A JSON value, its object keys in the order written.
pub(crate) enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An empty object.
    pub(crate) fn object() -> Json {
        Json::Obj(Vec::new())
    }

    /// A string.
    pub(crate) fn str(s: &str) -> Json {
        Json::Str(s.to_owned())
    }

    /// Sets `key` on an object (replacing a value already there); nothing on another value.
    pub(crate) fn set(&mut self, key: &str, value: Json) {
        if let Json::Obj(entries) = self {
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some((_, slot)) => *slot = value,
                None => entries.push((key.to_owned(), value)),
            }
        }
    }

    /// The value of `key` on an object.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Obj(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A bound of the rules (`minimum`, `maximum`) as JSON.
    pub(crate) fn number(n: crate::rules::Number) -> Json {
        match n {
            crate::rules::Number::Integer(i) => Json::Int(i),
            crate::rules::Number::Float(f) => Json::Float(f),
        }
    }

    /// A count of the rules (`min_length`, ...) as JSON: any the rules take fits exactly.
    pub(crate) fn count(n: usize) -> Json {
        Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// A literal of the rules (a default, a `const`, an `enum` value) as JSON.
    pub(crate) fn literal(literal: &Literal) -> Json {
        match literal {
            Literal::Null => Json::Null,
            Literal::String(s) => Json::Str(s.to_string()),
            Literal::Integer(i) => Json::Int(*i),
            // Refused by the rules before anything is written; kept as a number all the same.
            #[allow(clippy::cast_precision_loss)]
            Literal::OutOfRange(i) => Json::Float(*i as f64),
            Literal::Float(f) => Json::Float(*f),
            Literal::Boolean(b) => Json::Bool(*b),
            Literal::List(items) => Json::Arr(items.iter().map(Json::literal).collect()),
            Literal::Dictionary(entries) => Json::Obj(
                entries
                    .iter()
                    .map(|(key, value)| (key.to_string(), Json::literal(value)))
                    .collect(),
            ),
        }
    }

    /// The value as JSON text.
    pub(crate) fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            // A float that is not finite has no JSON: the rules refuse it before this.
            Json::Float(f) if !f.is_finite() => out.push_str("null"),
            // `{:?}` keeps the fractional part (`5.0`), so the value reads back a float.
            Json::Float(f) => {
                let _ = write!(out, "{f:?}");
            }
            Json::Str(s) => string(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(entries) => {
                out.push('{');
                for (index, (key, value)) in entries.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    string(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// `s` as a JSON string, escaped as RFC 8259 says.
fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_json() {
        let value = Json::Obj(vec![
            (
                "a\"b".into(),
                Json::Arr(vec![Json::Int(-1), Json::Float(5.0)]),
            ),
            ("c".into(), Json::Str("line\n\u{1}".into())),
            ("d".into(), Json::Null),
            ("e".into(), Json::Bool(true)),
        ]);
        assert_eq!(
            value.to_text(),
            r#"{"a\"b":[-1,5.0],"c":"line\n\u0001","d":null,"e":true}"#
        );
    }
}
