//! `prefixItems`, `items` (and draft-07's `additionalItems`), `contains`, `minContains`,
//! `maxContains`, `minItems`, `maxItems`, `uniqueItems` and `unevaluatedItems`.

use std::collections::HashMap;
use std::hash::Hasher;

use serde_json::{Map, Value};

use super::{count, equal, hash};
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::Draft;
use crate::schema::json::compile::{Compiler, FALSE};
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, NodeId};
use crate::schema::json::validate::{Cx, Evaluated, Loc};
use crate::schema::literal::value_kind;

pub(in crate::schema::json) fn compile<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    let mut prefix = Vec::new();
    let mut rest = None;
    if let Some(Value::Array(items)) = map.get("prefixItems") {
        for (i, item) in items.iter().enumerate() {
            prefix.push(c.sub(item, place, &format!("prefixItems/{i}")));
        }
    }
    match map.get("items") {
        None => {}
        Some(Value::Array(items)) => {
            // The array form (draft-07, 2019-09): a tuple, then `additionalItems`.
            for (i, item) in items.iter().enumerate() {
                prefix.push(c.sub(item, place, &format!("items/{i}")));
            }
            if let Some(additional) = map.get("additionalItems") {
                rest = Some(c.sub(additional, place, "additionalItems"));
            }
        }
        Some(items) => rest = Some(c.sub(items, place, "items")),
    }
    if !prefix.is_empty() || rest.is_some() {
        out.push(Keyword::Items {
            prefix: prefix.into_boxed_slice(),
            rest,
        });
    }
    if let Some(contains) = map.get("contains") {
        let schema = c.sub(contains, place, "contains");
        let (min, max) = if place.draft == Draft::Draft7 {
            (Some(1), None)
        } else {
            (
                count(c, map, place, "minContains"),
                count(c, map, place, "maxContains"),
            )
        };
        out.push(Keyword::Contains {
            schema,
            min: min.unwrap_or(1),
            max,
        });
    }
    if let Some(n) = count(c, map, place, "minItems") {
        out.push(Keyword::MinItems(n));
    }
    if let Some(n) = count(c, map, place, "maxItems") {
        out.push(Keyword::MaxItems(n));
    }
    if map.get("uniqueItems") == Some(&Value::Bool(true)) {
        out.push(Keyword::UniqueItems);
    }
}

pub(in crate::schema::json) fn compile_unevaluated<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    if let Some(schema) = map.get("unevaluatedItems") {
        let id = c.sub(schema, place, "unevaluatedItems");
        out.push(Keyword::UnevaluatedItems(id));
    }
}

pub(in crate::schema::json) fn check_items(
    cx: &mut Cx<'_>,
    prefix: &[NodeId],
    rest: Option<NodeId>,
    value: &Value,
    loc: Loc<'_>,
    eval: Option<&mut Evaluated>,
) -> bool {
    let Value::Array(items) = value else {
        return true;
    };
    let mut valid = true;
    for (i, item) in items.iter().enumerate() {
        let schema = match prefix.get(i) {
            Some(&schema) => schema,
            None => match rest {
                Some(schema) => schema,
                None => break,
            },
        };
        let at = Loc::Index(&loc, i);
        if schema == FALSE {
            let allowed = prefix.len();
            cx.report(|| {
                let unit = if allowed == 1 { "item" } else { "items" };
                ValidationIssue::schema(
                    IssueKind::NotAllowed,
                    at.name(),
                    "items",
                    Some(value_kind(item)),
                    format!("is not allowed: the list takes at most {allowed} {unit}"),
                )
            });
            valid = false;
        } else {
            valid &= cx.node(schema, item, at, None);
        }
        if !valid && cx.quiet {
            return false;
        }
    }
    if let Some(eval) = eval {
        if rest.is_some() {
            eval.all_items();
        } else {
            eval.items_upto(prefix.len().min(items.len()));
        }
    }
    valid
}

