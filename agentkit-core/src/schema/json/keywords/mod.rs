//! The keywords, one family a file: each compiles its keywords from a schema object and checks
//! them against a value. What they share: JSON Schema's equality of values, reading numbers
//! and counts from a schema, and the words for values in messages.

pub(super) mod arrays;
pub(super) mod composition;
pub(super) mod conditionals;
pub(super) mod numbers;
pub(super) mod objects;
pub(super) mod refs;
pub(super) mod strings;
pub(super) mod types;

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use serde_json::{Number, Value};

use super::compile::Compiler;
use super::index::Place;
use super::node::{Bound, Format, Keyword, Quick, Types};
use super::validate::Loc;
use crate::schema::issue::{IssueKind, ValidationIssue};

/// A keyword's verdict on `value` alone, without a message, for the keywords whose check is
/// a comparison or two; `None` for the others (their check reports as it goes).
#[inline]
pub(super) fn holds(keyword: &Keyword, value: &Value) -> Option<bool> {
    holds_inlined(keyword, value)
}

/// [`holds`], always inlined: for the full walk's loop over a node's keywords, where the
/// compiler leaves it a call (one per keyword of every node).
#[inline(always)]
pub(super) fn holds_inlined(keyword: &Keyword, value: &Value) -> Option<bool> {
    // The keyword first, then the value: one jump each.
    Some(match keyword {
        Keyword::Type(t) => types::matches(*t, value),
        Keyword::Enum(values) => match value {
            Value::String(s) => values
                .iter()
                .any(|v| matches!(v, Value::String(t) if same_text(t, s))),
            _ => values.iter().any(|v| equal(v, value)),
        },
        Keyword::Const(expected) => match (expected, value) {
            (Value::String(t), Value::String(s)) => same_text(t, s),
            _ => equal(expected, value),
        },
        Keyword::Minimum(_)
        | Keyword::Maximum(_)
        | Keyword::ExclusiveMinimum(_)
        | Keyword::ExclusiveMaximum(_)
        | Keyword::MultipleOf(_) => match value {
            Value::Number(n) => numbers::holds(keyword, n),
            _ => true,
        },
        Keyword::MinLength(n) => match value {
            Value::String(s) => strings::long_enough(s, *n),
            _ => true,
        },
        Keyword::MaxLength(n) => match value {
            Value::String(s) => strings::short_enough(s, *n),
            _ => true,
        },
        Keyword::Pattern(p) => match value {
            Value::String(s) => p.regex.is_match(s),
            _ => true,
        },
        Keyword::Format(Format::Known(_, check)) => match value {
            Value::String(s) => check(s),
            _ => true,
        },
        Keyword::MinItems(n) => match value {
            Value::Array(items) => items.len() as u64 >= *n,
            _ => true,
        },
        Keyword::MaxItems(n) => match value {
            Value::Array(items) => items.len() as u64 <= *n,
            _ => true,
        },
        _ => return None,
    })
}

/// Whether [`holds`] gives `keyword`'s verdict.
pub(super) fn holds_alone(keyword: &Keyword) -> bool {
    matches!(
        keyword,
        Keyword::Type(_)
            | Keyword::Enum(_)
            | Keyword::Const(_)
            | Keyword::Minimum(_)
            | Keyword::Maximum(_)
            | Keyword::ExclusiveMinimum(_)
            | Keyword::ExclusiveMaximum(_)
            | Keyword::MultipleOf(_)
            | Keyword::MinLength(_)
            | Keyword::MaxLength(_)
            | Keyword::Pattern(_)
            | Keyword::Format(Format::Known(..))
            | Keyword::MinItems(_)
            | Keyword::MaxItems(_)
    )
}

/// Whether two texts are the same, for the short ones schemas compare (property names, tags,
/// `enum` values): compared in a few loads, not by a call to `memcmp`.
#[inline]
pub(super) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Two loads each, overlapping when the text is shorter than both.
    let word = |s: &[u8], at: usize| u64::from_le_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], at: usize| u32::from_le_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// The verdict of a leaf node's keywords through its [`Quick`] test.
#[inline]
pub(super) fn quick_holds(quick: &Quick, keywords: &[Keyword], value: &Value) -> bool {
    let ok = match value {
        Value::String(s) => {
            quick.types.contains(Types::STRING)
                && quick.min_len.is_none_or(|n| strings::long_enough(s, n))
                && quick.max_len.is_none_or(|n| strings::short_enough(s, n))
                && quick.format.is_none_or(|check| check(s))
                && quick.pattern.is_none_or(
                    |i| matches!(&keywords[i], Keyword::Pattern(p) if p.regex.is_match(s)),
                )
        }
        Value::Number(n) => {
            types::matches(quick.types, value)
                && quick.lower.is_none_or(|(b, exclusive)| {
                    let order = numbers::compare(n, b);
                    order == Ordering::Greater || (!exclusive && order == Ordering::Equal)
                })
                && quick.upper.is_none_or(|(b, exclusive)| {
                    let order = numbers::compare(n, b);
                    order == Ordering::Less || (!exclusive && order == Ordering::Equal)
                })
        }
        _ => types::matches(quick.types, value),
    };
    ok && quick
        .values
        .is_none_or(|i| value_holds(&keywords[i], value))
}

/// The verdict of an `enum` or a `const` (through [`Quick`]).
#[inline]
fn value_holds(keyword: &Keyword, value: &Value) -> bool {
    match (keyword, value) {
        (Keyword::Enum(values), Value::String(s)) => values
            .iter()
            .any(|v| matches!(v, Value::String(t) if same_text(t, s))),
        (Keyword::Const(Value::String(t)), Value::String(s)) => same_text(t, s),
        (keyword, value) => holds(keyword, value) == Some(true),
    }
}

