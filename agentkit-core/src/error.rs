//! The typed errors: the seed's `SemanticError`, `ToolValidationError` and
//! `ToolExecutionError`, the [`UnknownToolError`] of dispatch, and the umbrella [`Error`].

use std::borrow::Cow;
use std::fmt;

use crate::rules::Problem;
use crate::schema::ValidationIssue;

/// A boxed error, as tools return it: any `std::error::Error` converts with `?`.
pub type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A malformed tool declaration or registration, listing every problem at once.
///
/// Returned when a schema or spec is built from data at run time (a tool declared with
/// `#[tool(...)]` has these problems refused by the compiler instead, in the same words),
/// and by [`ToolRegistry::register`](crate::ToolRegistry::register) for a duplicate name.
///
/// ```
/// use agentkit_core::ToolSchema;
/// use serde_json::json;
///
/// let err = ToolSchema::from_value(json!({"parameters": [
///     {"name": "count", "type": "intger"},
///     {"name": "units", "type": "string", "requred": false},
/// ]})).unwrap_err();
/// assert_eq!(err.problems().len(), 2);
/// assert_eq!(err.to_string(), "\
/// invalid tool declaration (2 problems):
///   parameters[0] ('count'): unknown type 'intger'; did you mean 'integer'?
///   parameters[1] ('units'): unknown key 'requred'; did you mean 'required'?");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticError {
    problems: Vec<SemanticProblem>,
}

/// One problem of a [`SemanticError`]: where, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct SemanticProblem {
    location: String,
    problem: Problem,
}

impl SemanticProblem {
    pub(crate) fn new(location: String, problem: Problem) -> Self {
        SemanticProblem { location, problem }
    }

    /// Where the problem is, such as `input parameters[1] ('units')`; empty for the tool
    /// itself.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// What the problem is.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

impl SemanticProblem {
    /// The same problem, located inside a `fields` list: `parameters[0] ('city')` becomes
    /// `{prefix}fields[0] ('city')`.
    pub(crate) fn prefixed(mut self, prefix: &str, from: &str, to: &str) -> Self {
        self.location = format!("{prefix}{}", self.location.replacen(from, to, 1));
        self
    }
}

impl fmt::Display for SemanticProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.location.is_empty() {
            write!(f, "{}", self.problem)
        } else {
            write!(f, "{}: {}", self.location, self.problem)
        }
    }
}

impl SemanticError {
    pub(crate) fn new(problems: Vec<SemanticProblem>) -> Self {
        debug_assert!(!problems.is_empty());
        SemanticError { problems }
    }

    pub(crate) fn single(problem: Problem) -> Self {
        SemanticError::new(vec![SemanticProblem::new(String::new(), problem)])
    }

    pub(crate) fn prefixed(mut self, prefix: &str) -> Self {
        for p in &mut self.problems {
            p.location = if p.location.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix} {}", p.location)
            };
        }
        self
    }

    pub(crate) fn into_problems(self) -> Vec<SemanticProblem> {
        self.problems
    }

    /// Every problem found, in declaration order.
    pub fn problems(&self) -> &[SemanticProblem] {
        &self.problems
    }
}

impl fmt::Display for SemanticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.problems.as_slice() {
            return write!(f, "invalid tool declaration: {only}");
        }
        write!(
            f,
            "invalid tool declaration ({} problems):",
            self.problems.len()
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SemanticError {}

/// Which side of a tool call broke the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// The arguments (the model's side) broke the input schema.
    Input,
    /// The tool's output (the tool's own side) broke the output schema.
    Output,
}

impl Direction {
    /// `"input"` or `"output"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Inputs or outputs that broke a tool's schema: the seed's `ToolValidationError`.
///
/// [`direction`](Self::direction) tells who was wrong: [`Direction::Input`] means the model
/// produced bad arguments, [`Direction::Output`] that the tool's own logic is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", DisplayValidation(self))]
pub struct ToolValidationError {
    tool_name: Cow<'static, str>,
    direction: Direction,
    errors: Vec<ValidationIssue>,
}

struct DisplayValidation<'a>(&'a ToolValidationError);

