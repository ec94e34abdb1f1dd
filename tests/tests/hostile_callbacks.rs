//! Hostile callbacks: a tool that panics before returning its future, while polled, with a
//! payload that is no string or that panics when dropped, or whose future panics when it is
//! dropped on a deadline or a cancelled call; a tool error whose `Display` or `Debug` panics;
//! an observer, a credential provider or a deadline that panics. `dispatch` never unwinds,
//! every call ends with a typed result, and the panic's text reaches no model.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use agentkit_core::{
    BoxError, CredentialProvider, Credentials, Error, ErrorKind, JsonObject, Secret, TextLimits,
    Tool, ToolCall, ToolContext, ToolError, ToolEvent, ToolOutput, ToolRegistry, ToolSpec,
    block_on,
};

use crate::core_fixtures::{FnTool, Probe};
use crate::hostile_support::{
    Harness, KEY, SECRET, assert_model_safe, assert_no_secret, lookup_tool,
};

/// How each hostile tool misbehaves.
#[derive(Clone, Copy)]
enum Misbehaviour {
    /// Panics in `execute` itself, before any future exists.
    PanicBeforeFuture,
    /// Its future panics when dropped, and never finishes.
    PanicOnDrop,
    /// Never finishes; counts when its future is dropped.
    Hang,
}

/// A value whose `Drop` panics.
struct Bomb;

impl Drop for Bomb {
    fn drop(&mut self) {
        panic!("dropped with {SECRET} in hand");
    }
}

/// Counts its drops.
struct DropCount(Arc<AtomicUsize>);

impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

struct Hostile {
    spec: ToolSpec,
    how: Misbehaviour,
    dropped: Arc<AtomicUsize>,
}

impl Hostile {
    fn new(name: &'static str, how: Misbehaviour) -> (Self, Arc<AtomicUsize>) {
        let dropped = Arc::new(AtomicUsize::new(0));
        let spec = ToolSpec::builder(name).credential(KEY).build().unwrap();
        let tool = Hostile {
            spec,
            how,
            dropped: Arc::clone(&dropped),
        };
        (tool, dropped)
    }
}

impl Tool for Hostile {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(
        &self,
        _: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<ToolOutput, BoxError>> + Send {
        let how = self.how;
        if let Misbehaviour::PanicBeforeFuture = how {
            let key = ctx.credentials().get(KEY).map_or("", Secret::expose);
            panic!("refusing before any future, key {key}");
        }
        let counter = DropCount(Arc::clone(&self.dropped));
        async move {
            let _counter = counter;
            // Built only where wanted: a `Bomb` dropped here would panic while polled.
            let _bomb = if let Misbehaviour::PanicOnDrop = how {
                Some(Bomb)
            } else {
                None
            };
            std::future::pending::<()>().await;
            Ok(JsonObject::new().into())
        }
    }
}

fn harness_of(tools: Vec<Hostile>) -> Harness {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).unwrap();
    }
    Harness::new(registry)
}

/// What a tool made by [`panicking`] fails with.
type Failure = fn(&Credentials) -> BoxError;

fn panicking(name: &'static str, logic: Failure) -> (Harness, Probe) {
    let spec = ToolSpec::builder(name).credential(KEY).build().unwrap();
    let (tool, probe) = FnTool::new(spec, move |_, creds| Err(logic(creds)));
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    (Harness::new(registry), probe)
}

/// The panic's message, as operators see it.
fn panic_message(error: &Error) -> String {
    let Error::Execution(e) = error else {
        panic!("{error:?}")
    };
    assert!(e.is_panic());
    e.message().to_owned()
}

#[test]
fn a_tool_that_panics_before_returning_its_future_fails_as_a_panic() {
    let (tool, _) = Hostile::new("eager", Misbehaviour::PanicBeforeFuture);
    let harness = harness_of(vec![tool]);
    let outcome = harness.call(&ToolCall::new("c", "eager", "{}"));
    let error = outcome.error(ErrorKind::Panic);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'eager' failed unexpectedly."
    );
    assert_eq!(
        panic_message(error),
        "the tool panicked: refusing before any future, key [redacted]"
    );
}

