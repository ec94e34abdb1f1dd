//! Execution errors and panics: the cause kept for operators, the model told only what it may see.

use super::*;

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