impl fmt::Display for DisplayValidation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(
            f,
            "{} validation failed for tool '{}'",
            e.direction, e.tool_name
        )?;
        for issue in &e.errors {
            write!(f, "\n  - {issue}")?;
        }
        Ok(())
    }
}

impl ToolValidationError {
    /// Builds the error; `errors` should not be empty.
    pub fn new(
        tool_name: impl Into<Cow<'static, str>>,
        direction: Direction,
        errors: Vec<ValidationIssue>,
    ) -> Self {
        ToolValidationError {
            tool_name: tool_name.into(),
            direction,
            errors,
        }
    }

    /// The tool whose schema was broken.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// Input (the model was wrong) or output (the tool was wrong).
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// Every problem found.
    pub fn errors(&self) -> &[ValidationIssue] {
        &self.errors
    }
}

/// A tool that failed while running: the seed's `ToolExecutionError`.
///
/// The cause is kept as [`source`](std::error::Error::source): the tool's own error, a
/// [`ToolPanic`] when the tool panicked, a [`ToolTimeout`] when it ran past its deadline, or a
/// [`CredentialError`] when a credential it needs could not be resolved (the tool is then not
/// run).
#[derive(Debug, thiserror::Error)]
#[error("tool '{tool_name}' failed: {source}")]
pub struct ToolExecutionError {
    tool_name: Cow<'static, str>,
    #[source]
    source: BoxError,
}

impl ToolExecutionError {
    /// Wraps the cause of a failure of `tool_name`.
    pub fn new(tool_name: impl Into<Cow<'static, str>>, source: impl Into<BoxError>) -> Self {
        ToolExecutionError {
            tool_name: tool_name.into(),
            source: source.into(),
        }
    }

    /// The tool that failed.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// The cause.
    pub fn cause(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.source
    }

    /// Whether the tool panicked.
    pub fn is_panic(&self) -> bool {
        self.source.is::<ToolPanic>()
    }

    /// Whether the tool ran past its deadline (and was cancelled).
    pub fn is_timeout(&self) -> bool {
        self.source.is::<ToolTimeout>()
    }

    /// Whether a credential could not be resolved (and the tool was not run).
    pub fn is_credential(&self) -> bool {
        self.source.is::<CredentialError>()
    }
}

/// A panic caught inside a tool; the cause of a [`ToolExecutionError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the tool panicked: {message}")]
pub struct ToolPanic {
    message: String,
}

impl ToolPanic {
    pub(crate) fn from_payload(payload: &(dyn std::any::Any + Send)) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
        ToolPanic { message }
    }

    /// The panic message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A tool that did not finish before its deadline; the cause of a [`ToolExecutionError`].
///
/// See [`ToolExecutor::dispatch_until`](crate::ToolExecutor::dispatch_until).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the tool did not finish before its deadline")]
pub struct ToolTimeout;

/// A credential that could not be resolved; the cause of a [`ToolExecutionError`].
///
/// Names the credential, never its value.
#[derive(Debug, thiserror::Error)]
#[error("{}", match .source { None => format!("credential '{name}' is not available, so the tool was not run"), Some(_) => format!("credential '{name}' could not be resolved, so the tool was not run") })]
pub struct CredentialError {
    name: String,
    #[source]
    source: Option<BoxError>,
}

impl CredentialError {
    pub(crate) fn missing(name: &str) -> Self {
        CredentialError {
            name: name.to_owned(),
            source: None,
        }
    }

    pub(crate) fn failed(name: &str, source: BoxError) -> Self {
        CredentialError {
            name: name.to_owned(),
            source: Some(source),
        }
    }

    /// The credential's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A call to a tool name that is not registered.
///
/// ```
/// use agentkit_core::UnknownToolError;
///
/// let err = UnknownToolError::new("fetch_wether", vec!["fetch_weather".into()]);
/// assert_eq!(err.to_string(), "unknown tool 'fetch_wether'; did you mean 'fetch_weather'?");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", DisplayUnknown(self))]
pub struct UnknownToolError {
    name: String,
    nearest: Vec<String>,
}

struct DisplayUnknown<'a>(&'a UnknownToolError);