#[test]
fn a_tool_that_panics_while_polled_fails_as_a_panic_whatever_the_payload() {
    let (harness, _) = panicking("str", |creds| {
        panic!("static message, key {}", creds.get(KEY).unwrap().expose())
    });
    let outcome = harness.call(&ToolCall::new("c", "str", "{}"));
    let error = outcome.error(ErrorKind::Panic);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'str' failed unexpectedly."
    );
    assert!(panic_message(error).ends_with("static message, key [redacted]"));

    let (harness, _) = panicking("number", |_| std::panic::panic_any(42_u64));
    let outcome = harness.call(&ToolCall::new("c", "number", "{}"));
    let error = outcome.error(ErrorKind::Panic);
    assert!(panic_message(error).contains("non-string payload"));

    // A payload that panics again when the executor drops it.
    let (harness, _) = panicking("bomb", |_| std::panic::panic_any(Bomb));
    let outcome = harness.call(&ToolCall::new("c", "bomb", "{}"));
    let _ = outcome.error(ErrorKind::Panic);

    // A megabyte panic message: bounded for operators, unseen by the model.
    let (harness, _) = panicking("long", |_| panic!("{}", "p".repeat(1 << 20)));
    let outcome = harness.call(&ToolCall::new("c", "long", "{}"));
    let error = outcome.error(ErrorKind::Panic);
    assert!(panic_message(error).len() < 10 * 1024);
    assert!(error.to_string().len() < 10 * 1024);
}

/// A deadline that has not passed when first polled, and has when polled again: the tool is
/// started, then dropped on its deadline.
#[derive(Default)]
struct PassesAfterOnePoll {
    polled: bool,
}

impl Future for PassesAfterOnePoll {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if std::mem::replace(&mut self.polled, true) {
            return Poll::Ready(());
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn a_tool_future_that_panics_when_dropped_on_its_deadline_times_out() {
    let (tool, dropped) = Hostile::new("bomb", Misbehaviour::PanicOnDrop);
    let harness = harness_of(vec![tool]);
    let call = ToolCall::new("c", "bomb", "{}");
    let outcome = harness
        .run(|executor| block_on(executor.dispatch_until(&call, PassesAfterOnePoll::default())));
    let _ = outcome.error(ErrorKind::Timeout);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'bomb' did not finish in time and was cancelled."
    );
    assert_eq!(dropped.load(Ordering::SeqCst), 1, "the future was dropped");
}

#[test]
fn a_deadline_already_passed_ends_the_call_before_the_tool_starts() {
    let (tool, dropped) = Hostile::new("bomb", Misbehaviour::PanicOnDrop);
    let harness = harness_of(vec![tool]);
    let call = ToolCall::new("c", "bomb", "{}");
    let outcome =
        harness.run(|executor| block_on(executor.dispatch_until(&call, std::future::ready(()))));
    let _ = outcome.error(ErrorKind::Timeout);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'bomb' did not finish in time and was cancelled."
    );
    // `execute` was never called: the tool made no future, so none was dropped.
    assert_eq!(dropped.load(Ordering::SeqCst), 0);
}

/// A deadline that panics when polled for the `nth` time (from 1), and is pending before.
struct PanickingDeadline {
    nth: usize,
    polls: usize,
}

impl PanickingDeadline {
    fn on_poll(nth: usize) -> Self {
        PanickingDeadline { nth, polls: 0 }
    }
}

impl Future for PanickingDeadline {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.polls += 1;
        if self.polls >= self.nth {
            panic!("the deadline's clock broke");
        }
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[test]
fn a_deadline_that_panics_ends_the_run_as_a_timeout() {
    // Panicking on its first poll, it counts as passed before the tool starts.
    let (tool, dropped) = Hostile::new("hang", Misbehaviour::Hang);
    let harness = harness_of(vec![tool]);
    let call = ToolCall::new("c", "hang", "{}");
    let outcome = harness
        .run(|executor| block_on(executor.dispatch_until(&call, PanickingDeadline::on_poll(1))));
    let _ = outcome.error(ErrorKind::Timeout);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'hang' did not finish in time and was cancelled."
    );
    assert_eq!(dropped.load(Ordering::SeqCst), 0, "the tool never started");

    // Panicking on its second poll, it ends the run of a tool that started.
    let (tool, dropped) = Hostile::new("hang", Misbehaviour::Hang);
    let harness = harness_of(vec![tool]);
    let outcome = harness
        .run(|executor| block_on(executor.dispatch_until(&call, PanickingDeadline::on_poll(2))));
    let _ = outcome.error(ErrorKind::Timeout);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'hang' did not finish in time and was cancelled."
    );
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        1,
        "the tool's future was dropped"
    );
}

/// A deadline that never comes, and panics when dropped.
struct BombDeadline(Bomb);

impl Future for BombDeadline {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        Poll::Pending
    }
}

