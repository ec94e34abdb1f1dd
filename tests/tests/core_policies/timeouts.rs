//! Timeouts that hold: cooperative, blocking and CPU-bound tools, the executor default, turn deadlines.

use super::*;

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