impl fmt::Display for DisplayUnknown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(f, "unknown tool '{}'", e.name)?;
        match e.nearest.as_slice() {
            [] => Ok(()),
            [only] => write!(f, "; did you mean '{only}'?"),
            many => {
                f.write_str("; did you mean one of ")?;
                for (i, name) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "'{name}'")?;
                }
                f.write_str("?")
            }
        }
    }
}

impl UnknownToolError {
    /// Builds the error for `name`, with the registered names nearest to it.
    pub fn new(name: impl Into<String>, nearest: Vec<String>) -> Self {
        UnknownToolError {
            name: name.into(),
            nearest,
        }
    }

    /// The name that was called.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The registered tool names nearest to it, nearest first.
    pub fn nearest(&self) -> &[String] {
        &self.nearest
    }
}

/// Every error a tool call can end with.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Inputs or outputs broke the schema.
    #[error(transparent)]
    Validation(#[from] ToolValidationError),
    /// The tool failed, panicked, or could not get its credentials.
    #[error(transparent)]
    Execution(#[from] ToolExecutionError),
    /// No tool of that name is registered.
    #[error(transparent)]
    UnknownTool(#[from] UnknownToolError),
    /// A declaration or registration was refused.
    #[error(transparent)]
    Semantic(#[from] SemanticError),
}

/// A short, stable name for the kind of an [`Error`], for events, metrics and logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The arguments broke the input schema.
    InputValidation,
    /// The output broke the output schema.
    OutputValidation,
    /// The tool returned an error.
    Execution,
    /// The tool panicked.
    Panic,
    /// A credential could not be resolved.
    Credential,
    /// The tool ran past its deadline.
    Timeout,
    /// No such tool.
    UnknownTool,
    /// A declaration was refused.
    Semantic,
}

impl ErrorKind {
    /// The kind as a snake_case string (`"input_validation"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InputValidation => "input_validation",
            ErrorKind::OutputValidation => "output_validation",
            ErrorKind::Execution => "execution",
            ErrorKind::Panic => "panic",
            ErrorKind::Credential => "credential",
            ErrorKind::Timeout => "timeout",
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::Semantic => "semantic",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Error {
    /// The kind of the error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Validation(e) if e.direction() == Direction::Input => ErrorKind::InputValidation,
            Error::Validation(_) => ErrorKind::OutputValidation,
            Error::Execution(e) if e.is_panic() => ErrorKind::Panic,
            Error::Execution(e) if e.is_credential() => ErrorKind::Credential,
            Error::Execution(e) if e.is_timeout() => ErrorKind::Timeout,
            Error::Execution(_) => ErrorKind::Execution,
            Error::UnknownTool(_) => ErrorKind::UnknownTool,
            Error::Semantic(_) => ErrorKind::Semantic,
        }
    }

    /// A short message fit to hand back to the model as the tool's result.
    ///
    /// It tells the model what it can act on: which parameters were wrong and what was
    /// expected, or which tools exist. It says nothing of a tool's internals beyond its own
    /// error message: an output that broke the schema, a panic and a missing credential are
    /// reported as a failure of the tool, without detail.
    pub fn to_model_message(&self) -> String {
        match self {
            Error::Validation(e) if e.direction() == Direction::Input => {
                let mut message = format!("Error: invalid arguments for tool '{}':", e.tool_name());
                for issue in e.errors() {
                    message.push_str("\n- ");
                    message.push_str(&issue.to_string());
                }
                message
            }
            Error::Validation(e) => format!(
                "Error: tool '{}' failed: it produced an invalid result.",
                e.tool_name()
            ),
            Error::Execution(e) if e.is_timeout() => format!(
                "Error: tool '{}' did not finish in time and was cancelled.",
                e.tool_name()
            ),
            Error::Execution(e) if e.is_panic() || e.is_credential() => {
                format!("Error: tool '{}' failed unexpectedly.", e.tool_name())
            }
            Error::Execution(e) => {
                format!("Error: tool '{}' failed: {}", e.tool_name(), e.cause())
            }
            Error::UnknownTool(e) => format!("Error: {e}"),
            Error::Semantic(e) => format!("Error: {e}"),
        }
    }
}
