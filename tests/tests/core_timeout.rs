//! Per-call deadlines: `dispatch_until` races the tool against any future, so timeouts and
//! cancellation work on every runtime; a tool past its deadline is cancelled (its future is
//! dropped) and the call fails with `ErrorKind::Timeout`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use agentkit_core::{
    BoxError, ErrorKind, ExecutionRecorder, JsonObject, Param, ParamType, RecordedOutcome, Tool,
    ToolCall, ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolSchema, ToolSpec,
};

/// Sleeps for `ms` milliseconds, noting when its future is dropped before finishing.
struct Sleepy {
    spec: ToolSpec,
    cancelled: Arc<AtomicBool>,
    finished: Arc<AtomicUsize>,
}

struct DropFlag(Arc<AtomicBool>, bool);

impl Drop for DropFlag {
    fn drop(&mut self) {
        if !self.1 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

impl Tool for Sleepy {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let mut guard = DropFlag(Arc::clone(&self.cancelled), false);
        let ms = inputs["ms"].as_i64().unwrap_or(0).unsigned_abs();
        tokio::time::sleep(Duration::from_millis(ms)).await;
        guard.1 = true;
        self.finished.fetch_add(1, Ordering::SeqCst);
        Ok(JsonObject::new().into())
    }
}

fn setup() -> (
    ToolExecutor,
    Arc<AtomicBool>,
    Arc<AtomicUsize>,
    ExecutionRecorder,
) {
    let cancelled = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicUsize::new(0));
    let spec = ToolSpec::builder("sleepy")
        .input(ToolSchema::new([Param::required("ms", ParamType::Integer)]).unwrap())
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(Sleepy {
            spec,
            cancelled: Arc::clone(&cancelled),
            finished: Arc::clone(&finished),
        })
        .unwrap();
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(registry)
        .observer(recorder.clone())
        .build();
    (executor, cancelled, finished, recorder)
}

#[tokio::test]
async fn a_tool_past_its_deadline_is_cancelled_and_fails_with_a_timeout() {
    let (executor, cancelled, finished, recorder) = setup();
    let call = ToolCall::new("c1", "sleepy", r#"{"ms": 10000}"#);
    let result = executor
        .dispatch_until(&call, tokio::time::sleep(Duration::from_millis(20)))
        .await;

    let error = result.error().expect("the call timed out");
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert!(matches!(error, agentkit_core::Error::Execution(e) if e.is_timeout()));
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'sleepy' did not finish in time and was cancelled."
    );
    assert!(
        cancelled.load(Ordering::SeqCst),
        "the tool's future was dropped"
    );
    assert_eq!(finished.load(Ordering::SeqCst), 0);
    assert!(matches!(
        &recorder.recordings()[0].outcome,
        RecordedOutcome::Error(e) if e.kind == ErrorKind::Timeout
    ));
}

#[tokio::test]
async fn a_tool_within_its_deadline_succeeds_and_the_executor_stays_usable() {
    let (executor, cancelled, finished, _) = setup();
    let slow = ToolCall::new("c1", "sleepy", r#"{"ms": 10000}"#);
    let timed_out = executor
        .dispatch_until(&slow, tokio::time::sleep(Duration::from_millis(10)))
        .await;
    assert!(!timed_out.is_success());
    cancelled.store(false, Ordering::SeqCst);

    let fast = ToolCall::new("c2", "sleepy", r#"{"ms": 1}"#);
    let result = executor
        .dispatch_until(&fast, tokio::time::sleep(Duration::from_secs(30)))
        .await;
    assert!(result.is_success(), "{result:?}");
    assert_eq!(finished.load(Ordering::SeqCst), 1);
    assert!(!cancelled.load(Ordering::SeqCst));
}

#[tokio::test]
async fn the_deadline_does_not_cover_input_validation() {
    let (executor, _, finished, _) = setup();
    // Invalid arguments fail validation before the tool, whatever the deadline.
    let call = ToolCall::new("c1", "sleepy", r#"{"ms": "long"}"#);
    let result = executor.dispatch_until(&call, std::future::ready(())).await;
    assert_eq!(
        result.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::InputValidation)
    );
    assert_eq!(finished.load(Ordering::SeqCst), 0);
}
