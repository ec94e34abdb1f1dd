//! The executor's policies for an agent loop: timeouts that hold for cooperative, blocking
//! and CPU-bound tools; the in-flight limit and sequential tools; turns with retry budgets;
//! `ToolError`'s retry / failed / denied; approval with deny, defer and resume; progress.
//!
//! No test asserts on wall-clock bounds: deadlines are shown to hold by ordering and state
//! (the result arrives while the tool is provably still running). Waits that guard against a
//! hang use generous bounds that only a broken executor reaches.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use agentkit_core::{
    Approval, ApprovalRequest, BoxError, CredentialProvider, ErrorKind, ExecutionRecorder,
    InMemoryCredentials, JsonObject, Progress, RecordedOutcome, Runtime, Secret, StdRuntime, Tool,
    ToolCall, ToolContext, ToolError, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
    ToolStatus, block_on,
};
use serde_json::json;

/// A guard against a hang: far beyond any deadline in these tests.
const HANG: Duration = Duration::from_secs(30);

fn object(value: serde_json::Value) -> JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits `duration` on the executor-independent timer thread, without blocking the task.
async fn nap(duration: Duration) {
    StdRuntime.sleep_until(Instant::now() + duration).await;
}

/// Events, as observed, in order: (name, call id, error kind or discarded success).
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<(String, String, String)>>>);

impl Log {
    fn observer(&self) -> impl Fn(&ToolEvent<'_>) + Send + Sync + 'static {
        let log = self.clone();
        move |event: &ToolEvent<'_>| {
            let detail = match event {
                ToolEvent::Failed { error, .. } => error.kind().to_string(),
                ToolEvent::Discarded { succeeded, .. } => format!("succeeded={succeeded}"),
                ToolEvent::Progress { progress, .. } => format!(
                    "{}/{:?} {}",
                    progress.progress(),
                    progress.total(),
                    progress.message().unwrap_or("")
                ),
                _ => String::new(),
            };
            lock(&log.0).push((event.name().to_owned(), event.call_id().to_owned(), detail));
        }
    }

    fn names(&self) -> Vec<String> {
        lock(&self.0).iter().map(|(n, _, _)| n.clone()).collect()
    }

    fn all(&self) -> Vec<(String, String, String)> {
        lock(&self.0).clone()
    }

    /// Waits until an event called `name` has been seen (from another thread).
    fn wait_for(&self, name: &str) {
        let start = Instant::now();
        while !self.names().iter().any(|n| n == name) {
            assert!(
                start.elapsed() < HANG,
                "no `{name}` event: {:?}",
                self.all()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Timeouts that hold
// ---------------------------------------------------------------------------------------

/// A tool that blocks its thread until released: a sync client, `std::thread::sleep`.
struct BlockUntilReleased {
    spec: ToolSpec,
    release: Mutex<Option<mpsc::Receiver<()>>>,
    started: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
}

impl Tool for BlockUntilReleased {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        self.started.store(true, Ordering::SeqCst);
        if let Some(release) = lock(&self.release).take() {
            let _ = release.recv_timeout(HANG);
        }
        self.finished.store(true, Ordering::SeqCst);
        Ok(object(json!({"done": true})).into())
    }
}

/// A tool that spins on the CPU until released, never yielding.
struct SpinUntilReleased {
    spec: ToolSpec,
    release: Arc<AtomicBool>,
    finished: Arc<AtomicBool>,
}

impl Tool for SpinUntilReleased {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let start = Instant::now();
        while !self.release.load(Ordering::SeqCst) && start.elapsed() < HANG {
            std::hint::spin_loop();
        }
        self.finished.store(true, Ordering::SeqCst);
        Ok(object(json!({"done": true})).into())
    }
}

fn timeout_of(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

#[test]
fn a_blocking_tool_times_out_while_it_still_blocks_and_its_late_finish_is_discarded() {
    let (release, released) = mpsc::channel();
    let started = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let mut registry = ToolRegistry::new();
    registry
        .register(BlockUntilReleased {
            spec: ToolSpec::builder("sync_fetch")
                .blocking()
                .timeout(timeout_of(30))
                .build()
                .unwrap(),
            release: Mutex::new(Some(released)),
            started: Arc::clone(&started),
            finished: Arc::clone(&finished),
        })
        .unwrap();
    let log = Log::default();
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(registry)
        .observer(log.observer())
        .observer(recorder.clone())
        .build();

    let result = block_on(executor.dispatch(&ToolCall::new("c1", "sync_fetch", "{}")));

    // The result is in while the tool is still blocked: the deadline held.
    assert!(started.load(Ordering::SeqCst), "the tool ran");
    assert!(!finished.load(Ordering::SeqCst), "and is still blocked");
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
    assert!(!result.is_retryable());
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'sync_fetch' did not finish in time and was cancelled."
    );
    assert_eq!(
        log.names(),
        ["tool.execution.started", "tool.execution.failed"]
    );

    // Released, it finishes on its own thread; what it returns is thrown away, observably.
    release.send(()).unwrap();
    log.wait_for("tool.execution.discarded");
    assert!(finished.load(Ordering::SeqCst));
    let events = log.all();
    assert_eq!(events[2].0, "tool.execution.discarded");
    assert_eq!(events[2].2, "succeeded=true");
    let recordings = recorder.recordings();
    assert_eq!(recordings.len(), 1);
    assert!(recordings[0].discarded_late_finish);
    assert!(matches!(
        &recordings[0].outcome,
        RecordedOutcome::Error(e) if e.kind == ErrorKind::Timeout
    ));
}

#[test]
fn a_blocking_spinning_tool_times_out_while_it_still_spins() {
    let release = Arc::new(AtomicBool::new(false));
    let finished = Arc::new(AtomicBool::new(false));
    let mut registry = ToolRegistry::new();
    registry
        .register(SpinUntilReleased {
            spec: ToolSpec::builder("crunch")
                .blocking()
                .timeout(timeout_of(20))
                .build()
                .unwrap(),
            release: Arc::clone(&release),
            finished: Arc::clone(&finished),
        })
        .unwrap();
    let log = Log::default();
    let executor = ToolExecutor::builder(registry)
        .observer(log.observer())
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "crunch", "{}")));
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
    assert!(!finished.load(Ordering::SeqCst), "the tool still spins");
    release.store(true, Ordering::SeqCst);
    log.wait_for("tool.execution.discarded");
    assert!(finished.load(Ordering::SeqCst));
}

