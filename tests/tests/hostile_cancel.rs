//! Every started call ends: dispatch futures polled a random number of times, interleaved,
//! and dropped in a random order (a caller that gives up, a `select!` that picks another
//! branch) still give each call that started exactly one terminal event, seen by every
//! observer and the recorder. A call that finished ends with its own outcome; one dropped
//! while pending ends as `Cancelled`; one never polled never started.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use agentkit_core::{
    BoxError, Error, ErrorKind, JsonObject, Param, ParamType, RecordedOutcome, TextLimits, Tool,
    ToolCall, ToolContext, ToolEvent, ToolOutput, ToolRegistry, ToolResult, ToolSchema, ToolSpec,
};
use proptest::prelude::*;

use crate::hostile_support::{Harness, SeenEvent, assert_no_secret, lookup_tool, poll_once};

/// Returns `Pending` (waking itself) `n` times, then `Ready`.
struct Yield(u32);

impl Future for Yield {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// A value whose `Drop` panics.
struct Bomb;

impl Drop for Bomb {
    fn drop(&mut self) {
        panic!("a tool future panicked while dropped");
    }
}

/// Yields `n` times, then ends as `end` says: `ok`, `fail`, `panic`, or `hang` (never, with a
/// `Bomb` in its state that panics when the future is dropped).
struct Slow(ToolSpec);

impl Tool for Slow {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let yields = u32::try_from(inputs["n"].as_i64().unwrap_or(0)).unwrap_or(0);
        let end = inputs["end"].as_str().unwrap_or("ok");
        if end == "hang" {
            let _bomb = Bomb;
            Yield(yields).await;
            std::future::pending::<()>().await;
        }
        Yield(yields).await;
        match end {
            "fail" => Err("gave up".into()),
            "panic" => panic!("fell over"),
            _ => Ok(inputs.clone().into()),
        }
    }
}

