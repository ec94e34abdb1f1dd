//! Building a [`ToolSpec`] at run time: with [`ToolSpecBuilder`], or from JSON data, every
//! problem reported at once in a [`SemanticError`].

use std::borrow::Cow;
use std::time::Duration;

use serde_json::Value;

use super::annotations::ToolAnnotations;
use super::examples::{self, Examples};
use super::json_decl::{self, JsonDecl};
use super::spec::{DEFAULT_VERSION, ExecutionPolicy, ToolSpec};
use crate::rules::{self, NameKind, Problem};
use crate::schema::{JsonObject, SemanticError, SemanticProblem, ToolSchema};

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
                annotations: ToolAnnotations::NONE,
                examples: Examples::none(),
                json_input: JsonDecl::None,
                json_output: JsonDecl::None,
            },
            examples: Vec::new(),
            schema_problems: Vec::new(),
        }
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
        if let Some(problem) = self.annotations.problems() {
            push("annotations", problem);
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

/// Builds a [`ToolSpec`] at run time; see [`ToolSpec::builder`].
#[derive(Debug, Clone)]
#[must_use = "call `build` to get the spec"]
pub struct ToolSpecBuilder {
    spec: ToolSpec,
    examples: Vec<JsonObject>,
    /// Why the JSON Schema given was refused: reported by `build`, with the rest.
    schema_problems: Vec<SemanticProblem>,
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
        self.spec.json_input = JsonDecl::None;
        self
    }

    /// Declares the arguments with a JSON Schema of your own, for what the six types cannot
    /// say (JSON Schema 2020-12 or draft-07: `$defs` and `$ref`, `oneOf`, `pattern`, ...),
    /// compiled with agentkit's defaults ([`JsonSchema::new`](crate::JsonSchema::new); use
    /// [`input_json`](Self::input_json) for other options). Models and MCP clients are shown
    /// it as written, and the tool is declared without a provider's strict mode.
    ///
    /// The executor validates the arguments against it in full, every keyword as JSON
    /// Schema says, with the policies for models (`null` for an optional parameter is "not
    /// given", defaults filled, undeclared arguments refused unless the schema allows extra
    /// keys). A schema the validator cannot take (a bad `pattern`, a `$ref` to nothing) makes
    /// [`build`](Self::build) fail, saying where; [`ToolSpec::input_schema`] is `None`, and
    /// [`ToolSpec::input_json`] holds the compiled schema.
    ///
    /// ```
    /// use agentkit_core::ToolSpec;
    /// use serde_json::json;
    ///
    /// let spec = ToolSpec::builder("save_contact")
    ///     .input_json_schema(json!({
    ///         "$schema": "https://json-schema.org/draft/2020-12/schema",
    ///         "type": "object",
    ///         "$defs": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}},
    ///         "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    ///         "additionalProperties": false,
    ///     }))
    ///     .build()?;
    /// let schema = spec.input_json().unwrap();
    /// assert!(schema.is_valid(&json!({"name": "Ada", "address": {"city": "London"}})));
    /// assert!(!schema.is_valid(&json!({"name": "Ada", "address": {"city": 7}})));
    ///
    /// let broken = ToolSpec::builder("broken").input_json_schema(json!({"pattern": "(unclosed"}));
    /// assert!(broken.build().is_err());
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn input_json_schema(self, schema: Value) -> Self {
        match crate::JsonSchema::new(schema) {
            Ok(schema) => self.input_json(schema),
            Err(error) => self.schema_error("input_schema", &error),
        }
    }

    /// Declares the arguments with a compiled [`JsonSchema`](crate::JsonSchema) (see
    /// [`input_json_schema`](Self::input_json_schema)).
    pub fn input_json(mut self, schema: crate::JsonSchema) -> Self {
        self.spec.input = None;
        self.spec.json_input = JsonDecl::Owned(schema);
        self
    }

    fn schema_error(mut self, key: &str, error: &crate::SchemaError) -> Self {
        self.schema_problems.extend(json_decl::problems(key, error));
        self
    }

    /// Sets the output schema: the tool's structured output is an object of these
    /// parameters.
    pub fn output(mut self, schema: ToolSchema) -> Self {
        self.spec.output = Some(schema);
        self.spec.json_output = JsonDecl::None;
        self
    }

    /// Declares the output with a JSON Schema of your own: any schema, so that the structured
    /// output may be any JSON value (a list, a string, a number, a boolean, `null`, or an
    /// object the six types cannot describe), as MCP's 2026-07-28 revision allows. MCP clients
    /// are sent it as written, as the tool's `outputSchema`.
    ///
    /// It is compiled with [`JsonSchemaOptions::standard`](crate::JsonSchemaOptions::standard):
    /// the output is checked exactly as JSON Schema says, none of the policies for models
    /// (no defaults filled, no `null` read as absent, extra keys allowed unless the schema
    /// says otherwise, `format` an annotation); use [`output_json`](Self::output_json) for
    /// other options. The executor validates the structured output against it, every
    /// problem with its path; a tool that returns no structured output fails. A schema the
    /// validator cannot take makes [`build`](Self::build) fail, saying where (under
    /// `output_schema`); [`ToolSpec::output_schema`] is `None`, and
    /// [`ToolSpec::output_json`] holds the compiled schema.
    ///
    /// ```
    /// use agentkit_core::ToolSpec;
    /// use serde_json::json;
    ///
    /// let spec = ToolSpec::builder("list_names")
    ///     .output_json_schema(json!({"type": "array", "items": {"type": "string"}}))
    ///     .build()?;
    /// let schema = spec.output_json().unwrap();
    /// assert!(schema.is_valid(&json!(["Ada", "Grace"])));
    /// assert!(!schema.is_valid(&json!(["Ada", 7])));
    /// assert_eq!(spec.output_json_schema(), Some(json!({"type": "array", "items": {"type": "string"}})));
    ///
    /// let broken = ToolSpec::builder("broken").output_json_schema(json!({"$ref": "#/$defs/nowhere"}));
    /// assert!(broken.build().unwrap_err().to_string().contains("output_schema"));
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn output_json_schema(self, schema: Value) -> Self {
        match crate::JsonSchemaOptions::standard().build(schema) {
            Ok(schema) => self.output_json(schema),
            Err(error) => self.schema_error("output_schema", &error),
        }
    }

    /// Declares the output with a compiled [`JsonSchema`](crate::JsonSchema), compiled with
    /// the options you chose (see [`output_json_schema`](Self::output_json_schema)).
    pub fn output_json(mut self, schema: crate::JsonSchema) -> Self {
        self.spec.output = None;
        self.spec.json_output = JsonDecl::Owned(schema);
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

    /// Sets whether the tool runs as a task when it is served over MCP and a client that
    /// supports tasks calls it (see [`TaskSupport`](crate::TaskSupport)).
    pub fn task_support(mut self, support: crate::TaskSupport) -> Self {
        self.spec.policy.task_support = support;
        self
    }

    /// Sets a human title for the tool, for a host to show (see [`ToolAnnotations`]).
    pub fn title(mut self, title: impl Into<Cow<'static, str>>) -> Self {
        self.spec.annotations.title = Some(title.into());
        self
    }

    /// Says whether the tool only reads, changing nothing (a hint; see [`ToolAnnotations`]).
    pub fn read_only(mut self, read_only: bool) -> Self {
        self.spec.annotations.read_only = Some(read_only);
        self
    }

    /// Says whether the tool may destroy or overwrite something (a hint; see
    /// [`ToolAnnotations`]).
    pub fn destructive(mut self, destructive: bool) -> Self {
        self.spec.annotations.destructive = Some(destructive);
        self
    }

    /// Says whether calling the tool again with the same arguments has no further effect (a
    /// hint; see [`ToolAnnotations`]).
    pub fn idempotent(mut self, idempotent: bool) -> Self {
        self.spec.annotations.idempotent = Some(idempotent);
        self
    }

    /// Says whether the tool reaches an open world, such as the web (a hint; see
    /// [`ToolAnnotations`]).
    pub fn open_world(mut self, open_world: bool) -> Self {
        self.spec.annotations.open_world = Some(open_world);
        self
    }

    /// Sets every annotation at once.
    pub fn annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.spec.annotations = annotations;
        self
    }

    /// Adds an example of a good input, for a model to see what a good call looks like
    /// (Anthropic's `input_examples`; see [`ToolSpec::examples`]). It is kept as written;
    /// [`build`](Self::build) checks it against the input schema.
    pub fn example(mut self, example: JsonObject) -> Self {
        self.examples.push(example);
        self
    }

    /// Adds examples of good inputs, in order (see [`example`](Self::example)).
    pub fn examples(mut self, examples: impl IntoIterator<Item = JsonObject>) -> Self {
        self.examples.extend(examples);
        self
    }

    /// Checks the spec, reporting every problem: name, version, timeout, duplicate
    /// credentials or tags, contradicting annotations, and input examples the input schema
    /// refuses, each with its index and every problem validation finds in it (but a required
    /// parameter left missing by a misspelt key, which is the misspelling; a spec without an
    /// input schema takes any object), or more than
    /// [`MAX_EXAMPLES`](crate::MAX_EXAMPLES) of them, or one longer than
    /// [`MAX_EXAMPLE_BYTES`](crate::MAX_EXAMPLE_BYTES) of JSON.
    ///
    /// ```
    /// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
    /// use serde_json::json;
    ///
    /// let err = ToolSpec::builder("fetch_weather")
    ///     .input(ToolSchema::new([
    ///         Param::required("city", ParamType::String),
    ///         Param::optional("days", ParamType::Integer).with_maximum(7),
    ///     ])?)
    ///     .example(json!({"city": "Paris"}).as_object().unwrap().clone())
    ///     .example(json!({"ctiy": "Lyon", "days": 10}).as_object().unwrap().clone())
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "\
    /// invalid tool declaration (2 problems):
    ///   input example 1: parameter 'days': the value must be at most 7, got 10
    ///   input example 1: unknown parameter 'ctiy'; did you mean 'city'?");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub fn build(mut self) -> Result<ToolSpec, SemanticError> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(SemanticError::new(problems));
        }
        if !self.examples.is_empty() {
            self.spec.examples = Examples::from_objects(self.examples);
        }
        Ok(self.spec)
    }

    fn problems(&self) -> Vec<SemanticProblem> {
        let mut problems = self.spec.problems();
        problems.extend(self.schema_problems.iter().cloned());
        problems.extend(examples::problems(
            &self.examples,
            self.spec.input.as_ref(),
            self.spec.json_input.get(),
        ));
        problems
    }
}