#[test]
fn a_blocking_tool_does_not_stall_the_other_calls_of_its_turn() {
    // On one thread (`block_on`), a blocking tool that waits for a cooperative tool of the
    // same turn to finish first can only complete if it runs off the task.
    let (release, released) = mpsc::channel();
    let finished = Arc::new(AtomicBool::new(false));
    struct Releaser(ToolSpec, Mutex<mpsc::Sender<()>>);
    impl Tool for Releaser {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            nap(Duration::from_millis(5)).await;
            lock(&self.1).send(())?;
            Ok(JsonObject::new().into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(BlockUntilReleased {
            spec: ToolSpec::builder("sync_fetch").blocking().build().unwrap(),
            release: Mutex::new(Some(released)),
            started: Arc::default(),
            finished: Arc::clone(&finished),
        })
        .unwrap();
    registry
        .register(Releaser(
            ToolSpec::builder("release").build().unwrap(),
            Mutex::new(release),
        ))
        .unwrap();
    let executor = ToolExecutor::new(registry);
    let results = block_on(executor.dispatch_all(&[
        ToolCall::new("c1", "sync_fetch", "{}"),
        ToolCall::new("c2", "release", "{}"),
    ]));
    assert!(results.iter().all(|r| r.is_success()), "{results:?}");
    assert_eq!(results[0].output().unwrap()["done"], true);
    assert!(finished.load(Ordering::SeqCst));
}

#[test]
fn a_cpu_bound_tool_not_marked_blocking_that_finishes_late_is_a_timeout_never_a_success() {
    struct Spin(ToolSpec);
    impl Tool for Spin {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            ctx: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            // Spins past its deadline without yielding: nothing can interrupt it.
            let start = Instant::now();
            while start.elapsed() < Duration::from_millis(40) {
                std::hint::spin_loop();
            }
            let _ = ctx;
            Ok(object(json!({"done": true})).into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Spin(
            ToolSpec::builder("spin")
                .timeout(timeout_of(5))
                .build()
                .unwrap(),
        ))
        .unwrap();
    let log = Log::default();
    let executor = ToolExecutor::builder(registry)
        .observer(log.observer())
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "spin", "{}")));
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
    assert_eq!(
        log.all()
            .into_iter()
            .map(|(name, _, detail)| format!("{name} {detail}"))
            .collect::<Vec<_>>(),
        [
            "tool.execution.started ",
            "tool.execution.failed timeout",
            "tool.execution.discarded succeeded=true",
        ]
    );
}

/// Awaits its cancellation signal forever; records that it saw it set.
struct Cooperative {
    spec: ToolSpec,
    saw_cancel: Arc<Mutex<Option<agentkit_core::Cancellation>>>,
}

