//! JSON Schema (2020-12 and draft-07), checked in full: a small compiler.
//!
//! A schema document is indexed (`index`: its resources, anchors and base URIs, with `uri`),
//! compiled once into an arena of nodes with every `$ref` resolved (`compile`, one keyword
//! family a file under `keywords`), and validation walks that arena (`validate`), collecting
//! [`ValidationIssue`]s with their paths; the policies for models (`null` for "not given",
//! defaults filled) run first (`policies`).

mod compile;
mod error;
mod formats;
mod index;
mod keywords;
mod node;
mod pattern;
mod policies;
#[cfg(test)]
mod shape_tests;
mod uri;
mod validate;
mod verdict;
#[cfg(test)]
mod verdict_tests;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use self::compile::{Arena, Compiler};
use self::index::Index;
use self::uri::BaseUri;
use super::issue::{Issues, ValidationIssue};
use super::validate::UnknownArguments;

pub use error::{SchemaError, SchemaProblem};

/// The JSON Schema drafts agentkit validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Draft {
    /// Draft-07 (and the drafts 4 and 6 before it, read as draft-07).
    Draft7,
    /// 2019-09, read as 2020-12 (it differs in `$recursiveRef` and the array form of
    /// `items`, which is read as draft-07's).
    Draft2019_09,
    /// 2020-12: MCP's dialect, and the one a schema without `$schema` is read in.
    #[default]
    Draft2020_12,
}

/// The bounds a schema, and a validation against it, must stay within: a schema comes from
/// whoever serves a tool, a value from a model, and neither may cost a process its stack, its
/// memory or its time.
///
/// | limit | default | past it |
/// |---|---|---|
/// | [`max_depth`](Self::with_max_depth) | 128 | the schema (its JSON nesting) is refused |
/// | [`max_subschemas`](Self::with_max_subschemas) | 200,000 | the schema is refused |
/// | [`max_patterns`](Self::with_max_patterns) | 10,000 | the schema is refused |
/// | [`max_pattern_bytes`](Self::with_max_pattern_bytes) | 4,096 | the schema is refused |
/// | [`max_evaluations`](Self::with_max_evaluations) | 1,000,000 | validation stops with a [`TooComplex`](crate::IssueKind::TooComplex) issue |
/// | [`max_eval_depth`](Self::with_max_eval_depth) | 200 | validation stops with a `TooComplex` issue |
///
/// Patterns run on the `regex` crate's engine, in time linear in the text: no pattern can
/// make validation backtrack. `uniqueItems` hashes the items (linear), `enum` and unions cost
/// one comparison or one subschema per value or branch. A `$ref` that names a document not
/// given is refused, never fetched; a cycle of `$ref`s that never reaches a part of the value
/// is refused when the schema is compiled.
///
/// ```
/// use agentkit_core::{JsonSchema, SchemaLimits};
/// use serde_json::json;
///
/// let tight = SchemaLimits::default().with_max_depth(4);
/// let deep = json!({"properties": {"a": {"properties": {"b": {"properties": {"c": {}}}}}}});
/// assert!(JsonSchema::options().limits(tight).build(deep).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SchemaLimits {
    max_depth: usize,
    max_subschemas: usize,
    max_patterns: usize,
    max_pattern_bytes: usize,
    max_evaluations: usize,
    max_eval_depth: usize,
}

impl Default for SchemaLimits {
    fn default() -> Self {
        SchemaLimits::DEFAULT
    }
}

impl SchemaLimits {
    /// The defaults (see the table above).
    pub const DEFAULT: SchemaLimits = SchemaLimits {
        max_depth: 128,
        max_subschemas: 200_000,
        max_patterns: 10_000,
        max_pattern_bytes: 4096,
        max_evaluations: 1_000_000,
        max_eval_depth: 200,
    };

