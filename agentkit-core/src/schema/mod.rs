//! Tool schemas: the Python original's six-type parameter lists, as data.
//!
//! A [`ToolSchema`] is an ordered list of [`Param`]s (`param`). It is checked when it is built
//! (`semantic`, with the shared rules), loads from and saves to the Python original's
//! `{"parameters": [...]}` shape (`serde`), validates argument objects (`validate`, reporting
//! [`ValidationIssue`]s, `issue`) and exports JSON Schema for model providers
//! (`json_schema`). JSON values and [`Literal`] defaults meet in `literal`. A schema written
//! in JSON Schema itself (an MCP server's, or a tool's own) is compiled and validated in
//! full by `json` ([`JsonSchema`]), and lowered for each model API's declarations by `lower`.

mod foreign;
mod issue;
pub(crate) mod json;
pub(crate) mod json_schema;
mod literal;
pub(crate) mod lower;
mod param;
mod semantic;
mod serde;
mod validate;

pub use crate::rules::Literal;
pub(crate) use issue::Issues;
pub use issue::{IssueKind, ValidationIssue};
pub use json::{Draft, JsonSchema, JsonSchemaOptions, SchemaError, SchemaLimits, SchemaProblem};
pub use literal::JsonObject;
pub(crate) use literal::value_kind;
pub use param::{Param, ToolSchema};
pub use semantic::{SemanticError, SemanticProblem};
pub use validate::UnknownArguments;
