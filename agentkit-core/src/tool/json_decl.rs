//! A tool's arguments or output declared as JSON Schema: compiled at run time
//! ([`ToolSpecBuilder::input_json_schema`](crate::ToolSpecBuilder::input_json_schema),
//! [`output_json_schema`](crate::ToolSpecBuilder::output_json_schema), an MCP server's tool),
//! or written by `#[tool(...)]` and `#[derive(ToolParams)]` for what the six types cannot say
//! (unions, maps, tuples, recursion), compiled once per process the first time it is asked
//! for.

use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use crate::rules::Problem;
use crate::schema::{JsonSchema, JsonSchemaOptions, SchemaError, SemanticProblem};

/// The generated code's way to a JSON Schema it declared: a function that compiles the
/// schema the first time it is called, and returns the same compiled schema (or the same
/// error) every time after. Not public API: generated code makes one with [`static_schema`]
/// (arguments) or [`static_schema_with`] (an output, compiled with
/// [`JsonSchemaOptions::standard`]).
#[doc(hidden)]
pub type StaticJsonSchema = fn() -> Result<&'static JsonSchema, &'static SchemaError>;

/// The body of a [`StaticJsonSchema`]: `cell` holds the schema `make` returns, compiled with
/// the options for models ([`JsonSchema::new`]), as arguments are. Not public API.
///
/// ```
/// use std::sync::OnceLock;
/// use agentkit_core::__private::static_schema;
/// use agentkit_core::{JsonSchema, SchemaError};
/// use serde_json::json;
///
/// fn schema() -> Result<&'static JsonSchema, &'static SchemaError> {
///     static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
///     static_schema(&CELL, || json!({"type": "object"}))
/// }
/// assert!(std::ptr::eq(schema().unwrap(), schema().unwrap()));
/// ```
#[doc(hidden)]
pub fn static_schema(
    cell: &'static OnceLock<Result<JsonSchema, SchemaError>>,
    make: impl FnOnce() -> Value,
) -> Result<&'static JsonSchema, &'static SchemaError> {
    static_schema_with(cell, JsonSchemaOptions::default, make)
}

/// [`static_schema`] compiled with the `options` it returns: an output's schema is compiled
/// with [`JsonSchemaOptions::standard`], as
/// [`output_json_schema`](crate::ToolSpecBuilder::output_json_schema) compiles one. Not
/// public API.
#[doc(hidden)]
pub fn static_schema_with(
    cell: &'static OnceLock<Result<JsonSchema, SchemaError>>,
    options: impl FnOnce() -> JsonSchemaOptions,
    make: impl FnOnce() -> Value,
) -> Result<&'static JsonSchema, &'static SchemaError> {
    cell.get_or_init(|| options().build(make())).as_ref()
}

/// [`static_schema`] of a schema written as JSON text (a `#[tool(...)]` literal's, which the
/// macro writes whole at compile time). Text that is not JSON is a schema error, never a
/// panic. Not public API.
#[doc(hidden)]
pub fn static_schema_text(
    cell: &'static OnceLock<Result<JsonSchema, SchemaError>>,
    text: &'static str,
) -> Result<&'static JsonSchema, &'static SchemaError> {
    static_schema_text_with(cell, JsonSchemaOptions::default, text)
}

/// [`static_schema_text`] compiled with the `options` it returns (see
/// [`static_schema_with`]). Not public API.
#[doc(hidden)]
pub fn static_schema_text_with(
    cell: &'static OnceLock<Result<JsonSchema, SchemaError>>,
    options: impl FnOnce() -> JsonSchemaOptions,
    text: &'static str,
) -> Result<&'static JsonSchema, &'static SchemaError> {
    cell.get_or_init(|| match serde_json::from_str::<Value>(text) {
        Ok(value) => options().build(value),
        Err(error) => Err(SchemaError::not_json(&error)),
    })
    .as_ref()
}