    /// Sets the deepest JSON nesting a schema document may have.
    #[must_use]
    pub const fn with_max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }

    /// Sets how many subschemas (schema objects) a document may hold.
    #[must_use]
    pub const fn with_max_subschemas(mut self, n: usize) -> Self {
        self.max_subschemas = n;
        self
    }

    /// Sets how many `pattern`s and `patternProperties` a document may hold.
    #[must_use]
    pub const fn with_max_patterns(mut self, n: usize) -> Self {
        self.max_patterns = n;
        self
    }

    /// Sets how long one pattern may be, in bytes.
    #[must_use]
    pub const fn with_max_pattern_bytes(mut self, n: usize) -> Self {
        self.max_pattern_bytes = n;
        self
    }

    /// Sets how many subschemas one validation may apply, counting each time one is applied
    /// to a part of the value.
    #[must_use]
    pub const fn with_max_evaluations(mut self, n: usize) -> Self {
        self.max_evaluations = n;
        self
    }

    /// Sets how deeply subschemas may nest while one value is validated (through the value's
    /// nesting and `$ref`s).
    #[must_use]
    pub const fn with_max_eval_depth(mut self, n: usize) -> Self {
        self.max_eval_depth = n;
        self
    }
}

/// How a [`JsonSchema`] is compiled and what its validation does beyond JSON Schema: see
/// [`JsonSchema::options`].
#[derive(Debug, Clone, PartialEq)]
pub struct JsonSchemaOptions {
    options: Options,
    resources: Vec<(String, Value)>,
}

#[derive(Debug, Clone, PartialEq)]
struct Options {
    draft: Draft,
    null_as_absent: bool,
    fill_defaults: bool,
    close_objects: bool,
    assert_formats: bool,
    limits: SchemaLimits,
}

impl Default for JsonSchemaOptions {
    fn default() -> Self {
        JsonSchemaOptions {
            options: Options {
                draft: Draft::Draft2020_12,
                null_as_absent: true,
                fill_defaults: true,
                close_objects: true,
                assert_formats: true,
                limits: SchemaLimits::DEFAULT,
            },
            resources: Vec::new(),
        }
    }
}

impl JsonSchemaOptions {
    /// JSON Schema exactly as the specification says it, with none of agentkit's policies
    /// for models: `null` is a value like any other, defaults are annotations, an object
    /// that says nothing about extra keys accepts them, and `format` is an annotation (as
    /// 2020-12's format-annotation vocabulary says). The JSON-Schema-Test-Suite runs with
    /// these.
    #[must_use]
    pub fn standard() -> Self {
        JsonSchemaOptions::default()
            .null_as_absent(false)
            .fill_defaults(false)
            .close_objects(false)
            .assert_formats(false)
    }

    /// The draft a schema without `$schema` is read in (2020-12 unless set).
    #[must_use]
    pub fn draft(mut self, draft: Draft) -> Self {
        self.options.draft = draft;
        self
    }

    /// Whether `null` for a property the object does not require, whose schema does not
    /// accept `null`, reads as "not given" (on by default): models in strict mode send `null`
    /// for the optional parameters they leave out. Where the property's schema accepts
    /// `null` (`"type": ["string", "null"]`, pydantic's `anyOf` with `null`), `null` is kept
    /// as the value it is.
    #[must_use]
    pub fn null_as_absent(mut self, on: bool) -> Self {
        self.options.null_as_absent = on;
        self
    }

    /// Whether a property absent from an object gets its schema's `default` (on by
    /// default), before the object is validated.
    #[must_use]
    pub fn fill_defaults(mut self, on: bool) -> Self {
        self.options.fill_defaults = on;
        self
    }

    /// Whether an object schema that declares `properties` and says nothing about other keys
    /// (no `additionalProperties`, `patternProperties` or `unevaluatedProperties`) refuses
    /// them (on by default): a key a model invents is a misunderstanding it should be told
    /// of. Keys declared in any subschema that applies to the same object (`allOf`, a `$ref`,
    /// the variant of a union that matched) count as declared. The executor's
    /// [`UnknownArguments::Ignore`] turns this off per executor.
    #[must_use]
    pub fn close_objects(mut self, on: bool) -> Self {
        self.options.close_objects = on;
        self
    }

