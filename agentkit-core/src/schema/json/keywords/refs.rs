//! `$ref` and `$dynamicRef` (and 2019-09's `$recursiveRef`, read as a `$ref`).

use serde_json::{Map, Value};

use crate::schema::json::Draft;
use crate::schema::json::compile::Compiler;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Keyword, NodeId};
use crate::schema::json::uri::BaseUri;
use crate::schema::json::validate::Cx;

pub(in crate::schema::json) fn compile<'d>(
    c: &mut Compiler<'d, '_>,
    map: &'d Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    for keyword in ["$ref", "$recursiveRef"] {
        match map.get(keyword) {
            None => {}
            Some(Value::String(reference)) => {
                if let Some((id, _)) = c.resolve(reference, place, keyword) {
                    out.push(Keyword::Ref(id));
                }
            }
            Some(_) => c.problem(
                &format!("{}/{keyword}", place.location),
                format!("`{keyword}` must be a string"),
            ),
        }
    }
    if place.draft == Draft::Draft7 {
        return;
    }
    match map.get("$dynamicRef") {
        None => {}
        Some(Value::String(reference)) => {
            if let Some((target, schema)) = c.resolve(reference, place, "$dynamicRef") {
                // The dynamic lookup applies only when the reference lands on a
                // `$dynamicAnchor` of the same name; otherwise it is a plain `$ref`.
                let fragment = place
                    .base
                    .resolve(reference)
                    .ok()
                    .and_then(|(_, fragment): (BaseUri, Option<String>)| fragment);
                let anchor = fragment.filter(|name| {
                    !name.starts_with('/')
                        && schema.get("$dynamicAnchor").and_then(Value::as_str) == Some(name)
                });
                out.push(Keyword::DynamicRef { target, anchor });
            }
        }
        Some(_) => c.problem(
            &format!("{}/$dynamicRef", place.location),
            "`$dynamicRef` must be a string",
        ),
    }
}

/// Where a `$dynamicRef` lands: the outermost resource of the dynamic scope with a
/// `$dynamicAnchor` of its name, else its static target.
pub(in crate::schema::json) fn dynamic_target(
    cx: &Cx<'_>,
    target: NodeId,
    anchor: Option<&str>,
) -> NodeId {
    let Some(name) = anchor else {
        return target;
    };
    let resources = &cx.schema.arena.resources;
    cx.scope
        .iter()
        .find_map(|&r| resources.get(r as usize)?.dynamic.get(name).copied())
        .unwrap_or(target)
}
