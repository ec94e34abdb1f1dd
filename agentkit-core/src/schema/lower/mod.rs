//! Lowering one JSON Schema to what each model API's declaration takes.
//!
//! The executor validates arguments against a tool's whole schema; lowering changes only
//! what a model is *shown*. Each target keeps what it can express, states in the
//! description what it cannot ("At least 3 characters long.", "Matches the regular
//! expression `^[a-z]+$`."), and never drops a declared property. A strict mode that cannot
//! take a schema at all is not used for it: the tool is declared without strict, and the
//! [`Lowered`] says why. The rules of every target are in [the provider
//! docs](crate::provider#the-schemas-models-are-sent); `refs` reads references and merges
//! `allOf`, `root` makes the root one object, `walk` rewrites each schema (`compound` the
//! keywords holding schemas, `shape` the targets' forms of "or null"), `sentences` words
//! what is stated, and one file per family holds a family's rules.

mod anthropic;
mod compound;
mod gemini;
mod openai;
mod refs;
mod root;
mod sentences;
mod shape;
mod walk;

use serde_json::Value;

/// A declaration a schema is lowered for.
///
/// ```
/// use agentkit_core::provider::{Target, lower_json_schema};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "name": {"type": "string", "minLength": 1},
///     "tags": {"type": "object", "additionalProperties": {"type": "string"}},
/// }});
/// let lowered = lower_json_schema(&schema, Target::OpenAiStrict);
/// // A map of any keys is not something strict mode can declare: not strict, and why.
/// assert_eq!(lowered.target(), Target::OpenAi);
/// assert!(lowered.not_strict_because().unwrap().contains("/properties/tags"));
/// assert_eq!(lowered.schema()["properties"]["tags"]["additionalProperties"]["type"], "string");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Target {
    /// OpenAI Chat Completions or Responses with `"strict": true`.
    OpenAiStrict,
    /// OpenAI without strict: the schema whole, its root an object.
    OpenAi,
    /// Anthropic's strict tool use (`"strict": true`).
    AnthropicStrict,
    /// Anthropic without strict: the schema whole, its root an object.
    Anthropic,
    /// Gemini's `parametersJsonSchema`.
    GeminiJsonSchema,
    /// Gemini's `parameters`: the OpenAPI 3.0 subset, for APIs that take nothing else.
    GeminiOpenApi,
    /// MCP's `inputSchema`: the schema as written (MCP takes every JSON Schema keyword).
    Mcp,
}

impl Target {
    /// Whether this is a strict mode.
    pub fn is_strict(self) -> bool {
        matches!(self, Target::OpenAiStrict | Target::AnthropicStrict)
    }

    /// The target a schema the strict mode cannot take is declared for instead.
    fn without_strict(self) -> Option<Target> {
        match self {
            Target::OpenAiStrict => Some(Target::OpenAi),
            Target::AnthropicStrict => Some(Target::Anthropic),
            _ => None,
        }
    }

    fn rules(self) -> Option<Rules> {
        Some(match self {
            Target::OpenAiStrict => openai::strict(),
            Target::AnthropicStrict => anthropic::strict(),
            Target::GeminiJsonSchema => gemini::json_schema(),
            Target::GeminiOpenApi => gemini::openapi(),
            Target::OpenAi | Target::Anthropic | Target::Mcp => return None,
        })
    }
}

/// A keyword a target could not take, stated in the description instead (or, for a
/// recursive reference written out to a bounded depth, not followed further).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loosened {
    /// The JSON pointer, in the schema as written, of the schema object holding the keyword.
    pub pointer: String,
    /// The keyword.
    pub keyword: String,
}

/// A schema lowered for a [`Target`]: what the declaration carries, for which target (the
/// one asked, or the same API without strict), why not strict, and what was loosened.
#[derive(Debug, Clone, PartialEq)]
pub struct Lowered {
    schema: Value,
    target: Target,
    not_strict: Option<String>,
    loosened: Vec<Loosened>,
}

impl Lowered {
    /// The schema to declare.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The schema to declare, owned.
    pub fn into_schema(self) -> Value {
        self.schema
    }

