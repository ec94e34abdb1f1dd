//! The [`Tool`] trait and its metadata, the [`ToolSpec`].

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::error::BoxError;
use crate::output::Returned;
use crate::rules::{self, NameKind, Problem};
use crate::schema::json_schema::{Style, export};
use crate::schema::{JsonObject, ToolSchema, UnknownArguments};
use crate::schema::{SemanticError, SemanticProblem};
use crate::typed::{Inputs, Parsed};

/// The version a tool has when none is declared, as in the Python original.
pub const DEFAULT_VERSION: &str = "1.0.0";

/// A tool's metadata: the Python original's `TOOL_NAME`, `TOOL_DESCRIPTION`, `TOOL_VERSION`,
/// `INPUT_SCHEMA`, `OUTPUT_SCHEMA`, `tags` and `credential_names`, as one value.
///
/// The registry and executor read it without running tool code. A spec built at run time is
/// checked by [`ToolSpecBuilder::build`] or [`ToolSpec::from_value`], which report every
/// problem at once; `#[tool(...)]` builds it as `static` data the compiler has checked.
///
/// ```
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
///
/// let spec = ToolSpec::builder("fetch_weather")
///     .description("Look up the current weather for a city.")
///     .input(ToolSchema::new([Param::required("city", ParamType::String)])?)
///     .tag("category", "weather")
///     .credential("weather-api-key")
///     .build()?;
/// assert_eq!(spec.name(), "fetch_weather");
/// assert_eq!(spec.version(), "1.0.0");
/// assert_eq!(spec.tag("category"), Some("weather"));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    name: Cow<'static, str>,
    description: Cow<'static, str>,
    version: Cow<'static, str>,
    input: Option<ToolSchema>,
    output: Option<ToolSchema>,
    tags: Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]>,
    credentials: Cow<'static, [Cow<'static, str>]>,
    policy: ExecutionPolicy,
    /// The JSON Schema an MCP server declared for the tool: what the model is shown, while
    /// `input` validates only the part of it that the six types can express.
    #[cfg(feature = "mcp")]
    declared_input: Option<std::sync::Arc<Value>>,
}

impl ToolSpec {
    /// Starts a spec for a tool called `name`.
    pub fn builder(name: impl Into<Cow<'static, str>>) -> ToolSpecBuilder {
        ToolSpecBuilder {
            spec: ToolSpec {
                name: name.into(),
                description: Cow::Borrowed(""),
                version: Cow::Borrowed(DEFAULT_VERSION),
                input: None,
                output: None,
                tags: Cow::Borrowed(&[]),
                credentials: Cow::Borrowed(&[]),
                policy: ExecutionPolicy::DEFAULT,
                #[cfg(feature = "mcp")]
                declared_input: None,
            },
        }
    }

