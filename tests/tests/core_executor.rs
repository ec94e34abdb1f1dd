//! Behaviour of `ToolExecutor`: the Python original's five steps in order, strict and result modes,
//! input and output directions, tool errors and panics as `ToolExecutionError`s, missing
//! credentials stopping the call before the tool runs, and the fields of `ToolResult`.

use std::error::Error as _;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::{
    BoxError, CredentialError, CredentialProvider, Direction, Error, ErrorKind,
    InMemoryCredentials, IssueKind, JsonObject, Param, ParamType, Secret, Tool, ToolCall,
    ToolContext, ToolError, ToolEvent, ToolExecutor, ToolOutput, ToolPanic, ToolRegistry,
    ToolResult, ToolSchema, ToolSpec, ToolStatus, UnknownArguments, block_on,
};
use serde_json::{Value, json};

use crate::core_fixtures::{
    FnTool, Probe, WEATHER_KEY, bare_spec, obj, weather_spec, weather_tool,
};

const SECRET: &str = "sk-test-0123";

fn creds() -> InMemoryCredentials {
    InMemoryCredentials::new().with(WEATHER_KEY, SECRET)
}

fn executor_with(tools: Vec<FnTool>) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).unwrap();
    }
    ToolExecutor::builder(registry).credentials(creds()).build()
}

fn weather_executor() -> (ToolExecutor, Probe) {
    let (tool, probe) = weather_tool();
    (executor_with(vec![tool]), probe)
}

fn echo_tool(name: &'static str) -> (FnTool, Probe) {
    FnTool::new(bare_spec(name), |inputs, _| Ok(inputs.clone()))
}

/// An error type of our own, to find again through `source()`.
#[derive(Debug)]
struct ApiDown {
    status: u16,
}

impl fmt::Display for ApiDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weather API answered {}", self.status)
    }
}

impl std::error::Error for ApiDown {}

fn execution_error(result: &ToolResult) -> &agentkit_core::ToolExecutionError {
    match result.error() {
        Some(Error::Execution(e)) => e,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

fn validation_error(result: &ToolResult) -> &agentkit_core::ToolValidationError {
    match result.error() {
        Some(Error::Validation(e)) => e,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

// ---------------------------------------------------------------- the five steps

/// A provider that writes each resolution into a shared log.
struct LoggingProvider {
    log: Arc<Mutex<Vec<String>>>,
    inner: InMemoryCredentials,
}

impl CredentialProvider for LoggingProvider {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        push(&self.log, format!("resolve {name}"));
        self.inner.resolve(name)
    }
}

fn push(log: &Mutex<Vec<String>>, entry: String) {
    log.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(entry);
}

fn take(log: &Mutex<Vec<String>>) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap_or_else(PoisonError::into_inner))
}

/// The Python original's tool, logging its run and returning `output`.
fn logged_executor(
    output: fn(&JsonObject) -> JsonObject,
    provider: InMemoryCredentials,
) -> (ToolExecutor, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let tool_log = Arc::clone(&log);
    let (tool, _) = FnTool::new(weather_spec(), move |inputs, _| {
        push(&tool_log, "execute".to_owned());
        Ok(output(inputs))
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let event_log = Arc::clone(&log);
    let executor = ToolExecutor::builder(registry)
        .credentials(LoggingProvider {
            log: Arc::clone(&log),
            inner: provider,
        })
        .observer(move |event: &ToolEvent<'_>| {
            let kind = event
                .error_kind()
                .map_or(String::new(), |k| format!(" {k}"));
            push(&event_log, format!("{}{kind}", event.name()));
        })
        .build();
    (executor, log)
}

fn good_output(inputs: &JsonObject) -> JsonObject {
    obj(json!({
        "city": inputs["city"], "country": inputs["country"], "temperature": 72.0,
        "units": inputs["units"], "conditions": "sunny",
    }))
}

fn bad_output(_: &JsonObject) -> JsonObject {
    obj(json!({"city": "Paris", "temperature": "warm"}))
}

#[test]
fn the_five_steps_run_in_order() {
    let (executor, log) = logged_executor(good_output, creds());
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        take(&log),
        [
            "tool.execution.started",
            "resolve weather-api-key",
            "execute",
            "tool.execution.completed",
        ]
    );

    // 1 before 2: invalid inputs stop the call before credentials are resolved.
    let result = block_on(executor.execute("fetch_weather", obj(json!({"units": 5}))));
    assert!(!result.is_success());
    assert_eq!(
        take(&log),
        [
            "tool.execution.started",
            "tool.execution.failed input_validation"
        ]
    );

    // 2 before 3: a missing credential stops the call before the tool runs.
    let (executor, log) = logged_executor(good_output, InMemoryCredentials::new());
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(!result.is_success());
    assert_eq!(
        take(&log),
        [
            "tool.execution.started",
            "resolve weather-api-key",
            "tool.execution.failed credential",
        ]
    );

    // 3 before 4: the output is validated after the tool ran.
    let (executor, log) = logged_executor(bad_output, creds());
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(!result.is_success());
    assert_eq!(
        take(&log),
        [
            "tool.execution.started",
            "resolve weather-api-key",
            "execute",
            "tool.execution.failed output_validation",
        ]
    );
}

#[test]
fn the_tool_receives_validated_inputs_with_defaults_and_resolved_credentials() {
    let (executor, probe) = weather_executor();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "San Francisco"}))));
    assert!(result.is_success(), "{result:?}");
    let seen = probe.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        Value::Object(seen[0].inputs.clone()),
        json!({"city": "San Francisco", "country": "US", "units": "imperial"})
    );
    assert_eq!(
        seen[0].credentials,
        [(WEATHER_KEY.to_owned(), SECRET.to_owned())]
    );
    // And the output it built from them.
    assert_eq!(
        result.output().unwrap().clone(),
        json!({"city": "San Francisco", "country": "US", "temperature": 72.0,
               "units": "imperial", "conditions": "sunny"})
    );
}

