//! Reading a schema document before it is lowered: local `$ref`s resolved (JSON pointers and
//! `$anchor`s, in `$defs` of 2020-12 and `definitions` of draft-07 alike), `allOf` and a
//! `$ref` with siblings merged into one schema object, and a type list split into a union.
//!
//! Everything here works on the schema *value* ([`JsonSchema::as_value`]), never on the
//! validator's compiled form: lowering changes only what a model is shown.
//!
//! [`JsonSchema::as_value`]: crate::JsonSchema::as_value

use std::collections::HashMap;

use serde_json::{Map, Value};

/// How many `allOf`/`$ref` levels [`flatten`] merges before it leaves the rest as it is: a
/// bound, since a `$ref` may point back to the schema that holds it.
const FLATTEN_DEPTH: usize = 8;

/// The `$anchor`s of a document, by name, with the JSON pointer of the schema holding each.
pub(super) fn anchors(root: &Value) -> HashMap<String, String> {
    let mut found = HashMap::new();
    // A work list, not recursion: the document was bounded when it was compiled, but a walk
    // over every value must not depend on that.
    let mut pending = vec![(root, String::new())];
    while let Some((value, pointer)) = pending.pop() {
        match value {
            Value::Object(object) => {
                if let Some(Value::String(name)) = object.get("$anchor") {
                    found.entry(name.clone()).or_insert_with(|| pointer.clone());
                }
                for (key, child) in object {
                    pending.push((child, format!("{pointer}/{}", escape(key))));
                }
            }
            Value::Array(items) => {
                for (index, child) in items.iter().enumerate() {
                    pending.push((child, format!("{pointer}/{index}")));
                }
            }
            _ => {}
        }
    }
    found
}

/// How many JSON objects `root` holds, at any depth.
pub(super) fn objects(root: &Value) -> usize {
    let mut count = 0;
    let mut pending = vec![root];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(object) => {
                count += 1;
                pending.extend(object.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    count
}

/// A JSON pointer's token for `key`.
pub(super) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The JSON pointer (`""` for the root) a local `$ref` names: `#`, `#/json/pointer`
/// (percent-encoded or not) or `#anchor`. `None` for any other reference (another document,
/// a relative URI): lowering does not resolve those.
pub(super) fn target(reference: &str, anchors: &HashMap<String, String>) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let fragment = percent_decode(fragment);
    if fragment.is_empty() || fragment.starts_with('/') {
        Some(fragment)
    } else {
        anchors.get(&fragment).cloned()
    }
}

/// `%XX` escapes decoded, as a URI fragment is written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[index], bytes.get(index + 1), bytes.get(index + 2)) {
            (b'%', Some(&high), Some(&low)) if hex(high).is_some() && hex(low).is_some() => {
                let value = hex(high).unwrap_or(0) * 16 + hex(low).unwrap_or(0);
                out.push(u8::try_from(value).unwrap_or(b'?'));
                index += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The schema at `pointer` in `root`.
pub(super) fn resolve<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    root.pointer(pointer)
}

/// A name for the schema at `pointer` in the lowered `$defs`: its last token, reduced to the
/// characters every API takes in a name.
pub(super) fn def_name(pointer: &str) -> String {
    let last = pointer.rsplit('/').next().unwrap_or_default();
    let last = last.replace("~1", "/").replace("~0", "~");
    let name: String = last
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "schema".to_owned()
    } else {
        name
    }
}

/// The keywords that only annotate a schema: beside a `$ref`, they do not make it an
/// intersection worth merging.
pub(super) fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "description"
            | "title"
            | "default"
            | "examples"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "$comment"
            | "$schema"
            | "$id"
            | "$anchor"
            | "$defs"
            | "definitions"
    )
}

/// `schema` with its `allOf` merged into it, and a `$ref` beside other constraints merged
/// too (JSON Schema reads both as "all of these"), up to [`FLATTEN_DEPTH`] levels: the form
/// the targets without `allOf` (and without `$ref` siblings) can declare.
///
/// A keyword two parts both give with different values is kept from the first part and named
/// in the returned list, for the description to state. `properties` and `required` are
/// united; `description`s are joined.
pub(super) fn flatten(
    root: &Value,
    schema: &Map<String, Value>,
    anchors: &HashMap<String, String>,
    conflicts: &mut Vec<(String, Value)>,
) -> Map<String, Value> {
    flatten_at(root, schema, anchors, conflicts, 0)
}

