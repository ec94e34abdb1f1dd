//! A tool declared with `#[tool(...)]` and the same tool written by hand behave the same
//! through the registry and the executor: same spec, same JSON Schema, same validation
//! issues, same outputs, same credential failure. And a mistake reads the same whether the
//! compiler or `ToolSpec::from_value` finds it.

use agentkit_core::provider::{anthropic, openai_chat};
use agentkit_core::{
    BoxError, InMemoryCredentials, JsonObject, NoCredentials, Param, ParamType, Tool, ToolCall,
    ToolContext, ToolExecutor, ToolHandler, ToolOutput, ToolRegistry, ToolResult, ToolSchema,
    ToolSpec, block_on, tool,
};
use serde_json::{Value, json};

#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
    version = "1.0.0",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US", description = "ISO country code" },
        { name = "units", type = string, required = false, default = "imperial" },
        { name = "days", type = integer, required = false },
    ],
    output = [
        { name = "city", type = string },
        { name = "country", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
        { name = "conditions", type = string },
    ],
    tags = { category = "weather", "x-team" = "data" },
    credentials = ["weather-api-key"],
)]
struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let _key = ctx.credential("weather-api-key")?;
        Ok(FetchWeatherOutput {
            city: input.city,
            country: input.country,
            temperature: 72.0,
            units: input.units,
            conditions: "sunny".into(),
        })
    }
}

/// The same tool without the macro.
struct HandWritten(ToolSpec);

impl HandWritten {
    fn new() -> Self {
        let input = ToolSchema::new([
            Param::required("city", ParamType::String)
                .with_description("City name (e.g., 'San Francisco')"),
            Param::optional("country", ParamType::String)
                .with_default("US")
                .with_description("ISO country code"),
            Param::optional("units", ParamType::String).with_default("imperial"),
            Param::optional("days", ParamType::Integer),
        ])
        .unwrap();
        let output = ToolSchema::new([
            Param::required("city", ParamType::String),
            Param::required("country", ParamType::String),
            Param::required("temperature", ParamType::Float),
            Param::required("units", ParamType::String),
            Param::required("conditions", ParamType::String),
        ])
        .unwrap();
        let spec = ToolSpec::builder("fetch_weather")
            .description("Look up the current weather for a city.")
            .version("1.0.0")
            .input(input)
            .output(output)
            .tag("category", "weather")
            .tag("x-team", "data")
            .credential("weather-api-key")
            .build()
            .unwrap();
        HandWritten(spec)
    }
}

impl Tool for HandWritten {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let _key = ctx.credential("weather-api-key")?;
        let mut out = JsonObject::new();
        for key in ["city", "country", "units"] {
            out.insert(key.into(), inputs[key].clone());
        }
        out.insert("temperature".into(), json!(72.0));
        out.insert("conditions".into(), json!("sunny"));
        Ok(out.into())
    }
}

fn executors(with_key: bool) -> [ToolExecutor; 2] {
    let build = |registry: ToolRegistry| {
        if with_key {
            ToolExecutor::builder(registry)
                .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-test"))
                .build()
        } else {
            ToolExecutor::builder(registry)
                .credentials(NoCredentials)
                .build()
        }
    };
    let mut derived = ToolRegistry::new();
    derived.register(FetchWeather).unwrap();
    let mut manual = ToolRegistry::new();
    manual.register(HandWritten::new()).unwrap();
    [build(derived), build(manual)]
}

/// What a caller can observe of a result (the duration aside).
fn observe(result: &ToolResult) -> (bool, Option<Value>, String, Option<String>) {
    (
        result.is_success(),
        result.output().cloned(),
        result.to_model_content(),
        result.error().map(ToString::to_string),
    )
}

fn dispatch_both(executors: &[ToolExecutor; 2], arguments: &str) -> [ToolResult; 2] {
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    [
        block_on(executors[0].dispatch(&call)),
        block_on(executors[1].dispatch(&call)),
    ]
}

