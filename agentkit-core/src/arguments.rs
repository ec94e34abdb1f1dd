//! Parsing a model's argument text: JSON, an object, and no key given twice.
//!
//! `serde_json::from_str::<Value>` keeps the last of two equal keys, so `{"q": 5, "q": "a"}`
//! would reach validation as `{"q": "a"}`: the model said two things and one was silently
//! dropped. This parser builds the same `Value` in one pass, and reports every repeated key
//! (at any depth) as an input issue instead.
//!
//! It also keeps one number outside the 64-bit range that serde_json would bring inside it.
//! An integer too large for 64 bits is read as the nearest double, and those just below
//! `i64::MIN` (`-9223372036854775809` down to `-9223372036854776832`) round to exactly
//! `-2^63`, which is `i64::MIN`. Here they are read as the next double below it, so that an
//! `integer` parameter refuses them as out of range, as it refuses every other integer
//! outside the 64-bit range, while `-2^63` spelt as a float (`-9.223372036854775808e18`) is
//! `i64::MIN`, as a JSON Schema validator has it. Only a text with a `-2^63` in it pays for
//! telling the two apart: a second look at its number literals.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::schema::{Issues, JsonObject, Param, ValidationIssue};

/// Parses the argument text of a call into an object, and the issues of its repeated keys
/// (at most `max_issues` kept, the rest counted), which validation then adds to: a model that
/// repeated a key and also mistyped another hears of both at once.
///
/// An empty (or blank) text is `{}`: some providers send one for tools without parameters.
/// Invalid JSON and a value that is not an object are the only issue.
pub(crate) fn parse_arguments(
    text: &str,
    max_issues: usize,
) -> Result<(JsonObject, Issues), Issues> {
    if is_blank(text) {
        return Ok((JsonObject::new(), Issues::with_cap(max_issues)));
    }
    let mut state = Parse::new(max_issues, &[]);
    let mut parsed = parse_value(text, &state);
    let below_min;
    if state.numbers.ambiguous.get() {
        below_min = integers_below_min(text);
        if !below_min.is_empty() {
            state = Parse::new(max_issues, &below_min);
            parsed = parse_value(text, &state);
        }
    }
    let duplicates = state.duplicates;
    let value = match parsed {
        Ok(value) => value,
        Err(error) => {
            let mut issues = Issues::with_cap(max_issues);
            issues.push(|| ValidationIssue::invalid_json(error));
            return Err(issues);
        }
    };
    match value {
        Value::Object(object) => Ok((object, duplicates.into_inner())),
        other => {
            let mut issues = duplicates.into_inner();
            issues.push(|| ValidationIssue::not_an_object(&other));
            Err(issues)
        }
    }
}

/// The single-pass parse: each argument of `text` into the slot of its parameter (in
/// the order of `params`), with no object built around them. `false` when anything would
/// make the full path report an issue or behave otherwise: invalid JSON, not an object, a key
/// given twice (at any depth), or a key that is not a parameter. The full path then parses
/// the text again and reports every issue in its words.
pub(crate) fn parse_into_slots(text: &str, params: &[Param], slots: &mut [Option<Value>]) -> bool {
    if is_blank(text) {
        return true;
    }
    let state = Parse::new(1, &[]);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let seed = SlotsSeed {
        params,
        slots,
        state: &state,
    };
    let parsed = deserializer
        .deserialize_map(seed)
        .and_then(|()| deserializer.end());
    // A `-2^63` may be an integer literal below `i64::MIN`: the full path tells them apart.
    parsed.is_ok() && state.duplicates.borrow().is_empty() && !state.numbers.ambiguous.get()
}

/// What one parse shares across its values: the issues of repeated keys, and its numbers.
struct Parse<'b> {
    duplicates: RefCell<Issues>,
    numbers: Numbers<'b>,
}

impl<'b> Parse<'b> {
    fn new(max_issues: usize, below_min: &'b [usize]) -> Self {
        Parse {
            duplicates: RefCell::new(Issues::with_cap(max_issues)),
            numbers: Numbers {
                seen: Cell::new(0),
                ambiguous: Cell::new(false),
                below_min,
            },
        }
    }
}

/// The number literals of one parse, counted in document order.
struct Numbers<'b> {
    seen: Cell<usize>,
    /// Whether a `-2^63` was read from a literal not known to be an integer below `i64::MIN`.
    ambiguous: Cell<bool>,
    /// The ordinals of the literals that are integers below `i64::MIN` (see the module docs).
    below_min: &'b [usize],
}

/// `-2^63`, which is `i64::MIN`, as a double.
#[allow(clippy::cast_precision_loss)]
const MIN_F64: f64 = i64::MIN as f64;

/// The double next below `-2^63`: what an integer literal just below `i64::MIN` is read as.
const BELOW_MIN_F64: f64 = -9_223_372_036_854_777_856.0;

