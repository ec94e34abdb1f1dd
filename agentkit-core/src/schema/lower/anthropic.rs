//! Anthropic's strict tool use (structured outputs' supported subset).
//!
//! Strict tool use takes `type` (one type: the SDK's `transform_schema` takes no list, so a
//! list is split into an `anyOf`), `properties`, `required` (optional
//! properties stay optional), `additionalProperties: false` on every object, `items`,
//! `anyOf`, `allOf` (not with `$ref`), `enum` of plain values, `const`, `default`, local
//! `$ref`s into `$defs` or `definitions` but not recursive ones, `description`, `title`,
//! `pattern` (without backreferences or look-around, which agentkit refuses anyway), some
//! `format`s, and `minItems` of 0 or 1. It has no `minimum`/`maximum`/`multipleOf`,
//! `minLength`/`maxLength`, other array bounds, `oneOf`, `not`, `if`/`then`/`else`,
//! `prefixItems`, `patternProperties` or `additionalProperties` other than `false`.

use serde_json::Value;

use super::{Maps, Refs, Rules, TypeLists};

/// The `format`s strict tool use takes.
const FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

fn strict_keeps(key: &str, value: &Value) -> bool {
    match key {
        "pattern" => true,
        "minItems" => value.as_u64().is_some_and(|n| n <= 1),
        "format" => value.as_str().is_some_and(|f| FORMATS.contains(&f)),
        _ => false,
    }
}

/// Strict tool use's rules.
pub(super) fn strict() -> Rules {
    Rules {
        name: "Anthropic's strict tool use",
        strict: true,
        keeps: strict_keeps,
        all_required: false,
        refs: Refs::Keep,
        recursion: false,
        root_union: true,
        maps: Maps::Refuse,
        const_as_enum: false,
        enum_primitives_only: true,
        enum_strings_only: false,
        default_in_description: false,
        type_lists: TypeLists::SplitAll,
        tuples: false,
        union_beside_properties: false,
        openapi: false,
        limits: false,
    }
}