    /// Whether `format` is checked for the formats agentkit knows (on by default):
    /// `date-time`, `date`, `time`, `duration`, `email`, `idn-email`, `hostname`,
    /// `idn-hostname`, `ipv4`, `ipv6`, `uri`, `uri-reference`, `iri`, `iri-reference`,
    /// `uri-template`, `uuid`, `json-pointer`, `relative-json-pointer` and `regex`. Other
    /// formats are annotations.
    #[must_use]
    pub fn assert_formats(mut self, on: bool) -> Self {
        self.options.assert_formats = on;
        self
    }

    /// Sets the limits a schema and its validations must stay within.
    #[must_use]
    pub fn limits(mut self, limits: SchemaLimits) -> Self {
        self.options.limits = limits;
        self
    }

    /// Gives a document that `$ref`s may name by `uri` (an absolute URI): agentkit never
    /// fetches one, so a schema that refers to another document compiles only if that
    /// document is given here.
    ///
    /// ```
    /// use agentkit_core::JsonSchema;
    /// use serde_json::json;
    ///
    /// let schema = JsonSchema::options()
    ///     .resource("https://example.com/point.json", json!({"type": "object", "required": ["x"]}))
    ///     .build(json!({"$ref": "https://example.com/point.json"}))?;
    /// assert!(!schema.is_valid(&json!({"y": 1})));
    /// # Ok::<(), agentkit_core::SchemaError>(())
    /// ```
    #[must_use]
    pub fn resource(mut self, uri: impl Into<String>, document: Value) -> Self {
        self.resources.push((uri.into(), document));
        self
    }

    /// Compiles `schema`, reporting every problem it has.
    pub fn build(self, schema: Value) -> Result<JsonSchema, SchemaError> {
        JsonSchema::compile(schema, self)
    }
}

/// A JSON Schema (2020-12 or draft-07), compiled: what a tool declared with a schema of its
/// own, or an MCP server's tool, is validated against, every keyword as JSON Schema says.
///
/// Validation lists every problem with its path, in the same [`ValidationIssue`]s as the
/// six types (`Missing required parameter: 'city'`), and for a union the problems of the
/// variant the value was meant to be (by its tag, or by its type) rather than one line per
/// variant. By default it applies agentkit's policies for models (see
/// [`JsonSchemaOptions`]); [`JsonSchemaOptions::standard`] turns them off.
///
/// ```
/// use agentkit_core::JsonSchema;
/// use serde_json::json;
///
/// let schema = JsonSchema::new(json!({
///     "type": "object",
///     "properties": {
///         "action": {"oneOf": [
///             {"type": "object", "properties": {"type": {"const": "click"}, "x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["type", "x", "y"]},
///             {"type": "object", "properties": {"type": {"const": "type"}, "text": {"type": "string"}}, "required": ["type", "text"]},
///         ]},
///         "note": {"anyOf": [{"type": "string", "maxLength": 20}, {"type": "null"}]},
///     },
///     "required": ["action"],
/// }))?;
/// let mut args = json!({"action": {"type": "click", "x": 1}, "note": "fine"});
/// let issues = schema.validate(&mut args);
/// assert_eq!(issues.len(), 1);
/// assert_eq!(issues[0].to_string(), "Missing required parameter: 'action.y'");
///
/// let mut args = json!({"action": {"type": "type", "text": "hi"}, "note": null});
/// assert!(schema.validate(&mut args).is_empty()); // `null` is a value `note` allows
/// # Ok::<(), agentkit_core::SchemaError>(())
/// ```
#[derive(Clone)]
pub struct JsonSchema {
    inner: Arc<Compiled>,
}

struct Compiled {
    document: Value,
    arena: Arena,
    options: Options,
    draft: Draft,
}

impl fmt::Debug for JsonSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonSchema")
            .field("draft", &self.inner.draft)
            .field("document", &self.inner.document)
            .finish_non_exhaustive()
    }
}

impl PartialEq for JsonSchema {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.inner.document == other.inner.document
                && self.inner.options == other.inner.options)
    }
}

