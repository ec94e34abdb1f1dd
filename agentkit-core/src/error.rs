//! The typed errors: the Python original's `SemanticError`, `ToolValidationError` and
//! `ToolExecutionError`, the [`UnknownToolError`] of dispatch, and the umbrella [`Error`].

use std::borrow::Cow;
use std::fmt;

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::model_text::{
    Escaped, EscapedText, TextLimits, capture, cut_scrubbed, scrub_cut, truncate_content,
};
use crate::rules::Problem;
use crate::schema::{Issues, ValidationIssue};
use crate::tool_error::{ToolError, ToolErrorParts};

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

/// Inputs or outputs that broke a tool's schema: the Python original's `ToolValidationError`.
///
/// [`direction`](Self::direction) tells who was wrong: [`Direction::Input`] means the model
/// produced bad arguments, [`Direction::Output`] that the tool's own logic is wrong.
///
/// The executor keeps at most [`TextLimits::max_issues`](crate::TextLimits::max_issues)
/// issues and counts the rest in [`omitted`](Self::omitted), so that hostile arguments with a
/// million mistakes cost a count, not a million messages.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", DisplayValidation(self))]
pub struct ToolValidationError {
    tool_name: Cow<'static, str>,
    direction: Direction,
    errors: Vec<ValidationIssue>,
    omitted: usize,
}

struct DisplayValidation<'a>(&'a ToolValidationError);

impl fmt::Display for DisplayValidation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(
            f,
            "{} validation failed for tool '{}'",
            e.direction,
            Escaped(&e.tool_name, OPERATOR_ECHO)
        )?;
        e.write_issues(f, "\n  - ", usize::MAX, OPERATOR_ECHO)
    }
}

/// How many characters of an echoed name operator-facing messages show.
const OPERATOR_ECHO: usize = 200;
/// How many characters of a foreign error message operator-facing messages show.
const OPERATOR_MESSAGE: usize = 4096;

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
            omitted: 0,
        }
    }

    pub(crate) fn from_issues(
        tool_name: Cow<'static, str>,
        direction: Direction,
        issues: Issues,
    ) -> Self {
        let (errors, omitted) = issues.into_parts();
        ToolValidationError {
            tool_name,
            direction,
            errors,
            omitted,
        }
    }

    pub(crate) fn with_omitted(mut self, omitted: usize) -> Self {
        self.omitted = omitted;
        self
    }

    /// The tool whose schema was broken.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// Input (the model was wrong) or output (the tool was wrong).
    pub fn direction(&self) -> Direction {
        self.direction
    }

    /// The problems found: every one, or the first
    /// [`max_issues`](crate::TextLimits::max_issues) when the executor found more.
    pub fn errors(&self) -> &[ValidationIssue] {
        &self.errors
    }

    /// How many problems were found beyond those in [`errors`](Self::errors).
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// Writes at most `max` issues, each after `separator`, then how many more there were.
    fn write_issues(
        &self,
        f: &mut dyn fmt::Write,
        separator: &str,
        max: usize,
        echo: usize,
    ) -> fmt::Result {
        for issue in self.errors.iter().take(max) {
            f.write_str(separator)?;
            issue.write_message(f, echo)?;
        }
        let more = self.errors.len().saturating_sub(max) + self.omitted;
        if more > 0 {
            write!(f, "{separator}... and {more} more")?;
        }
        Ok(())
    }
}

/// A tool that failed while running: the Python original's `ToolExecutionError`.
///
/// The cause is kept as [`source`](std::error::Error::source): the tool's own error, a
/// [`ToolPanic`] when the tool panicked, a [`ToolTimeout`] when it ran past its deadline, a
/// [`ToolCancelled`] when the call was dropped, or a [`CredentialError`] when a credential it
/// needs could not be resolved (the tool is then not run).
///
/// The cause's message is read once, when the error is built, and kept bounded. When the
/// executor built the error for a call that had credentials, every occurrence of their values
/// in that message is replaced by `[redacted]`, and a cause whose message or `Debug` showed
/// one is replaced by its redacted messages: a secret a tool put in its error reaches no
/// result, event, log line or recording.
#[derive(Debug, thiserror::Error)]
#[error("{}", OperatorText(.kind, .tool_name, .message))]
pub struct ToolExecutionError {
    tool_name: Cow<'static, str>,
    kind: ErrorKind,
    message: Box<str>,
    /// What the model is told beyond the kind's fixed sentence: a retry's feedback, a
    /// denial's reason, a failure's model message (see [`ToolError`]).
    model_message: Option<Box<str>>,
    #[source]
    source: BoxError,
}