    /// Builds a spec from `static` data without checking it; used by `#[tool(...)]`, which
    /// has already checked every rule at compile time.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn from_static(
        name: &'static str,
        description: &'static str,
        version: &'static str,
        input: Option<ToolSchema>,
        output: Option<ToolSchema>,
        tags: &'static [(Cow<'static, str>, Cow<'static, str>)],
        credentials: &'static [Cow<'static, str>],
    ) -> Self {
        ToolSpec {
            name: Cow::Borrowed(name),
            description: Cow::Borrowed(description),
            version: Cow::Borrowed(version),
            input,
            output,
            tags: Cow::Borrowed(tags),
            credentials: Cow::Borrowed(credentials),
            policy: ExecutionPolicy::DEFAULT,
            #[cfg(feature = "mcp")]
            declared_input: None,
        }
    }

    /// Sets how the executor runs the tool, on a spec built by
    /// [`from_static`](Self::from_static); used by `#[tool(...)]`, which has checked the
    /// timeout (in milliseconds, `0` for none) at compile time.
    #[doc(hidden)]
    pub const fn with_static_policy(
        mut self,
        timeout_ms: u64,
        blocking: bool,
        sequential: bool,
        requires_approval: bool,
        retries: Option<u32>,
    ) -> Self {
        self.policy = ExecutionPolicy {
            timeout: if timeout_ms == 0 {
                None
            } else {
                Some(Duration::from_millis(timeout_ms))
            },
            blocking,
            sequential,
            requires_approval,
            retries,
        };
        self
    }

    /// Loads a spec from JSON data, reporting every problem:
    ///
    /// ```
    /// use agentkit_core::ToolSpec;
    /// use serde_json::json;
    ///
    /// let spec = ToolSpec::from_value(json!({
    ///     "name": "fetch_weather",
    ///     "description": "Look up the current weather for a city.",
    ///     "version": "1.0.0",
    ///     "input_schema": {"parameters": [{"name": "city", "type": "string"}]},
    ///     "output_schema": {"parameters": [{"name": "temperature", "type": "float"}]},
    ///     "tags": {"category": "weather"},
    ///     "credential_names": ["weather-api-key"]
    /// }))?;
    /// assert_eq!(spec.credential_names().collect::<Vec<_>>(), ["weather-api-key"]);
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn from_value(value: Value) -> Result<Self, SemanticError> {
        spec_from_value(value)
    }

    /// Saves the spec as JSON data in the shape [`from_value`](Self::from_value) reads.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        object.insert("name".into(), Value::from(self.name()));
        object.insert("description".into(), Value::from(self.description()));
        object.insert("version".into(), Value::from(self.version()));
        if let Some(input) = &self.input {
            object.insert("input_schema".into(), input.to_value());
        }
        if let Some(output) = &self.output {
            object.insert("output_schema".into(), output.to_value());
        }
        object.insert(
            "tags".into(),
            Value::Object(
                self.tags()
                    .map(|(k, v)| (k.to_owned(), Value::from(v)))
                    .collect(),
            ),
        );
        object.insert(
            "credential_names".into(),
            self.credential_names().collect::<Vec<_>>().into(),
        );
        let policy = &self.policy;
        if let Some(timeout) = policy.timeout {
            object.insert("timeout".into(), rules::format_timeout(timeout).into());
        }
        for (key, set) in [
            ("blocking", policy.blocking),
            ("sequential", policy.sequential),
            ("requires_approval", policy.requires_approval),
        ] {
            if set {
                object.insert(key.into(), true.into());
            }
        }
        if let Some(retries) = policy.retries {
            object.insert("retries".into(), retries.into());
        }
        Value::Object(object)
    }

    /// The tool's unique name.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn name_cow(&self) -> &Cow<'static, str> {
        &self.name
    }

    /// The natural-language description sent to the model.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The version, `MAJOR.MINOR.PATCH` (`1.0.0` unless declared).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The input schema; `None` means inputs are not validated (the Python original's
    /// `INPUT_SCHEMA = None`).
    pub fn input_schema(&self) -> Option<&ToolSchema> {
        self.input.as_ref()
    }

    /// The output schema; `None` means outputs are not validated.
    pub fn output_schema(&self) -> Option<&ToolSchema> {
        self.output.as_ref()
    }

    /// The tags, as key-value pairs in declaration order.
    pub fn tags(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        self.tags.iter().map(|(k, v)| (k.as_ref(), v.as_ref()))
    }

    /// The value of tag `key`.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The names of the credentials the tool needs, resolved by the executor before each run.
    pub fn credential_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.credentials.iter().map(AsRef::as_ref)
    }

    /// How long a call may run before the executor ends it with a timeout, when the tool
    /// declares it; otherwise the executor's default applies (see
    /// [`ToolExecutorBuilder::default_timeout`](crate::ToolExecutorBuilder::default_timeout)).
    pub fn timeout(&self) -> Option<Duration> {
        self.policy.timeout
    }

    /// Whether the tool blocks its thread (sync I/O, heavy computation): the executor then
    /// runs it off the async task, so that its deadline holds and the runtime is not stalled.
    pub fn is_blocking(&self) -> bool {
        self.policy.blocking
    }

    /// Whether the tool runs alone: never overlapping another call of the executor, and in
    /// call order within a turn.
    pub fn is_sequential(&self) -> bool {
        self.policy.sequential
    }

    /// Whether a call must be approved before it runs (see
    /// [`ToolExecutorBuilder::approval`](crate::ToolExecutorBuilder::approval)).
    pub fn requires_approval(&self) -> bool {
        self.policy.requires_approval
    }

    /// How many times per turn the tool may ask the model to retry with feedback, when the
    /// tool declares it; otherwise the executor's default applies (see
    /// [`ToolExecutorBuilder::default_retries`](crate::ToolExecutorBuilder::default_retries)).
    pub fn retries(&self) -> Option<u32> {
        self.policy.retries
    }

    /// The JSON Schema of the tool's arguments (see [`ToolSchema::to_json_schema`]): exactly
    /// what the executor accepts; a tool without an input schema takes any object. What a
    /// model is sent comes from [`provider`](crate::provider).
    pub fn input_json_schema(&self) -> Value {
        match &self.input {
            Some(schema) => schema.to_json_schema(),
            None => serde_json::json!({"type": "object"}),
        }
    }

    /// The JSON Schema of the tool's output (see [`ToolSchema::to_json_schema`]); `None` when
    /// no output schema is declared.
    pub fn output_json_schema(&self) -> Option<Value> {
        self.output.as_ref().map(ToolSchema::to_json_schema)
    }

    /// Shows the model `schema`, as an MCP server declared it, instead of the one derived
    /// from the input schema.
    #[cfg(feature = "mcp")]
    pub(crate) fn with_declared_input(mut self, schema: Value) -> ToolSpec {
        self.declared_input = Some(std::sync::Arc::new(schema));
        self
    }

    pub(crate) fn without_credentials(&self) -> ToolSpec {
        ToolSpec {
            credentials: Cow::Borrowed(&[]),
            ..self.clone()
        }
    }

    /// The arguments' JSON Schema in `style`, for a provider declaration.
    ///
    /// For a tool of an MCP server (feature `mcp`), the schema the server declared, enums and
    /// bounds included, except in OpenAI's strict style, whose rules a foreign schema may not
    /// follow: there, the part the executor validates.
    pub(crate) fn input_schema_in(&self, style: Style) -> Value {
        #[cfg(feature = "mcp")]
        if let (Some(declared), false) = (&self.declared_input, style == Style::OpenAiStrict) {
            return Value::clone(declared);
        }
        match (&self.input, style) {
            (Some(schema), style) => export(schema, style),
            // Strict modes accept only closed objects, whose properties are all listed.
            (None, Style::OpenAiStrict) => export(&ToolSchema::empty(), style),
            (None, _) => serde_json::json!({"type": "object"}),
        }
    }

    /// The output's JSON Schema in `style`, when one is declared.
    pub(crate) fn output_schema_in(&self, style: Style) -> Option<Value> {
        self.output.as_ref().map(|schema| export(schema, style))
    }

    fn problems(&self) -> Vec<SemanticProblem> {
        let mut problems = Vec::new();
        let mut push = |location: &str, problem: Problem| {
            problems.push(SemanticProblem::new(location.to_owned(), problem));
        };
        if self.name.is_empty() {
            push("", Problem::MissingToolName);
        } else if let Err(p) = rules::check_name(NameKind::Tool, &self.name) {
            push("", p);
        }
        if let Err(p) = rules::check_version(&self.version) {
            push("", p);
        }
        if let Some(timeout) = self.policy.timeout {
            let reason = if timeout < Duration::from_millis(1) {
                Some("a timeout shorter than a millisecond would fail every call")
            } else if timeout > rules::MAX_TIMEOUT {
                Some("it is longer than a day")
            } else {
                None
            };
            if let Some(reason) = reason {
                push(
                    "timeout",
                    Problem::InvalidTimeout {
                        found: format!("{timeout:?}"),
                        reason,
                    },
                );
            }
        }
        for name in rules::find_duplicates(self.credential_names()) {
            push(
                "credential_names",
                Problem::DuplicateCredential {
                    name: name.to_owned(),
                },
            );
        }
        if self.credential_names().any(str::is_empty) {
            push("credential_names", Problem::EmptyCredentialName);
        }
        for key in rules::find_duplicates(self.tags().map(|(k, _)| k)) {
            push(
                "tags",
                Problem::DuplicateTag {
                    key: key.to_owned(),
                },
            );
        }
        problems
    }
}

