//! The five steps (validate, resolve credentials, run, validate the output, time) in order, and what the tool receives.

use super::*;

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

pub(super) fn good_output(inputs: &JsonObject) -> JsonObject {
    obj(json!({
        "city": inputs["city"], "country": inputs["country"], "temperature": 72.0,
        "units": inputs["units"], "conditions": "sunny",
    }))
}

pub(super) fn bad_output(_: &JsonObject) -> JsonObject {
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