impl Tool for Cooperative {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        *lock(&self.saw_cancel) = Some(ctx.cancellation().clone());
        ctx.cancellation().cancelled().await;
        Ok(JsonObject::new().into())
    }
}

fn cooperative(
    spec: ToolSpec,
) -> (
    ToolRegistry,
    Arc<Mutex<Option<agentkit_core::Cancellation>>>,
) {
    let saw_cancel = Arc::default();
    let mut registry = ToolRegistry::new();
    registry
        .register(Cooperative {
            spec,
            saw_cancel: Arc::clone(&saw_cancel),
        })
        .unwrap();
    (registry, saw_cancel)
}

#[test]
fn a_cooperative_tool_is_cancelled_at_its_declared_timeout() {
    let (registry, signal) = cooperative(
        ToolSpec::builder("wait")
            .timeout(timeout_of(10))
            .build()
            .unwrap(),
    );
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "wait", "{}")));
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
    let signal = lock(&signal).clone().expect("the tool ran");
    assert!(signal.is_cancelled(), "the tool's signal is set");
}

#[test]
fn the_executor_default_timeout_applies_to_tools_without_one_and_a_tools_own_wins() {
    let (registry, _) = cooperative(ToolSpec::builder("wait").build().unwrap());
    let executor = ToolExecutor::builder(registry)
        .default_timeout(timeout_of(10))
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "wait", "{}")));
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));

    // A tool's own timeout, longer than the default, lets it finish.
    struct Nap(ToolSpec);
    impl Tool for Nap {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            nap(Duration::from_millis(30)).await;
            Ok(JsonObject::new().into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Nap(ToolSpec::builder("nap")
            .timeout(Duration::from_secs(3600))
            .build()
            .unwrap()))
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .default_timeout(timeout_of(1))
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "nap", "{}")));
    assert!(result.is_success(), "{result:?}");
}

