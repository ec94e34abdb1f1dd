//! Behaviour of tool schemas and specs: the six types, the Python original's `{"parameters": [...]}`
//! shape in both directions, and `SemanticError`s that list every problem of a declaration.

use agentkit_core::{
    DEFAULT_VERSION, Literal, Param, ParamType, SemanticError, ToolSchema, ToolSpec, ValueKind,
};
use agentkit_core::{NameError, NameKind, Problem};
use serde_json::{Value, json};

use crate::core_fixtures::{weather_input_value, weather_output_value};

/// `(location, problem)` for every problem of `err`, in order.
fn problems(err: &SemanticError) -> Vec<(String, Problem)> {
    err.problems()
        .iter()
        .map(|p| (p.location().to_owned(), p.problem().clone()))
        .collect()
}

fn schema_err(value: Value) -> SemanticError {
    match ToolSchema::from_value(value) {
        Ok(schema) => panic!("expected a SemanticError, got {schema:?}"),
        Err(err) => err,
    }
}

fn spec_err(value: Value) -> SemanticError {
    match ToolSpec::from_value(value) {
        Ok(spec) => panic!("expected a SemanticError, got {spec:?}"),
        Err(err) => err,
    }
}

mod python_shape;
mod semantic_errors;
mod spec;
mod types;
