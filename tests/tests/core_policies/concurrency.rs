//! Concurrency: the in-flight limit and sequential tools.

use super::*;

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
