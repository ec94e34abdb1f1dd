//! Gemini's two forms of a function's parameters.
//!
//! - `parametersJsonSchema` takes JSON Schema's `type` (lists included), `properties`,
//!   `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`,
//!   `minimum`, `maximum`, `enum`, `format`, `anyOf`, local `$ref`s into `$defs`,
//!   `description` and `title`, and the string bounds its Schema type has (`minLength`,
//!   `maxLength`, `pattern`, as the six-type declarations send them); other keywords are
//!   stated in the description.
//! - `parameters`, a Schema object from an OpenAPI 3.0 subset, takes `type` (one, in capitals),
//!   `nullable`, `format`, `description`, `title`, `enum` (of strings), `properties`,
//!   `required`, `items`, `anyOf`, `minItems`, `maxItems`, `minLength`, `maxLength`,
//!   `pattern`, `minimum`, `maximum`, `minProperties`, `maxProperties` and `default`: no
//!   `$ref` (local references are written out, a recursive one to a bounded depth), no
//!   `additionalProperties`, no `const` but as a one-value `enum`.

use serde_json::Value;

use super::{Maps, Refs, Rules, TypeLists};

fn json_schema_keeps(key: &str, _: &Value) -> bool {
    matches!(
        key,
        "format"
            | "minimum"
            | "maximum"
            | "minItems"
            | "maxItems"
            | "minLength"
            | "maxLength"
            | "pattern"
    )
}

fn openapi_keeps(key: &str, _: &Value) -> bool {
    matches!(
        key,
        "format"
            | "minimum"
            | "maximum"
            | "minItems"
            | "maxItems"
            | "minLength"
            | "maxLength"
            | "pattern"
            | "minProperties"
            | "maxProperties"
    )
}

/// `parametersJsonSchema`'s rules.
pub(super) fn json_schema() -> Rules {
    Rules {
        name: "Gemini's parametersJsonSchema",
        strict: false,
        keeps: json_schema_keeps,
        all_required: false,
        refs: Refs::Keep,
        recursion: true,
        root_union: true,
        maps: Maps::Keep,
        const_as_enum: true,
        enum_primitives_only: true,
        enum_strings_only: false,
        default_in_description: false,
        type_lists: TypeLists::Keep,
        tuples: true,
        union_beside_properties: true,
        openapi: false,
        limits: false,
    }
}

/// `parameters`' rules (the OpenAPI subset).
pub(super) fn openapi() -> Rules {
    Rules {
        name: "Gemini's OpenAPI Schema",
        strict: false,
        keeps: openapi_keeps,
        all_required: false,
        refs: Refs::Inline,
        recursion: true,
        root_union: true,
        maps: Maps::State,
        const_as_enum: true,
        enum_primitives_only: true,
        enum_strings_only: true,
        default_in_description: false,
        type_lists: TypeLists::SplitSeveral,
        tuples: false,
        union_beside_properties: false,
        openapi: true,
        limits: false,
    }
}