/// A message made in one allocation: `format!` sizes its string from the literal text alone
/// (nothing, when the text starts with a value) and grows it piece by piece.
pub(super) fn message(args: std::fmt::Arguments<'_>) -> String {
    let mut out = String::with_capacity(64);
    let _ = out.write_fmt(args);
    out
}

/// JSON Schema's equality: numbers by value (`1` is `1.0`), objects regardless of order.
pub(super) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number_equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

fn number_equal(x: &Number, y: &Number) -> bool {
    match (as_i128(x), as_i128(y)) {
        (Some(a), Some(b)) => a == b,
        _ => x.as_f64() == y.as_f64(),
    }
}

/// A number as an integer, when it is one exactly (`2.0` is).
pub(super) fn as_i128(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    // Beyond 2^53 a float is not exact, but it is still the integer it says.
    (f.fract() == 0.0 && f.abs() < 1e38).then_some(f as i128)
}

/// A hash agreeing with [`equal`].
pub(super) fn hash(value: &Value, state: &mut impl Hasher) {
    match value {
        Value::Null => 0u8.hash(state),
        Value::Bool(b) => (1u8, b).hash(state),
        Value::Number(n) => match as_i128(n) {
            Some(i) => (2u8, i).hash(state),
            None => (3u8, n.as_f64().unwrap_or(0.0).to_bits()).hash(state),
        },
        Value::String(s) => (4u8, s).hash(state),
        Value::Array(items) => {
            (5u8, items.len()).hash(state);
            for item in items {
                hash(item, state);
            }
        }
        Value::Object(map) => {
            // Order-independent: the sum of the entries' own hashes.
            let mut sum = 0u64;
            for (k, v) in map {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                k.hash(&mut h);
                hash(v, &mut h);
                sum = sum.wrapping_add(h.finish());
            }
            (6u8, map.len(), sum).hash(state);
        }
    }
}

/// JSON Schema's name for the type of `value` (`integer` for `2.0`).
pub(super) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if as_i128(n).is_some() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// How many characters of a value a message shows.
const SHOWN_CHARS: usize = 60;

/// A value in a message: a string in quotes, anything else as compact JSON; cut at
/// [`SHOWN_CHARS`] (the message is escaped when it is displayed).
pub(super) fn shown(value: &Value) -> String {
    let mut out = String::new();
    show(&mut out, value);
    out
}

/// [`shown`], written at the end of `out`.
pub(super) fn show(out: &mut String, value: &Value) {
    let (text, quoted) = match value {
        Value::String(s) => (Cow::Borrowed(s.as_str()), true),
        other => (Cow::Owned(compact(other)), false),
    };
    if quoted {
        out.push('\'');
    }
    // Most values are shorter than the cut: copied whole.
    if text.len() <= SHOWN_CHARS {
        out.push_str(&text);
    } else {
        let mut chars = text.chars();
        out.extend(chars.by_ref().take(SHOWN_CHARS));
        if chars.next().is_some() {
            out.push('…');
        }
    }
    if quoted {
        out.push('\'');
    }
}

/// Compact JSON of a value, at most a few hundred bytes of it: a value can be as large as the
/// arguments, and a message shows only its start.
fn compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact(&mut out, value, 4 * SHOWN_CHARS);
    out
}

fn write_compact(out: &mut String, value: &Value, budget: usize) {
    if out.len() > budget {
        return;
    }
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > budget {
                    out.push('…');
                    break;
                }
                write_compact(out, item, budget);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > budget {
                    out.push('…');
                    break;
                }
                let _ = write!(out, "{}:", Value::String(k.clone()));
                write_compact(out, v, budget);
            }
            out.push('}');
        }
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// A number of a schema as a bound.
pub(super) fn bound(value: &Value) -> Option<Bound> {
    let Value::Number(n) = value else {
        return None;
    };
    Some(match as_i128(n) {
        Some(i) => Bound::Int(i),
        None => Bound::Float(n.as_f64()?),
    })
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Int(i) => write!(f, "{i}"),
            Bound::Float(x) => write!(f, "{x}"),
        }
    }
}

/// A count keyword's value (`minLength`, `maxItems`, ...): a non-negative integer, `2.0`
/// included.
pub(super) fn count(
    c: &mut Compiler<'_, '_>,
    map: &serde_json::Map<String, Value>,
    place: &Place,
    keyword: &str,
) -> Option<u64> {
    let value = map.get(keyword)?;
    let n = match value {
        Value::Number(n) => as_i128(n).and_then(|i| u64::try_from(i).ok()),
        _ => None,
    };
    if n.is_none() {
        c.problem(
            &format!("{}/{keyword}", place.location),
            format!("`{keyword}` must be a non-negative integer"),
        );
    }
    n
}

/// A value the schema refuses outright (the `false` schema).
pub(super) fn not_allowed(loc: Loc<'_>) -> ValidationIssue {
    ValidationIssue::schema(
        IssueKind::NotAllowed,
        loc.name(),
        "false",
        None,
        "is not allowed here".to_owned(),
    )
}

/// The first values of a list for a message: `'a', 'b', ... (8 more)`.
pub(super) fn listed<'v>(values: impl ExactSizeIterator<Item = &'v Value>) -> String {
    let mut out = String::new();
    list(&mut out, values);
    out
}

/// [`listed`], written at the end of `out`.
pub(super) fn list<'v>(out: &mut String, values: impl ExactSizeIterator<Item = &'v Value>) {
    const LISTED: usize = 10;
    let total = values.len();
    for (i, value) in values.take(LISTED).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        show(out, value);
    }
    if total > LISTED {
        let _ = write!(out, ", ... ({} more)", total - LISTED);
    }
}