/// The operator's line for a [`ToolExecutionError`], worded by its kind.
struct OperatorText<'a>(&'a ErrorKind, &'a str, &'a str);

impl fmt::Display for OperatorText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = Escaped(self.1, OPERATOR_ECHO);
        let message = EscapedText(self.2, OPERATOR_MESSAGE);
        match self.0 {
            ErrorKind::Retry => write!(
                f,
                "tool '{name}' asked the model to correct the call: {message}"
            ),
            ErrorKind::RetriesExhausted => write!(
                f,
                "tool '{name}' asked for a retry past its budget for the turn: {message}"
            ),
            ErrorKind::Denied => write!(f, "the call to tool '{name}' was denied: {message}"),
            _ => write!(f, "tool '{name}' failed: {message}"),
        }
    }
}

/// The kind of failure `source` is, from its type.
fn kind_of(source: &(dyn std::error::Error + 'static)) -> ErrorKind {
    if source.is::<ToolPanic>() {
        ErrorKind::Panic
    } else if source.is::<ToolTimeout>() {
        ErrorKind::Timeout
    } else if source.is::<ToolCancelled>() {
        ErrorKind::Cancelled
    } else if source.is::<CredentialError>() {
        ErrorKind::Credential
    } else if source.is::<AwaitingApproval>() {
        ErrorKind::AwaitingApproval
    } else {
        ErrorKind::Execution
    }
}

impl ToolExecutionError {
    /// Wraps the cause of a failure of `tool_name`.
    pub fn new(tool_name: impl Into<Cow<'static, str>>, source: impl Into<BoxError>) -> Self {
        ToolExecutionError::scrubbed(tool_name.into(), source.into(), &[])
    }

    /// Wraps `source`, with every occurrence of `secrets` taken out of what is kept of it.
    ///
    /// A [`ToolError`] is taken apart: its kind and model message are kept, and its cause
    /// becomes the source.
    pub(crate) fn scrubbed(
        tool_name: Cow<'static, str>,
        source: BoxError,
        secrets: &[&str],
    ) -> Self {
        let source = match source.downcast::<ToolError>() {
            Ok(tool_error) => {
                return ToolExecutionError::from_tool_error(tool_name, *tool_error, secrets);
            }
            Err(source) => source,
        };
        let kind = kind_of(&*source);
        let (message, source) = redact(source, secrets);
        ToolExecutionError {
            tool_name,
            kind,
            message,
            model_message: None,
            source,
        }
    }

    fn from_tool_error(tool_name: Cow<'static, str>, error: ToolError, secrets: &[&str]) -> Self {
        let (kind, text) = match error.into_parts() {
            ToolErrorParts::Retry(feedback) => (ErrorKind::Retry, feedback),
            ToolErrorParts::Denied(message) => (ErrorKind::Denied, message),
            ToolErrorParts::Failed {
                cause,
                model_message,
            } => {
                let (message, source) = redact(cause, secrets);
                return ToolExecutionError {
                    tool_name,
                    kind: ErrorKind::Execution,
                    message,
                    model_message: model_message
                        .map(|m| cut_scrubbed(m, MODEL_MESSAGE_CHARS, secrets).into()),
                    source,
                };
            }
        };
        let text: Box<str> = cut_scrubbed(text, MODEL_MESSAGE_CHARS, secrets).into();
        ToolExecutionError {
            tool_name,
            kind,
            message: text.clone(),
            model_message: Some(text.clone()),
            source: Box::new(Redacted {
                message: text,
                source: None,
            }),
        }
    }

    /// A call ended by the executor (a denial by the approval policy, a timeout) with a
    /// message for the model.
    pub(crate) fn with_model_message(mut self, message: &str) -> Self {
        self.model_message =
            Some(cut_scrubbed(message.to_owned(), MODEL_MESSAGE_CHARS, &[]).into());
        self
    }

    /// The same failure, of another kind: a retry past the tool's budget.
    pub(crate) fn into_kind(mut self, kind: ErrorKind) -> Self {
        self.kind = kind;
        self
    }

    /// Rebuilds a recorded failure, of a recorded kind.
    pub(crate) fn replayed(
        tool_name: Cow<'static, str>,
        kind: ErrorKind,
        message: &str,
        model_message: Option<&str>,
    ) -> Self {
        let source: BoxError = match kind {
            ErrorKind::Panic => Box::new(ToolPanic {
                // What was recorded is the panic's `Display`: its message follows the prefix.
                message: message
                    .strip_prefix(PANIC_PREFIX)
                    .unwrap_or(message)
                    .to_owned(),
            }),
            ErrorKind::Timeout => Box::new(ToolTimeout),
            ErrorKind::Cancelled => Box::new(ToolCancelled),
            ErrorKind::AwaitingApproval => Box::new(AwaitingApproval),
            _ => Box::new(Redacted {
                message: message.into(),
                source: None,
            }),
        };
        ToolExecutionError {
            tool_name,
            kind,
            message: message.into(),
            model_message: model_message.map(Into::into),
            source,
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

    /// The cause's message, as read when the error was built: bounded, and free of the
    /// call's secrets.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the tool panicked.
    pub fn is_panic(&self) -> bool {
        self.kind == ErrorKind::Panic
    }

    /// Whether the tool ran past its deadline (and was cancelled).
    pub fn is_timeout(&self) -> bool {
        self.kind == ErrorKind::Timeout
    }

    /// Whether the call was cancelled (its future dropped) before it finished.
    pub fn is_cancelled(&self) -> bool {
        self.kind == ErrorKind::Cancelled
    }

    /// Whether a credential could not be resolved (and the tool was not run).
    pub fn is_credential(&self) -> bool {
        self.kind == ErrorKind::Credential
    }

    /// What the model is told beyond the sentence of the error's kind: a retry's feedback, a
    /// denial's reason, or the model message of a [`ToolError::failed`]; bounded, and free of
    /// the call's secrets. `None` for a failure whose tool gave no model message: the model
    /// is then only told that the tool failed.
    pub fn model_message(&self) -> Option<&str> {
        self.model_message.as_deref()
    }

    pub(crate) fn kind(&self) -> ErrorKind {
        self.kind
    }
}

/// How many characters of a message for the model are kept; rendering cuts it further to
/// the executor's [`TextLimits`].
const MODEL_MESSAGE_CHARS: usize = 8 * 1024;

/// How many bytes of a cause's message are read; a `Display` that writes more is cut.
const MESSAGE_BYTES: usize = 8 * 1024;
/// How deep a cause's `source` chain is followed.
const CHAIN_DEPTH: usize = 16;

/// A `fmt::Write` that keeps at most `MESSAGE_BYTES` and then stops the formatting.
#[derive(Default)]
struct Bounded {
    text: String,
    /// Whether the text was cut: what followed, a secret maybe, was not seen.
    cut: bool,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MESSAGE_BYTES - self.text.len();
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.text.push('…');
        self.cut = true;
        Err(fmt::Error)
    }
}

/// Renders a foreign value's `Display` or `Debug`, bounded, and contained: `None` when the
/// formatting impl panicked, instead of unwinding through the executor.
fn render(write: impl FnOnce(&mut Bounded) -> fmt::Result) -> Option<Bounded> {
    let mut out = Bounded::default();
    match catch_unwind(AssertUnwindSafe(|| write(&mut out))) {
        // `Err(fmt::Error)` only says the text was cut; what was written stands.
        Ok(_) => Some(out),
        Err(panic) => {
            discard(panic);
            None
        }
    }
}

/// Drops a panic payload, whose own `Drop` could panic again.
pub(crate) fn discard(payload: Box<dyn std::any::Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        // A payload whose drop panics twice is leaked rather than unwound.
        std::mem::forget(again);
    }
}

/// What a message that panicked when rendered is shown as.
const UNRENDERABLE: &str = "(the error's message could not be rendered: it panicked)";

/// The bounded message of `source`, and `source` itself, or, when its message chain or its
/// `Debug` shows one of `secrets` (or may, past where they were cut), or panics when
/// formatted, a stand-in that carries only the (redacted) messages.
fn redact(source: BoxError, secrets: &[&str]) -> (Box<str>, BoxError) {
    // A cause whose `Display` or `Debug` panics here would panic again in whoever logs it, so
    // it is replaced too; the whole chain is rendered to know.
    let mut panicked = false;
    // A rendering cut short, or a chain deeper than followed, may hide a secret past the cut.
    let mut unseen = false;
    let mut text = |rendered: Option<Bounded>| match rendered {
        Some(rendered) => {
            unseen |= rendered.cut;
            rendered.text
        }
        None => {
            panicked = true;
            UNRENDERABLE.to_owned()
        }
    };
    let mut chain = vec![text(render(|out| write!(out, "{source}")))];
    let mut next = source.source();
    while let Some(cause) = next.filter(|_| chain.len() < CHAIN_DEPTH) {
        chain.push(text(render(|out| write!(out, "{cause}"))));
        next = cause.source();
    }
    let debug = text(render(|out| write!(out, "{source:?}")));
    unseen |= next.is_some();
    let secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    let leaks = |text: &str| secrets.iter().any(|secret| text.contains(secret));
    let clean = secrets.is_empty() || !(unseen || leaks(&debug) || chain.iter().any(|m| leaks(m)));
    if !panicked && clean {
        let message = chain.swap_remove(0);
        return (message.into(), source);
    }
    let mut stand_in: Option<Redacted> = None;
    for message in chain.into_iter().rev() {
        stand_in = Some(Redacted {
            message: scrub_cut(message, &secrets).into(),
            source: stand_in.map(Box::new),
        });
    }
    let stand_in = stand_in.unwrap_or_else(|| Redacted {
        message: "[redacted]".into(),
        source: None,
    });
    let message = stand_in.message.clone();
    // The original is dropped here: a foreign `Drop` that panics must not unwind either.
    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(source))) {
        discard(panic);
    }
    (message, Box::new(stand_in))
}