/// A harness over `slow` and `lookup`; with `panicky`, an observer that panics on every
/// event sees each event first.
fn harness(panicky: bool) -> Harness {
    let spec = ToolSpec::builder("slow")
        .input(
            ToolSchema::new([
                Param::required("n", ParamType::Integer),
                Param::required("end", ParamType::String),
            ])
            .unwrap(),
        )
        .build()
        .unwrap();
    let (lookup, _) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(Slow(spec)).unwrap();
    registry.register(lookup).unwrap();
    Harness::configured(registry, TextLimits::DEFAULT, move |builder| {
        if panicky {
            builder.observer(|event: &ToolEvent<'_>| panic!("observer broke on {}", event.name()))
        } else {
            builder
        }
    })
}

/// One call of a generated plan.
fn call(index: usize, kind: u8, yields: u8) -> ToolCall {
    let id = format!("call_{index}");
    let slow = |end: &str| {
        let args = format!(r#"{{"n": {yields}, "end": "{end}"}}"#);
        ToolCall::new(id.clone(), "slow", args)
    };
    match kind {
        0 => slow("ok"),
        1 => slow("fail"),
        2 => slow("panic"),
        3 => slow("hang"),
        4 => ToolCall::new(id.clone(), "lookup", r#"{"n": "x"}"#), // fails before any await
        _ => ToolCall::new(id.clone(), "nope", "{}"),              // so does an unknown tool
    }
}

/// Checks that every call that started ended exactly once, as it should have, for the
/// observers and the recorder alike.
fn assert_paired(
    harness: &Harness,
    started: &[bool],
    finished: &BTreeMap<usize, ToolResult>,
) -> Result<(), TestCaseError> {
    let events: Vec<SeenEvent> = harness.events().take();
    let recordings = harness.recorder().take();
    let mut by_call: BTreeMap<String, Vec<&SeenEvent>> = BTreeMap::new();
    for event in &events {
        assert_no_secret("an event's Debug", &event.debug);
        by_call
            .entry(event.call_id.clone())
            .or_default()
            .push(event);
    }
    for (index, started) in started.iter().enumerate() {
        let id = format!("call_{index}");
        let seen = by_call.remove(&id).unwrap_or_default();
        if !started {
            prop_assert!(seen.is_empty(), "{id} never polled, yet {seen:?}");
            continue;
        }
        prop_assert_eq!(seen.len(), 2, "{} saw {:?}", id, seen);
        prop_assert!(seen[0].is_started());
        prop_assert!(!seen[1].is_started());
        let expected = match finished.get(&index) {
            Some(result) => result.error().map(Error::kind),
            None => Some(ErrorKind::Cancelled),
        };
        prop_assert_eq!(seen[1].kind, expected, "{}", id);
        let recorded: Vec<Option<ErrorKind>> = recordings
            .iter()
            .filter(|r| r.call_id == id)
            .map(|r| match &r.outcome {
                RecordedOutcome::Error(e) => Some(e.kind),
                _ => None,
            })
            .collect();
        prop_assert_eq!(recorded, vec![expected], "{}", id);
    }
    prop_assert!(by_call.is_empty(), "events of unknown calls: {by_call:?}");
    Ok(())
}

/// A plan: the calls (kind, yields), a schedule of which call to poll next, the order in
/// which the unfinished ones are then dropped, and whether a panicking observer watches.
type Plan = (Vec<(u8, u8)>, Vec<usize>, Vec<usize>, bool);

fn plans() -> impl Strategy<Value = Plan> {
    prop::collection::vec((0u8..6, 0u8..4), 1..5).prop_flat_map(|calls| {
        let n = calls.len();
        let order: Vec<usize> = (0..n).collect();
        (
            Just(calls),
            prop::collection::vec(0..n, 0..24),
            Just(order).prop_shuffle(),
            any::<bool>(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn started_and_terminal_events_pair_up_under_random_drops(
        (plan, schedule, drop_order, panicky) in plans()
    ) {
        let harness = harness(panicky);
        let calls: Vec<ToolCall> = plan
            .iter()
            .enumerate()
            .map(|(index, &(kind, yields))| call(index, kind, yields))
            .collect();
        let mut started = vec![false; calls.len()];
        let mut finished = BTreeMap::new();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut pending: Vec<Option<Pin<Box<dyn Future<Output = ToolResult> + Send + '_>>>> =
                calls
                    .iter()
                    .map(|call| Some(Box::pin(harness.executor().dispatch(call)) as Pin<Box<_>>))
                    .collect();
            for &index in &schedule {
                if let Some(future) = pending[index].as_mut() {
                    started[index] = true;
                    if let Poll::Ready(result) = poll_once(future.as_mut()) {
                        finished.insert(index, result);
                        pending[index] = None;
                    }
                }
            }
            for &index in &drop_order {
                drop(pending[index].take());
            }
        }));
        prop_assert!(outcome.is_ok(), "a panic escaped a dispatch or its drop");
        for result in finished.values() {
            crate::hostile_support::assert_model_safe(result, &TextLimits::DEFAULT);
        }
        assert_paired(&harness, &started, &finished)?;
    }
}

#[test]
fn a_dispatch_dropped_before_its_first_poll_never_started() {
    let harness = harness(false);
    let dropped = harness.drop_after(&call(0, 3, 0), 0);
    assert!(dropped.finished.is_none());
    assert!(dropped.events.is_empty() && dropped.recordings.is_empty());
}

#[test]
fn a_dispatch_dropped_while_its_tool_hangs_ends_cancelled() {
    for polls in 1..4 {
        let harness = harness(polls == 2);
        harness.drop_after(&call(0, 3, 1), polls).assert_cancelled();
    }
}

#[test]
fn a_dispatch_until_dropped_before_its_deadline_ends_cancelled() {
    let harness = harness(false);
    let call = call(0, 3, 0);
    let mut future = Box::pin(
        harness
            .executor()
            .dispatch_until(&call, std::future::pending::<()>()),
    );
    assert!(poll_once(future.as_mut()).is_pending());
    drop(future);
    let kinds: Vec<Option<ErrorKind>> = harness.events().take().iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [None, Some(ErrorKind::Cancelled)]);
}

#[test]
fn a_turn_dropped_midway_ends_every_call_it_started() {
    let harness = harness(false);
    let calls = [call(0, 0, 0), call(1, 3, 0), call(2, 0, 3), call(3, 5, 0)];
    let mut turn = Box::pin(harness.executor().dispatch_all(&calls));
    assert!(poll_once(turn.as_mut()).is_pending());
    drop(turn);
    let events = harness.events().take();
    let ends: BTreeMap<String, Vec<Option<ErrorKind>>> =
        events.iter().fold(BTreeMap::new(), |mut ends, event| {
            if !event.is_started() {
                ends.entry(event.call_id.clone())
                    .or_default()
                    .push(event.kind);
            }
            ends
        });
    let expected: BTreeMap<String, Vec<Option<ErrorKind>>> = [
        ("call_0", None),                         // finished on the first poll
        ("call_1", Some(ErrorKind::Cancelled)),   // hung
        ("call_2", Some(ErrorKind::Cancelled)),   // still yielding
        ("call_3", Some(ErrorKind::UnknownTool)), // failed at once
    ]
    .into_iter()
    .map(|(id, kind)| (id.to_owned(), vec![kind]))
    .collect();
    assert_eq!(ends, expected);
    assert_eq!(events.iter().filter(|e| e.is_started()).count(), 4);
    assert_eq!(harness.recorder().len(), 4);
}