#[test]
fn integer_arguments_reach_the_tool_normalised() {
    let spec = ToolSpec::builder("repeat")
        .input(ToolSchema::new([Param::required("n", ParamType::Integer)]).unwrap())
        .build()
        .unwrap();
    let (tool, probe) = FnTool::new(spec, |inputs, _| Ok(inputs.clone()));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.dispatch(&ToolCall::new("c", "repeat", r#"{"n": 3.0}"#)));
    assert!(result.is_success(), "{result:?}");
    assert_eq!(probe.seen()[0].inputs["n"].as_i64(), Some(3));
}

#[test]
fn a_tool_only_gets_the_credentials_it_names() {
    let (tool, probe) = echo_tool("no_creds");
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("no_creds", JsonObject::new()));
    assert!(result.is_success());
    assert!(probe.seen()[0].credentials.is_empty());
}

// ---------------------------------------------------------------- strict vs result mode

#[test]
fn result_mode_returns_a_failed_result_where_strict_mode_returns_the_typed_error() {
    let (executor, _) = weather_executor();
    let bad = || obj(json!({"units": 5}));

    let result = block_on(executor.execute("fetch_weather", bad()));
    assert_eq!(result.status(), ToolStatus::Failure);
    assert!(!result.is_success());
    assert!(result.output().is_none());
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Input);
    assert_eq!(e.tool_name(), "fetch_weather");
    assert_eq!(e.errors().len(), 2);

    match block_on(executor.try_execute("fetch_weather", bad())) {
        Err(Error::Validation(e)) => {
            assert_eq!(e.direction(), Direction::Input);
            assert_eq!(e.errors().len(), 2);
            assert_eq!(
                e.to_string(),
                "input validation failed for tool 'fetch_weather'\n  \
                 - Missing required parameter: 'city'\n  \
                 - Parameter 'units': expected type 'string', got 'integer'"
            );
        }
        other => panic!("expected Err(Validation), got {other:?}"),
    }

    let call = ToolCall::new("call_9", "fetch_weather", r#"{"units": 5}"#);
    assert!(!block_on(executor.dispatch(&call)).is_success());
    assert!(matches!(
        block_on(executor.try_dispatch(&call)),
        Err(Error::Validation(_))
    ));
}

#[test]
fn strict_mode_returns_the_result_on_success() {
    let (executor, probe) = weather_executor();
    let result = block_on(executor.try_execute("fetch_weather", obj(json!({"city": "Rome"}))))
        .expect("a valid call succeeds");
    assert_eq!(result.status(), ToolStatus::Success);
    assert_eq!(result.output().unwrap()["city"], "Rome");
    let call = ToolCall::new("call_1", "fetch_weather", r#"{"city": "Oslo"}"#);
    let result = block_on(executor.try_dispatch(&call)).unwrap();
    assert_eq!(result.call_id(), "call_1");
    assert_eq!(probe.runs(), 2);
}

#[test]
fn strict_mode_types_every_failure() {
    let (failing, _) = FnTool::new(bare_spec("failing"), |_, _| {
        Err(Box::new(ApiDown { status: 503 }) as BoxError)
    });
    let (panicking, _) = FnTool::new(bare_spec("panicking"), |_, _| panic!("boom"));
    let (weather, _) = weather_tool();
    let registry = {
        let mut r = ToolRegistry::new();
        r.register(failing).unwrap();
        r.register(panicking).unwrap();
        r.register(weather).unwrap();
        r
    };
    let executor = ToolExecutor::new(registry); // no credentials
    let kind = |name: &str, inputs: Value| match block_on(executor.try_execute(name, obj(inputs))) {
        Ok(result) => panic!("expected an error, got {result:?}"),
        Err(e) => e.kind(),
    };
    assert_eq!(kind("failing", json!({})), ErrorKind::Execution);
    assert_eq!(kind("panicking", json!({})), ErrorKind::Panic);
    assert_eq!(
        kind("fetch_weather", json!({"city": "Oslo"})),
        ErrorKind::Credential
    );
    assert_eq!(kind("fetch_weather", json!({})), ErrorKind::InputValidation);
    assert_eq!(kind("fetch_wether", json!({})), ErrorKind::UnknownTool);
}

// ---------------------------------------------------------------- directions

#[test]
fn output_breaking_the_output_schema_is_an_output_validation_error() {
    let (tool, probe) = FnTool::new(weather_spec(), |inputs, _| Ok(bad_output(inputs)));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Output);
    assert_eq!(result.error().unwrap().kind(), ErrorKind::OutputValidation);
    let found: Vec<(IssueKind, Option<&str>)> =
        e.errors().iter().map(|i| (i.kind(), i.param())).collect();
    assert_eq!(
        found,
        [
            (IssueKind::MissingParameter, Some("country")),
            (IssueKind::WrongType, Some("temperature")),
            (IssueKind::MissingParameter, Some("units")),
            (IssueKind::MissingParameter, Some("conditions")),
        ]
    );
    assert!(
        e.to_string()
            .starts_with("output validation failed for tool 'fetch_weather'")
    );
    assert_eq!(probe.runs(), 1, "the tool ran; its output was wrong");
    // The model is told the tool failed, not the tool's internals.
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'fetch_weather' failed: it produced an invalid result."
    );
}

