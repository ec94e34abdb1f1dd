//! `allOf`, `anyOf`, `oneOf` and `not`; and which variant of a union a value was meant to be,
//! so that its problems are the ones reported, not one line per variant.

use serde_json::{Map, Value};

use super::types::matches;
use super::{equal, listed, shown};
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::Compiled;
use crate::schema::json::compile::Compiler;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, Node, NodeId, Tag, Types, Union};
use crate::schema::json::validate::{Cx, Evaluated, Loc, is_valid_at};
use crate::schema::literal::value_kind;

pub(in crate::schema::json) fn compile<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    type Make = fn(Box<[NodeId]>) -> Keyword;
    let keywords: [(&str, Make); 3] = [
        ("allOf", Keyword::AllOf),
        ("anyOf", |branches| {
            Keyword::AnyOf(Union {
                branches,
                tag: None,
            })
        }),
        ("oneOf", |branches| {
            Keyword::OneOf(Union {
                branches,
                tag: None,
            })
        }),
    ];
    for (keyword, make) in keywords {
        match map.get(keyword) {
            None => {}
            Some(Value::Array(branches)) if !branches.is_empty() => {
                let ids: Vec<NodeId> = branches
                    .iter()
                    .enumerate()
                    .map(|(i, b)| c.sub(b, place, &format!("{keyword}/{i}")))
                    .collect();
                out.push(make(ids.into_boxed_slice()));
            }
            Some(_) => c.problem(
                &format!("{}/{keyword}", place.location),
                format!("`{keyword}` must be a non-empty array of schemas"),
            ),
        }
    }
    if let Some(not) = map.get("not") {
        let id = c.sub(not, place, "not");
        out.push(Keyword::Not(id));
    }
}

pub(in crate::schema::json) fn all_of(
    cx: &mut Cx<'_>,
    branches: &[NodeId],
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let mut valid = true;
    for &branch in branches {
        valid &= cx.node(branch, value, loc, eval.as_deref_mut());
        if !valid && cx.quiet {
            return false;
        }
    }
    valid
}

pub(in crate::schema::json) fn any_of(
    cx: &mut Cx<'_>,
    union: &Union,
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let branches = &union.branches;
    let tracking = eval.is_some();
    let mut matched = false;
    let given = given_tag(union, value);
    for (i, &branch) in branches.iter().enumerate() {
        if excluded(given, i) {
            continue;
        }
        let mut seen = Evaluated::default();
        let ok = cx.quietly(|cx| cx.node(branch, value, loc, tracking.then_some(&mut seen)));
        if ok {
            matched = true;
            match eval.as_deref_mut() {
                // Every variant that matches adds what it evaluated.
                Some(eval) => eval.merge(seen),
                None => break,
            }
        }
    }
    if !matched {
        explain(cx, "anyOf", branches, value, loc, eval);
    }
    matched
}

pub(in crate::schema::json) fn one_of(
    cx: &mut Cx<'_>,
    union: &Union,
    value: &Value,
    loc: Loc<'_>,
    eval: Option<&mut Evaluated>,
) -> bool {
    let branches = &union.branches;
    let tracking = eval.is_some();
    let mut first: Option<(usize, Evaluated)> = None;
    let mut second = None;
    let given = given_tag(union, value);
    for (i, &branch) in branches.iter().enumerate() {
        if excluded(given, i) {
            continue;
        }
        let mut seen = Evaluated::default();
        if cx.quietly(|cx| cx.node(branch, value, loc, tracking.then_some(&mut seen))) {
            if first.is_none() {
                first = Some((i, seen));
            } else {
                second = Some(i);
                break;
            }
        }
    }
    match (first, second) {
        (Some((_, seen)), None) => {
            if let Some(eval) = eval {
                eval.merge(seen);
            }
            true
        }
        (None, _) => {
            explain(cx, "oneOf", branches, value, loc, eval);
            false
        }
        (Some((a, _)), Some(b)) => {
            cx.report(|| {
                ValidationIssue::schema(
                    IssueKind::AmbiguousVariant,
                    loc.name(),
                    "oneOf",
                    Some(value_kind(value)),
                    format!(
                        "matches more than one of the {} allowed forms (form {} and form {}); \
                         it must match exactly one",
                        branches.len(),
                        a + 1,
                        b + 1
                    ),
                )
            });
            false
        }
    }
}