/// A cause whose text showed a secret, kept as its redacted messages only.
#[derive(Debug)]
struct Redacted {
    message: Box<str>,
    source: Option<Box<Redacted>>,
}

impl fmt::Display for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Redacted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}

/// How a [`ToolPanic`]'s `Display` begins.
const PANIC_PREFIX: &str = "the tool panicked: ";

/// A panic caught inside a tool; the cause of a [`ToolExecutionError`].
///
/// Its message is for operators: the model is only told that the tool failed unexpectedly.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{PANIC_PREFIX}{}", EscapedText(.message, OPERATOR_MESSAGE))]
pub struct ToolPanic {
    message: String,
}

impl ToolPanic {
    /// The panic's message, bounded, with every secret of the call replaced.
    pub(crate) fn from_payload(payload: &(dyn std::any::Any + Send), secrets: &[&str]) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .map_or_else(
                || "a panic with a non-string payload".to_owned(),
                |message| {
                    let message = render(|out| out.write_str(message)).unwrap_or_default();
                    scrub_cut(message.text, secrets)
                },
            );
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

/// A call whose future was dropped before it finished; the cause of a [`ToolExecutionError`].
///
/// The executor reports it to observers (and so to recorders) as the call's end, so that
/// every `started` event has its terminal event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the call was cancelled before it finished")]
pub struct ToolCancelled;

/// A call the approval policy deferred: the error of a result whose status is
/// [`Deferred`](crate::ToolStatus::Deferred), until
/// [`ToolExecutor::resume`](crate::ToolExecutor::resume) decides it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the call awaits approval")]
pub struct AwaitingApproval;

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
/// The name is the model's: a bounded copy of it is kept, and it is shown escaped.
///
/// ```
/// use agentkit_core::UnknownToolError;
///
/// let err = UnknownToolError::new("fetch_wether", vec!["fetch_weather".into()]);
/// assert_eq!(err.to_string(), "unknown tool 'fetch_wether'; did you mean 'fetch_weather'?");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", DisplayUnknown(self, OPERATOR_ECHO))]
pub struct UnknownToolError {
    name: String,
    nearest: Vec<String>,
}

struct DisplayUnknown<'a>(&'a UnknownToolError, usize);