#[test]
fn outputs_are_held_to_their_schema_even_when_inputs_may_carry_extras() {
    let (tool, probe) = FnTool::new(weather_spec(), |inputs, _| {
        let mut output = good_output(inputs);
        output.insert("humidity".into(), json!(0.4));
        Ok(output)
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(creds())
        .unknown_arguments(UnknownArguments::Ignore)
        .build();
    let result = block_on(executor.execute(
        "fetch_weather",
        obj(json!({"city": "Paris", "debug": true})),
    ));
    // The extra input passed through to the tool...
    assert_eq!(probe.seen()[0].inputs["debug"], true);
    // ...but the extra output key is refused.
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Output);
    assert_eq!(e.errors()[0].kind(), IssueKind::UnknownParameter);
    assert_eq!(e.errors()[0].param(), Some("humidity"));
}

#[test]
fn output_defaults_are_filled_too() {
    let spec = ToolSpec::builder("defaults_out")
        .output(
            ToolSchema::new([
                Param::required("value", ParamType::Integer),
                Param::optional("unit", ParamType::String).with_default("m"),
            ])
            .unwrap(),
        )
        .build()
        .unwrap();
    let (tool, _) = FnTool::new(spec, |_, _| Ok(obj(json!({"value": 3}))));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("defaults_out", JsonObject::new()));
    assert_eq!(
        result.output().unwrap().clone(),
        json!({"value": 3, "unit": "m"})
    );
}

