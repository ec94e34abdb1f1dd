//! The first pass over a schema document: every schema object in it, with its base URI and
//! draft, and the resources (`$id`), anchors (`$anchor`, draft-07's `$id: "#name"`) and dynamic
//! anchors that `$ref`s may name. It walks only where a keyword holds subschemas, so an `$id`
//! inside an `enum` or `const` is data, not an identifier; and it walks with a stack of its
//! own, never the call stack, after the depth has been checked.

use std::collections::HashMap;

use serde_json::Value;

use super::error::Problems;
use super::uri::BaseUri;
use super::{Draft, SchemaLimits};

/// What the index knows of one schema object.
#[derive(Debug, Clone)]
pub(super) struct Place {
    pub(super) base: BaseUri,
    pub(super) draft: Draft,
    pub(super) location: String,
    /// Whether an instance value is validated against it directly (the root, a property's
    /// schema, an item's): where the undeclared-argument policy may close an object.
    pub(super) value_position: bool,
}

/// The schema objects of the documents, by address, and the names `$ref`s resolve.
pub(super) struct Index<'d> {
    pub(super) places: HashMap<usize, Place>,
    /// Resource URIs (without fragment) to their root schema.
    pub(super) resources: HashMap<String, &'d Value>,
    /// `uri#name` of each `$anchor` (and draft-07 plain-name `$id`).
    pub(super) anchors: HashMap<String, &'d Value>,
    /// `uri#name` of each `$dynamicAnchor`.
    pub(super) dynamic_anchors: HashMap<String, &'d Value>,
    /// The resource URIs in the order found, for dynamic scopes.
    pub(super) resource_order: Vec<String>,
    pub(super) has_dynamic_ref: bool,
    pub(super) subschemas: usize,
}

/// The address of a value in a document, as a key: documents are not changed while the
/// schema is compiled, so it is stable.
pub(super) fn address(value: &Value) -> usize {
    std::ptr::from_ref(value) as usize
}

/// The JSON nesting depth of `value`, or `None` past `max`: counted with a stack of its own,
/// so that a document nested ten thousand deep is refused, not a stack overflow.
pub(super) fn depth_within(value: &Value, max: usize) -> Option<usize> {
    let mut deepest = 0;
    let mut stack = vec![(value, 1usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > max {
            return None;
        }
        deepest = deepest.max(depth);
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    Some(deepest)
}

/// Drops `value` with a stack of its own: serde_json drops a value recursively, and a schema
/// refused for its depth must not take the caller's stack with it.
pub(super) fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The draft a `$schema` URI names, if it is one agentkit knows.
pub(super) fn draft_of(schema: &str) -> Option<Draft> {
    let uri = schema.trim_end_matches('#');
    let uri = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))?;
    match uri {
        "json-schema.org/draft/2020-12/schema" => Some(Draft::Draft2020_12),
        "json-schema.org/draft/2019-09/schema" => Some(Draft::Draft2019_09),
        "json-schema.org/draft-07/schema"
        | "json-schema.org/draft-06/schema"
        | "json-schema.org/draft-04/schema" => Some(Draft::Draft7),
        _ => None,
    }
}

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas.
const ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];

/// Keywords whose value is an object of subschemas.
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Whether the subschemas of `keyword` are validated against the instance's own values.
fn holds_values(keyword: &str) -> bool {
    matches!(
        keyword,
        "additionalProperties"
            | "additionalItems"
            | "contains"
            | "items"
            | "prefixItems"
            | "properties"
            | "patternProperties"
            | "unevaluatedItems"
            | "unevaluatedProperties"
    )
}

