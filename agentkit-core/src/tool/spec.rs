//! [`ToolSpec`]: a tool's metadata, as one value the registry, the executor and the provider
//! formats read without running tool code.

use std::borrow::Cow;
use std::time::Duration;

use serde_json::{Map, Value};

use super::annotations::ToolAnnotations;
use super::examples::Examples;
use super::json_input::{JsonInput, StaticJsonSchema};
use crate::rules::{self, Literal};
use crate::schema::json_schema::{Style, export};
use crate::schema::{JsonObject, JsonSchema, SemanticError, ToolSchema};

/// The version a tool has when none is declared, as in the Python original.
pub const DEFAULT_VERSION: &str = "1.0.0";

/// A tool's metadata: the Python original's `TOOL_NAME`, `TOOL_DESCRIPTION`, `TOOL_VERSION`,
/// `INPUT_SCHEMA`, `OUTPUT_SCHEMA`, `tags` and `credential_names`, as one value.
///
/// The registry and executor read it without running tool code. A spec built at run time is
/// checked by [`ToolSpecBuilder::build`](crate::ToolSpecBuilder::build) or [`ToolSpec::from_value`], which report every
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
    pub(super) name: Cow<'static, str>,
    pub(super) description: Cow<'static, str>,
    pub(super) version: Cow<'static, str>,
    pub(super) input: Option<ToolSchema>,
    pub(super) output: Option<ToolSchema>,
    pub(super) tags: Cow<'static, [(Cow<'static, str>, Cow<'static, str>)]>,
    pub(super) credentials: Cow<'static, [Cow<'static, str>]>,
    pub(super) policy: ExecutionPolicy,
    pub(super) annotations: ToolAnnotations,
    pub(super) examples: Examples,
    /// The JSON Schema the tool was declared with (an MCP server's, or
    /// `ToolSpecBuilder::input_json_schema`'s), compiled: it validates the arguments in full,
    /// and is what the model is shown.
    pub(super) json_input: JsonInput,
    /// The JSON Schema the tool's output was declared with (an MCP server's `outputSchema`,
    /// or `ToolSpecBuilder::output_json_schema`'s), compiled: it validates the structured
    /// output, any JSON value, in full.
    pub(super) json_output: Option<JsonSchema>,
}