#[test]
fn unknown_arguments_are_input_errors_unless_the_executor_ignores_them() {
    let (executor, probe) = weather_executor();
    let result = block_on(executor.execute(
        "fetch_weather",
        obj(json!({"city": "Paris", "untis": "metric"})),
    ));
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Input);
    assert_eq!(e.errors()[0].suggestion(), Some("units"));
    assert_eq!(probe.runs(), 0);
}

#[test]
fn a_tool_without_schemas_gets_its_inputs_as_given() {
    let (tool, probe) = echo_tool("echo");
    let executor = executor_with(vec![tool]);
    let inputs = json!({"anything": [1, {"x": null}], "n": 1.0});
    let result = block_on(executor.execute("echo", obj(inputs.clone())));
    assert!(result.is_success());
    assert_eq!(Value::Object(probe.seen()[0].inputs.clone()), inputs);
    assert_eq!(result.output().unwrap().clone(), inputs);
}

// ---------------------------------------------------------------- execution errors and panics

#[test]
fn a_tool_error_becomes_an_execution_error_with_the_cause_as_source() {
    let (tool, probe) = FnTool::new(bare_spec("fetch"), |_, _| {
        Err(Box::new(ApiDown { status: 503 }) as BoxError)
    });
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("fetch", JsonObject::new()));
    assert_eq!(probe.runs(), 1);
    let e = execution_error(&result);
    assert_eq!(e.tool_name(), "fetch");
    assert!(!e.is_panic());
    assert!(!e.is_credential());
    let source = e.source().expect("the cause is the source");
    assert_eq!(
        source.downcast_ref::<ApiDown>().map(|a| a.status),
        Some(503)
    );
    assert_eq!(e.cause().to_string(), "weather API answered 503");
    assert_eq!(
        e.to_string(),
        "tool 'fetch' failed: weather API answered 503"
    );
    assert_eq!(result.error().unwrap().kind(), ErrorKind::Execution);
    // `Error` is transparent: its source chain reaches the cause as well.
    let error: &(dyn std::error::Error + 'static) = result.error().unwrap();
    assert!(
        std::iter::successors(Some(error), |e| (*e).source())
            .any(|e| e.downcast_ref::<ApiDown>().is_some())
    );
    // The cause is for operators: the model is only told that the tool failed.
    let model_text = result.to_model_content();
    assert_eq!(model_text, "Error: tool 'fetch' failed.");
    assert!(!model_text.contains("503"), "{model_text}");
    assert_eq!(e.model_message(), None);
    assert_eq!(
        result.error().unwrap().to_model_message(),
        "Error: tool 'fetch' failed."
    );
    assert!(!result.is_retryable());
}

