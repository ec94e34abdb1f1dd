//! `properties`, `patternProperties`, `additionalProperties`, `propertyNames`, `required`,
//! `minProperties`, `maxProperties`, `dependentRequired`, `dependentSchemas` (and draft-07's
//! `dependencies`) and `unevaluatedProperties`; and the implicit closing of objects that the
//! undeclared-argument policy adds.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value};

use super::count;
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::Draft;
use crate::schema::json::compile::{Compiler, FALSE};
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, Node, NodeId, Properties};
use crate::schema::json::validate::{Cx, Evaluated, Loc};
use crate::schema::literal::value_kind;

/// Past this many, `properties` gets a hash index.
const INDEXED: usize = 16;

pub(in crate::schema::json) fn compile<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    let at = |k: &str| format!("{}/{k}", place.location);
    let mut properties = Properties::default();
    let mut any = false;
    match map.get("properties") {
        None => {}
        Some(Value::Object(named)) => {
            any = true;
            for (name, schema) in named {
                let id = c.sub_at(schema, place, "properties", name);
                properties.named.push((name.clone(), id));
            }
            // Sorted whatever the map's order (serde_json's `preserve_order` keeps insertion
            // order), for the binary search.
            properties.named.sort_by(|a, b| a.0.cmp(&b.0));
            if properties.named.len() > INDEXED {
                let index: HashMap<String, usize> = properties
                    .named
                    .iter()
                    .enumerate()
                    .map(|(i, (name, _))| (name.clone(), i))
                    .collect();
                properties.index = Some(index);
            }
        }
        Some(_) => c.problem(&at("properties"), "`properties` must be an object"),
    }
    match map.get("patternProperties") {
        None => {}
        Some(Value::Object(patterns)) => {
            any = true;
            for (source, schema) in patterns {
                let id = c.sub_at(schema, place, "patternProperties", source);
                let location = format!(
                    "{}/patternProperties/{}",
                    place.location,
                    crate::schema::json::index::escape_token(source)
                );
                if let Some(pattern) = c.pattern(source, &location) {
                    properties.patterns.push((pattern, id));
                }
            }
        }
        Some(_) => c.problem(
            &at("patternProperties"),
            "`patternProperties` must be an object",
        ),
    }
    if let Some(additional) = map.get("additionalProperties") {
        any = true;
        let id = c.sub(additional, place, "additionalProperties");
        properties.closed = id == FALSE;
        properties.additional = Some(id);
    }
    // `required` names, when it is a list of strings.
    let required: Option<Vec<String>> = match map.get("required") {
        None => None,
        Some(Value::Array(names)) if names.iter().all(Value::is_string) => Some(
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
        ),
        Some(_) => {
            c.problem(&at("required"), "`required` must be an array of strings");
            None
        }
    };
    // `required` checked by the walk of `properties` where it can be: it comes right after
    // it (no `propertyNames` between, so that problems keep their order) and names only
    // declared properties among the first 64.
    let mut required = required;
    if any
        && !map.contains_key("propertyNames")
        && let Some(names) = &required
    {
        let at: Option<Box<[(String, u8)]>> = names
            .iter()
            .map(|name| {
                let i = properties.position(name)?;
                Some((name.clone(), u8::try_from(i).ok().filter(|&i| i < 64)?))
            })
            .collect();
        if at.is_some() {
            properties.required = at;
            required = None;
        }
    }
    if any {
        properties.declared = map.contains_key("properties");
        out.push(Keyword::Properties(Box::new(properties)));
    }
    if let Some(names) = map.get("propertyNames") {
        let id = c.sub(names, place, "propertyNames");
        out.push(Keyword::PropertyNames(id));
    }
    if let Some(names) = required {
        out.push(Keyword::Required(names.into_boxed_slice()));
    }
    if let Some(n) = count(c, map, place, "minProperties") {
        out.push(Keyword::MinProperties(n));
    }
    if let Some(n) = count(c, map, place, "maxProperties") {
        out.push(Keyword::MaxProperties(n));
    }
    let mut required = Vec::new();
    let mut schemas = Vec::new();
    let mut dependencies =
        |keyword: &str, lists: bool, schemas_too: bool, c: &mut Compiler<'d, '_>| {
            let Some(value) = map.get(keyword) else {
                return;
            };
            let Value::Object(deps) = value else {
                c.problem(&at(keyword), format!("`{keyword}` must be an object"));
                return;
            };
            for (name, dep) in deps {
                match dep {
                    Value::Array(names) if lists && names.iter().all(Value::is_string) => {
                        let names: Vec<String> = names
                            .iter()
                            .filter_map(|n| n.as_str().map(str::to_owned))
                            .collect();
                        required.push((name.clone(), names.into_boxed_slice()));
                    }
                    Value::Object(_) | Value::Bool(_) if schemas_too => {
                        schemas.push((name.clone(), c.sub_at(dep, place, keyword, name)));
                    }
                    _ => c.problem(
                        &format!(
                            "{}/{keyword}/{}",
                            place.location,
                            crate::schema::json::index::escape_token(name)
                        ),
                        "a dependency must be a list of property names or a schema",
                    ),
                }
            }
        };
    if place.draft == Draft::Draft7 {
        dependencies("dependencies", true, true, c);
    } else {
        dependencies("dependentRequired", true, false, c);
        dependencies("dependentSchemas", false, true, c);
    }
    if !required.is_empty() {
        out.push(Keyword::DependentRequired(required.into_boxed_slice()));
    }
    if !schemas.is_empty() {
        out.push(Keyword::DependentSchemas(schemas.into_boxed_slice()));
    }
}