#[test]
fn a_turn_deadline_ends_running_calls_and_starts_no_more() {
    let runs = Arc::new(AtomicUsize::new(0));
    struct Counted(ToolSpec, Arc<AtomicUsize>);
    impl Tool for Counted {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            self.1.fetch_add(1, Ordering::SeqCst);
            std::future::pending().await
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Counted(
            ToolSpec::builder("hang").build().unwrap(),
            Arc::clone(&runs),
        ))
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .turn_timeout(timeout_of(15))
        .build();
    let turn = executor.turn();
    let results = block_on(turn.dispatch_all(&[
        ToolCall::new("c1", "hang", "{}"),
        ToolCall::new("c2", "hang", "{}"),
    ]));
    assert!(
        results
            .iter()
            .all(|r| r.error_kind() == Some(ErrorKind::Timeout)),
        "{results:?}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    // The turn's deadline has passed: a later call of the turn never starts its tool.
    let late = block_on(turn.dispatch(&ToolCall::new("c3", "hang", "{}")));
    assert_eq!(late.error_kind(), Some(ErrorKind::Timeout));
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_tokio_timeouts_use_its_timers_and_blocking_tools_its_blocking_pool() {
    let (release, released) = mpsc::channel();
    let finished = Arc::new(AtomicBool::new(false));
    let mut registry = ToolRegistry::new();
    registry
        .register(BlockUntilReleased {
            spec: ToolSpec::builder("sync_fetch")
                .blocking()
                .timeout(timeout_of(20))
                .build()
                .unwrap(),
            release: Mutex::new(Some(released)),
            started: Arc::default(),
            finished: Arc::clone(&finished),
        })
        .unwrap();
    let (registry_wait, _) = cooperative(
        ToolSpec::builder("wait")
            .timeout(timeout_of(10))
            .build()
            .unwrap(),
    );
    let log = Log::default();
    let executor = ToolExecutor::builder(registry)
        .runtime(agentkit_core::TokioRuntime)
        .observer(log.observer())
        .build();
    let result = executor
        .dispatch(&ToolCall::new("c1", "sync_fetch", "{}"))
        .await;
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
    assert!(!finished.load(Ordering::SeqCst));
    release.send(()).unwrap();
    let wait_log = log.clone();
    tokio::task::spawn_blocking(move || wait_log.wait_for("tool.execution.discarded"))
        .await
        .unwrap();

    let executor = ToolExecutor::builder(registry_wait)
        .runtime(agentkit_core::TokioRuntime)
        .build();
    let result = executor.dispatch(&ToolCall::new("c2", "wait", "{}")).await;
    assert_eq!(result.error_kind(), Some(ErrorKind::Timeout));
}

#[test]
fn a_blocking_tool_that_panics_or_leaks_a_secret_is_contained_and_scrubbed() {
    struct Bad(ToolSpec);
    impl Tool for Bad {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            inputs: &JsonObject,
            ctx: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let key = ctx.credential("key")?.expose().to_owned();
            if inputs.contains_key("panic") {
                panic!("boom with {key}");
            }
            Err(ToolError::failed(format!("upstream refused {key}"))
                .with_model_message(format!("refused {key}"))
                .into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Bad(ToolSpec::builder("bad")
            .blocking()
            .credential("key")
            .build()
            .unwrap()))
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("key", "sk-SECRET-1"))
        .build();
    let panicked = block_on(executor.dispatch(&ToolCall::new("c1", "bad", r#"{"panic": 1}"#)));
    assert_eq!(panicked.error_kind(), Some(ErrorKind::Panic));
    let failed = block_on(executor.dispatch(&ToolCall::new("c2", "bad", "{}")));
    assert_eq!(failed.error_kind(), Some(ErrorKind::Execution));
    assert_eq!(
        failed.to_model_content(),
        "Error: tool 'bad' failed: refused [redacted]"
    );
    for result in [&panicked, &failed] {
        let error = result.error().unwrap();
        for text in [
            result.to_model_content(),
            error.to_string(),
            format!("{error:?}"),
            format!("{result:?}"),
        ] {
            assert!(!text.contains("sk-SECRET-1"), "{text}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------------------

/// Counts calls in flight across every tool sharing `gauge`, and the most seen at once.
#[derive(Clone, Default)]
struct Gauge {
    now: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
    /// (call id, "start" | "end"), in order.
    order: Arc<Mutex<Vec<(String, &'static str)>>>,
}

struct Gauged {
    spec: ToolSpec,
    gauge: Gauge,
}

impl Tool for Gauged {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let gauge = &self.gauge;
        let now = gauge.now.fetch_add(1, Ordering::SeqCst) + 1;
        gauge.most.fetch_max(now, Ordering::SeqCst);
        lock(&gauge.order).push((ctx.call_id().to_owned(), "start"));
        // Yield several times, so that overlapping calls would be seen.
        for _ in 0..3 {
            nap(Duration::from_millis(2)).await;
        }
        let alone = gauge.now.load(Ordering::SeqCst) == 1;
        lock(&gauge.order).push((ctx.call_id().to_owned(), "end"));
        gauge.now.fetch_sub(1, Ordering::SeqCst);
        Ok(object(json!({"alone": alone})).into())
    }
}

fn gauged(gauge: &Gauge, sequential: &[&'static str], parallel: &[&'static str]) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for name in sequential {
        registry
            .register(Gauged {
                spec: ToolSpec::builder(*name).sequential().build().unwrap(),
                gauge: gauge.clone(),
            })
            .unwrap();
    }
    for name in parallel {
        registry
            .register(Gauged {
                spec: ToolSpec::builder(*name).build().unwrap(),
                gauge: gauge.clone(),
            })
            .unwrap();
    }
    registry
}

fn calls(names: &[&str]) -> Vec<ToolCall> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| ToolCall::new(format!("c{i}"), *name, "{}"))
        .collect()
}

#[test]
fn without_a_limit_a_turns_calls_overlap_and_results_stay_in_call_order() {
    let gauge = Gauge::default();
    let executor = ToolExecutor::new(gauged(&gauge, &[], &["work"]));
    let calls = calls(&["work"; 6]);
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(gauge.most.load(Ordering::SeqCst), 6);
    let ids: Vec<&str> = results.iter().map(|r| r.call_id()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"]);
}

#[test]
fn the_in_flight_limit_caps_calls_running_at_once() {
    let gauge = Gauge::default();
    let executor = ToolExecutor::builder(gauged(&gauge, &[], &["work"]))
        .max_in_flight(2)
        .build();
    let calls = calls(&["work"; 6]);
    let results = block_on(executor.dispatch_all(&calls));
    assert!(results.iter().all(|r| r.is_success()));
    assert_eq!(gauge.most.load(Ordering::SeqCst), 2, "at most two at once");
    let ids: Vec<&str> = results.iter().map(|r| r.call_id()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"]);
}

#[test]
fn the_in_flight_limit_holds_across_concurrent_turns() {
    let gauge = Gauge::default();
    let executor = ToolExecutor::builder(gauged(&gauge, &[], &["work"]))
        .max_in_flight(3)
        .build();
    let first = calls(&["work"; 4]);
    let second = calls(&["work"; 4]);
    let (a, b) = block_on(futures_join(
        executor.dispatch_all(&first),
        executor.dispatch_all(&second),
    ));
    assert_eq!(a.len() + b.len(), 8);
    assert_eq!(gauge.most.load(Ordering::SeqCst), 3);
}

#[test]
fn a_sequential_call_runs_alone_between_the_calls_before_and_after_it() {
    let gauge = Gauge::default();
    let executor = ToolExecutor::new(gauged(&gauge, &["migrate"], &["read"]));
    let calls = calls(&["read", "read", "migrate", "read", "read"]);
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(results[2].output().unwrap()["alone"], true);
    let order = lock(&gauge.order).clone();
    let at = |id: &str, what: &str| {
        order
            .iter()
            .position(|(i, w)| i == id && *w == what)
            .unwrap()
    };
    for before in ["c0", "c1"] {
        assert!(at(before, "end") < at("c2", "start"), "{order:?}");
    }
    for after in ["c3", "c4"] {
        assert!(at("c2", "end") < at(after, "start"), "{order:?}");
    }
    // The others still overlap among themselves.
    assert_eq!(gauge.most.load(Ordering::SeqCst), 2);
    let ids: Vec<&str> = results.iter().map(|r| r.call_id()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4"]);
}

#[test]
fn a_sequential_tool_never_overlaps_a_call_of_another_turn() {
    let gauge = Gauge::default();
    let executor = ToolExecutor::new(gauged(&gauge, &["migrate"], &["read"]));
    let first = calls(&["migrate", "read", "migrate"]);
    let second = calls(&["read", "read", "read", "read"]);
    let (a, b) = block_on(futures_join(
        executor.dispatch_all(&first),
        executor.dispatch_all(&second),
    ));
    assert!(a.iter().chain(&b).all(|r| r.is_success()));
    assert_eq!(a[0].output().unwrap()["alone"], true);
    assert_eq!(a[2].output().unwrap()["alone"], true);
}

/// Polls two futures together on the current task.
async fn futures_join<A: Future, B: Future>(a: A, b: B) -> (A::Output, B::Output) {
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    let (mut out_a, mut out_b) = (None, None);
    std::future::poll_fn(|cx| {
        if out_a.is_none()
            && let std::task::Poll::Ready(v) = a.as_mut().poll(cx)
        {
            out_a = Some(v);
        }
        if out_b.is_none()
            && let std::task::Poll::Ready(v) = b.as_mut().poll(cx)
        {
            out_b = Some(v);
        }
        if out_a.is_some() && out_b.is_some() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    (out_a.unwrap(), out_b.unwrap())
}

// ---------------------------------------------------------------------------------------
// Retry with feedback, failed, denied
// ---------------------------------------------------------------------------------------

/// A tool that answers each call as its `mode` argument says.
struct Answers(ToolSpec);

impl Tool for Answers {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        match inputs.get("mode").and_then(|m| m.as_str()) {
            Some("retry") => {
                Err(ToolError::retry("`city` must be a real city, such as \"Paris\"").into())
            }
            Some("failed") => Err(ToolError::failed("db: connection refused at 10.0.0.7:5432")
                .with_model_message("The database is unavailable; try again later.")
                .into()),
            Some("plain") => Err("db: connection refused at 10.0.0.7:5432".into()),
            Some("denied") => Err(ToolError::denied("only admins may delete projects").into()),
            _ => Ok(JsonObject::new().into()),
        }
    }
}

fn answers(retries: Option<u32>) -> ToolRegistry {
    let mut spec = ToolSpec::builder("lookup");
    if let Some(retries) = retries {
        spec = spec.retries(retries);
    }
    let mut registry = ToolRegistry::new();
    registry.register(Answers(spec.build().unwrap())).unwrap();
    registry
}

fn mode(id: &str, mode: &str) -> ToolCall {
    ToolCall::new(id, "lookup", json!({ "mode": mode }))
}

#[test]
fn a_retry_request_is_retryable_until_the_tools_budget_for_the_turn_is_spent() {
    let executor = ToolExecutor::new(answers(Some(2)));
    let turn = executor.turn();
    let first = block_on(turn.dispatch(&mode("c1", "retry")));
    let second = block_on(turn.dispatch(&mode("c2", "retry")));
    let third = block_on(turn.dispatch(&mode("c3", "retry")));
    for result in [&first, &second] {
        assert_eq!(result.error_kind(), Some(ErrorKind::Retry));
        assert!(result.is_retryable());
        assert_eq!(
            result.to_model_content(),
            "Error: tool 'lookup' asks you to correct the call and try again: `city` must be a real city, such as \"Paris\""
        );
    }
    assert_eq!(third.error_kind(), Some(ErrorKind::RetriesExhausted));
    assert!(!third.is_retryable());
    assert_eq!(
        third.to_model_content(),
        "Error: tool 'lookup' failed, and it cannot be retried in this turn: `city` must be a real city, such as \"Paris\""
    );
    assert_eq!(turn.retries_used("lookup"), 3);

    // A new turn starts with the whole budget.
    let next = executor.turn();
    let again = block_on(next.dispatch(&mode("c4", "retry")));
    assert_eq!(again.error_kind(), Some(ErrorKind::Retry));
}

#[test]
fn the_executors_default_budget_applies_to_tools_that_declare_none() {
    let executor = ToolExecutor::builder(answers(None))
        .default_retries(0)
        .build();
    let result = block_on(executor.dispatch(&mode("c1", "retry")));
    assert_eq!(result.error_kind(), Some(ErrorKind::RetriesExhausted));

    // The built-in default is one retry per turn.
    let executor = ToolExecutor::new(answers(None));
    let turn = executor.turn();
    let kinds: Vec<Option<ErrorKind>> = (0..2)
        .map(|i| block_on(turn.dispatch(&mode(&format!("c{i}"), "retry"))).error_kind())
        .collect();
    assert_eq!(
        kinds,
        [Some(ErrorKind::Retry), Some(ErrorKind::RetriesExhausted)]
    );
}

#[test]
fn retries_are_counted_across_one_turns_calls_run_together() {
    let executor = ToolExecutor::new(answers(Some(1)));
    let results = block_on(executor.dispatch_all(&[mode("c1", "retry"), mode("c2", "retry")]));
    let mut kinds: Vec<ErrorKind> = results.iter().filter_map(|r| r.error_kind()).collect();
    kinds.sort_by_key(|k| k.as_str());
    assert_eq!(kinds, [ErrorKind::RetriesExhausted, ErrorKind::Retry]);
}

#[test]
fn a_failure_tells_the_model_only_what_the_tool_meant_for_it() {
    let executor = ToolExecutor::new(answers(None));
    let failed = block_on(executor.dispatch(&mode("c1", "failed")));
    assert_eq!(failed.error_kind(), Some(ErrorKind::Execution));
    assert!(!failed.is_retryable());
    assert_eq!(
        failed.to_model_content(),
        "Error: tool 'lookup' failed: The database is unavailable; try again later."
    );
    // The operator sees the cause.
    let error = failed.error().unwrap();
    assert!(error.to_string().contains("10.0.0.7"), "{error}");

    // A plain error: its text is the operator's only.
    let plain = block_on(executor.dispatch(&mode("c2", "plain")));
    assert_eq!(plain.to_model_content(), "Error: tool 'lookup' failed.");
    assert!(plain.error().unwrap().to_string().contains("10.0.0.7"));
}

#[test]
fn a_tool_can_deny_a_call() {
    let executor = ToolExecutor::new(answers(None));
    let denied = block_on(executor.dispatch(&mode("c1", "denied")));
    assert_eq!(denied.error_kind(), Some(ErrorKind::Denied));
    assert!(!denied.is_retryable());
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'lookup' was denied: only admins may delete projects"
    );
}

#[test]
fn strict_mode_returns_the_new_kinds_as_errors() {
    let executor = ToolExecutor::new(answers(Some(3)));
    for (m, kind) in [
        ("retry", ErrorKind::Retry),
        ("failed", ErrorKind::Execution),
        ("denied", ErrorKind::Denied),
    ] {
        let error = block_on(executor.try_dispatch(&mode("c", m))).unwrap_err();
        assert_eq!(error.kind(), kind);
        assert_eq!(error.is_retryable(), kind == ErrorKind::Retry);
    }
}

#[test]
fn retry_and_denial_outcomes_replay_exactly() {
    let recorder = ExecutionRecorder::new();
    let registry = answers(Some(1));
    let executor = ToolExecutor::builder(registry.clone())
        .observer(recorder.clone())
        .build();
    let turn = executor.turn();
    let calls = [
        mode("c1", "retry"),
        mode("c2", "retry"),
        mode("c3", "denied"),
        mode("c4", "failed"),
    ];
    let live: Vec<String> = calls
        .iter()
        .map(|c| block_on(turn.dispatch(c)).to_model_content())
        .collect();
    let replay = recorder.replay();
    let replayer = ToolExecutor::new(replay.registry_for(&registry));
    let turn = replayer.turn();
    let replayed: Vec<String> = calls
        .iter()
        .map(|c| block_on(turn.dispatch(c)).to_model_content())
        .collect();
    assert_eq!(live, replayed);
    assert_eq!(replay.remaining(), 0);
}

// ---------------------------------------------------------------------------------------
// Approval
// ---------------------------------------------------------------------------------------

/// A transfer tool that needs approval and a credential; counts its runs.
struct Transfer {
    spec: ToolSpec,
    runs: Arc<AtomicUsize>,
}

impl Tool for Transfer {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        ctx.credential("bank-token")?;
        self.runs.fetch_add(1, Ordering::SeqCst);
        Ok(object(json!({"sent": inputs["amount"]})).into())
    }
}

/// Counts lookups: a denied or deferred call must resolve no credential.
#[derive(Clone, Default)]
struct CountingCredentials(Arc<AtomicUsize>);

impl CredentialProvider for CountingCredentials {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(Some(Secret::new("tok-123")))
    }
}

struct Bank {
    registry: ToolRegistry,
    runs: Arc<AtomicUsize>,
    lookups: CountingCredentials,
}

fn bank() -> Bank {
    let runs = Arc::new(AtomicUsize::new(0));
    let input = agentkit_core::ToolSchema::new([agentkit_core::Param::required(
        "amount",
        agentkit_core::ParamType::Float,
    )])
    .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(Transfer {
            spec: ToolSpec::builder("transfer")
                .input(input)
                .credential("bank-token")
                .requires_approval()
                .build()
                .unwrap(),
            runs: Arc::clone(&runs),
        })
        .unwrap();
    Bank {
        registry,
        runs,
        lookups: CountingCredentials::default(),
    }
}

fn by_amount(request: &ApprovalRequest<'_>) -> Approval {
    match request.inputs()["amount"].as_f64() {
        Some(amount) if amount <= 100.0 => Approval::Allow,
        Some(amount) if amount >= 10_000.0 => {
            Approval::deny("transfers over 10000 are not allowed")
        }
        _ => Approval::Defer,
    }
}

fn transfer(id: &str, amount: f64) -> ToolCall {
    ToolCall::new(id, "transfer", json!({ "amount": amount }))
}

#[test]
fn the_policy_allows_denies_and_defers_before_credentials_are_resolved() {
    let bank = bank();
    let log = Log::default();
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(by_amount)
        .observer(log.observer())
        .observer(recorder.clone())
        .build();

    let denied = block_on(executor.dispatch(&transfer("c1", 50_000.0)));
    assert_eq!(denied.error_kind(), Some(ErrorKind::Denied));
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'transfer' was denied: transfers over 10000 are not allowed"
    );
    let deferred = block_on(executor.dispatch(&transfer("c2", 500.0)));
    assert_eq!(deferred.status(), ToolStatus::Deferred);
    assert!(!deferred.is_success() && !deferred.is_retryable());
    assert_eq!(deferred.error_kind(), Some(ErrorKind::AwaitingApproval));
    assert_eq!(
        deferred.to_model_content(),
        "The call to tool 'transfer' awaits approval; its result will follow."
    );
    // Neither ran the tool nor touched a credential.
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    assert_eq!(bank.lookups.0.load(Ordering::SeqCst), 0);

    let allowed = block_on(executor.dispatch(&transfer("c3", 20.0)));
    assert!(allowed.is_success(), "{allowed:?}");
    assert_eq!(bank.runs.load(Ordering::SeqCst), 1);

    let names: Vec<String> = log
        .all()
        .into_iter()
        .filter(|(n, _, _)| n != "tool.execution.started")
        .map(|(n, id, detail)| format!("{id} {n} {detail}"))
        .collect();
    assert_eq!(
        names,
        [
            "c1 tool.execution.failed denied",
            "c2 tool.execution.deferred ",
            "c3 tool.execution.completed ",
        ]
    );
    let outcomes: Vec<String> = recorder
        .recordings()
        .iter()
        .map(|r| match &r.outcome {
            RecordedOutcome::Error(e) => e.kind.to_string(),
            RecordedOutcome::Deferred => "deferred".to_owned(),
            RecordedOutcome::Output(_) => "output".to_owned(),
            _ => "other".to_owned(),
        })
        .collect();
    assert_eq!(outcomes, ["denied", "deferred", "output"]);
}

#[test]
fn a_deferred_call_resumes_with_the_decision_even_after_a_round_trip_through_json() {
    let bank = bank();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(by_amount)
        .build();
    let deferred = block_on(executor.dispatch(&transfer("c1", 500.0)))
        .into_deferred()
        .expect("deferred");
    assert_eq!(deferred.tool_name(), "transfer");
    assert_eq!(deferred.call_id(), "c1");
    assert_eq!(deferred.inputs()["amount"], 500.0);

    // Kept while a person decides.
    let stored = serde_json::to_string(&deferred).unwrap();
    let restored: agentkit_core::DeferredCall = serde_json::from_str(&stored).unwrap();

    let still = block_on(executor.resume(restored.clone(), Approval::Defer));
    assert_eq!(still.status(), ToolStatus::Deferred);
    let denied = block_on(executor.resume(restored.clone(), Approval::deny("the user declined")));
    assert_eq!(
        denied.to_model_content(),
        "Error: the call to tool 'transfer' was denied: the user declined"
    );
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    let approved = block_on(executor.resume(restored, Approval::Allow));
    assert_eq!(approved.call_id(), "c1");
    assert_eq!(approved.output().unwrap()["sent"], 500.0);
    assert_eq!(bank.runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_resumed_call_is_validated_again() {
    let bank = bank();
    let executor = ToolExecutor::new(bank.registry);
    let deferred = block_on(executor.dispatch(&transfer("c1", 5.0)))
        .into_deferred()
        .expect("no policy: deferred");
    let mut tampered = serde_json::to_value(&deferred).unwrap();
    tampered["inputs"]["amount"] = json!("all of it");
    let tampered: agentkit_core::DeferredCall = serde_json::from_value(tampered).unwrap();
    let result = block_on(executor.resume(tampered, Approval::Allow));
    assert_eq!(result.error_kind(), Some(ErrorKind::InputValidation));
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_panicking_policy_runs_nothing() {
    let bank = bank();
    let executor = ToolExecutor::builder(bank.registry)
        .credentials(bank.lookups.clone())
        .approval(|_: &ApprovalRequest<'_>| -> Approval { panic!("policy bug") })
        .build();
    let result = block_on(executor.dispatch(&transfer("c1", 1.0)));
    assert_eq!(result.error_kind(), Some(ErrorKind::Execution));
    assert_eq!(result.to_model_content(), "Error: tool 'transfer' failed.");
    assert_eq!(bank.runs.load(Ordering::SeqCst), 0);
    assert_eq!(bank.lookups.0.load(Ordering::SeqCst), 0);
}

#[test]
fn tools_that_need_no_approval_never_ask_the_policy() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let executor = ToolExecutor::builder(answers(None))
        .approval(move |_: &ApprovalRequest<'_>| {
            counter.fetch_add(1, Ordering::SeqCst);
            Approval::deny("no")
        })
        .build();
    let result = block_on(executor.dispatch(&mode("c1", "ok")));
    assert!(result.is_success());
    assert_eq!(asked.load(Ordering::SeqCst), 0);
}

// ---------------------------------------------------------------------------------------
// Progress
// ---------------------------------------------------------------------------------------

#[test]
fn progress_reaches_observers_in_order_bounded_and_without_secrets() {
    struct Crawl(ToolSpec);
    impl Tool for Crawl {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            ctx: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let key = ctx.credential("key")?.expose().to_owned();
            for page in 1..=3 {
                ctx.report_progress(
                    Progress::new(f64::from(page))
                        .with_total(3.0)
                        .with_message(format!("page {page} via {key}")),
                );
            }
            ctx.report_progress(Progress::new(f64::NAN));
            ctx.report_progress(Progress::new(4.0).with_message("x".repeat(5_000)));
            Ok(JsonObject::new().into())
        }
    }
    let mut registry = ToolRegistry::new();
    registry
        .register(Crawl(
            ToolSpec::builder("crawl")
                .credential("key")
                .build()
                .unwrap(),
        ))
        .unwrap();
    let log = Log::default();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("key", "sk-PROGRESS"))
        .observer(log.observer())
        .build();
    assert!(block_on(executor.dispatch(&ToolCall::new("c1", "crawl", "{}"))).is_success());
    let progress: Vec<String> = log
        .all()
        .into_iter()
        .filter(|(n, _, _)| n == "tool.execution.progress")
        .map(|(_, _, detail)| detail)
        .collect();
    assert_eq!(progress.len(), 4, "the NaN report is dropped: {progress:?}");
    assert_eq!(
        &progress[..3],
        [
            "1/Some(3.0) page 1 via [redacted]",
            "2/Some(3.0) page 2 via [redacted]",
            "3/Some(3.0) page 3 via [redacted]",
        ]
    );
    let long = &progress[3];
    assert!(long.ends_with('…'), "cut");
    assert_eq!(long.chars().count(), "4/None ".len() + 1_000 + 1);
}