impl Numbers<'_> {
    /// Counts one literal; returns its ordinal.
    fn next(&self) -> usize {
        let ordinal = self.seen.get();
        self.seen.set(ordinal + 1);
        ordinal
    }

    /// The double a literal read as `value` stands for.
    #[allow(clippy::float_cmp)]
    fn double(&self, value: f64) -> f64 {
        let ordinal = self.next();
        if value != MIN_F64 {
            return value;
        }
        if self.below_min.contains(&ordinal) {
            BELOW_MIN_F64
        } else {
            self.ambiguous.set(true);
            value
        }
    }
}

/// Parses `text` to one value, with `state`.
fn parse_value(text: &str, state: &Parse<'_>) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    ValueSeed {
        at: At::Root,
        state,
    }
    .deserialize(&mut deserializer)
    .and_then(|value| deserializer.end().map(|()| value))
}

/// The ordinals (in document order, among all number literals) of the integer literals in
/// `text` below `i64::MIN`: a `-`, then digits only, of a magnitude above 2^63. `text` is
/// JSON that parsed: its strings are skipped, escapes included.
fn integers_below_min(text: &str) -> Vec<usize> {
    const MIN_DIGITS: &[u8] = b"9223372036854775808";
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut ordinal) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < bytes.len()
                    && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                let literal = &bytes[start..i];
                if let Some(digits) = literal.strip_prefix(b"-") {
                    let integer = digits.iter().all(u8::is_ascii_digit);
                    let above = digits.len() > MIN_DIGITS.len()
                        || (digits.len() == MIN_DIGITS.len() && digits > MIN_DIGITS);
                    if integer && above {
                        found.push(ordinal);
                    }
                }
                ordinal += 1;
            }
            _ => i += 1,
        }
    }
    found
}

/// Whether `text` is empty or whitespace only, as `str::trim` sees it. Arguments are nearly
/// always an object, decided by their first byte without the scan for Unicode whitespace.
fn is_blank(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'{') => false,
        _ => text.trim().is_empty(),
    }
}

/// The root object of the single pass, read into slots.
struct SlotsSeed<'s, 'd> {
    params: &'s [Param],
    slots: &'s mut [Option<Value>],
    state: &'d Parse<'d>,
}

impl<'de> Visitor<'de> for SlotsSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<(), A::Error> {
        use serde::de::Error as _;
        while let Some(key) = access.next_key_seed(KeySeed(self.params))? {
            // Not a parameter: the full path decides, by the executor's policy.
            let Some(index) = key else {
                return Err(A::Error::custom("undeclared argument"));
            };
            if self.slots[index].is_some() {
                return Err(A::Error::custom("repeated argument"));
            }
            let value = access.next_value_seed(ValueSeed {
                at: At::Root,
                state: self.state,
            })?;
            self.slots[index] = Some(value);
        }
        Ok(())
    }
}

/// A key of the root object, as the index of its parameter; read without a copy of it.
struct KeySeed<'p>(&'p [Param]);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E>(self, key: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|param| param.name() == key))
    }
}

/// Where a value sits in the document, for naming a repeated key; rendered only then.
#[derive(Clone, Copy)]
enum At<'a> {
    Root,
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            At::Root => Ok(()),
            At::Key(At::Root, key) => f.write_str(key),
            At::Key(parent, key) => write!(f, "{parent}.{key}"),
            At::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