fn flatten_at(
    root: &Value,
    schema: &Map<String, Value>,
    anchors: &HashMap<String, String>,
    conflicts: &mut Vec<(String, Value)>,
    depth: usize,
) -> Map<String, Value> {
    let has_all_of = matches!(schema.get("allOf"), Some(Value::Array(_)));
    let ref_with_siblings = schema.contains_key("$ref")
        && schema
            .keys()
            .any(|key| key != "$ref" && !is_annotation(key));
    if depth >= FLATTEN_DEPTH || !(has_all_of || ref_with_siblings) {
        return schema.clone();
    }
    let mut merged = schema.clone();
    let mut parts = Vec::new();
    if let Some(Value::Array(all_of)) = merged.remove("allOf") {
        parts.extend(all_of);
    }
    // `allOf: [{"$ref": ...}]` beside annotations (pydantic's way of describing a field of a
    // model's type) is a reference, described: kept a reference, so that a recursive one
    // stays one.
    let annotations_only = |map: &Map<String, Value>| map.keys().all(|key| is_annotation(key));
    let (references, others): (Vec<&Value>, Vec<&Value>) = parts.iter().partition(|part| {
        part.as_object().is_some_and(|p| {
            p.contains_key("$ref") && p.keys().all(|k| k == "$ref" || is_annotation(k))
        })
    });
    let only_annotations_beside = others
        .iter()
        .all(|part| part.as_object().is_some_and(annotations_only) || **part == Value::Bool(true));
    if references.len() == 1 && only_annotations_beside && annotations_only(&merged) {
        let mut described = merged;
        for part in others
            .into_iter()
            .chain(references)
            .filter_map(Value::as_object)
        {
            for (key, value) in part {
                described
                    .entry(key.clone())
                    .or_insert_with(|| value.clone());
            }
        }
        return described;
    }
    if ref_with_siblings && let Some(reference) = merged.remove("$ref") {
        parts.insert(
            0,
            Value::Object(Map::from_iter([("$ref".into(), reference)])),
        );
    }
    for part in parts {
        let part = match part {
            Value::Bool(true) => continue,
            Value::Object(part) => part,
            other => {
                conflicts.push(("allOf".into(), other));
                continue;
            }
        };
        // A part that is only a `$ref` is merged as the schema it names.
        let part = match part.get("$ref").and_then(Value::as_str) {
            Some(reference) if part.len() == 1 => {
                match target(reference, anchors).and_then(|p| resolve(root, &p)) {
                    Some(Value::Object(named)) => named.clone(),
                    _ => part,
                }
            }
            _ => part,
        };
        let part = flatten_at(root, &part, anchors, conflicts, depth + 1);
        merge_into(&mut merged, part, conflicts);
    }
    merged
}

/// `part`'s keywords added to `merged` (see [`flatten`]).
fn merge_into(
    merged: &mut Map<String, Value>,
    part: Map<String, Value>,
    conflicts: &mut Vec<(String, Value)>,
) {
    for (key, value) in part {
        match (key.as_str(), merged.get_mut(&key), value) {
            (_, None, value) => {
                merged.insert(key, value);
            }
            ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                for (name, schema) in theirs {
                    mine.entry(name).or_insert(schema);
                }
            }
            ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                let known: std::collections::HashSet<Value> = mine.iter().cloned().collect();
                mine.extend(theirs.into_iter().filter(|name| !known.contains(name)));
            }
            ("description", Some(Value::String(mine)), Value::String(theirs)) => {
                if !mine.contains(theirs.as_str()) {
                    *mine = super::sentences::append(mine, &theirs);
                }
            }
            ("$defs" | "definitions" | "title" | "examples" | "$comment", Some(_), _) => {}
            (_, Some(mine), value) => {
                if *mine != value {
                    conflicts.push((key, value));
                }
            }
        }
    }
}

/// The keywords that constrain only values of one JSON type, by the type they belong to.
fn type_of_keyword(key: &str) -> Option<&'static str> {
    Some(match key {
        "minLength" | "maxLength" | "pattern" | "format" => "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "items" | "prefixItems" | "minItems" | "maxItems" | "uniqueItems" | "contains"
        | "minContains" | "maxContains" | "additionalItems" | "unevaluatedItems" => "array",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "unevaluatedProperties"
        | "dependencies" => "object",
        _ => return None,
    })
}