pub(in crate::schema::json) fn compile_unevaluated<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    if let Some(schema) = map.get("unevaluatedProperties") {
        let schema = c.sub(schema, place, "unevaluatedProperties");
        out.push(Keyword::UnevaluatedProperties {
            schema,
            implicit: false,
        });
    }
}

/// The nodes whose annotations reach a node's own: its in-place applicators but `not`.
fn annotating(node: &Node) -> impl Iterator<Item = NodeId> + '_ {
    crate::schema::json::compile::in_place(node).filter(move |id| {
        !node
            .keywords
            .iter()
            .any(|k| matches!(k, Keyword::Not(n) if n == id))
    })
}

/// Which nodes declare `properties`, themselves or through a subschema applied to the same
/// object: propagated backwards from the declaring ones, in time linear in the arena.
pub(in crate::schema::json) fn declaring(nodes: &[Node]) -> Vec<bool> {
    let mut parents: Vec<Vec<NodeId>> = vec![Vec::new(); nodes.len()];
    let mut declares = vec![false; nodes.len()];
    let mut queue = VecDeque::new();
    for (id, node) in nodes.iter().enumerate() {
        for child in annotating(node) {
            parents[child as usize].push(NodeId::try_from(id).unwrap_or(0));
        }
        if node
            .keywords
            .iter()
            .any(|k| matches!(k, Keyword::Properties(p) if p.declared))
        {
            declares[id] = true;
            queue.push_back(id);
        }
    }
    while let Some(id) = queue.pop_front() {
        for &parent in &parents[id] {
            if !declares[parent as usize] {
                declares[parent as usize] = true;
                queue.push_back(parent as usize);
            }
        }
    }
    declares
}

/// Whether a schema says what to do with keys it does not name.
pub(in crate::schema::json) fn speaks_of_extra_keys(node: &Node) -> bool {
    node.keywords.iter().any(|k| match k {
        Keyword::Properties(p) => p.additional.is_some() || !p.patterns.is_empty(),
        Keyword::UnevaluatedProperties { .. } => true,
        _ => false,
    })
}