struct ValueSeed<'a, 'd> {
    at: At<'a>,
    state: &'d Parse<'d>,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        self.state.numbers.next();
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        self.state.numbers.next();
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        let v = self.state.numbers.double(v);
        // As serde_json's own `Value` does; JSON text has no NaN or infinity to give here.
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            let seed = ValueSeed {
                at: At::Index(&self.at, items.len()),
                state: self.state,
            };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(ValueSeed {
                at: At::Key(&self.at, &key),
                state: self.state,
            })?;
            match map.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                Entry::Occupied(mut entry) => {
                    let at = At::Key(&self.at, entry.key());
                    self.state
                        .duplicates
                        .borrow_mut()
                        .push(|| ValidationIssue::duplicate_key(&at.to_string()));
                    entry.insert(value);
                }
            }
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::IssueKind;

    #[test]
    fn blank_is_what_trim_empties() {
        for text in ["", " ", "\n\t ", "\u{2003}", "\u{feff}"] {
            assert_eq!(is_blank(text), text.trim().is_empty(), "{text:?}");
        }
        for text in ["{}", " {}", "{", "[]", "\u{2003}{}", "x"] {
            assert!(!is_blank(text), "{text:?}");
        }
        // Both parses take a blank text for `{}`.
        assert!(parse_arguments(" \u{2003}\n", 20).unwrap().0.is_empty());
        assert!(parse_into_slots(" \u{2003}\n", &[], &mut []));
    }

    fn issues(text: &str) -> Vec<String> {
        parse_arguments(text, 20)
            .unwrap()
            .1
            .into_list()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn objects_parse_like_serde_json() {
        for text in [
            r#"{"a":1,"b":[1,2.5,"x",null,true],"c":{"d":-3,"e":18446744073709551615}}"#,
            r#"{"deep":[[[{"x":[{}]}]]]}"#,
            "{}",
        ] {
            let (ours, repeated) = parse_arguments(text, 20).unwrap();
            assert!(repeated.is_empty());
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(Value::Object(ours), theirs, "{text}");
        }
        assert!(parse_arguments(" \n", 20).unwrap().0.is_empty());
    }

    #[test]
    fn repeated_keys_are_issues_at_any_depth() {
        assert_eq!(
            issues(r#"{"q": 5, "q": "a"}"#),
            ["Duplicate key: 'q'; each key may appear only once"]
        );
        assert_eq!(
            issues(r#"{"a": [{"b": 1, "b": 2}], "c": {"d": {"e": 1, "e": 1}}}"#),
            [
                "Duplicate key: 'a[0].b'; each key may appear only once",
                "Duplicate key: 'c.d.e'; each key may appear only once"
            ]
        );
    }

    #[test]
    fn other_text_is_an_issue() {
        let kinds = |text: &str| -> Vec<IssueKind> {
            parse_arguments(text, 20)
                .unwrap_err()
                .into_list()
                .iter()
                .map(ValidationIssue::kind)
                .collect()
        };
        assert_eq!(kinds("[1]"), [IssueKind::NotAnObject]);
        assert_eq!(kinds("{\"a\":"), [IssueKind::InvalidJson]);
        assert_eq!(kinds("{} x"), [IssueKind::InvalidJson]);
        assert_eq!(kinds(&"[".repeat(10_000)), [IssueKind::InvalidJson]);
        assert_eq!(kinds(r#"{"n": 1e400}"#), [IssueKind::InvalidJson]);
    }

    #[test]
    fn an_integer_below_i64_min_stays_below_it() {
        let n = |text: &str| parse_arguments(text, 20).unwrap().0["n"].as_f64();
        // Integer literals that round to -2^63 are read as the next double below it.
        for text in [
            r#"{"n": -9223372036854775809}"#,
            r#"{"n": -9223372036854776832}"#,
            r#"{"s": "x", "n": -9223372036854775809}"#,
        ] {
            assert_eq!(n(text), Some(BELOW_MIN_F64), "{text}");
        }
        // -2^63 spelt as a float is -2^63; as an integer, i64::MIN itself.
        for text in [
            r#"{"n": -9.223372036854775808e18}"#,
            r#"{"n": -9223372036854775808.0}"#,
            r#"{"n": -9.223372036854776e18}"#,
        ] {
            assert_eq!(n(text), Some(MIN_F64), "{text}");
        }
        let (object, _) = parse_arguments(r#"{"n": -9223372036854775808}"#, 20).unwrap();
        assert_eq!(object["n"].as_i64(), Some(i64::MIN));
        // Told apart literal by literal, at any depth; strings are not numbers.
        let (object, _) = parse_arguments(
            r#"{"s": "-9223372036854775809 \" -9223372036854775809", "l": [1, -9.2233720368547758e18, {"m": -9223372036854775809}]}"#,
            20,
        )
        .unwrap();
        assert_eq!(object["l"][1].as_f64(), Some(MIN_F64));
        assert_eq!(object["l"][2]["m"].as_f64(), Some(BELOW_MIN_F64));
        // The single pass leaves a -2^63 to the full path, which tells the two apart.
        let params = [Param::required("n", crate::rules::ParamType::Float)];
        let mut slots = [None];
        assert!(!parse_into_slots(
            r#"{"n": -9.223372036854775808e18}"#,
            &params,
            &mut slots
        ));
        assert!(parse_into_slots(r#"{"n": -9.2e18}"#, &params, &mut [None]));
    }

    #[test]
    fn literals_below_i64_min_are_found_outside_strings() {
        assert_eq!(
            integers_below_min(
                r#"[-9223372036854775808, -9223372036854775809, 1e3, "-99999999999999999999", -10000000000000000000, -9.3e18, -99999999999999999999.0]"#
            ),
            [1, 3]
        );
        assert_eq!(integers_below_min(r#"{"a\"b": -9223372036854775809}"#), [0]);
    }

    #[test]
    fn repeated_keys_are_capped() {
        let text = format!(
            "{{{}}}",
            (0..100).map(|_| r#""k":1"#).collect::<Vec<_>>().join(",")
        );
        let (_, issues) = parse_arguments(&text, 5).unwrap();
        assert_eq!(issues.list().len(), 5);
        assert_eq!(issues.omitted(), 94);
    }
}