impl<'d> Index<'d> {
    /// Indexes `documents` (the schema first, then the resources given with it, each with the
    /// URI it was given under).
    pub(super) fn build(
        documents: &[(BaseUri, &'d Value)],
        draft: Draft,
        limits: &SchemaLimits,
        problems: &mut Problems,
    ) -> Index<'d> {
        let mut index = Index {
            places: HashMap::new(),
            resources: HashMap::new(),
            anchors: HashMap::new(),
            dynamic_anchors: HashMap::new(),
            resource_order: Vec::new(),
            has_dynamic_ref: false,
            subschemas: 0,
        };
        for (uri, document) in documents {
            let draft = document
                .get("$schema")
                .and_then(Value::as_str)
                .and_then(draft_of)
                .unwrap_or(draft);
            index.add_resource(uri.as_str(), document);
            if index.resources.len() == 1 {
                index.walk(document, uri.clone(), draft, limits, problems);
            } else {
                // A document given beside the schema is checked where the schema uses it
                // (its subschemas compile when a `$ref` reaches them); what the index finds
                // odd in the rest of it is not the schema's problem.
                index.walk(
                    document,
                    uri.clone(),
                    draft,
                    limits,
                    &mut Problems::default(),
                );
            }
        }
        index
    }

    fn add_resource(&mut self, uri: &str, value: &'d Value) {
        if !self.resources.contains_key(uri) {
            self.resource_order.push(uri.to_owned());
        }
        self.resources.entry(uri.to_owned()).or_insert(value);
    }

    fn walk(
        &mut self,
        root: &'d Value,
        base: BaseUri,
        draft: Draft,
        limits: &SchemaLimits,
        problems: &mut Problems,
    ) {
        let mut stack = vec![(root, base, draft, String::new(), true)];
        while let Some((value, base, draft, location, value_position)) = stack.pop() {
            let Value::Object(map) = value else {
                self.places.insert(
                    address(value),
                    Place {
                        base,
                        draft,
                        location,
                        value_position,
                    },
                );
                continue;
            };
            self.subschemas += 1;
            if self.subschemas > limits.max_subschemas {
                problems.push(
                    location,
                    format!(
                        "the schema has more than {} subschemas (SchemaLimits::max_subschemas)",
                        limits.max_subschemas
                    ),
                );
                return;
            }
            // An embedded resource may say which draft it is written in.
            let draft = match map.get("$schema").and_then(Value::as_str) {
                Some(uri) if map.contains_key("$id") || location.is_empty() => {
                    draft_of(uri).unwrap_or(draft)
                }
                _ => draft,
            };
            // In draft-07, `$ref` makes every sibling keyword, `$id` too, be ignored.
            let ref_alone = draft == Draft::Draft7 && map.contains_key("$ref");
            let mut base = base;
            if let (Some(Value::String(id)), false) = (map.get(id_keyword(draft)), ref_alone) {
                match base.resolve(id) {
                    Ok((uri, fragment)) => {
                        match fragment.as_deref() {
                            None | Some("") => {
                                base = uri;
                                self.add_resource(base.as_str(), value);
                            }
                            // draft-07: `"$id": "#name"` is an anchor; `"$id": "other#name"`
                            // is both.
                            Some(name) if draft == Draft::Draft7 && !name.starts_with('/') => {
                                if uri != base {
                                    base = uri;
                                    self.add_resource(base.as_str(), value);
                                }
                                self.anchors
                                    .entry(format!("{}#{name}", base.as_str()))
                                    .or_insert(value);
                            }
                            Some(_) => problems.push(
                                format!("{location}/$id"),
                                "`$id` must not have a fragment (use `$anchor`)".to_owned(),
                            ),
                        }
                    }
                    Err(reason) => {
                        problems.push(
                            format!("{location}/$id"),
                            format!("invalid `$id`: {reason}"),
                        );
                    }
                }
            }
            if draft != Draft::Draft7 {
                for (keyword, table) in [("$anchor", false), ("$dynamicAnchor", true)] {
                    match map.get(keyword) {
                        None => {}
                        Some(Value::String(name)) if is_anchor_name(name) => {
                            let key = format!("{}#{name}", base.as_str());
                            self.anchors.entry(key.clone()).or_insert(value);
                            if table {
                                self.dynamic_anchors.entry(key).or_insert(value);
                            }
                        }
                        Some(_) => problems.push(
                            format!("{location}/{keyword}"),
                            format!("`{keyword}` must be a plain name (a letter or `_` first)"),
                        ),
                    }
                }
                if map.contains_key("$dynamicRef") || map.contains_key("$recursiveRef") {
                    self.has_dynamic_ref = true;
                }
            }
            self.places.insert(
                address(value),
                Place {
                    base: base.clone(),
                    draft,
                    location: location.clone(),
                    value_position,
                },
            );
            if ref_alone {
                // Its siblings are not schemas; `definitions` beside a `$ref` still are, as
                // the draft's own tests use them.
                if let Some(Value::Object(defs)) = map.get("definitions") {
                    for (name, sub) in defs {
                        let at = format!("{location}/definitions/{}", escape_token(name));
                        stack.push((sub, base.clone(), draft, at, false));
                    }
                }
                continue;
            }
            for (keyword, sub) in map {
                let keyword = keyword.as_str();
                let holds = holds_values(keyword);
                if SINGLE.contains(&keyword) || keyword == "items" && !sub.is_array() {
                    stack.push((
                        sub,
                        base.clone(),
                        draft,
                        format!("{location}/{keyword}"),
                        holds,
                    ));
                } else if ARRAYS.contains(&keyword) || keyword == "items" {
                    if let Value::Array(subs) = sub {
                        for (i, sub) in subs.iter().enumerate() {
                            stack.push((
                                sub,
                                base.clone(),
                                draft,
                                format!("{location}/{keyword}/{i}"),
                                holds,
                            ));
                        }
                    }
                } else if MAPS.contains(&keyword)
                    && let Value::Object(subs) = sub
                {
                    for (name, sub) in subs {
                        // `dependencies` also holds lists of names, which are not schemas.
                        if keyword == "dependencies" && sub.is_array() {
                            continue;
                        }
                        let at = format!("{location}/{keyword}/{}", escape_token(name));
                        stack.push((sub, base.clone(), draft, at, holds));
                    }
                }
            }
        }
    }
}

/// The keyword that names a resource in `draft`.
fn id_keyword(_draft: Draft) -> &'static str {
    "$id"
}

/// JSON Schema's anchor names: a letter or `_`, then letters, digits, `-`, `_`, `.`.
fn is_anchor_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A key as a JSON pointer token.
pub(super) fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
