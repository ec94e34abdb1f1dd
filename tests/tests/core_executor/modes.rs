//! Strict mode and result mode: a typed error or a failed result, for every kind of failure.

use super::*;

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