/// The union's tag and the value's tag, when the union has one and the value gives it.
#[inline(always)]
pub(in crate::schema::json) fn given_tag<'a>(
    union: &'a Union,
    value: &'a Value,
) -> Option<(&'a Tag, &'a Value)> {
    let tag = union.tag.as_deref()?;
    let Value::Object(object) = value else {
        return None;
    };
    // A few keys: compared in turn without `memcmp` (`same_text`), where the map's search
    // orders them by it.
    let given = if object.len() <= 8 {
        object
            .iter()
            .find_map(|(key, given)| super::same_text(key, &tag.name).then_some(given))
    } else {
        object.get(&tag.name)
    };
    Some((tag, given?))
}

/// Whether branch `i` cannot match, its tag's value not being the one given: it would fail
/// on that property's `const`, so it is not tried (what it would report is never reported:
/// a branch's problems are reported only for the branch the tag names).
pub(in crate::schema::json) fn excluded(given: Option<(&Tag, &Value)>, i: usize) -> bool {
    given.is_some_and(|(tag, given)| match (&tag.values[i], given) {
        (Value::String(expected), Value::String(given)) => expected != given,
        (expected, given) => !equal(expected, given),
    })
}

/// The tag of a union's branches (see [`Tag`]), if they have one: a property that every
/// branch requires to be a single value, through the branch's own `properties` and the
/// `$ref`s and `allOf`s it applies unconditionally (not `$dynamicRef`, whose target depends
/// on the dynamic scope). A tag only spares work, so the search for one stops when `budget`
/// (nodes looked at, shared by every union of the schema) runs out.
pub(in crate::schema::json) fn union_tag(
    nodes: &[Node],
    branches: &[NodeId],
    budget: &mut usize,
) -> Option<Box<Tag>> {
    /// The first branch's properties tried as the tag.
    const CANDIDATES: usize = 8;
    let (&first, rest) = branches.split_first()?;
    if rest.is_empty() {
        return None;
    }
    let mut candidates = Vec::new();
    for part in static_parts(nodes, first, budget) {
        for keyword in &nodes[part as usize].keywords {
            if let Keyword::Properties(p) = keyword {
                candidates.extend(p.named.iter().map(|(name, _)| name.as_str()));
            }
        }
    }
    candidates.truncate(CANDIDATES);
    candidates.into_iter().find_map(|name| {
        let values = branches
            .iter()
            .map(|&b| static_tag(nodes, b, name, budget).cloned())
            .collect::<Option<Box<[Value]>>>()?;
        Some(Box::new(Tag {
            name: name.to_owned(),
            distinct: Tag::are_distinct(&values),
            values,
        }))
    })
}

/// The nodes always applied with `id` to its value: itself, its `$ref`s and `allOf`s (at
/// most a few, each counted against `budget`).
fn static_parts(nodes: &[Node], id: NodeId, budget: &mut usize) -> Vec<NodeId> {
    let mut parts = vec![id];
    let mut at = 0;
    while at < parts.len() && parts.len() < 4 * HOPS && *budget > 0 {
        *budget -= 1;
        for keyword in &nodes[parts[at] as usize].keywords {
            match keyword {
                Keyword::Ref(t) => parts.push(*t),
                Keyword::AllOf(b) => parts.extend(b.iter().take(4 * HOPS).copied()),
                _ => {}
            }
        }
        at += 1;
    }
    parts.truncate(at);
    parts
}

/// The single value `id` requires of its property `name` (a `const`, or an `enum` of one),
/// through [`static_parts`] only.
fn static_tag<'n>(
    nodes: &'n [Node],
    id: NodeId,
    name: &str,
    budget: &mut usize,
) -> Option<&'n Value> {
    for part in static_parts(nodes, id, budget) {
        for keyword in &nodes[part as usize].keywords {
            let Keyword::Properties(p) = keyword else {
                continue;
            };
            let Some(schema) = p.get(name) else {
                continue;
            };
            for part in static_parts(nodes, schema, budget) {
                let single = nodes[part as usize].keywords.iter().find_map(|k| match k {
                    Keyword::Const(v) => Some(v),
                    Keyword::Enum(values) if values.len() == 1 => values.first(),
                    _ => None,
                });
                if single.is_some() {
                    return single;
                }
            }
        }
    }
    None
}

pub(in crate::schema::json) fn not(
    cx: &mut Cx<'_>,
    schema: NodeId,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let matched = cx.quietly(|cx| cx.node(schema, value, loc, None));
    if matched {
        cx.report(|| {
            ValidationIssue::schema(
                IssueKind::NotAllowed,
                loc.name(),
                "not",
                Some(value_kind(value)),
                "is not allowed: it matches the schema `not` refuses".to_owned(),
            )
        });
    }
    !matched
}

