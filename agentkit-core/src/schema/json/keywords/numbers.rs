//! `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::{as_i128, bound};
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::compile::Compiler;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Bound, Keyword};
use crate::schema::json::validate::{Cx, Loc};
use crate::schema::literal::value_kind;

pub(in crate::schema::json) fn compile(
    c: &mut Compiler<'_, '_>,
    map: &Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    type Make = fn(Bound) -> Keyword;
    let keywords: [(&str, Make); 5] = [
        ("minimum", Keyword::Minimum),
        ("maximum", Keyword::Maximum),
        ("exclusiveMinimum", Keyword::ExclusiveMinimum),
        ("exclusiveMaximum", Keyword::ExclusiveMaximum),
        ("multipleOf", Keyword::MultipleOf),
    ];
    for (keyword, make) in keywords {
        let Some(value) = map.get(keyword) else {
            continue;
        };
        match bound(value) {
            Some(Bound::Int(i)) if keyword == "multipleOf" && i <= 0 => c.problem(
                &format!("{}/{keyword}", place.location),
                "`multipleOf` must be greater than 0",
            ),
            Some(Bound::Float(f)) if keyword == "multipleOf" && f <= 0.0 => c.problem(
                &format!("{}/{keyword}", place.location),
                "`multipleOf` must be greater than 0",
            ),
            Some(b) => out.push(make(b)),
            // Draft 4's boolean `exclusiveMinimum` beside `minimum`: read as draft 4 meant.
            None if value.is_boolean() && keyword.starts_with("exclusive") => {
                let base = if keyword == "exclusiveMinimum" {
                    "minimum"
                } else {
                    "maximum"
                };
                if let (Some(true), Some(b)) = (value.as_bool(), map.get(base).and_then(bound)) {
                    out.push(if base == "minimum" {
                        Keyword::ExclusiveMinimum(b)
                    } else {
                        Keyword::ExclusiveMaximum(b)
                    });
                }
            }
            None => c.problem(
                &format!("{}/{keyword}", place.location),
                format!("`{keyword}` must be a number"),
            ),
        }
    }
}

/// A bound as a float (through `i64` where it fits: converting an `i128` is a call, not an
/// instruction).
fn as_float(bound: Bound) -> f64 {
    match bound {
        Bound::Int(i) => match i64::try_from(i) {
            Ok(i) => i as f64,
            Err(_) => i as f64,
        },
        Bound::Float(f) => f,
    }
}

/// How `n` compares to `bound`, exactly for integers.
#[inline]
pub(in crate::schema::json) fn compare(n: &Number, bound: Bound) -> Ordering {
    let int = n
        .as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from));
    match (int, bound) {
        (Some(a), Bound::Int(b)) => a.cmp(&b),
        (Some(a), Bound::Float(b)) => (a as f64).partial_cmp(&b).unwrap_or(Ordering::Equal),
        (None, bound) => {
            let a = n.as_f64().unwrap_or(f64::NAN);
            a.partial_cmp(&as_float(bound)).unwrap_or(Ordering::Equal)
        }
    }
}

fn is_multiple(n: &Number, of: Bound) -> bool {
    if let (Some(a), Bound::Int(b)) = (as_i128(n), of) {
        return b != 0 && a % b == 0;
    }
    let a = n.as_f64().unwrap_or(f64::NAN);
    let b = as_float(of);
    let quotient = a / b;
    if quotient.is_infinite() {
        // Too large to divide in floats: an integer is a multiple of any 1/k.
        return a.fract() == 0.0 && (1.0 / b).fract() == 0.0;
    }
    // Decimal fractions are not exact in binary (0.0075 / 0.0001 = 74.99999999999999).
    (quotient - quotient.round()).abs() <= 1e-9 * quotient.abs().max(1.0)
}

/// The verdict of a number keyword on `n`, without a message.
#[inline]
pub(in crate::schema::json) fn holds(keyword: &Keyword, n: &Number) -> bool {
    match *keyword {
        Keyword::Minimum(b) => compare(n, b) != Ordering::Less,
        Keyword::Maximum(b) => compare(n, b) != Ordering::Greater,
        Keyword::ExclusiveMinimum(b) => compare(n, b) == Ordering::Greater,
        Keyword::ExclusiveMaximum(b) => compare(n, b) == Ordering::Less,
        Keyword::MultipleOf(b) => is_multiple(n, b),
        _ => true,
    }
}

pub(in crate::schema::json) fn check(
    cx: &mut Cx<'_>,
    keyword: &Keyword,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Number(n) = value else {
        return true;
    };
    let (ok, kind, name, words, limit) = match *keyword {
        Keyword::Minimum(b) => (
            compare(n, b) != Ordering::Less,
            IssueKind::BelowMinimum,
            "minimum",
            "must be at least",
            b,
        ),
        Keyword::Maximum(b) => (
            compare(n, b) != Ordering::Greater,
            IssueKind::AboveMaximum,
            "maximum",
            "must be at most",
            b,
        ),
        Keyword::ExclusiveMinimum(b) => (
            compare(n, b) == Ordering::Greater,
            IssueKind::BelowMinimum,
            "exclusiveMinimum",
            "must be greater than",
            b,
        ),
        Keyword::ExclusiveMaximum(b) => (
            compare(n, b) == Ordering::Less,
            IssueKind::AboveMaximum,
            "exclusiveMaximum",
            "must be less than",
            b,
        ),
        Keyword::MultipleOf(b) => (
            is_multiple(n, b),
            IssueKind::NotMultipleOf,
            "multipleOf",
            "must be a multiple of",
            b,
        ),
        _ => return true,
    };
    if !ok {
        cx.report(|| {
            ValidationIssue::schema(
                kind,
                loc.name(),
                name,
                Some(value_kind(value)),
                super::message(format_args!("{words} {limit}, got {n}")),
            )
        });
    }
    ok
}