impl fmt::Display for DisplayUnknown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (e, echo) = (self.0, self.1);
        write!(f, "unknown tool '{}'", Escaped(&e.name, echo))?;
        match e.nearest.as_slice() {
            [] => Ok(()),
            [only] => write!(f, "; did you mean '{}'?", Escaped(only, echo)),
            many => {
                f.write_str("; did you mean one of ")?;
                for (i, name) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "'{}'", Escaped(name, echo))?;
                }
                f.write_str("?")
            }
        }
    }
}

impl UnknownToolError {
    /// Builds the error for `name`, with the registered names nearest to it.
    pub fn new(name: &str, nearest: Vec<String>) -> Self {
        UnknownToolError {
            name: capture(name),
            nearest,
        }
    }

    /// The name that was called (at most 256 bytes of it).
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
    /// The call was dropped before it finished.
    Cancelled,
    /// The tool asked the model to correct the call and try again ([`ToolError::retry`]).
    Retry,
    /// The tool asked for a retry once more than its retry budget for the turn allows.
    RetriesExhausted,
    /// The call was denied: by the approval policy, or by the tool ([`ToolError::denied`]).
    Denied,
    /// The call awaits approval (its result is [`Deferred`](crate::ToolStatus::Deferred)).
    AwaitingApproval,
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
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Retry => "retry",
            ErrorKind::RetriesExhausted => "retries_exhausted",
            ErrorKind::Denied => "denied",
            ErrorKind::AwaitingApproval => "awaiting_approval",
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::Semantic => "semantic",
        }
    }
}