#[test]
fn a_deadline_that_panics_when_dropped_after_the_tool_finished_is_contained() {
    let (harness, _) = crate::hostile_support::lookup_harness();
    let call = ToolCall::new("c", "lookup", r#"{"city": "Oslo"}"#);
    let outcome =
        harness.run(|executor| block_on(executor.dispatch_until(&call, BombDeadline(Bomb))));
    assert_eq!(outcome.output()["city"], "Oslo");
}

#[test]
fn a_tool_future_that_panics_when_its_call_is_dropped_does_not_unwind() {
    let (bomb, bomb_dropped) = Hostile::new("bomb", Misbehaviour::PanicOnDrop);
    let (hang, hang_dropped) = Hostile::new("hang", Misbehaviour::Hang);
    let harness = harness_of(vec![bomb, hang]);
    for (name, dropped) in [("bomb", bomb_dropped), ("hang", hang_dropped)] {
        let dropped_call = harness.drop_after(&ToolCall::new("c", name, "{}"), 3);
        dropped_call.assert_cancelled();
        assert_eq!(dropped.load(Ordering::SeqCst), 1, "{name}");
    }
}

/// An error whose `Display` panics.
#[derive(Debug)]
struct BadDisplay;

impl fmt::Display for BadDisplay {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("Display is broken");
    }
}

impl std::error::Error for BadDisplay {}

/// An error whose `Display` panics with a payload that panics again when dropped.
#[derive(Debug)]
struct BombDisplay;

impl fmt::Display for BombDisplay {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        std::panic::panic_any(Bomb);
    }
}

impl std::error::Error for BombDisplay {}

/// An error whose `Debug` panics.
struct BadDebug;

impl fmt::Debug for BadDebug {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        panic!("Debug is broken");
    }
}

impl fmt::Display for BadDebug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a plain message")
    }
}

impl std::error::Error for BadDebug {}

/// What operators read of an error whose `Display` panicked.
const UNRENDERABLE: &str = "(the error's message could not be rendered: it panicked)";

/// The execution error of `error`.
fn execution(error: &Error) -> &agentkit_core::ToolExecutionError {
    let Error::Execution(e) = error else {
        panic!("{error:?}")
    };
    e
}