/// Where a spec's JSON Schema for its arguments, or for its output, comes from: one type for
/// both sides, each compiled with its own options by whoever made it.
#[derive(Clone, Default)]
pub(crate) enum JsonDecl {
    /// None: the arguments (the output) are a [`ToolSchema`](crate::ToolSchema)'s, or
    /// undeclared.
    #[default]
    None,
    /// Compiled when the spec was built.
    Owned(JsonSchema),
    /// Written by generated code, compiled on first use.
    Static(StaticJsonSchema),
}

impl JsonDecl {
    /// The compiled schema; `None` when there is none, or when a generated one failed to
    /// compile (which [`problem`](Self::problem) reports, and the registry refuses).
    pub(crate) fn get(&self) -> Option<&JsonSchema> {
        match self {
            JsonDecl::None => None,
            JsonDecl::Owned(schema) => Some(schema),
            JsonDecl::Static(schema) => schema().ok(),
        }
    }

    /// Whether a schema is declared, compiled or not (one that does not compile is refused
    /// by the registry, never read as "no schema").
    pub(crate) fn is_declared(&self) -> bool {
        !matches!(self, JsonDecl::None)
    }

    /// Why a generated schema cannot validate anything, as the problems of the spec's `key`
    /// (`input_schema`, `output_schema`); none when it compiles or is not generated. The
    /// registry refuses such a tool rather than run it unvalidated.
    pub(crate) fn problems(&self, key: &str) -> Vec<SemanticProblem> {
        match self {
            JsonDecl::Static(schema) => schema().err().map_or_else(Vec::new, |e| problems(key, e)),
            _ => Vec::new(),
        }
    }
}

/// A schema error as the problems of a spec's `key` (`input_schema`, `output_schema`).
pub(crate) fn problems(key: &str, error: &SchemaError) -> Vec<SemanticProblem> {
    error
        .problems()
        .iter()
        .map(|problem| {
            SemanticProblem::new(
                key.to_owned(),
                Problem::InvalidJsonSchema {
                    pointer: problem.location().to_owned(),
                    message: problem.message().to_owned(),
                },
            )
        })
        .collect()
}

impl fmt::Debug for JsonDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonDecl::None => f.write_str("None"),
            JsonDecl::Owned(schema) => schema.fmt(f),
            JsonDecl::Static(schema) => match schema() {
                Ok(schema) => schema.fmt(f),
                Err(error) => error.fmt(f),
            },
        }
    }
}