impl ToolSpec {
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
            annotations: ToolAnnotations::NONE,
            examples: Examples::none(),
            json_input: JsonInput::None,
            json_output: None,
        }
    }

    /// Declares the arguments with a JSON Schema the generated code compiles on first use,
    /// in place of a parameter list: used by `#[tool(...)]` and `#[derive(ToolParams)]` for
    /// inputs the six types cannot say (unions, maps, tuples, recursive types). The registry
    /// refuses the tool if the schema does not compile. The spec's parameter list is to be
    /// `None`.
    #[doc(hidden)]
    pub const fn with_static_json_input(mut self, schema: StaticJsonSchema) -> Self {
        // A `const fn` cannot run a destructor, and a spec of `from_static` holds no owned
        // schema to drop: the old value is `JsonInput::None`.
        std::mem::forget(std::mem::replace(
            &mut self.json_input,
            JsonInput::Static(schema),
        ));
        self
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

    /// Saves the spec as JSON data in the shape [`from_value`](Self::from_value) reads.
    ///
    /// A parameter list is saved as `input_schema` / `output_schema` (the Python original's
    /// `{"parameters": [...]}`); a JSON Schema, as written, as `input_json_schema` /
    /// `output_json_schema`, which [`from_value`](Self::from_value) compiles again with the
    /// default options (documents given with [`JsonSchemaOptions::resource`] are not saved:
    /// a schema that needs one then fails to load, it is never left unvalidated).
    ///
    /// ```
    /// use agentkit_core::ToolSpec;
    /// use serde_json::json;
    ///
    /// let spec = ToolSpec::builder("pick")
    ///     .input_json_schema(json!({"type": "object", "properties": {"n": {"enum": [1, 2]}}}))
    ///     .output_json_schema(json!({"type": "array", "items": {"type": "integer"}}))
    ///     .build()?;
    /// let saved = spec.to_value();
    /// assert_eq!(saved["input_json_schema"]["properties"]["n"], json!({"enum": [1, 2]}));
    /// assert_eq!(ToolSpec::from_value(saved)?, spec);
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    ///
    /// [`JsonSchemaOptions::resource`]: crate::JsonSchemaOptions::resource
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
        if let Some(input) = self.input_json() {
            object.insert("input_json_schema".into(), input.as_value().clone());
        }
        if let Some(output) = self.output_json() {
            object.insert("output_json_schema".into(), output.as_value().clone());
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
        if let Some(annotations) = self.annotations.to_value() {
            object.insert("annotations".into(), annotations);
        }
        let examples = self.examples();
        if !examples.is_empty() {
            let examples = examples.iter().cloned().map(Value::Object).collect();
            object.insert("examples".into(), Value::Array(examples));
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

    /// The output schema, when it is a [`ToolSchema`] (an object); `None` for a tool without
    /// an output schema, whose output is not validated, and for one declared with a JSON
    /// Schema (see [`output_json`](Self::output_json)).
    pub fn output_schema(&self) -> Option<&ToolSchema> {
        self.output.as_ref()
    }

    /// Whether the tool declares an output schema of either kind: then its structured output
    /// is validated, and MCP clients are sent it as `structuredContent`.
    pub fn has_output_schema(&self) -> bool {
        self.output.is_some() || self.json_output.is_some()
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

    /// What the tool says of its effects: a title and hints (see [`ToolAnnotations`]).
    pub fn annotations(&self) -> &ToolAnnotations {
        &self.annotations
    }

    /// Sets the annotations on a spec built by [`from_static`](Self::from_static); used by
    /// `#[tool(...)]`, which has checked them at compile time.
    #[doc(hidden)]
    pub const fn with_static_annotations(mut self, annotations: ToolAnnotations) -> Self {
        // A `const fn` cannot run a destructor: the replaced value is always `NONE`, which
        // owns nothing.
        std::mem::forget(std::mem::replace(&mut self.annotations, annotations));
        self
    }

    /// Examples of good inputs, as written (defaults are not filled in), for a model to see
    /// what a good call looks like: Anthropic's `input_examples`. Each is an object the input
    /// schema accepts, checked when the spec was built (by the compiler, for `#[tool(...)]`);
    /// there are at most [`MAX_EXAMPLES`](crate::MAX_EXAMPLES), each at most
    /// [`MAX_EXAMPLE_BYTES`](crate::MAX_EXAMPLE_BYTES) of JSON.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
    /// use serde_json::json;
    ///
    /// let example = json!({"city": "Paris"}).as_object().unwrap().clone();
    /// let spec = ToolSpec::builder("fetch_weather")
    ///     .input(ToolSchema::new([
    ///         Param::required("city", ParamType::String),
    ///         Param::optional("units", ParamType::String).with_default("metric"),
    ///     ])?)
    ///     .example(example.clone())
    ///     .build()?;
    /// assert_eq!(spec.examples(), [example]); // as written: no `units` filled in
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn examples(&self) -> &[JsonObject] {
        self.examples.get()
    }

    /// Sets the input examples on a spec built by [`from_static`](Self::from_static), each a
    /// dictionary literal; used by `#[tool(...)]`, which has checked them at compile time
    /// against the parameters it declares (`checked`), or, for `input = Type`, leaves them to
    /// the registry.
    #[doc(hidden)]
    pub const fn with_static_examples(
        mut self,
        examples: &'static [Literal],
        checked: bool,
    ) -> Self {
        // A `const fn` cannot run a destructor: the replaced value is always the empty one,
        // whose lock was never set.
        std::mem::forget(std::mem::replace(
            &mut self.examples,
            Examples::from_static(examples, checked),
        ));
        self
    }

    /// The problems of examples the compiler could not check (`#[tool(input = Type,
    /// examples = [...])]`), against the input schema; the registry refuses such a tool.
    pub(crate) fn unchecked_example_problems(&self) -> Option<SemanticError> {
        if !self.examples.unchecked() {
            return None;
        }
        let problems =
            super::examples::problems(self.examples(), self.input.as_ref(), self.json_input.get());
        (!problems.is_empty()).then(|| SemanticError::new(problems))
    }

    /// The JSON Schema of the tool's arguments (see [`ToolSchema::to_json_schema`]): exactly
    /// what the executor accepts; for a tool declared with a JSON Schema, that schema; a tool
    /// without an input schema takes any object. What a model is sent comes from
    /// [`provider`](crate::provider).
    pub fn input_json_schema(&self) -> Value {
        match (&self.input, self.json_input.get()) {
            (_, Some(schema)) => schema.as_value().clone(),
            (Some(schema), None) => schema.to_json_schema(),
            (None, None) => serde_json::json!({"type": "object"}),
        }
    }

    /// The JSON Schema of the tool's output: for a tool declared with a JSON Schema
    /// ([`ToolSpecBuilder::output_json_schema`](crate::ToolSpecBuilder::output_json_schema), an
    /// MCP server's `outputSchema`), that schema as written, any schema; else its
    /// [`ToolSchema`]'s (see [`ToolSchema::to_json_schema`]). `None` when no output schema is
    /// declared.
    pub fn output_json_schema(&self) -> Option<Value> {
        match (&self.output, &self.json_output) {
            (_, Some(schema)) => Some(schema.as_value().clone()),
            (Some(schema), None) => Some(schema.to_json_schema()),
            (None, None) => None,
        }
    }

    /// The JSON Schema the tool's structured output is validated against, when it was
    /// declared with one ([`ToolSpecBuilder::output_json_schema`](crate::ToolSpecBuilder::output_json_schema),
    /// an MCP server's tool with an `outputSchema`); `None` for a tool whose output is a
    /// [`ToolSchema`], or that declares none.
    pub fn output_json(&self) -> Option<&JsonSchema> {
        self.json_output.as_ref()
    }

    /// The JSON Schema the tool's arguments are validated against, when it was declared
    /// with one ([`ToolSpecBuilder::input_json_schema`](crate::ToolSpecBuilder::input_json_schema),
    /// an MCP server's tool); `None` for a tool whose input is a [`ToolSchema`].
    pub fn input_json(&self) -> Option<&JsonSchema> {
        self.json_input.get()
    }

    /// Why the tool's generated JSON Schema cannot validate anything, if it cannot: the
    /// registry refuses such a tool rather than run it unvalidated.
    pub(crate) fn json_input_problem(&self) -> Option<SemanticError> {
        self.json_input.problem("input_schema")
    }

    pub(crate) fn without_credentials(&self) -> ToolSpec {
        ToolSpec {
            credentials: Cow::Borrowed(&[]),
            ..self.clone()
        }
    }

    /// The arguments' JSON Schema in `style`, for a provider declaration.
    ///
    /// For a tool declared with a JSON Schema of its own (an MCP server's, or
    /// [`input_json_schema`](ToolSpecBuilder::input_json_schema)), that schema as written:
    /// [`provider::lower`](crate::provider::lower) lowers it for each API.
    pub(crate) fn input_schema_in(&self, style: Style) -> Value {
        if let Some(declared) = self.json_input.get() {
            return declared.as_value().clone();
        }
        match (&self.input, style) {
            (Some(schema), style) => export(schema, style),
            // Strict modes accept only closed objects, whose properties are all listed.
            (None, Style::OpenAiStrict | Style::AnthropicStrict) => {
                export(&ToolSchema::empty(), style)
            }
            (None, _) => serde_json::json!({"type": "object"}),
        }
    }

    /// The output's JSON Schema in `style`, when one is declared; a JSON Schema of the tool's
    /// own as written.
    pub(crate) fn output_schema_in(&self, style: Style) -> Option<Value> {
        if let Some(declared) = &self.json_output {
            return Some(declared.as_value().clone());
        }
        self.output.as_ref().map(|schema| export(schema, style))
    }
}

/// How the executor runs a tool: the parts of a spec beyond the Python original's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ExecutionPolicy {
    pub(super) timeout: Option<Duration>,
    pub(super) blocking: bool,
    pub(super) sequential: bool,
    pub(super) requires_approval: bool,
    pub(super) retries: Option<u32>,
}

impl ExecutionPolicy {
    pub(super) const DEFAULT: ExecutionPolicy = ExecutionPolicy {
        timeout: None,
        blocking: false,
        sequential: false,
        requires_approval: false,
        retries: None,
    };
}