#[test]
fn the_specs_are_equal() {
    let hand = HandWritten::new();
    assert_eq!(FetchWeather.spec(), hand.spec());
    assert_eq!(
        FetchWeather.spec().input_json_schema(),
        hand.spec().input_json_schema()
    );
    let [derived, manual] = executors(true);
    assert_eq!(
        anthropic::tools(derived.registry().specs()),
        anthropic::tools(manual.registry().specs())
    );
    assert_eq!(
        openai_chat::strict_tools(derived.registry().specs()),
        openai_chat::strict_tools(manual.registry().specs())
    );
    assert_eq!(FetchWeather.spec().to_value(), hand.spec().to_value());
}

#[test]
fn the_spec_is_static_data() {
    // Two calls return the same `static`, built without running code.
    assert!(std::ptr::eq(FetchWeather.spec(), FetchWeather.spec()));
}

#[test]
fn good_inputs_give_the_same_outputs() {
    let executors = executors(true);
    for arguments in [
        r#"{"city": "Paris"}"#,
        r#"{"city": "Paris", "country": "FR", "units": "metric"}"#,
        r#"{"city": "Paris", "country": null, "days": 3}"#,
    ] {
        let [derived, manual] = dispatch_both(&executors, arguments);
        assert!(derived.is_success(), "{arguments}: {derived:?}");
        assert_eq!(observe(&derived), observe(&manual), "{arguments}");
    }
}

#[test]
fn bad_inputs_give_the_same_issues() {
    let executors = executors(true);
    for arguments in [
        r#"{"units": 5}"#,
        r#"{"city": 1, "days": 1.5}"#,
        r#"{"city": "Paris", "citty": "Paris"}"#,
        r#"{"city": "Paris""#,
        "[1, 2]",
        r#"{"city": "Paris", "days": true}"#,
    ] {
        let [derived, manual] = dispatch_both(&executors, arguments);
        assert!(!derived.is_success(), "{arguments}");
        assert_eq!(observe(&derived), observe(&manual), "{arguments}");
    }
}

#[test]
fn a_missing_credential_fails_the_same_way() {
    let executors = executors(false);
    let [derived, manual] = dispatch_both(&executors, r#"{"city": "Paris"}"#);
    assert!(!derived.is_success());
    assert_eq!(observe(&derived), observe(&manual));
}

/// The first line of a compile-fail case's expected output, without `error: `.
fn compile_error(case: &str) -> String {
    let path = format!("{}/ui/fail/{case}.stderr", env!("CARGO_MANIFEST_DIR"));
    let stderr = std::fs::read_to_string(&path).unwrap();
    stderr
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("error: ")
        .to_owned()
}

/// The problem `ToolSpec::from_value` reports for `spec`, without its location.
fn runtime_error(spec: &Value) -> String {
    let error = ToolSpec::from_value(spec.clone()).unwrap_err();
    assert_eq!(error.problems().len(), 1, "{error}");
    error.problems()[0].problem().to_string()
}

#[test]
fn compile_errors_and_runtime_errors_read_the_same() {
    let city = json!({"name": "city", "type": "string"});
    let spec = |extra: Value, params: Value| {
        let mut spec = json!({"name": "fetch_weather", "input_schema": {"parameters": params}});
        for (k, v) in extra.as_object().unwrap() {
            spec[k] = v.clone();
        }
        spec
    };
    let cases = [
        (
            "bad_version",
            spec(json!({"version": "1.0"}), json!([city])),
        ),
        (
            "version_prerelease",
            spec(json!({"version": "1.0.0-beta"}), json!([city])),
        ),
        (
            "invalid_tool_name",
            spec(json!({"name": "fetch weather"}), json!([city])),
        ),
        (
            "synonym_str_type",
            spec(
                json!({"name": "toggle_feature"}),
                json!([{"name": "feature", "type": "str"}, {"name": "enabled", "type": "boolean"}]),
            ),
        ),
        (
            "synonym_desc_key",
            spec(
                json!({"name": "toggle_feature"}),
                json!([
                    {"name": "feature", "type": "string", "desc": "The feature"},
                    {"name": "enabled", "type": "boolean"},
                ]),
            ),
        ),
        (
            "unknown_type",
            spec(
                json!({"name": "fetch_forecast"}),
                json!([city, {"name": "days", "type": "intger", "required": false}]),
            ),
        ),
        (
            "unknown_param_key",
            spec(
                json!({}),
                json!([city, {"name": "units", "type": "string", "requred": false}]),
            ),
        ),
        (
            "duplicate_param",
            spec(
                json!({}),
                json!([city, {"name": "units", "type": "string", "required": false}, city]),
            ),
        ),
        (
            "default_type_mismatch",
            spec(
                json!({"name": "fetch_forecast"}),
                json!([city, {"name": "days", "type": "integer", "required": false, "default": "3"}]),
            ),
        ),
        (
            "required_with_default",
            spec(
                json!({}),
                json!([city, {"name": "country", "type": "string", "required": true, "default": "US"}]),
            ),
        ),
        (
            "invalid_param_name",
            spec(
                json!({}),
                json!([city, {"name": "zip code", "type": "string", "required": false}]),
            ),
        ),
        (
            "duplicate_credential",
            spec(
                json!({"credential_names": ["weather-api-key", "geo-api-key", "weather-api-key"]}),
                json!([city]),
            ),
        ),
        (
            "timeout_bad_unit",
            json!({"name": "send_report", "timeout": "10sec"}),
        ),
        (
            "timeout_zero",
            json!({"name": "send_report", "timeout": "0s"}),
        ),
        (
            "timeout_missing_unit",
            json!({"name": "send_report", "timeout": "10"}),
        ),
    ];
    for (case, spec) in cases {
        assert_eq!(compile_error(case), runtime_error(&spec), "{case}");
    }
}

/// Every `error: ` line of a compile-fail case's expected output, without `error: `.
fn compile_errors(case: &str) -> Vec<String> {
    let path = format!("{}/ui/fail/{case}.stderr", env!("CARGO_MANIFEST_DIR"));
    let stderr = std::fs::read_to_string(&path).unwrap();
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("error: "))
        .map(str::to_owned)
        .collect()
}