    /// The target the schema was lowered for: the one asked, or, when its strict mode could
    /// not take the schema, the same API without strict.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether the declaration is strict.
    pub fn is_strict(&self) -> bool {
        self.target.is_strict()
    }

    /// Why a strict mode was asked for and not used (the first reason found, naming the
    /// schema's JSON pointer); `None` when it was used or not asked for.
    pub fn not_strict_because(&self) -> Option<&str> {
        self.not_strict.as_deref()
    }

    /// The keywords stated in descriptions rather than declared, in the order met.
    pub fn loosened(&self) -> &[Loosened] {
        &self.loosened
    }

    pub(crate) fn exact(schema: Value, target: Target) -> Lowered {
        Lowered {
            schema,
            target,
            not_strict: None,
            loosened: Vec::new(),
        }
    }

    pub(crate) fn refused(mut self, reason: String) -> Lowered {
        self.not_strict = Some(reason);
        self
    }
}

/// `schema` (a tool's arguments, as JSON Schema 2020-12 or draft-07) lowered for `target`.
///
/// Lowering reads the schema's value only. A strict target that cannot take the schema
/// gives the same API's declaration without strict, with the reason in
/// [`Lowered::not_strict_because`].
pub fn lower(schema: &Value, target: Target) -> Lowered {
    let Some(rules) = target.rules() else {
        return match target {
            Target::Mcp => Lowered::exact(schema.clone(), target),
            _ => root::plain(schema, target),
        };
    };
    let lowered = walk::Lowerer::new(schema, rules).run(target);
    match (lowered.not_strict.clone(), target.without_strict()) {
        (Some(reason), Some(fallback)) => root::plain(schema, fallback).refused(reason),
        _ => lowered,
    }
}

/// What a family's rules say of the keywords that are not simply kept or stated.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rules {
    /// The target's name, for reasons.
    name: &'static str,
    /// Whether a schema the target cannot take is refused (a strict mode) rather than
    /// loosened.
    strict: bool,
    /// Whether the target takes this value of this assertion keyword (`minLength`,
    /// `pattern`, `format`, ...); the others are stated.
    keeps: fn(&str, &Value) -> bool,
    /// Whether every property is required (optional ones then nullable).
    all_required: bool,
    /// What becomes of `$ref`.
    refs: Refs,
    /// Whether a recursive reference is taken.
    recursion: bool,
    /// Whether a union at the root is merged into one object (else refused).
    root_union: bool,
    /// What becomes of an object with keys it does not name.
    maps: Maps,
    /// Whether `const` is declared as a one-value `enum`.
    const_as_enum: bool,
    /// Whether an `enum` of objects or arrays is stated rather than declared.
    enum_primitives_only: bool,
    /// Whether an `enum` of anything but strings is stated rather than declared.
    enum_strings_only: bool,
    /// Whether `default` is stated rather than declared.
    default_in_description: bool,
    /// Which lists of types are split into an `anyOf`.
    type_lists: TypeLists,
    /// Whether `prefixItems` is kept (else its schemas become the `items`' union).
    tuples: bool,
    /// Whether an `anyOf` beside `properties` is kept (else stated).
    union_beside_properties: bool,
    /// Whether the schema is the OpenAPI subset's (types in capitals, `nullable`).
    openapi: bool,
    /// Whether OpenAI's size limits apply.
    limits: bool,
}

/// What a target does with a list of types (`"type": ["string", "integer", "null"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TypeLists {
    /// Declared as written.
    Keep,
    /// A list of two or more types besides `null` is split into an `anyOf`; "this type or
    /// null" is kept.
    SplitSeveral,
    /// Every list of two or more types is split, "this type or null" too: the target's SDK
    /// takes only one type per schema (anthropic's `transform_schema`).
    SplitAll,
}

/// What a target does with `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refs {
    /// Local references, gathered into the root's `$defs`.
    Keep,
    /// Written out where they stand; a recursive one to a bounded depth.
    Inline,
}

/// What a target does with an object that takes keys it does not name
/// (`additionalProperties` other than `false`, `patternProperties`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Maps {
    /// Strict modes: every object is closed, so the schema is refused.
    Refuse,
    /// Declared.
    Keep,
    /// Stated in the description.
    State,
}