#[test]
fn a_failed_tool_error_tells_the_model_its_message_and_keeps_the_cause_for_operators() {
    let (tool, _) = FnTool::new(bare_spec("fetch"), |_, _| {
        Err(ToolError::failed(ApiDown { status: 503 })
            .with_model_message("The weather service is down; answer without it.")
            .into())
    });
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("fetch", JsonObject::new()));
    let e = execution_error(&result);
    assert_eq!(result.error().unwrap().kind(), ErrorKind::Execution);
    assert!(!result.is_retryable());
    // The `ToolError` is taken apart: its cause is the source, as a plain error's would be.
    assert_eq!(
        e.source()
            .and_then(|s| s.downcast_ref::<ApiDown>())
            .map(|a| a.status),
        Some(503)
    );
    assert_eq!(
        e.to_string(),
        "tool 'fetch' failed: weather API answered 503"
    );
    assert_eq!(
        e.model_message(),
        Some("The weather service is down; answer without it.")
    );
    let model_text = result.to_model_content();
    assert_eq!(
        model_text,
        "Error: tool 'fetch' failed: The weather service is down; answer without it."
    );
    assert!(!model_text.contains("503"), "{model_text}");
}

#[test]
fn a_panicking_tool_fails_the_call_and_the_executor_stays_usable() {
    let fail = Arc::new(Mutex::new(true));
    let fail_in_tool = Arc::clone(&fail);
    let (flaky, flaky_probe) = FnTool::new(bare_spec("flaky"), move |inputs, _| {
        if *fail_in_tool.lock().unwrap_or_else(PoisonError::into_inner) {
            panic!("index out of bounds: the len is 0 but the index is 3");
        }
        Ok(inputs.clone())
    });
    let (other, other_probe) = echo_tool("other");
    let executor = executor_with(vec![flaky, other]);

    let result = block_on(executor.execute("flaky", JsonObject::new()));
    let e = execution_error(&result);
    assert!(e.is_panic());
    assert_eq!(result.error().unwrap().kind(), ErrorKind::Panic);
    let panic = e.source().unwrap().downcast_ref::<ToolPanic>().unwrap();
    assert_eq!(
        panic.message(),
        "index out of bounds: the len is 0 but the index is 3"
    );
    assert!(
        e.to_string()
            .contains("the tool panicked: index out of bounds"),
        "{e}"
    );
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'flaky' failed unexpectedly."
    );

    // The next call of another tool, and of the same tool, succeed.
    let result = block_on(executor.execute("other", obj(json!({"k": 1}))));
    assert!(result.is_success(), "{result:?}");
    *fail.lock().unwrap_or_else(PoisonError::into_inner) = false;
    let result = block_on(executor.execute("flaky", obj(json!({"k": 2}))));
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.output().unwrap()["k"], 2);
    assert_eq!(flaky_probe.runs(), 2);
    assert_eq!(other_probe.runs(), 1);
}

#[test]
fn panic_messages_are_kept_for_formatted_and_opaque_payloads() {
    let (formatted, _) = FnTool::new(bare_spec("formatted"), |_, _| {
        let n = 7;
        panic!("bad state {n}")
    });
    let (opaque, _) = FnTool::new(bare_spec("opaque"), |_, _| std::panic::panic_any(42_u8));
    let executor = executor_with(vec![formatted, opaque]);
    let message = |name: &str| {
        let result = block_on(executor.execute(name, JsonObject::new()));
        let e = execution_error(&result);
        assert!(e.is_panic());
        e.source()
            .unwrap()
            .downcast_ref::<ToolPanic>()
            .unwrap()
            .message()
            .to_owned()
    };
    assert_eq!(message("formatted"), "bad state 7");
    assert_eq!(message("opaque"), "a panic with a non-string payload");
}

/// A tool that panics after it has been suspended once, like a tool failing after I/O.
struct PanicsAfterAwait(ToolSpec);

impl Tool for PanicsAfterAwait {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        tokio::task::yield_now().await;
        if inputs.contains_key("panic") {
            panic!("lost the connection");
        }
        Ok(inputs.clone().into())
    }
}

#[tokio::test]
async fn a_panic_after_an_await_is_caught_too() {
    let mut registry = ToolRegistry::new();
    registry
        .register(PanicsAfterAwait(bare_spec("late")))
        .unwrap();
    let executor = ToolExecutor::new(registry);
    let result = executor.execute("late", obj(json!({"panic": true}))).await;
    let e = execution_error(&result);
    assert!(e.is_panic());
    assert_eq!(
        e.source()
            .unwrap()
            .downcast_ref::<ToolPanic>()
            .unwrap()
            .message(),
        "lost the connection"
    );
    let result = executor.execute("late", obj(json!({"ok": true}))).await;
    assert!(result.is_success());
}