/// How the executor runs a tool: the parts of a spec beyond the Python original's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ExecutionPolicy {
    timeout: Option<Duration>,
    blocking: bool,
    sequential: bool,
    requires_approval: bool,
    retries: Option<u32>,
}

impl ExecutionPolicy {
    const DEFAULT: ExecutionPolicy = ExecutionPolicy {
        timeout: None,
        blocking: false,
        sequential: false,
        requires_approval: false,
        retries: None,
    };
}

/// Builds a [`ToolSpec`] at run time; see [`ToolSpec::builder`].
#[derive(Debug, Clone)]
#[must_use = "call `build` to get the spec"]
pub struct ToolSpecBuilder {
    spec: ToolSpec,
}

impl ToolSpecBuilder {
    /// Sets the description sent to the model.
    pub fn description(mut self, description: impl Into<Cow<'static, str>>) -> Self {
        self.spec.description = description.into();
        self
    }

    /// Sets the version (`MAJOR.MINOR.PATCH`).
    pub fn version(mut self, version: impl Into<Cow<'static, str>>) -> Self {
        self.spec.version = version.into();
        self
    }

    /// Sets the input schema.
    pub fn input(mut self, schema: ToolSchema) -> Self {
        self.spec.input = Some(schema);
        self
    }

    /// Sets the output schema.
    pub fn output(mut self, schema: ToolSchema) -> Self {
        self.spec.output = Some(schema);
        self
    }