/// The property names a node and the subschemas applied with it declare, for a suggestion.
fn declared_names(nodes: &[Node], id: NodeId) -> Vec<&str> {
    const VISITS: usize = 256;
    let mut names = Vec::new();
    let mut seen = vec![id];
    let mut queue = VecDeque::from([id]);
    while let Some(at) = queue.pop_front() {
        let node = &nodes[at as usize];
        for k in &node.keywords {
            if let Keyword::Properties(p) = k {
                names.extend(p.named.iter().map(|(n, _)| n.as_str()));
            }
        }
        for child in annotating(node) {
            if seen.len() < VISITS && !seen.contains(&child) {
                seen.push(child);
                queue.push_back(child);
            }
        }
    }
    names
}

fn unknown(loc: Loc<'_>, key: &str, names: &[&str]) -> ValidationIssue {
    let suggestion = if key.len() > 2 * crate::rules::MAX_NAME_LEN {
        None
    } else {
        // A key another variant of a union declares is no typo of itself.
        let others = names.iter().copied().filter(|name| *name != key);
        crate::rules::suggest(key, others).map(|s| Cow::Owned(s.to_owned()))
    };
    ValidationIssue::unknown(loc.member(key), suggestion)
}

pub(in crate::schema::json) fn check_properties(
    cx: &mut Cx<'_>,
    properties: &Properties,
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let named = &properties.named;
    let mut valid = true;
    // Which of the first 64 names the object has, for `required`.
    let mut found: u64 = 0;
    // Both the object's keys and `named` are in name order (unless serde_json keeps the
    // insertion order): a few names are looked for from after the last one found, which
    // finds each at once in order, and in any order falls back to the whole list.
    let mut next = 0;
    for (i, (key, member)) in object.iter().enumerate() {
        let at = Loc::Key(&loc, key);
        let position = match named.get(next) {
            _ if properties.index.is_some() => properties.position(key),
            // Most often the very next name.
            Some((name, _)) if super::same_text(name, key) => Some(next),
            _ => named[next..]
                .iter()
                .position(|(name, _)| super::same_text(name, key))
                .map(|p| next + p)
                .or_else(|| properties.position(key)),
        };
        let mut matched = false;
        if let Some(j) = position {
            matched = true;
            next = j + 1;
            if j < 64 {
                found |= 1 << j;
            }
            valid &= cx.node(named[j].1, member, at, None);
        }
        for (pattern, schema) in &properties.patterns {
            if pattern.regex.is_match(key) {
                matched = true;
                valid &= cx.node(*schema, member, at, None);
            }
        }
        if !matched && let Some(schema) = properties.additional {
            matched = true;
            if properties.closed {
                cx.report(|| {
                    let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
                    unknown(loc, key, &names)
                });
                valid = false;
            } else {
                valid &= cx.node(schema, member, at, None);
            }
        }
        if !valid && cx.quiet {
            return false;
        }
        if let (true, Some(eval)) = (matched, eval.as_deref_mut()) {
            eval.prop(i);
        }
    }
    if let Some(required) = &properties.required {
        for (name, j) in required.iter() {
            if found & (1 << j) == 0 {
                valid = false;
                if cx.quiet {
                    return false;
                }
                cx.report(|| ValidationIssue::missing_property(loc.member(name), None));
            }
        }
    }
    valid
}

pub(in crate::schema::json) fn check_names(
    cx: &mut Cx<'_>,
    schema: NodeId,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let mut valid = true;
    for key in object.keys() {
        let name = Value::String(key.clone());
        let (ok, issues) = cx.collect(|cx| cx.node(schema, &name, Loc::Root, None));
        if !ok {
            valid = false;
            cx.report(|| {
                let why = issues
                    .into_list()
                    .into_iter()
                    .next()
                    .map(|issue| {
                        let text = issue.to_string();
                        text.strip_prefix("Top level: ")
                            .map(str::to_owned)
                            .unwrap_or(text)
                    })
                    .unwrap_or_else(|| "is refused".to_owned());
                ValidationIssue::schema(
                    IssueKind::InvalidKey,
                    Some(loc.member(key)),
                    "propertyNames",
                    None,
                    format!("is not an allowed key: the key {why}"),
                )
            });
            if cx.quiet {
                return false;
            }
        }
    }
    valid
}