/// A schema whose `type` lists two or more types besides `null` (or, with `with_null`, two
/// or more types, `null` counted), rewritten as an `anyOf` of one branch per type, each with
/// the keywords of its type (and `null`, if listed, as a branch of its own); `None` when
/// `type` lists fewer or the schema has an `anyOf` already. For the targets that take a type
/// list only as "this type or null" (or, `with_null`, take none).
pub(super) fn split_types(
    schema: &Map<String, Value>,
    with_null: bool,
) -> Option<Map<String, Value>> {
    let Some(Value::Array(types)) = schema.get("type") else {
        return None;
    };
    let types: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
    let counted = types.iter().filter(|t| with_null || **t != "null").count();
    if counted < 2 || schema.contains_key("anyOf") {
        return None;
    }
    let mut parent = Map::new();
    let mut branches: Vec<Map<String, Value>> = types
        .iter()
        .map(|ty| Map::from_iter([("type".to_owned(), Value::from(*ty))]))
        .collect();
    for (key, value) in schema {
        if key == "type" {
            continue;
        }
        match type_of_keyword(key) {
            Some(family) => {
                for (branch, ty) in branches.iter_mut().zip(&types) {
                    let matches = *ty == family || (family == "number" && *ty == "integer");
                    if matches {
                        branch.insert(key.clone(), value.clone());
                    }
                }
            }
            None if matches!(key.as_str(), "enum" | "const") => {
                for branch in &mut branches {
                    branch.insert(key.clone(), value.clone());
                }
            }
            None => {
                parent.insert(key.clone(), value.clone());
            }
        }
    }
    parent.insert(
        "anyOf".into(),
        Value::Array(branches.into_iter().map(Value::Object).collect()),
    );
    Some(parent)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn local_references_are_pointers_or_anchors() {
        let root = json!({"$defs": {"a b": {"$anchor": "here", "type": "string"}}});
        let anchors = anchors(&root);
        assert_eq!(target("#", &anchors).as_deref(), Some(""));
        assert_eq!(
            target("#/$defs/a%20b", &anchors).as_deref(),
            Some("/$defs/a b")
        );
        assert_eq!(target("#here", &anchors).as_deref(), Some("/$defs/a b"));
        assert_eq!(target("#nowhere", &anchors), None);
        assert_eq!(target("other.json#/x", &anchors), None);
        assert_eq!(def_name("/$defs/a b"), "a_b");
        assert_eq!(def_name("/definitions/x~1y"), "x_y");
    }

    #[test]
    fn all_of_and_ref_siblings_merge() {
        let root = json!({"$defs": {"Base": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}});
        let schema = json!({
            "allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"name": {"type": "string"}}, "required": ["name"]}],
            "description": "A thing",
        });
        let mut conflicts = Vec::new();
        let flat = flatten(
            &root,
            schema.as_object().unwrap(),
            &anchors(&root),
            &mut conflicts,
        );
        assert_eq!(
            Value::Object(flat),
            json!({"description": "A thing", "type": "object",
                   "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                   "required": ["id", "name"]})
        );
        assert!(conflicts.is_empty());
        let clash = json!({"type": "string", "allOf": [{"type": "integer"}]});
        let flat = flatten(
            &root,
            clash.as_object().unwrap(),
            &HashMap::new(),
            &mut conflicts,
        );
        assert_eq!(Value::Object(flat), json!({"type": "string"}));
        assert_eq!(conflicts, [("type".to_owned(), json!("integer"))]);
    }

    #[test]
    fn type_lists_split_by_keyword_family() {
        let schema = json!({"type": ["string", "integer", "null"], "minLength": 1, "minimum": 0, "description": "d"});
        let split = split_types(schema.as_object().unwrap(), false).unwrap();
        assert_eq!(
            Value::Object(split),
            json!({"description": "d", "anyOf": [
                {"type": "string", "minLength": 1},
                {"type": "integer", "minimum": 0},
                {"type": "null"},
            ]})
        );
        let nullable = json!({"type": ["string", "null"], "pattern": "^a", "description": "d"});
        assert!(split_types(nullable.as_object().unwrap(), false).is_none());
        // Where a target takes no type list at all, "this type or null" is split too.
        assert_eq!(
            Value::Object(split_types(nullable.as_object().unwrap(), true).unwrap()),
            json!({"description": "d", "anyOf": [{"type": "string", "pattern": "^a"}, {"type": "null"}]})
        );
        assert!(split_types(json!({"type": ["string"]}).as_object().unwrap(), true).is_none());
    }
}
