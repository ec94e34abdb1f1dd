//! `ToolResult`: its fields on success and failure, durations, model content, and sharing the executor.

use super::*;

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

/// A tool that returns a structured output and a text for the model, and for the application
/// alone a text holding the call's secret and an image.
struct ForTheApp(ToolSpec);

impl Tool for ForTheApp {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let key = ctx
            .credentials()
            .get(WEATHER_KEY)
            .ok_or("no key")?
            .expose()
            .to_owned();
        let output = ToolOutput::structured_only(json!({"n": 1}))
            .with_app_part(agentkit_core::Content::text(format!("called with {key}")))
            .with_app_part(agentkit_core::Content::image(vec![1, 2, 3], "image/png"));
        Ok(match inputs.get("kind").and_then(Value::as_str) {
            Some("parts") => output.with(agentkit_core::Content::text("for the model")),
            _ => output,
        })
    }
}

/// Parts for the application come through the executor in the result, free of the call's
/// secrets, and never reach the model's text: with structured output alone as with parts for
/// the model beside it.
#[test]
fn parts_for_the_application_reach_the_result_and_not_the_model() {
    let spec = ToolSpec::builder("app_parts")
        .input(ToolSchema::new([Param::optional("kind", ParamType::String)]).unwrap())
        .credential(WEATHER_KEY)
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry.register(ForTheApp(spec)).unwrap();
    let executor = ToolExecutor::builder(registry).credentials(creds()).build();
    for (kind, model_text, model_parts) in [
        ("structured", r#"{"n":1}"#, vec![]),
        (
            "parts",
            "{\"n\":1}\nfor the model",
            vec![agentkit_core::Content::text("for the model")],
        ),
    ] {
        let call = ToolCall::new("1", "app_parts", json!({ "kind": kind }));
        let result = block_on(executor.dispatch(&call));
        assert!(result.is_success(), "{kind}: {result:?}");
        assert_eq!(result.output(), Some(&json!({"n": 1})), "{kind}");
        assert_eq!(result.content(), model_parts, "{kind}");
        assert_eq!(result.to_model_content(), model_text, "{kind}");
        let app = result.app_content();
        assert_eq!(app.len(), 2, "{kind}");
        assert_eq!(app[0].as_text(), Some("called with [redacted]"), "{kind}");
        assert!(!format!("{result:?}").contains(SECRET), "{kind}");
        assert_eq!(app[1].binary_len(), 3, "{kind}");
        // Taken out of the result, the output keeps them.
        let output = result.into_result().unwrap();
        assert_eq!(output.app_content().len(), 2, "{kind}");
    }
}
