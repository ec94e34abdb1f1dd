//! `Turn::dispatch_stream`: the calls of a streamed reply run in a turn as they
//! arrive. A call starts while the stream goes on; results come in call order; a sequential
//! tool's call runs alone; the in-flight limit, the turn's deadline and its toolset hold.
//! Ordering is shown by signals and logs, never by the clock.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use agentkit_core::{
    BoxError, ErrorKind, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput,
    ToolRegistry, ToolSpec, block_on,
};
use futures_util::stream::{self, Stream, StreamExt};
use serde_json::json;

/// Gives way to the other futures of the task once (waking itself, so it is polled again).
struct YieldNow(bool);

impl Future for YieldNow {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

fn yield_now() -> YieldNow {
    YieldNow(false)
}

/// What the tools and the stream saw, in order.
#[derive(Clone, Default)]
struct Log {
    lines: Arc<Mutex<Vec<String>>>,
    running: Arc<AtomicUsize>,
    most: Arc<AtomicUsize>,
    /// How many calls the stream has handed over.
    delivered: Arc<AtomicUsize>,
}

impl Log {
    fn push(&self, line: impl Into<String>) {
        self.lines
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line.into());
    }

    fn lines(&self) -> Vec<String> {
        self.lines
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn at(&self, line: &str) -> usize {
        let lines = self.lines();
        lines
            .iter()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("{line} in {lines:?}"))
    }
}

/// A tool that logs its start and end, yields `arg "turns"` times (default 3) in between,
/// and answers whether it ran alone and whether the stream handed over more calls while it
/// ran.
struct Logged {
    spec: ToolSpec,
    log: Log,
}

impl Tool for Logged {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let log = &self.log;
        let now = log.running.fetch_add(1, Ordering::SeqCst) + 1;
        log.most.fetch_max(now, Ordering::SeqCst);
        log.push(format!("start {}", ctx.call_id()));
        let delivered = log.delivered.load(Ordering::SeqCst);
        let turns = inputs.get("turns").and_then(|t| t.as_u64()).unwrap_or(3);
        let mut alone = true;
        for _ in 0..turns {
            yield_now().await;
            alone &= log.running.load(Ordering::SeqCst) == 1;
        }
        let stream_went_on = log.delivered.load(Ordering::SeqCst) > delivered;
        log.push(format!("end {}", ctx.call_id()));
        log.running.fetch_sub(1, Ordering::SeqCst);
        let output = json!({"alone": alone, "stream_went_on": stream_went_on});
        Ok(output.as_object().cloned().unwrap_or_default().into())
    }
}

fn executor(
    log: &Log,
    sequential: &[&'static str],
    parallel: &[&'static str],
    limit: Option<usize>,
) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    for (names, is_sequential) in [(sequential, true), (parallel, false)] {
        for name in names {
            let mut spec = ToolSpec::builder(*name);
            if is_sequential {
                spec = spec.sequential();
            }
            registry
                .register(Logged {
                    spec: spec.build().unwrap(),
                    log: log.clone(),
                })
                .unwrap();
        }
    }
    let builder = ToolExecutor::builder(registry);
    match limit {
        Some(limit) => builder.max_in_flight(limit).build(),
        None => builder.build(),
    }
}

/// The calls `c0`, `c1`, ... of tools `names`, each handed over after the stream has given
/// way once (as a model's reply arrives in pieces), logging when each is handed over and
/// when the stream ends.
fn streamed(log: &Log, names: &[&str], args: &str) -> impl Stream<Item = ToolCall> + use<> {
    let calls: Vec<ToolCall> = names
        .iter()
        .enumerate()
        .map(|(n, name)| ToolCall::new(format!("c{n}"), *name, args))
        .collect();
    let log = log.clone();
    stream::unfold((calls.into_iter(), log), |(mut calls, log)| async move {
        yield_now().await;
        match calls.next() {
            Some(call) => {
                log.push(format!("arrived {}", call.id()));
                log.delivered.fetch_add(1, Ordering::SeqCst);
                Some((call, (calls, log)))
            }
            None => {
                log.push("stream ended");
                None
            }
        }
    })
}

fn ids(results: &[agentkit_core::ToolResult]) -> Vec<&str> {
    results.iter().map(|r| r.call_id()).collect()
}

#[test]
fn a_call_starts_and_runs_while_the_stream_goes_on() {
    let log = Log::default();
    let executor = executor(&log, &[], &["work"], None);
    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(streamed(&log, &["work"; 3], "{}")));
    assert!(results.iter().all(|r| r.is_success()), "{results:?}");
    // The first call started before the second arrived, and the stream handed over more
    // calls while it ran.
    assert!(
        log.at("start c0") < log.at("arrived c1"),
        "{:?}",
        log.lines()
    );
    assert!(log.at("start c0") < log.at("stream ended"));
    assert_eq!(results[0].output().unwrap()["stream_went_on"], true);
    assert_eq!(ids(&results), ["c0", "c1", "c2"]);
}