fn spec_from_value(value: Value) -> Result<ToolSpec, SemanticError> {
    const KEYS: &[&str] = &[
        "name",
        "description",
        "version",
        "input_schema",
        "output_schema",
        "input_json_schema",
        "output_json_schema",
        "tags",
        "credential_names",
        "timeout",
        "blocking",
        "sequential",
        "requires_approval",
        "retries",
        "task_support",
        "annotations",
        "examples",
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
            ("input_json_schema", value) => builder = builder.input_json_schema(value),
            ("output_json_schema", value) => builder = builder.output_json_schema(value),
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
            ("annotations", Value::Object(annotations)) => {
                for (key, value) in annotations {
                    match (key.as_str(), value) {
                        ("title", Value::String(title)) => builder = builder.title(title),
                        (hint, Value::Bool(set))
                            if builder.spec.annotations.set_hint(hint, set) => {}
                        _ => expect(
                            "annotations",
                            "an object of `title` (a string) and `read_only`, `destructive`, \
                             `idempotent`, `open_world` (true or false)",
                        ),
                    }
                }
            }
            ("annotations", _) => expect("annotations", "an object"),
            ("examples", Value::Array(list)) => {
                for example in list {
                    match example {
                        Value::Object(example) => builder = builder.example(example),
                        _ => expect("examples", EXAMPLES),
                    }
                }
            }
            ("examples", _) => expect("examples", EXAMPLES),
            ("task_support", Value::String(text)) => match crate::TaskSupport::parse(&text) {
                Some(support) => builder = builder.task_support(support),
                None => expect(
                    "task_support",
                    "\"forbidden\", \"optional\" or \"required\"",
                ),
            },
            ("task_support", _) => expect(
                "task_support",
                "\"forbidden\", \"optional\" or \"required\"",
            ),
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
    if !problems.is_empty() {
        problems.extend(builder.problems());
        return Err(SemanticError::new(problems));
    }
    builder.build()
}

const EXAMPLES: &str = "a list of objects, one per example, such as [{\"city\": \"Paris\"}]";