pub(in crate::schema::json) fn check_contains(
    cx: &mut Cx<'_>,
    schema: NodeId,
    min: u64,
    max: Option<u64>,
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let Value::Array(items) = value else {
        return true;
    };
    let mut matched: u64 = 0;
    for (i, item) in items.iter().enumerate() {
        if cx.quietly(|cx| cx.node(schema, item, Loc::Index(&loc, i), None)) {
            matched += 1;
            if let Some(eval) = eval.as_deref_mut() {
                eval.item(i);
            }
        }
    }
    let few = matched < min;
    let many = max.is_some_and(|max| matched > max);
    if few || many {
        cx.report(|| {
            let message = match (few, max) {
                (true, _) if min == 1 => {
                    "must contain at least one item that matches the schema `contains` gives"
                        .to_owned()
                }
                (true, _) => format!(
                    "must contain at least {min} items that match the schema `contains` gives, \
                     has {matched}"
                ),
                (false, Some(max)) => format!(
                    "must contain at most {max} items that match the schema `contains` gives, \
                     has {matched}"
                ),
                (false, None) => String::new(),
            };
            ValidationIssue::schema(
                IssueKind::ContainsMismatch,
                loc.name(),
                "contains",
                Some(value_kind(value)),
                message,
            )
        });
    }
    !(few || many)
}

pub(in crate::schema::json) fn check_size(
    cx: &mut Cx<'_>,
    keyword: &Keyword,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Array(items) = value else {
        return true;
    };
    let len = items.len();
    let plural = |n: u64| if n == 1 { "item" } else { "items" };
    let mut duplicate_of = None;
    let (ok, kind, name, words) = match *keyword {
        Keyword::MinItems(n) => (
            u64::try_from(len).unwrap_or(u64::MAX) >= n,
            IssueKind::TooShort,
            "minItems",
            "at least",
        ),
        Keyword::MaxItems(n) => (
            u64::try_from(len).unwrap_or(u64::MAX) <= n,
            IssueKind::TooLong,
            "maxItems",
            "at most",
        ),
        Keyword::UniqueItems => match duplicate(items) {
            None => return true,
            Some(pair) => (false, IssueKind::DuplicateItems, "uniqueItems", {
                duplicate_of = Some(pair);
                ""
            }),
        },
        _ => return true,
    };
    if !ok {
        cx.report(|| {
            let message = match (keyword, duplicate_of) {
                (&Keyword::MinItems(n) | &Keyword::MaxItems(n), _) => {
                    format!("must have {words} {n} {}, got {len}", plural(n))
                }
                (_, Some((a, b))) => {
                    format!("items {a} and {b} are equal; every item must be unique")
                }
                _ => String::new(),
            };
            ValidationIssue::schema(kind, loc.name(), name, Some(value_kind(value)), message)
        });
    }
    ok
}

/// The first two equal items, by hashing: linear in the items, not quadratic.
fn duplicate(items: &[Value]) -> Option<(usize, usize)> {
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        hash(item, &mut hasher);
        let same = seen.entry(hasher.finish()).or_default();
        if let Some(&j) = same.iter().find(|&&j| equal(&items[j], item)) {
            return Some((j, i));
        }
        same.push(i);
    }
    None
}

pub(in crate::schema::json) fn check_unevaluated(
    cx: &mut Cx<'_>,
    schema: NodeId,
    value: &Value,
    loc: Loc<'_>,
    eval: Option<&mut Evaluated>,
) -> bool {
    let (Value::Array(items), Some(eval)) = (value, eval) else {
        return true;
    };
    let mut valid = true;
    for (i, item) in items.iter().enumerate() {
        if eval.has_item(i) {
            continue;
        }
        let at = Loc::Index(&loc, i);
        if schema == FALSE {
            cx.report(|| {
                ValidationIssue::schema(
                    IssueKind::NotAllowed,
                    at.name(),
                    "unevaluatedItems",
                    Some(value_kind(item)),
                    "is not allowed: no schema of the list takes this item".to_owned(),
                )
            });
            valid = false;
        } else {
            valid &= cx.node(schema, item, at, None);
        }
        if !valid && cx.quiet {
            return false;
        }
    }
    eval.all_items();
    valid
}