#[test]
fn a_stream_waiting_on_the_first_tool_gets_its_signal() {
    // The stream hands over its second call only once the first call's tool has started:
    // calls that waited for the stream's end would never start.
    let log = Log::default();
    let executor = executor(&log, &[], &["work"], None);
    let started = Arc::new(AtomicBool::new(false));
    let observed = Arc::clone(&started);
    let lines = log.clone();
    // Waits a bounded number of polls, then ends without its call: a failure, not a hang.
    let mut polls = 0;
    let signal = stream::poll_fn(move |cx| {
        polls += 1;
        if lines.lines().iter().any(|l| l == "start first") {
            observed.store(true, Ordering::SeqCst);
            Poll::Ready(Some(ToolCall::new("second", "work", "{}")))
        } else if polls > 1_000 {
            Poll::Ready(None)
        } else {
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    })
    .take(1);
    let calls = stream::iter([ToolCall::new("first", "work", "{}")]).chain(signal);
    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(calls));
    assert!(started.load(Ordering::SeqCst));
    assert_eq!(ids(&results), ["first", "second"]);
}

#[test]
fn results_come_in_call_order_when_later_calls_end_first() {
    let log = Log::default();
    let executor = executor(&log, &[], &["work"], None);
    let calls = [
        ToolCall::new("slow", "work", r#"{"turns": 40}"#),
        ToolCall::new("quick", "work", r#"{"turns": 1}"#),
        ToolCall::new("quicker", "work", r#"{"turns": 0}"#),
    ];
    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(stream::iter(calls)));
    assert!(log.at("end quicker") < log.at("end slow"));
    assert!(log.at("end quick") < log.at("end slow"));
    assert_eq!(ids(&results), ["slow", "quick", "quicker"]);
}

#[test]
fn a_sequential_call_runs_alone_between_the_calls_before_and_after_it() {
    let log = Log::default();
    let executor = executor(&log, &["migrate"], &["read"], None);
    let names = ["read", "read", "migrate", "read", "read", "migrate", "read"];
    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(streamed(&log, &names, "{}")));
    assert!(results.iter().all(|r| r.is_success()), "{results:?}");
    for (sequential, before, after) in [(2, &[0, 1][..], &[3, 4][..]), (5, &[3, 4], &[6])] {
        assert_eq!(results[sequential].output().unwrap()["alone"], true);
        let start = log.at(&format!("start c{sequential}"));
        let end = log.at(&format!("end c{sequential}"));
        for n in before {
            assert!(log.at(&format!("end c{n}")) < start, "{:?}", log.lines());
        }
        for n in after {
            assert!(end < log.at(&format!("start c{n}")), "{:?}", log.lines());
        }
    }
    // The others still overlap among themselves, and the stream went on meanwhile.
    assert_eq!(log.most.load(Ordering::SeqCst), 2);
    assert!(log.at("arrived c3") < log.at("end c2"), "{:?}", log.lines());
    assert_eq!(ids(&results), ["c0", "c1", "c2", "c3", "c4", "c5", "c6"]);
}

#[test]
fn the_in_flight_limit_holds() {
    let log = Log::default();
    let executor = executor(&log, &[], &["work"], Some(2));
    let calls: Vec<ToolCall> = (0..6)
        .map(|n| ToolCall::new(format!("c{n}"), "work", r#"{"turns": 5}"#))
        .collect();
    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(stream::iter(calls)));
    assert!(results.iter().all(|r| r.is_success()), "{results:?}");
    assert_eq!(log.most.load(Ordering::SeqCst), 2);
    assert_eq!(ids(&results), ["c0", "c1", "c2", "c3", "c4", "c5"]);
}

/// A tool that never finishes.
struct Stuck(ToolSpec);

impl Tool for Stuck {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        std::future::pending().await
    }
}

#[test]
fn the_turns_deadline_ends_calls_that_arrived_in_it() {
    let mut registry = ToolRegistry::new();
    registry
        .register(Stuck(ToolSpec::builder("stuck").build().unwrap()))
        .unwrap();
    let log = Log::default();
    registry
        .register(Logged {
            spec: ToolSpec::builder("work").build().unwrap(),
            log: log.clone(),
        })
        .unwrap();
    let executor = ToolExecutor::new(registry);
    let turn = executor.turn().with_timeout(Duration::from_millis(50));
    let calls = [
        ToolCall::new("a", "stuck", "{}"),
        ToolCall::new("b", "work", "{}"),
    ];
    let results = block_on(turn.dispatch_stream(stream::iter(calls)));
    assert_eq!(
        results[0].error().map(|e| e.kind()),
        Some(ErrorKind::Timeout)
    );
    assert!(results[1].is_success(), "{:?}", results[1]);

    // A call arriving once the deadline has passed does not run.
    let turn = executor.turn().with_deadline(std::time::Instant::now());
    let results = block_on(turn.dispatch_stream(stream::iter([ToolCall::new("c", "work", "{}")])));
    assert_eq!(
        results[0].error().map(|e| e.kind()),
        Some(ErrorKind::Timeout)
    );
    assert!(!log.lines().contains(&"start c".to_owned()));
}

#[test]
fn the_turns_toolset_holds() {
    let log = Log::default();
    let executor = executor(&log, &[], &["read", "write"], None);
    let turn = executor
        .turn()
        .with_toolset(executor.toolset().named(["read"]));
    let calls = [
        ToolCall::new("a", "read", "{}"),
        ToolCall::new("b", "write", "{}"),
    ];
    let results = block_on(turn.dispatch_stream(stream::iter(calls)));
    assert!(results[0].is_success());
    assert_eq!(
        results[1].error().map(|e| e.kind()),
        Some(ErrorKind::UnknownTool)
    );
}

#[test]
fn an_empty_stream_is_no_results() {
    let executor = ToolExecutor::new(ToolRegistry::new());
    let turn = executor.turn();
    assert!(block_on(turn.dispatch_stream(stream::empty())).is_empty());
}