    /// Adds a tag.
    pub fn tag(
        mut self,
        key: impl Into<Cow<'static, str>>,
        value: impl Into<Cow<'static, str>>,
    ) -> Self {
        self.spec.tags.to_mut().push((key.into(), value.into()));
        self
    }

    /// Adds the name of a credential the tool needs.
    pub fn credential(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.spec.credentials.to_mut().push(name.into());
        self
    }

    /// Sets how long a call may run before it ends with a timeout (between a millisecond and
    /// a day). It overrides the executor's default timeout.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.spec.policy.timeout = Some(timeout);
        self
    }

    /// Marks the tool as blocking its thread: the executor runs it off the async task (see
    /// [`ToolSpec::is_blocking`]).
    pub fn blocking(mut self) -> Self {
        self.spec.policy.blocking = true;
        self
    }

    /// Marks the tool as sequential: it never overlaps another call (see
    /// [`ToolSpec::is_sequential`]).
    pub fn sequential(mut self) -> Self {
        self.spec.policy.sequential = true;
        self
    }

    /// Marks the tool as needing approval before each call runs (see
    /// [`ToolSpec::requires_approval`]).
    pub fn requires_approval(mut self) -> Self {
        self.spec.policy.requires_approval = true;
        self
    }

    /// Sets how many times per turn the tool may ask the model to retry with feedback
    /// (see [`ToolError::retry`](crate::ToolError::retry)). It overrides the executor's
    /// default.
    pub fn retries(mut self, retries: u32) -> Self {
        self.spec.policy.retries = Some(retries);
        self
    }

    /// Checks the spec, reporting every problem: name, version, timeout, duplicate
    /// credentials or tags.
    pub fn build(self) -> Result<ToolSpec, SemanticError> {
        let problems = self.spec.problems();
        if problems.is_empty() {
            Ok(self.spec)
        } else {
            Err(SemanticError::new(problems))
        }
    }
}

