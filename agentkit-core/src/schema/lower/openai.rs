//! OpenAI's rules: strict mode (Chat Completions' and Responses' `"strict": true`, Structured
//! Outputs' supported subset) and the ordinary declaration.
//!
//! Strict mode takes `type` (a list only as "this type or `null`"), `properties`, `required`
//! naming every property, `additionalProperties: false` on every object, `items`, `anyOf`
//! (not at the root), `enum`, local `$ref`s into `$defs` (recursion included), `description`
//! and `title`; for strings `pattern` and some `format`s, for numbers `minimum`, `maximum`,
//! their exclusive forms and `multipleOf`, for arrays `minItems` and `maxItems`. It has no
//! `default`, `minLength`/`maxLength`, `allOf`, `oneOf`, `not`, `if`/`then`/`else`,
//! `dependent*`, `patternProperties`, `unevaluated*` or `prefixItems`. The root is an object
//! with at most 10 levels of nesting, 5,000 properties and 1,000 `enum` values in all.

use serde_json::Value;

use super::{Maps, Refs, Rules, TypeLists};

/// The `format`s strict mode takes.
const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// The most levels of nested objects strict mode takes.
pub(super) const MAX_NESTING: usize = 10;
/// The most properties strict mode takes in one schema.
pub(super) const MAX_PROPERTIES: usize = 5_000;
/// The most `enum` values strict mode takes in one schema.
pub(super) const MAX_ENUM_VALUES: usize = 1_000;

fn strict_keeps(key: &str, value: &Value) -> bool {
    match key {
        "pattern" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum"
        | "multipleOf" | "minItems" | "maxItems" => true,
        "format" => value.as_str().is_some_and(|f| FORMATS.contains(&f)),
        _ => false,
    }
}

/// Strict mode's rules.
pub(super) fn strict() -> Rules {
    Rules {
        name: "OpenAI's strict mode",
        strict: true,
        keeps: strict_keeps,
        all_required: true,
        refs: Refs::Keep,
        recursion: true,
        root_union: false,
        maps: Maps::Refuse,
        const_as_enum: true,
        enum_primitives_only: false,
        enum_strings_only: false,
        default_in_description: true,
        type_lists: TypeLists::SplitSeveral,
        tuples: false,
        union_beside_properties: false,
        openapi: false,
        limits: true,
    }
}