// Two generated schemas are equal when they compile to equal schemas: function pointers say
// nothing reliable (the same function may have two addresses, two may share one).
impl PartialEq for JsonDecl {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (JsonDecl::None, JsonDecl::None) => true,
            (JsonDecl::None, _) | (_, JsonDecl::None) => false,
            _ => self.get().is_some() && self.get() == other.get(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use serde_json::json;

    use super::*;
    use crate::{ToolRegistry, ToolSpec};

    fn union() -> Result<&'static JsonSchema, &'static SchemaError> {
        static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
        static_schema_text(
            &CELL,
            r#"{"type": "object", "properties": {"n": {"type": ["integer", "null"]}}, "required": ["n"]}"#,
        )
    }

    fn broken() -> Result<&'static JsonSchema, &'static SchemaError> {
        static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
        static_schema(&CELL, || json!({"type": "object", "pattern": "(unclosed"}))
    }

    fn not_json() -> Result<&'static JsonSchema, &'static SchemaError> {
        static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
        static_schema_text(&CELL, "{\"type\": ")
    }

    static UNION: ToolSpec =
        ToolSpec::from_static("u", "", "1.0.0", None, None, &[], &[]).with_static_json_input(union);

    #[test]
    fn a_generated_schema_is_compiled_once_and_validates() {
        let schema = UNION.input_json().expect("compiled");
        assert!(std::ptr::eq(schema, UNION.input_json().unwrap()));
        assert!(schema.is_valid(&json!({"n": null})));
        assert!(!schema.is_valid(&json!({"n": "1"})));
        assert_eq!(UNION.input_json_schema()["required"], json!(["n"]));
        assert_eq!(UNION.clone(), UNION);
    }

    fn list_output() -> Result<&'static JsonSchema, &'static SchemaError> {
        static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
        static_schema_text_with(
            &CELL,
            JsonSchemaOptions::standard,
            r#"{"type": "object", "properties": {"n": {"type": "integer", "default": 1}}}"#,
        )
    }

    fn broken_output() -> Result<&'static JsonSchema, &'static SchemaError> {
        static CELL: OnceLock<Result<JsonSchema, SchemaError>> = OnceLock::new();
        static_schema_with(
            &CELL,
            JsonSchemaOptions::standard,
            || json!({"$ref": "#/$defs/nowhere"}),
        )
    }

    #[test]
    fn a_generated_output_schema_is_compiled_with_the_standard_options() {
        static SPEC: ToolSpec = ToolSpec::from_static("o", "", "1.0.0", None, None, &[], &[])
            .with_static_json_output(list_output);
        let schema = SPEC.output_json().expect("compiled");
        assert!(std::ptr::eq(schema, SPEC.output_json().unwrap()));
        assert!(SPEC.has_output_schema());
        assert!(SPEC.output_schema().is_none());
        // Standard: an undeclared key is allowed, a default is an annotation, `null` a value.
        assert!(schema.is_valid(&json!({"other": 1})));
        assert!(!schema.is_valid(&json!({"n": null})));
        let mut value = json!({});
        assert!(schema.validate(&mut value).is_empty());
        assert_eq!(value, json!({}));
        // Equal to the same schema declared at run time, which is compiled the same way.
        let built = ToolSpec::builder("o")
            .output_json_schema(SPEC.output_json_schema().unwrap())
            .build()
            .unwrap();
        assert_eq!(built, SPEC);
        assert_eq!(ToolSpec::from_value(SPEC.to_value()).unwrap(), SPEC);
    }

    struct Stub(ToolSpec);

    impl crate::Tool for Stub {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &crate::JsonObject,
            _: &crate::ToolContext<'_>,
        ) -> Result<crate::ToolOutput, crate::BoxError> {
            Ok(crate::ToolOutput::default())
        }
    }

    #[test]
    fn a_generated_schema_that_does_not_compile_is_refused_at_registration() {
        for (make, pointer) in [(broken as StaticJsonSchema, "/pattern"), (not_json, "")] {
            let spec = ToolSpec::from_static("b", "", "1.0.0", None, None, &[], &[])
                .with_static_json_input(make);
            assert!(spec.input_json().is_none());
            let error = ToolRegistry::new().register(Stub(spec)).unwrap_err();
            let problem = &error.problems()[0];
            assert_eq!(problem.location(), "input_schema");
            assert!(
                problem.to_string().contains(pointer),
                "{problem} names {pointer:?}"
            );
        }
    }

    #[test]
    fn a_generated_output_schema_that_does_not_compile_is_refused_at_registration() {
        let spec = ToolSpec::from_static("b", "", "1.0.0", None, None, &[], &[])
            .with_static_json_output(broken_output);
        assert!(spec.output_json().is_none());
        // Declared all the same: never read as a tool without an output schema.
        assert!(spec.has_output_schema());
        let error = ToolRegistry::new().register(Stub(spec)).unwrap_err();
        let [problem] = error.problems() else {
            panic!("one problem: {error}");
        };
        assert_eq!(problem.location(), "output_schema");
        assert!(problem.to_string().contains("/$ref"), "{problem}");
        // Both sides broken: every problem of both, at once.
        let spec = ToolSpec::from_static("b", "", "1.0.0", None, None, &[], &[])
            .with_static_json_input(broken)
            .with_static_json_output(broken_output);
        let error = ToolRegistry::new().register(Stub(spec)).unwrap_err();
        let locations: Vec<&str> = error.problems().iter().map(|p| p.location()).collect();
        assert_eq!(locations, ["input_schema", "output_schema"]);
    }
}