// ---------------------------------------------------------------- credentials

#[test]
fn a_missing_credential_fails_the_call_without_running_the_tool() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("other-key", "x"))
        .build();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert_eq!(probe.runs(), 0, "the tool must not run");
    let e = execution_error(&result);
    assert!(e.is_credential());
    assert!(!e.is_panic());
    assert_eq!(result.error().unwrap().kind(), ErrorKind::Credential);
    let cause = e
        .source()
        .unwrap()
        .downcast_ref::<CredentialError>()
        .unwrap();
    assert_eq!(cause.name(), WEATHER_KEY);
    assert_eq!(
        e.to_string(),
        "tool 'fetch_weather' failed: credential 'weather-api-key' is not available, \
         so the tool was not run"
    );
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'fetch_weather' failed unexpectedly."
    );
}

/// A provider whose lookup itself fails.
struct BrokenVault;

#[derive(Debug)]
struct VaultSealed;

impl fmt::Display for VaultSealed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the vault is sealed")
    }
}

impl std::error::Error for VaultSealed {}

impl CredentialProvider for BrokenVault {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        Err(Box::new(VaultSealed))
    }
}

#[test]
fn a_failing_credential_provider_fails_the_call_keeping_its_error_for_whoever_asks() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(BrokenVault)
        .build();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert_eq!(probe.runs(), 0);
    let e = execution_error(&result);
    assert!(e.is_credential());
    let credential = e.source().unwrap();
    assert!(
        credential.to_string().contains("could not be resolved"),
        "{credential}"
    );
    // Not chained (its text is the provider's), but there when asked for.
    assert!(credential.source().is_none());
    let credential = e
        .cause()
        .downcast_ref::<agentkit_core::CredentialError>()
        .unwrap();
    assert!(
        credential
            .provider_error()
            .unwrap()
            .downcast_ref::<VaultSealed>()
            .is_some()
    );
}

#[test]
fn without_a_provider_no_credential_resolves() {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    assert!(execution_error(&result).is_credential());
    assert_eq!(probe.runs(), 0);
}

// ---------------------------------------------------------------- ToolResult