pub(in crate::schema::json) fn check_required(
    cx: &mut Cx<'_>,
    names: &[String],
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let mut valid = true;
    // In an object of a few keys, a scan by length first is cheaper than the map's lookup.
    let has = |name: &str| {
        if object.len() <= 8 {
            object.keys().any(|k| k.len() == name.len() && k == name)
        } else {
            object.contains_key(name)
        }
    };
    for name in names {
        if !has(name) {
            valid = false;
            if cx.quiet {
                return false;
            }
            cx.report(|| ValidationIssue::missing_property(loc.member(name), None));
        }
    }
    valid
}

pub(in crate::schema::json) fn check_size(
    cx: &mut Cx<'_>,
    keyword: &Keyword,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let len = u64::try_from(object.len()).unwrap_or(u64::MAX);
    let (ok, kind, name, words, n) = match *keyword {
        Keyword::MinProperties(n) => (
            len >= n,
            IssueKind::TooShort,
            "minProperties",
            "at least",
            n,
        ),
        Keyword::MaxProperties(n) => (len <= n, IssueKind::TooLong, "maxProperties", "at most", n),
        _ => return true,
    };
    if !ok {
        cx.report(|| {
            let unit = if n == 1 { "property" } else { "properties" };
            let message = format!("must have {words} {n} {unit}, got {len}");
            ValidationIssue::schema(kind, loc.name(), name, Some(value_kind(value)), message)
        });
    }
    ok
}

pub(in crate::schema::json) fn check_dependent_required(
    cx: &mut Cx<'_>,
    deps: &[(String, Box<[String]>)],
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let mut valid = true;
    for (name, needs) in deps {
        if !object.contains_key(name) {
            continue;
        }
        for need in needs.iter() {
            if !object.contains_key(need) {
                valid = false;
                if cx.quiet {
                    return false;
                }
                cx.report(|| {
                    ValidationIssue::schema(
                        IssueKind::MissingParameter,
                        Some(loc.member(need)),
                        "dependentRequired",
                        None,
                        format!(
                            "is required when '{}' is given",
                            crate::model_text::capture(name)
                        ),
                    )
                });
            }
        }
    }
    valid
}

pub(in crate::schema::json) fn check_dependent_schemas(
    cx: &mut Cx<'_>,
    deps: &[(String, NodeId)],
    value: &Value,
    loc: Loc<'_>,
    mut eval: Option<&mut Evaluated>,
) -> bool {
    let Value::Object(object) = value else {
        return true;
    };
    let mut valid = true;
    for (name, schema) in deps {
        if object.contains_key(name) {
            valid &= cx.node(*schema, value, loc, eval.as_deref_mut());
            if !valid && cx.quiet {
                return false;
            }
        }
    }
    valid
}

pub(in crate::schema::json) fn check_unevaluated(
    cx: &mut Cx<'_>,
    node: NodeId,
    schema: NodeId,
    value: &Value,
    loc: Loc<'_>,
    eval: Option<&mut Evaluated>,
) -> bool {
    let (Value::Object(object), Some(eval)) = (value, eval) else {
        return true;
    };
    let mut valid = true;
    let mut names = None;
    let schema_nodes = &cx.schema.arena.nodes;
    for (i, (key, member)) in object.iter().enumerate() {
        if eval.has_prop(i) {
            continue;
        }
        if schema == FALSE {
            valid = false;
            if cx.quiet {
                return false;
            }
            let names = names.get_or_insert_with(|| declared_names(schema_nodes, node));
            let issue = unknown(loc, key, names);
            cx.report(|| issue);
        } else {
            valid &= cx.node(schema, member, Loc::Key(&loc, key), None);
            if !valid && cx.quiet {
                return false;
            }
        }
    }
    eval.all_props();
    valid
}