impl ErrorKind {
    /// Whether the model can fix the call by changing it: wrong arguments, an unknown tool
    /// name, or a tool's request to retry. An agent loop sends these back to the model for
    /// another try; the others end the call for good.
    pub const fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorKind::InputValidation | ErrorKind::UnknownTool | ErrorKind::Retry
        )
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
            Error::Execution(e) => e.kind(),
            Error::UnknownTool(_) => ErrorKind::UnknownTool,
            Error::Semantic(_) => ErrorKind::Semantic,
        }
    }

    /// Whether the model can fix the call by changing it; see [`ErrorKind::is_retryable`].
    pub fn is_retryable(&self) -> bool {
        self.kind().is_retryable()
    }

    /// A short message fit to hand back to the model as the tool's result, within the
    /// default [`TextLimits`].
    ///
    /// It tells the model what it can act on: which parameters were wrong and what was
    /// expected, or which tools exist, or what the tool asked it to know (see
    /// [`ToolError`]). It says nothing of a tool's internals: the text of a tool's own error,
    /// an output that broke the schema, a panic and a missing credential are reported as a
    /// failure of the tool, without detail. Every name it echoes is escaped and cut, and the
    /// whole is bounded.
    pub fn to_model_message(&self) -> String {
        self.to_model_message_with(&TextLimits::DEFAULT)
    }

    /// Like [`to_model_message`](Self::to_model_message), within `limits`.
    pub fn to_model_message_with(&self, limits: &TextLimits) -> String {
        // Room for the usual message, which then grows no more than once or twice.
        let mut message = String::with_capacity(256);
        // Writing to a String cannot fail.
        let _ = self.write_model_message(&mut message, limits);
        truncate_content(message, limits.max_content_bytes())
    }

    fn write_model_message(&self, f: &mut String, limits: &TextLimits) -> fmt::Result {
        let echo = limits.max_echo_chars();
        match self {
            Error::Validation(e) if e.direction() == Direction::Input => {
                write!(
                    f,
                    "Error: invalid arguments for tool '{}':",
                    Escaped(e.tool_name(), echo)
                )?;
                e.write_issues(f, "\n- ", limits.max_issues(), echo)
            }
            Error::Validation(e) => write!(
                f,
                "Error: tool '{}' failed: it produced an invalid result.",
                Escaped(e.tool_name(), echo)
            ),
            Error::Execution(e) => {
                let name = Escaped(e.tool_name(), echo);
                match e.kind() {
                    ErrorKind::Timeout => write!(
                        f,
                        "Error: tool '{name}' did not finish in time and was cancelled."
                    ),
                    ErrorKind::Cancelled => {
                        write!(f, "Error: tool '{name}' was cancelled before it finished.")
                    }
                    ErrorKind::Panic | ErrorKind::Credential => {
                        write!(f, "Error: tool '{name}' failed unexpectedly.")
                    }
                    ErrorKind::AwaitingApproval => write!(
                        f,
                        "The call to tool '{name}' awaits approval; its result will follow."
                    ),
                    kind => {
                        let told = e
                            .model_message()
                            .filter(|m| !m.is_empty())
                            .map(|m| EscapedText(m, limits.max_message_chars()));
                        match (kind, told) {
                            (ErrorKind::Retry, Some(told)) => write!(
                                f,
                                "Error: tool '{name}' asks you to correct the call and try again: {told}"
                            ),
                            (ErrorKind::Retry, None) => write!(
                                f,
                                "Error: tool '{name}' asks you to correct the call and try again."
                            ),
                            (ErrorKind::RetriesExhausted, Some(told)) => write!(
                                f,
                                "Error: tool '{name}' failed, and it cannot be retried in this turn: {told}"
                            ),
                            (ErrorKind::RetriesExhausted, None) => write!(
                                f,
                                "Error: tool '{name}' failed, and it cannot be retried in this turn."
                            ),
                            (ErrorKind::Denied, Some(told)) => {
                                write!(f, "Error: the call to tool '{name}' was denied: {told}")
                            }
                            (ErrorKind::Denied, None) => {
                                write!(f, "Error: the call to tool '{name}' was denied.")
                            }
                            (_, Some(told)) => write!(f, "Error: tool '{name}' failed: {told}"),
                            (_, None) => write!(f, "Error: tool '{name}' failed."),
                        }
                    }
                }
            }
            Error::UnknownTool(e) => write!(f, "Error: {}", DisplayUnknown(e, echo)),
            Error::Semantic(e) => write!(f, "Error: {e}"),
        }
    }
}