/// The duration runs from valid arguments to a checked output: a call refused before its tool
/// could run reports zero (it reads no clock), one that ran reports its time, in the result
/// and in its terminal event alike.
#[test]
fn a_call_refused_before_its_tool_runs_reports_no_duration() {
    let (tool, _) = FnTool::new(weather_spec(), |inputs, _| {
        std::thread::sleep(Duration::from_millis(5));
        let mut output = inputs.clone();
        output.insert("temperature".into(), json!(21.5));
        output.insert("conditions".into(), json!("sunny"));
        Ok(output)
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let executor = ToolExecutor::builder(registry)
        .credentials(creds())
        .observer(move |event: &ToolEvent<'_>| {
            if let Some(duration) = event.duration() {
                seen.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(duration);
            }
        })
        .build();
    for (name, arguments) in [
        ("fetch_weather", r#"{"units":5}"#),
        ("fetch_weather", "[1, 2"),
        ("no_such_tool", r#"{"city":"Paris"}"#),
    ] {
        let result = block_on(executor.dispatch(&ToolCall::new("c", name, arguments)));
        assert!(result.error().is_some(), "{name} {arguments}");
        assert_eq!(result.duration(), Duration::ZERO, "{name} {arguments}");
    }
    let ran =
        block_on(executor.dispatch(&ToolCall::new("c", "fetch_weather", r#"{"city":"Paris"}"#)));
    assert!(ran.is_success(), "{:?}", ran.error());
    assert!(
        ran.duration() >= Duration::from_millis(5),
        "{:?}",
        ran.duration()
    );
    let events = events.lock().unwrap_or_else(PoisonError::into_inner);
    assert_eq!(
        *events,
        [
            Duration::ZERO,
            Duration::ZERO,
            Duration::ZERO,
            ran.duration()
        ]
    );
}

#[test]
fn tool_result_fields_on_success() {
    let spec = ToolSpec::builder("slow").build().unwrap();
    let (tool, _) = FnTool::new(spec, |_, _| {
        std::thread::sleep(Duration::from_millis(30));
        Ok(obj(json!({"b": 1, "a": "x"})))
    });
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.dispatch(&ToolCall::new("call_42", "slow", "{}")));
    assert_eq!(result.tool_name(), "slow");
    assert_eq!(result.call_id(), "call_42");
    assert_eq!(result.status(), ToolStatus::Success);
    assert!(result.error().is_none());
    assert!(
        result.duration() >= Duration::from_millis(30),
        "{:?}",
        result.duration()
    );
    assert!(result.duration() < Duration::from_secs(5));
    let content: Value = serde_json::from_str(&result.to_model_content()).unwrap();
    assert_eq!(content, json!({"a": "x", "b": 1}));
    assert_eq!(
        result.into_result().unwrap().into_structured().unwrap(),
        json!({"a": "x", "b": 1})
    );
}

#[test]
fn tool_result_fields_on_failure() {
    let (executor, _) = weather_executor();
    let result =
        block_on(executor.dispatch(&ToolCall::new("call_7", "fetch_weather", r#"{"units": 5}"#)));
    assert_eq!(result.tool_name(), "fetch_weather");
    assert_eq!(result.call_id(), "call_7");
    assert_eq!(result.status(), ToolStatus::Failure);
    assert!(result.output().is_none());
    assert!(result.error().is_some());
    assert_eq!(
        result.to_model_content(),
        "Error: invalid arguments for tool 'fetch_weather':\n\
         - Missing required parameter: 'city'\n\
         - Parameter 'units': expected type 'string', got 'integer'"
    );
    assert!(matches!(result.into_result(), Err(Error::Validation(_))));
}

#[test]
fn model_content_names_the_parameter_and_expected_type() {
    let spec = ToolSpec::builder("count")
        .input(ToolSchema::new([Param::required("n", ParamType::Integer)]).unwrap())
        .build()
        .unwrap();
    let (tool, _) = FnTool::new(spec, |i, _| Ok(i.clone()));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("count", obj(json!({"n": true}))));
    let content = result.to_model_content();
    assert!(content.contains("'n'"), "{content}");
    assert!(content.contains("expected type 'integer'"), "{content}");
    assert!(content.contains("got 'boolean'"), "{content}");
    assert!(content.lines().count() <= 3, "short: {content}");
}

#[test]
fn execute_has_an_empty_call_id_and_the_status_serialises() {
    let (executor, _) = weather_executor();
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Lima"}))));
    assert_eq!(result.call_id(), "");
    assert_eq!(serde_json::to_value(result.status()).unwrap(), "success");
    assert_eq!(
        serde_json::to_value(ToolStatus::Failure).unwrap(),
        "failure"
    );
    assert_eq!(serde_json::to_value(Direction::Output).unwrap(), "output");
    assert_eq!(Direction::Input.to_string(), "input");
}

#[test]
fn the_executor_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>(_: &T) {}
    let (executor, probe) = weather_executor();
    assert_send_sync(&executor);
    let executor = Arc::new(executor);
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let executor = Arc::clone(&executor);
            std::thread::spawn(move || {
                let city = format!("City{i}");
                let result =
                    block_on(executor.execute("fetch_weather", obj(json!({"city": city}))));
                result.output().map(|o| o["city"].clone())
            })
        })
        .collect();
    let cities: Vec<Option<Value>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(
        cities,
        (0..4)
            .map(|i| Some(json!(format!("City{i}"))))
            .collect::<Vec<_>>()
    );
    assert_eq!(probe.runs(), 4);
}
