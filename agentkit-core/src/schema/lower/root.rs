//! The root of a declaration: one object, whatever the schema's root is.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::refs;
use super::sentences::{append, literal};
use super::{Loosened, Lowered, Target};

/// The declaration without strict (OpenAI's, Anthropic's): the schema whole, its root made
/// an object (both APIs refuse any other root).
pub(super) fn plain(schema: &Value, target: Target) -> Lowered {
    let mut loosened = Vec::new();
    let root = root_object(schema, &mut loosened, true);
    Lowered {
        schema: Value::Object(root),
        target,
        not_strict: None,
        loosened,
    }
}

/// The root as an object schema: a lone `$ref` (or `allOf`) merged in, a union of objects
/// merged into one object whose properties are every variant's (none required, the variants
/// stated in the description), and `"type": "object"`.
pub(super) fn root_object(
    schema: &Value,
    loosened: &mut Vec<Loosened>,
    keep_rest: bool,
) -> Map<String, Value> {
    let Value::Object(map) = schema else {
        return Map::from_iter([("type".to_owned(), Value::from("object"))]);
    };
    let anchors = refs::anchors(schema);
    let mut conflicts = Vec::new();
    let mut root = map.clone();
    if let Some(Value::String(reference)) = root.get("$ref").cloned()
        && let Some(Value::Object(named)) =
            refs::target(&reference, &anchors).and_then(|p| refs::resolve(schema, &p))
        && !named.contains_key("$ref")
    {
        root.remove("$ref");
        root.insert("allOf".into(), json!([named]));
    }
    let mut root = if keep_rest && !root.contains_key("allOf") {
        root
    } else {
        refs::flatten(schema, &root, &anchors, &mut conflicts)
    };
    for (keyword, value) in conflicts {
        loosened.push(Loosened {
            pointer: String::new(),
            keyword: keyword.clone(),
        });
        let sentence = format!("Also `{keyword}`: {}.", literal(&value));
        describe(&mut root, &[sentence]);
    }
    if !root.contains_key("properties") {
        let union = ["anyOf", "oneOf"]
            .into_iter()
            .find(|key| matches!(root.get(*key), Some(Value::Array(_))));
        if let Some(key) = union
            && let Some(Value::Array(variants)) = root.remove(key)
        {
            merge_union(schema, &anchors, &variants, &mut root);
            loosened.push(Loosened {
                pointer: String::new(),
                keyword: key.to_owned(),
            });
        }
    }
    if root.get("type") != Some(&Value::from("object")) {
        if root.contains_key("type") {
            loosened.push(Loosened {
                pointer: String::new(),
                keyword: "type".into(),
            });
        }
        root.insert("type".into(), Value::from("object"));
    }
    root
}

/// The variants of a root union merged into `root`: each property of every variant (a name
/// two variants type differently takes either form), none required; the description says
/// which keys each variant needs.
fn merge_union(
    document: &Value,
    anchors: &HashMap<String, String>,
    variants: &[Value],
    root: &mut Map<String, Value>,
) {
    let mut properties: Vec<(String, Vec<Value>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut forms = Vec::new();
    for variant in variants {
        let Value::Object(variant) = variant else {
            continue;
        };
        let mut conflicts = Vec::new();
        let variant = match variant.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                match refs::target(reference, anchors).and_then(|p| refs::resolve(document, &p)) {
                    Some(Value::Object(named)) => {
                        refs::flatten(document, named, anchors, &mut conflicts)
                    }
                    _ => variant.clone(),
                }
            }
            None => refs::flatten(document, variant, anchors, &mut conflicts),
        };
        let Some(Value::Object(declared)) = variant.get("properties") else {
            continue;
        };
        for (name, schema) in declared {
            match index.get(name) {
                Some(&at) if !properties[at].1.contains(schema) => {
                    properties[at].1.push(schema.clone());
                }
                Some(_) => {}
                None => {
                    index.insert(name.clone(), properties.len());
                    properties.push((name.clone(), vec![schema.clone()]));
                }
            }
        }
        let required: Vec<&str> = match variant.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let keys: Vec<&str> = if required.is_empty() {
            declared.keys().map(String::as_str).collect()
        } else {
            required
        };
        forms.push(keys.join(", "));
    }
    let mut merged = Map::new();
    for (name, schemas) in properties {
        let schema = match <[Value; 1]>::try_from(schemas) {
            Ok([one]) => one,
            Err(many) => merge_forms(many),
        };
        merged.insert(name, schema);
    }
    root.insert("properties".into(), Value::Object(merged));
    let listed: Vec<String> = forms
        .iter()
        .take(12)
        .enumerate()
        .map(|(index, keys)| format!("({}) {keys}", index + 1))
        .collect();
    let sentence = format!(
        "Send the keys of one of {} forms: {}.",
        forms.len(),
        listed.join("; ")
    );
    describe(root, &[sentence]);
}

/// One property's schemas from several variants: their `const`s as one `enum`, else their
/// union.
fn merge_forms(schemas: Vec<Value>) -> Value {
    let consts: Option<Vec<Value>> = schemas
        .iter()
        .map(|schema| schema.get("const").cloned())
        .collect();
    match consts {
        Some(values) => {
            let mut merged = json!({"enum": values});
            if let Some(ty) = schemas[0].get("type")
                && schemas.iter().all(|s| s.get("type") == Some(ty))
            {
                merged["type"] = ty.clone();
            }
            merged
        }
        None => json!({"anyOf": schemas}),
    }
}

/// `sentences` appended to `schema`'s description.
pub(super) fn describe(schema: &mut Map<String, Value>, sentences: &[String]) {
    if sentences.is_empty() {
        return;
    }
    let mut description = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    for sentence in sentences {
        description = append(&description, sentence);
    }
    schema.insert("description".into(), Value::from(description));
}
