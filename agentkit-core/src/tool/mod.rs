//! The [`Tool`] trait, and its metadata, the [`ToolSpec`] (`spec`), built at run time with a
//! [`ToolSpecBuilder`] (`builder`), with its [`ToolAnnotations`] (`annotations`) and input
//! examples (`examples`).

mod annotations;
mod builder;
mod examples;
mod json_decl;
mod spec;
mod spec_text;
mod task_support;

use std::future::Future;
use std::pin::Pin;

pub use annotations::ToolAnnotations;
pub use builder::ToolSpecBuilder;
#[doc(hidden)]
pub use json_decl::{
    StaticJsonSchema, static_schema, static_schema_text, static_schema_text_with,
    static_schema_with,
};
pub use spec::{DEFAULT_VERSION, ToolSpec};
#[doc(hidden)]
pub use spec_text::static_spec;
pub use task_support::TaskSupport;

use crate::content::ToolOutput;
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::inputs::{Inputs, Parsed, parse_object};
use crate::output::Returned;
use crate::schema::{JsonObject, UnknownArguments};

/// A tool an agent can call: metadata plus logic.
///
/// The executor is the only path to a tool: it validates the inputs against
/// [`ToolSpec::input_schema`] (filling defaults), resolves the credentials named by
/// [`ToolSpec::credential_names`], calls [`execute`](Tool::execute), and validates the output.
/// So `execute` can rely on its inputs being valid, and never sees a credential it did not ask
/// for.
///
/// Most tools are declared with the `#[tool(...)]` attribute (feature `derive`), which writes
/// this impl; a hand-written one stays short. Logic without `.await` is written the same way:
/// an `async fn` that never awaits runs to completion on its first poll.
///
/// ```
/// use agentkit_core::{
///     BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolOutput, ToolSchema, ToolSpec,
/// };
/// use serde_json::json;
///
/// struct Add {
///     spec: ToolSpec,
/// }
///
/// impl Add {
///     fn new() -> Result<Self, agentkit_core::SemanticError> {
///         let spec = ToolSpec::builder("add")
///             .description("Add two integers.")
///             .input(ToolSchema::new([
///                 Param::required("a", ParamType::Integer),
///                 Param::required("b", ParamType::Integer),
///             ])?)
///             .output(ToolSchema::new([Param::required("sum", ParamType::Integer)])?)
///             .build()?;
///         Ok(Add { spec })
///     }
/// }
///
/// impl Tool for Add {
///     fn spec(&self) -> &ToolSpec {
///         &self.spec
///     }
///
///     async fn execute(&self, inputs: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
///         // Validated: both are present integers.
///         let sum = inputs["a"].as_i64().unwrap_or(0) + inputs["b"].as_i64().unwrap_or(0);
///         Ok(json!({ "sum": sum }).as_object().cloned().unwrap_or_default().into())
///     }
/// }
/// # let _ = Add::new().unwrap();
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The tool's metadata.
    fn spec(&self) -> &ToolSpec;

    /// Runs the tool on validated `inputs`; `ctx` holds the call id, the resolved
    /// credentials, the executor's shared dependencies and the cancellation signal.
    ///
    /// Returns a [`ToolOutput`]: structured output (a [`JsonObject`], `.into()`, or any JSON
    /// [`Value`](serde_json::Value) where the output schema allows it), which is validated
    /// against the output schema; content parts ([`Content`](crate::Content): a
    /// `String` or `&str` for a text result, images, audio, resources); or both. An error
    /// becomes a [`ToolExecutionError`](crate::ToolExecutionError) with the error as its
    /// source; so does a panic.
    fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<ToolOutput, BoxError>> + Send;

    /// The typed fast path, which `#[tool(...)]` implements: the argument text straight into
    /// the tool's input, validated. By default, into a validated JSON object, in the same
    /// single pass. Not public API.
    #[doc(hidden)]
    fn parse_typed(&self, text: &str, unknown: UnknownArguments, max_issues: usize) -> Parsed {
        parse_object(self.spec().input_schema(), text, unknown, max_issues, false)
    }

    /// Runs the tool as the executor does: on validated JSON inputs, or on what
    /// [`parse_typed`](Self::parse_typed) gave. `#[tool(...)]` runs both through one typed
    /// function; by default, JSON inputs go to [`execute`](Self::execute). Not public API.
    #[doc(hidden)]
    fn execute_inputs(
        &self,
        inputs: Inputs<'_>,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<Returned, BoxError>> + Send {
        async move {
            match inputs {
                Inputs::Json(inputs) => self.execute(inputs, ctx).await.map(Returned::from),
                Inputs::Parsed(_) => Err(BoxError::from(
                    "this tool has no typed fast path: `parse_typed` gave nothing to run",
                )),
            }
        }
    }
}

pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A type-erased [`Tool`], as the registry stores it.
pub(crate) trait DynTool: Send + Sync + 'static {
    fn spec(&self) -> &ToolSpec;

    fn parse_typed(&self, text: &str, unknown: UnknownArguments, max_issues: usize) -> Parsed;

    /// [`Tool::execute_inputs`], boxed: one future type a tool, whichever the inputs.
    fn execute_boxed<'a>(
        &'a self,
        inputs: Inputs<'a>,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<Returned, BoxError>>;
}

impl<T: Tool> DynTool for T {
    fn spec(&self) -> &ToolSpec {
        Tool::spec(self)
    }

    fn parse_typed(&self, text: &str, unknown: UnknownArguments, max_issues: usize) -> Parsed {
        Tool::parse_typed(self, text, unknown, max_issues)
    }

    fn execute_boxed<'a>(
        &'a self,
        inputs: Inputs<'a>,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<Returned, BoxError>> {
        Box::pin(Tool::execute_inputs(self, inputs, ctx))
    }
}
