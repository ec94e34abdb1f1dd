//! What validation does for models before JSON Schema's own checks: `null` for an optional
//! property that cannot be `null` reads as "not given", and an absent property gets its
//! `default`. They follow the schemas that certainly apply to a part of the value
//! (`properties`, `additionalProperties` where no pattern applies, items, `$ref`, `allOf`,
//! and the variant of a union the value was meant to be), never a guess.

use serde_json::Value;

use super::Compiled;
use super::keywords::composition::meant_variant;
use super::node::{Keyword, NodeId};
use super::validate::is_valid_at;

/// How deep the policies follow the value and the schema (a value nested deeper keeps what
/// it was given there, and is still validated).
const DEPTH: usize = 64;

/// Applies the policies the schema was compiled with to `value`.
pub(super) fn prepare(schema: &Compiled, value: &mut Value) {
    let options = &schema.options;
    if options.null_as_absent || options.fill_defaults {
        // One budget for every check the policies make, as for the validation after them.
        let mut budget = options.limits.max_evaluations;
        apply(schema, schema.arena.root, value, 0, &mut budget);
    }
}

fn apply(schema: &Compiled, id: NodeId, value: &mut Value, depth: usize, budget: &mut usize) {
    if depth > DEPTH || *budget == 0 {
        return;
    }
    let node = &schema.arena.nodes[id as usize];
    let options = &schema.options;
    for keyword in &node.keywords {
        match keyword {
            Keyword::Properties(properties) => {
                let Value::Object(object) = value else {
                    continue;
                };
                let required = |name: &str| {
                    properties.requires(name)
                        || node.keywords.iter().any(|k| {
                            matches!(k, Keyword::Required(names) if names.iter().any(|n| n == name))
                        })
                };
                for (name, sub) in &properties.named {
                    if options.null_as_absent
                        && object.get(name).is_some_and(Value::is_null)
                        && !required(name)
                        && !is_valid_at(schema, *sub, &Value::Null, budget)
                    {
                        object.remove(name);
                    }
                    if options.fill_defaults
                        && !object.contains_key(name)
                        && let Some(default) = &schema.arena.nodes[*sub as usize].default
                    {
                        object.insert(name.clone(), default.clone());
                    }
                }
                // A key no name declares is `additionalProperties`' (a map's value), certainly
                // when no pattern could claim it.
                let additional = properties
                    .additional
                    .filter(|_| properties.patterns.is_empty());
                for (key, member) in object.iter_mut() {
                    if let Some(sub) = properties.get(key).or(additional) {
                        apply(schema, sub, member, depth + 1, budget);
                    }
                }
            }
            Keyword::Items { prefix, rest } => {
                let Value::Array(items) = value else {
                    continue;
                };
                for (i, item) in items.iter_mut().enumerate() {
                    match prefix.get(i).copied().or(*rest) {
                        Some(sub) => apply(schema, sub, item, depth + 1, budget),
                        None => break,
                    }
                }
            }
            Keyword::Ref(target) | Keyword::DynamicRef { target, .. } => {
                apply(schema, *target, value, depth + 1, budget);
            }
            Keyword::AllOf(branches) => {
                for &branch in branches.iter() {
                    apply(schema, branch, value, depth + 1, budget);
                }
            }
            Keyword::AnyOf(branches) | Keyword::OneOf(branches) => {
                if let Some(branch) = meant_variant(schema, branches, value, budget) {
                    apply(schema, branch, value, depth + 1, budget);
                }
            }
            _ => {}
        }
    }
}