fn spec_from_value(value: Value) -> Result<ToolSpec, SemanticError> {
    const KEYS: &[&str] = &[
        "name",
        "description",
        "version",
        "input_schema",
        "output_schema",
        "tags",
        "credential_names",
        "timeout",
        "blocking",
        "sequential",
        "requires_approval",
        "retries",
    ];
    let mut problems = Vec::new();
    let Value::Object(object) = value else {
        return Err(SemanticError::single(Problem::NotAnObject {
            what: "a tool spec",
            example: r#"{"name": "fetch_weather", "input_schema": {"parameters": [...]}}"#,
        }));
    };
    let mut builder = ToolSpec::builder("");
    let mut expect = |key: &'static str, expected: &'static str| {
        problems.push(SemanticProblem::new(
            String::new(),
            Problem::InvalidKeyValue { key, expected },
        ));
    };
    let mut schema_problems = Vec::new();
    for (key, value) in object {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => builder.spec.name = Cow::Owned(s),
            ("name", _) => expect("name", "a string"),
            ("description", Value::String(s)) => builder = builder.description(s),
            ("description", _) => expect("description", "a string"),
            ("version", Value::String(s)) => builder = builder.version(s),
            ("version", _) => expect("version", "a string"),
            ("input_schema" | "output_schema", Value::Null) => {}
            (direction @ ("input_schema" | "output_schema"), value) => {
                match ToolSchema::from_value(value) {
                    Ok(schema) if direction == "input_schema" => builder = builder.input(schema),
                    Ok(schema) => builder = builder.output(schema),
                    Err(e) => schema_problems.extend(e.prefixed(direction).into_problems()),
                }
            }
            ("tags", Value::Object(tags)) => {
                for (k, v) in tags {
                    match v {
                        Value::String(v) => builder = builder.tag(k, v),
                        _ => expect("tags", "an object of string values"),
                    }
                }
            }
            ("tags", _) => expect("tags", "an object of string values"),
            ("credential_names", Value::Array(names)) => {
                for name in names {
                    match name {
                        Value::String(name) => builder = builder.credential(name),
                        _ => expect("credential_names", "a list of strings"),
                    }
                }
            }
            ("credential_names", _) => expect("credential_names", "a list of strings"),
            ("timeout", Value::String(text)) => match rules::parse_timeout(&text) {
                Ok(timeout) => builder = builder.timeout(timeout),
                Err(problem) => schema_problems.push(SemanticProblem::new(String::new(), problem)),
            },
            ("timeout", _) => expect("timeout", "a string such as \"10s\""),
            ("blocking", Value::Bool(set)) => builder.spec.policy.blocking = set,
            ("sequential", Value::Bool(set)) => builder.spec.policy.sequential = set,
            ("requires_approval", Value::Bool(set)) => builder.spec.policy.requires_approval = set,
            ("blocking", _) => expect("blocking", "true or false"),
            ("sequential", _) => expect("sequential", "true or false"),
            ("requires_approval", _) => expect("requires_approval", "true or false"),
            ("retries", value) => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(retries) => builder = builder.retries(retries),
                None => expect("retries", "a whole number"),
            },
            (other, _) => schema_problems.push(SemanticProblem::new(
                String::new(),
                Problem::UnknownKey {
                    found: other.to_owned(),
                    suggestion: rules::suggest(other, KEYS.iter().copied()),
                    allowed: KEYS,
                },
            )),
        }
    }
    problems.extend(schema_problems);
    problems.extend(builder.spec.problems());
    if problems.is_empty() {
        Ok(builder.spec)
    } else {
        Err(SemanticError::new(problems))
    }
}

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
/// use agentkit_core::{BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolSchema, ToolSpec};
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
///     async fn execute(&self, inputs: &JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         // Validated: both are present integers.
///         let sum = inputs["a"].as_i64().unwrap_or(0) + inputs["b"].as_i64().unwrap_or(0);
///         Ok(json!({ "sum": sum }).as_object().cloned().unwrap_or_default())
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
    /// The returned object is validated against the output schema. An error becomes a
    /// [`ToolExecutionError`](crate::ToolExecutionError) with the error as its source; so does
    /// a panic.
    fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<JsonObject, BoxError>> + Send;

    /// The typed fast path, which `#[tool(...)]` implements: the argument text straight into
    /// the tool's input, validated. By default, into a validated JSON object, in the same
    /// single pass. Not public API.
    #[doc(hidden)]
    fn parse_typed(&self, text: &str, unknown: UnknownArguments, max_issues: usize) -> Parsed {
        crate::typed::parse_object(self.spec(), text, unknown, max_issues, false)
    }

    /// Whether every output the tool returns fits its output schema by the Rust types it is
    /// built from, but for a non-finite float (which becomes `null`): the executor then checks
    /// only for a `null` before skipping output validation. `#[tool(...)]` says so for an
    /// output struct with no default and no constraint its types do not enforce. Not public
    /// API.
    #[doc(hidden)]
    fn output_fits_by_type(&self) -> bool {
        false
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
                Inputs::Json(inputs) => self.execute(inputs, ctx).await.map(Returned::Json),
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

    fn output_fits_by_type(&self) -> bool;

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

    fn output_fits_by_type(&self) -> bool {
        Tool::output_fits_by_type(self)
    }

    fn execute_boxed<'a>(
        &'a self,
        inputs: Inputs<'a>,
        ctx: &'a ToolContext<'a>,
    ) -> BoxFuture<'a, Result<Returned, BoxError>> {
        Box::pin(Tool::execute_inputs(self, inputs, ctx))
    }
}