/// Which variant of a union a value was meant to be.
enum Meant<'s> {
    /// This one: by its tag, or as the only variant of the value's type.
    Variant(NodeId),
    /// The variants are tagged by `tag`, and the value has no tag.
    TagMissing(&'s str),
    /// The variants are tagged by `tag`, and the value's tag is none of theirs.
    TagUnknown(&'s str, Vec<&'s Value>),
    /// No telling.
    Unknown,
}

/// How many hops through `$ref` and `allOf` a variant's tag or type is looked for.
const HOPS: usize = 4;

/// The nodes that make up a variant: itself, and what it refers to or is all of.
fn parts(nodes: &[Node], id: NodeId) -> Vec<NodeId> {
    let mut parts = vec![id];
    let mut at = 0;
    while at < parts.len() && parts.len() < 4 * HOPS {
        let node = &nodes[parts[at] as usize];
        for keyword in &node.keywords {
            match keyword {
                Keyword::Ref(t) | Keyword::DynamicRef { target: t, .. } => parts.push(*t),
                Keyword::AllOf(b) => parts.extend(b.iter().copied()),
                _ => {}
            }
        }
        at += 1;
    }
    parts
}

/// The single value a schema allows (`const`, or an `enum` of one).
fn single_value(nodes: &[Node], id: NodeId) -> Option<&Value> {
    parts(nodes, id).into_iter().find_map(|part| {
        nodes[part as usize].keywords.iter().find_map(|k| match k {
            Keyword::Const(v) => Some(v),
            Keyword::Enum(values) if values.len() == 1 => values.first(),
            _ => None,
        })
    })
}

/// The properties of a variant whose schema allows a single value: its tags.
fn tags(nodes: &[Node], id: NodeId) -> Vec<(&str, &Value)> {
    let mut tags = Vec::new();
    for part in parts(nodes, id) {
        for keyword in &nodes[part as usize].keywords {
            if let Keyword::Properties(p) = keyword {
                for (name, schema) in &p.named {
                    if let Some(value) = single_value(nodes, *schema) {
                        tags.push((name.as_str(), value));
                    }
                }
            }
        }
    }
    tags
}

/// The types a variant allows, if it says.
fn types(nodes: &[Node], id: NodeId) -> Option<Types> {
    parts(nodes, id).into_iter().find_map(|part| {
        nodes[part as usize].keywords.iter().find_map(|k| match k {
            Keyword::Type(t) => Some(*t),
            _ => None,
        })
    })
}

fn meant<'s>(nodes: &'s [Node], branches: &[NodeId], value: &Value) -> Meant<'s> {
    if let (Value::Object(object), true) = (value, branches.len() > 1) {
        let all: Vec<Vec<(&str, &Value)>> = branches.iter().map(|&b| tags(nodes, b)).collect();
        let tag = all[0]
            .iter()
            .map(|(name, _)| *name)
            .find(|name| all.iter().all(|tags| tags.iter().any(|(n, _)| n == name)));
        if let Some(tag) = tag {
            let Some(given) = object.get(tag) else {
                return Meant::TagMissing(tag);
            };
            let values = all
                .iter()
                .filter_map(|tags| tags.iter().find(|(n, _)| *n == tag).map(|(_, v)| *v));
            if let Some(i) = values.clone().position(|v| equal(v, given)) {
                return Meant::Variant(branches[i]);
            }
            return Meant::TagUnknown(tag, values.collect());
        }
    }
    let mut candidates = branches
        .iter()
        .filter(|&&b| types(nodes, b).is_none_or(|t| matches(t, value)));
    match (candidates.next(), candidates.next()) {
        (Some(&only), None) => Meant::Variant(only),
        _ => Meant::Unknown,
    }
}

/// The variant of a union `value` was meant to be (see [`meant`]), or else the only one it
/// matches: where the policies follow a union.
pub(in crate::schema::json) fn meant_variant(
    schema: &Compiled,
    branches: &[NodeId],
    value: &Value,
    budget: &mut usize,
) -> Option<NodeId> {
    if let Meant::Variant(branch) = meant(&schema.arena.nodes, branches, value) {
        return Some(branch);
    }
    let mut matching = None;
    for &branch in branches {
        if is_valid_at(schema, branch, value, budget) {
            if matching.is_some() {
                return None;
            }
            matching = Some(branch);
        }
    }
    matching
}