impl JsonSchema {
    /// Compiles `schema` with agentkit's defaults (see [`JsonSchemaOptions`]).
    pub fn new(schema: Value) -> Result<JsonSchema, SchemaError> {
        JsonSchemaOptions::default().build(schema)
    }

    /// Options to compile a schema with.
    pub fn options() -> JsonSchemaOptions {
        JsonSchemaOptions::default()
    }

    fn compile(schema: Value, options: JsonSchemaOptions) -> Result<JsonSchema, SchemaError> {
        let JsonSchemaOptions { options, resources } = options;
        let mut problems = error::Problems::default();
        let limits = options.limits;
        let too_deep = |problems: &mut error::Problems, what: &str| {
            problems.push(
                String::new(),
                format!(
                    "{what} is nested more than {} levels deep (SchemaLimits::max_depth)",
                    limits.max_depth
                ),
            );
        };
        // Before anything walks it: a document nested ten thousand deep is refused here.
        if index::depth_within(&schema, limits.max_depth).is_none() {
            too_deep(&mut problems, "the schema");
            index::dismantle(schema);
            for (_, document) in resources {
                index::dismantle(document);
            }
            return Err(problems.into_error());
        }
        let mut documents: Vec<(BaseUri, &Value)> = vec![(BaseUri::default_base(), &schema)];
        for (uri, document) in &resources {
            if index::depth_within(document, limits.max_depth).is_none() {
                too_deep(&mut problems, &format!("the resource '{uri}'"));
                continue;
            }
            match BaseUri::default_base().resolve(uri) {
                Ok((base, _)) => documents.push((base, document)),
                Err(reason) => problems.push(
                    String::new(),
                    format!("the resource URI '{uri}' is not a URI: {reason}"),
                ),
            }
        }
        let draft = schema
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(index::draft_of)
            .unwrap_or(options.draft);
        let index = Index::build(&documents, options.draft, &limits, &mut problems);
        if !problems.is_empty() {
            return Err(problems.into_error());
        }
        let arena = Compiler::compile(&index, &schema, &options, &mut problems);
        drop(index);
        drop(documents);
        if !problems.is_empty() {
            return Err(problems.into_error());
        }
        Ok(JsonSchema {
            inner: Arc::new(Compiled {
                document: schema,
                arena,
                options,
                draft,
            }),
        })
    }

    /// The schema as it was given.
    pub fn as_value(&self) -> &Value {
        &self.inner.document
    }

    /// The draft the schema is read in: its `$schema`'s, else the options'.
    pub fn draft(&self) -> Draft {
        self.inner.draft
    }

    /// Validates `value`, reporting every problem, after the policies for models: `null` for
    /// an optional property read as absent, and defaults filled in place (see
    /// [`JsonSchemaOptions`]).
    #[must_use = "an empty list means the value is valid"]
    pub fn validate(&self, value: &mut Value) -> Vec<ValidationIssue> {
        let mut issues = Issues::with_cap(usize::MAX);
        self.validate_into(value, UnknownArguments::Reject, &mut issues);
        issues.into_list()
    }

    /// Whether [`validate`](Self::validate) would find no problem in `value` (on a copy of
    /// it, when a policy would change it).
    pub fn is_valid(&self, value: &Value) -> bool {
        let options = &self.inner.options;
        if options.null_as_absent || options.fill_defaults {
            let mut copy = value.clone();
            policies::prepare(&self.inner, &mut copy);
            validate::is_valid(&self.inner, &copy, UnknownArguments::Reject)
        } else {
            validate::is_valid(&self.inner, value, UnknownArguments::Reject)
        }
    }

    /// Validates `value` into `issues`; `unknown` is the executor's undeclared-argument
    /// policy, which can only loosen the schema's.
    pub(crate) fn validate_into(
        &self,
        value: &mut Value,
        unknown: UnknownArguments,
        issues: &mut Issues,
    ) {
        policies::prepare(&self.inner, value);
        validate::validate(&self.inner, value, unknown, issues);
    }
}