#[test]
fn a_tool_error_whose_formatting_panics_is_contained() {
    // Every rendering of the result (the harness formats the cause's Display and Debug) must
    // be safe to print: the executor keeps no cause that panics when formatted.
    let (harness, _) = panicking("bomb", |_| Box::new(BombDisplay));
    let outcome = harness.call(&ToolCall::new("c", "bomb", "{}"));
    let error = outcome.error(ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'bomb' failed.");
    assert_eq!(execution(error).message(), UNRENDERABLE);

    let (harness, _) = panicking("display", |_| Box::new(BadDisplay));
    let outcome = harness.call(&ToolCall::new("c", "display", "{}"));
    let error = outcome.error(ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'display' failed.");
    assert_eq!(execution(error).message(), UNRENDERABLE);
    assert_eq!(execution(error).cause().to_string(), UNRENDERABLE);

    let (harness, _) = panicking("debug", |_| Box::new(BadDebug));
    let outcome = harness.call(&ToolCall::new("c", "debug", "{}"));
    let error = outcome.error(ErrorKind::Execution);
    assert_eq!(outcome.model_text(), "Error: tool 'debug' failed.");
    assert_eq!(execution(error).message(), "a plain message");
    assert!(!execution(error).cause().is::<BadDebug>(), "replaced");

    // The same causes inside a `ToolError`: contained too, and the model reads the tool's
    // message.
    let cases: [(&'static str, Failure, &str); 3] = [
        (
            "bomb",
            |_| {
                ToolError::failed(BombDisplay)
                    .with_model_message("The renderer broke.")
                    .into()
            },
            UNRENDERABLE,
        ),
        (
            "display",
            |_| {
                ToolError::failed(BadDisplay)
                    .with_model_message("The renderer broke.")
                    .into()
            },
            UNRENDERABLE,
        ),
        (
            "debug",
            |_| {
                ToolError::failed(BadDebug)
                    .with_model_message("The renderer broke.")
                    .into()
            },
            "a plain message",
        ),
    ];
    for (name, logic, message) in cases {
        let (harness, _) = panicking(name, logic);
        let outcome = harness.call(&ToolCall::new("c", name, "{}"));
        let error = outcome.error(ErrorKind::Execution);
        assert_eq!(
            outcome.model_text(),
            format!("Error: tool '{name}' failed: The renderer broke.")
        );
        assert_eq!(execution(error).message(), message, "{name}");
    }
}

/// A credential provider that panics, with the secret in its message.
struct PanickingProvider;

impl CredentialProvider for PanickingProvider {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        panic!("vault unreachable while holding {SECRET}");
    }
}

/// A credential provider that panics with a payload that panics again when dropped.
struct BombProvider;

impl CredentialProvider for BombProvider {
    fn resolve(&self, _: &str) -> Result<Option<Secret>, BoxError> {
        std::panic::panic_any(Bomb);
    }
}

#[test]
fn a_panicking_credential_provider_is_a_credential_failure() {
    let (tool, _) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::configured(registry, TextLimits::DEFAULT, |builder| {
        builder.credentials(BombProvider)
    });
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"{"city": "Oslo"}"#));
    let _ = outcome.error(ErrorKind::Credential);

    let (tool, probe) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let harness = Harness::configured(registry, TextLimits::DEFAULT, |builder| {
        builder.credentials(PanickingProvider)
    });
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"{"city": "Oslo"}"#));
    let error = outcome.error(ErrorKind::Credential);
    assert_eq!(
        outcome.model_text(),
        "Error: tool 'lookup' failed unexpectedly."
    );
    assert!(
        error.to_string().contains("credential 'api-key'"),
        "{error}"
    );
    assert_eq!(
        probe.runs(),
        0,
        "the tool is not run without its credential"
    );
}

#[test]
fn a_panicking_observer_stops_neither_the_call_nor_the_other_observers() {
    let entered = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&entered);
    let (tool, probe) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    // It sees each event before the harness's own observers.
    let harness = Harness::configured(registry, TextLimits::DEFAULT, move |builder| {
        builder.observer(move |event: &ToolEvent<'_>| {
            counter.fetch_add(1, Ordering::SeqCst);
            panic!("observer broke on {}", event.name());
        })
    });
    let outcome = harness.call(&ToolCall::new("c", "lookup", r#"{"city": "Oslo"}"#));
    assert_eq!(outcome.output()["city"], "Oslo"); // the other observers saw both events
    assert_eq!(entered.load(Ordering::SeqCst), 2);
    assert_eq!(probe.runs(), 1);
    // Each panic is reported once through `tracing`.
    let reports: Vec<&String> = outcome
        .spans
        .iter()
        .filter(|line| line.contains("a tool observer panicked"))
        .collect();
    assert_eq!(reports.len(), 2, "{:#?}", outcome.spans);
    assert!(reports.iter().all(|line| line.starts_with("event ERROR:")));

    // A failing call, and a dropped one, end the same way.
    let outcome = harness.call(&ToolCall::new("c", "lookup", "{}"));
    let _ = outcome.error(ErrorKind::InputValidation);
    let (hang, _) = Hostile::new("hang", Misbehaviour::Hang);
    let mut registry = ToolRegistry::new();
    registry.register(hang).unwrap();
    let harness = Harness::configured(registry, TextLimits::DEFAULT, |builder| {
        builder.observer(|_: &ToolEvent<'_>| std::panic::panic_any(Bomb))
    });
    harness
        .drop_after(&ToolCall::new("c", "hang", "{}"), 2)
        .assert_cancelled();
}

#[test]
fn one_panicking_call_of_a_turn_leaves_the_others_whole() {
    let (eager, _) = Hostile::new("eager", Misbehaviour::PanicBeforeFuture);
    let (lookup, probe) = lookup_tool();
    let (str_panic, _) = FnTool::new(
        ToolSpec::builder("str").build().unwrap(),
        |_, _| -> Result<JsonObject, BoxError> { panic!("boom") },
    );
    let mut registry = ToolRegistry::new();
    registry.register(eager).unwrap();
    registry.register(lookup).unwrap();
    registry.register(str_panic).unwrap();
    let harness = Harness::new(registry);
    let calls = [
        ToolCall::new("1", "eager", "{}"),
        ToolCall::new("2", "lookup", r#"{"city": "Oslo"}"#),
        ToolCall::new("3", "str", "{}"),
        ToolCall::new("4", "lookup", r#"{"city": "Lima"}"#),
    ];
    let results = harness
        .run(|executor| {
            let mut results = block_on(executor.dispatch_all(&calls));
            let last = results.pop().unwrap();
            for result in &results {
                assert_model_safe(result, &TextLimits::DEFAULT);
                for text in [result.to_model_content(), format!("{result:?}")] {
                    assert_no_secret("a result of the turn", &text);
                }
            }
            let kinds: Vec<Option<ErrorKind>> =
                results.iter().map(|r| r.error().map(Error::kind)).collect();
            assert_eq!(
                kinds,
                [Some(ErrorKind::Panic), None, Some(ErrorKind::Panic)]
            );
            assert_eq!(results[1].output().unwrap()["city"], "Oslo");
            last
        })
        .result;
    assert_eq!(results.output().unwrap()["city"], "Lima");
    assert_eq!(probe.runs(), 2);
}