/// Defaults checked at any depth, and parameters with several mistakes: the compiler and
/// `ToolSchema::from_value` report the same problems, in the same words.
#[test]
fn every_default_and_every_problem_reads_the_same_at_compile_and_run_time() {
    let cases = [
        (
            "default_nested_mismatch",
            json!([{"name": "trip", "type": "dictionary", "required": false,
            "default": {"name": "tour", "stops": [{"city": "Lyon"}, {"city": "Nice", "nights": "two"}]},
            "fields": [
                {"name": "name", "type": "string"},
                {"name": "stops", "type": "list", "items": "dictionary", "fields": [
                    {"name": "city", "type": "string"},
                    {"name": "nights", "type": "integer", "required": false, "default": 1},
                ]},
            ]}]),
        ),
        (
            "default_nested_unknown_field",
            json!([{"name": "stops", "type": "list", "items": "dictionary", "required": false,
                "default": [{"city": "Lyon"}, {"city": "Nice", "pet": "cat"}],
                "fields": [{"name": "city", "type": "string"}]}]),
        ),
        (
            "default_out_of_range",
            json!([{"name": "seed", "type": "integer", "required": false,
                "default": 18_446_744_073_709_551_615_u64}]),
        ),
        (
            "invalid_name_and_unknown_type",
            json!([{"name": "zip code", "type": "strng"}]),
        ),
        (
            "duplicate_name_and_unknown_type",
            json!([{"name": "city", "type": "string"}, {"name": "city", "type": "intger"}]),
        ),
        (
            "bad_default_and_bad_key",
            json!([{"name": "days", "type": "integer", "required": false, "colour": "red", "default": "3"}]),
        ),
        (
            "misspelt_required_with_default",
            json!([{"name": "units", "type": "string", "requred": false, "default": "metric"}]),
        ),
    ];
    for (case, parameters) in cases {
        let error = ToolSchema::from_value(json!({ "parameters": parameters })).unwrap_err();
        let runtime: Vec<String> = error
            .problems()
            .iter()
            .map(|p| p.problem().to_string())
            .collect();
        assert_eq!(compile_errors(case), runtime, "{case}");
    }
}