/// Reports why a value matches no variant of a union.
///
/// The variant it was meant to be is validated again, its issues reported, and what it
/// evaluated noted in `eval`: the keys it declares are not also unknown keys.
fn explain(
    cx: &mut Cx<'_>,
    keyword: &'static str,
    branches: &[NodeId],
    value: &Value,
    loc: Loc<'_>,
    eval: Option<&mut Evaluated>,
) {
    if cx.quiet {
        return;
    }
    let schema = cx.schema;
    let nodes = &schema.arena.nodes;
    let meant = meant(nodes, branches, value);
    let mut eval = eval;
    if let Meant::Variant(branch) = meant {
        let (valid, issues) = cx.collect(|cx| cx.node(branch, value, loc, eval.as_deref_mut()));
        if !valid && !issues.is_empty() {
            cx.issues.append(issues);
            return;
        }
    }
    // Without the variant, no key can be told unknown: the union's problem is the one.
    if let Some(eval) = eval {
        eval.all_props();
        eval.all_items();
    }
    match meant {
        Meant::Variant(_) => {}
        Meant::TagMissing(tag) => {
            cx.report(|| ValidationIssue::missing_property(loc.member(tag), None));
            return;
        }
        Meant::TagUnknown(tag, values) => {
            let got = value.get(tag).unwrap_or(&Value::Null);
            cx.report(|| {
                ValidationIssue::schema(
                    IssueKind::NotInEnum,
                    Some(loc.member(tag)),
                    keyword,
                    Some(value_kind(got)),
                    format!(
                        "expected one of {}, got {}",
                        listed(values.into_iter()),
                        shown(got)
                    ),
                )
            });
            return;
        }
        Meant::Unknown => {}
    }
    let forms: Vec<String> = branches
        .iter()
        .take(5)
        .map(|&b| match (single_value(nodes, b), types(nodes, b)) {
            (Some(v), _) => shown(v),
            (None, Some(t)) => t
                .names()
                .filter(|n| !(*n == "integer" && t.contains(Types::NUMBER)))
                .collect::<Vec<_>>()
                .join("/"),
            (None, None) => "a schema".to_owned(),
        })
        .collect();
    let more = if branches.len() > forms.len() {
        ", ..."
    } else {
        ""
    };
    cx.report(|| {
        ValidationIssue::schema(
            IssueKind::NoMatchingVariant,
            loc.name(),
            keyword,
            Some(value_kind(value)),
            format!(
                "matches none of the {} allowed forms ({}{more})",
                branches.len(),
                forms.join(", ")
            ),
        )
    });
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::schema::json::JsonSchemaOptions;

    /// agentkit's verdict, which skips the branches a union's tag rules out, against the
    /// `jsonschema` crate's, which tries every branch.
    fn agree(schema: Value, instances: &[Value]) {
        let agentkit = JsonSchemaOptions::standard().build(schema.clone()).unwrap();
        let reference = jsonschema::validator_for(&schema).unwrap();
        for instance in instances {
            assert_eq!(
                agentkit.is_valid(instance),
                reference.is_valid(instance),
                "{schema} on {instance}"
            );
            let mut copy = instance.clone();
            assert_eq!(
                agentkit.validate(&mut copy).is_empty(),
                reference.is_valid(instance),
                "{schema} on {instance}"
            );
        }
    }

    #[test]
    fn a_union_tag_rules_out_only_the_branches_that_cannot_match() {
        let branch = |tag: Value, extra: Value| json!({"properties": {"kind": {"const": tag}, "n": extra}, "required": ["kind"]});
        let instances = [
            json!({"kind": "a", "n": 1}),
            json!({"kind": "b", "n": "x"}),
            json!({"kind": "b", "n": 1}),
            json!({"kind": 1, "n": 1}),
            json!({"kind": 1.0, "n": 1}),
            json!({"kind": "c"}),
            json!({"n": 1}),
            json!({}),
            json!("a"),
        ];
        for keyword in ["oneOf", "anyOf"] {
            // Distinct tags; two branches of one tag (ambiguous for `oneOf`); a number tag
            // (1.0 is 1); a tag through `$ref` and `allOf`; a branch with its tag in an
            // `enum` of one.
            let schemas = [
                json!({keyword: [branch(json!("a"), json!({"type": "integer"})),
                                 branch(json!("b"), json!({"type": "string"}))]}),
                json!({keyword: [branch(json!("b"), json!({"type": "integer"})),
                                 branch(json!("b"), json!({"minimum": 0}))]}),
                json!({keyword: [branch(json!(1), json!({"type": "integer"})),
                                 branch(json!("a"), json!(true))]}),
                json!({"$defs": {"a": branch(json!("a"), json!({"type": "integer"}))},
                       keyword: [{"$ref": "#/$defs/a"},
                                 {"allOf": [branch(json!("b"), json!({"type": "string"}))]}]}),
                json!({keyword: [
                    {"properties": {"kind": {"enum": ["a"]}}},
                    branch(json!("b"), json!(false))]}),
            ];
            for schema in schemas {
                agree(schema, &instances);
            }
        }
    }
}
