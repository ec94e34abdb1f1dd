//! A tool's arguments declared as JSON Schema: compiled at run time
//! ([`ToolSpecBuilder::input_json_schema`](crate::ToolSpecBuilder::input_json_schema), an MCP
//! server's tool), or written by `#[tool(...)]` and `#[derive(ToolParams)]` for what the six
//! types cannot say (unions, maps, tuples, recursion), compiled once per process the first
//! time it is asked for.

use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

use crate::rules::Problem;
use crate::schema::{JsonSchema, SchemaError, SemanticError, SemanticProblem};

/// The generated code's way to a JSON Schema it declared: a function that compiles the
/// schema the first time it is called, and returns the same compiled schema (or the same
/// error) every time after. Not public API: generated code makes one with [`static_schema`].
#[doc(hidden)]
pub type StaticJsonSchema = fn() -> Result<&'static JsonSchema, &'static SchemaError>;

/// The body of a [`StaticJsonSchema`]: `cell` holds the schema `make` returns, compiled with
/// the options for models ([`JsonSchema::new`]). Not public API.
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
    cell.get_or_init(|| JsonSchema::new(make())).as_ref()
}

/// [`static_schema`] of a schema written as JSON text (a `#[tool(...)]` literal's, which the
/// macro writes whole at compile time). Text that is not JSON is a schema error, never a
/// panic. Not public API.
#[doc(hidden)]
pub fn static_schema_text(
    cell: &'static OnceLock<Result<JsonSchema, SchemaError>>,
    text: &'static str,
) -> Result<&'static JsonSchema, &'static SchemaError> {
    cell.get_or_init(|| match serde_json::from_str::<Value>(text) {
        Ok(value) => JsonSchema::new(value),
        Err(error) => Err(SchemaError::not_json(&error)),
    })
    .as_ref()
}

/// Where a spec's JSON Schema arguments come from.
#[derive(Clone, Default)]
pub(crate) enum JsonInput {
    /// The arguments are a [`ToolSchema`](crate::ToolSchema)'s, or any object.
    #[default]
    None,
    /// Compiled when the spec was built.
    Owned(JsonSchema),
    /// Written by generated code, compiled on first use.
    Static(StaticJsonSchema),
}

impl JsonInput {
    /// The compiled schema; `None` when there is none, or when a generated one failed to
    /// compile (which [`problem`](Self::problem) reports, and the registry refuses).
    pub(crate) fn get(&self) -> Option<&JsonSchema> {
        match self {
            JsonInput::None => None,
            JsonInput::Owned(schema) => Some(schema),
            JsonInput::Static(schema) => schema().ok(),
        }
    }

    /// Why a generated schema cannot validate anything: the registry refuses such a tool
    /// rather than run it unvalidated.
    pub(crate) fn problem(&self, key: &str) -> Option<SemanticError> {
        let JsonInput::Static(schema) = self else {
            return None;
        };
        let error = schema().err()?;
        Some(SemanticError::new(problems(key, error)))
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

impl fmt::Debug for JsonInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonInput::None => f.write_str("None"),
            JsonInput::Owned(schema) => schema.fmt(f),
            JsonInput::Static(schema) => match schema() {
                Ok(schema) => schema.fmt(f),
                Err(error) => error.fmt(f),
            },
        }
    }
}

// Two generated schemas are equal when they compile to equal schemas: function pointers say
// nothing reliable (the same function may have two addresses, two may share one).
impl PartialEq for JsonInput {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (JsonInput::None, JsonInput::None) => true,
            (JsonInput::None, _) | (_, JsonInput::None) => false,
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

    #[test]
    fn a_generated_schema_that_does_not_compile_is_refused_at_registration() {
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
}
