//! Shared by the `hostile_*` tests: a harness that runs one hostile call and keeps every
//! rendering of it (the result, the model text, the events an observer saw, the `tracing`
//! spans, the recordings), and the checks every hostile call must pass:
//!
//! - no panic escapes the call;
//! - it ends with the expected [`ErrorKind`] (or succeeds), once: one `started` event, one
//!   terminal event, one recording;
//! - the model text is within its [`TextLimits`], holds no raw control, bidirectional or
//!   invisible format character, and has no line the executor did not write;
//! - no planted secret ([`SECRET`], [`SECRET_2`]) appears in any rendering.
//!
//! Every harness executor resolves both planted secrets, so that every hostile call of the
//! suite is also a leak test.
#![allow(dead_code)]

use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use agentkit_core::{
    Direction, Error, ErrorKind, ExecutionRecorder, InMemoryCredentials, NoCredentials, Param,
    ParamType, RecordedOutcome, Recording, Replay, TextLimits, ToolCall, ToolEvent, ToolExecutor,
    ToolExecutorBuilder, ToolObserver, ToolRegistry, ToolResult, ToolSchema, ToolSpec, block_on,
};
use serde_json::Value;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::core_fixtures::{FnTool, Probe};

/// The credential every harness executor resolves to [`SECRET`].
pub(crate) const KEY: &str = "api-key";
/// A planted secret: no rendering of any call may show it.
pub(crate) const SECRET: &str = "sk-live-PLANTED-7f3a9c1e42";
/// A second credential, resolved to [`SECRET_2`].
pub(crate) const KEY_2: &str = "db-token";
/// The second planted secret.
pub(crate) const SECRET_2: &str = "tok-PLANTED-second-88d1b0";

/// The credentials of every harness executor.
pub(crate) fn planted_credentials() -> InMemoryCredentials {
    InMemoryCredentials::new()
        .with(KEY, SECRET)
        .with(KEY_2, SECRET_2)
}

/// Characters no reader should get raw: control characters (C0, C1, newlines), line and
/// paragraph separators, bidirectional embeddings, overrides and isolates, zero-width and
/// other invisible format characters, the byte-order mark and tag characters. The list is the
/// test's own, not the crate's.
pub(crate) fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
        )
}

/// The first 300 characters of `text`, for failure messages about texts of megabytes.
pub(crate) fn excerpt(text: &str) -> String {
    let mut cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        cut.push_str(&format!("… ({} bytes in all)", text.len()));
    }
    cut
}

/// The model text of `result`, after checking that it is safe to hand to a model: at most
/// `limits.max_content_bytes()` bytes, no raw unsafe character, and no line but the ones the
/// executor writes (one, or for invalid arguments a header, one `- ` line per listed issue and
/// an `- ... and N more` line).
pub(crate) fn assert_model_safe(result: &ToolResult, limits: &TextLimits) -> String {
    assert_eq!(
        result.text_limits(),
        limits,
        "the result renders within its executor's limits"
    );
    let content = result.to_model_content();
    assert!(
        content.len() <= limits.max_content_bytes(),
        "the model text has {} bytes, over its bound of {}: {}",
        content.len(),
        limits.max_content_bytes(),
        excerpt(&content)
    );
    // Newlines are the executor's own line breaks, checked line by line below.
    let raw = |c: char| c != '\n' && is_unsafe_char(c);
    if let Some((at, c)) = content.char_indices().find(|(_, c)| raw(*c)) {
        panic!(
            "raw U+{:04X} at byte {at} of the model text: {}",
            u32::from(c),
            excerpt(&content)
        );
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let truncated = content.contains("[truncated: ");
    match result.error() {
        Some(Error::Validation(e)) if e.direction() == Direction::Input => {
            assert!(
                lines[0].starts_with("Error: invalid arguments for tool '"),
                "{}",
                excerpt(&content)
            );
            let listed = e.errors().len().min(limits.max_issues());
            let more = e.errors().len() - listed + e.omitted();
            let expected = 1 + listed + usize::from(more > 0);
            if truncated {
                assert!(lines.len() <= expected, "{}", excerpt(&content));
            } else {
                assert_eq!(
                    lines.len(),
                    expected,
                    "one line per listed issue, no more: {}",
                    excerpt(&content)
                );
                if more > 0 {
                    assert_eq!(lines[lines.len() - 1], format!("- ... and {more} more"));
                }
            }
            for line in &lines[1..] {
                assert!(line.starts_with("- "), "{}", excerpt(&content));
            }
        }
        Some(_) => {
            assert_eq!(lines.len(), 1, "one line: {}", excerpt(&content));
            assert!(content.starts_with("Error: "), "{}", excerpt(&content));
        }
        None => assert_eq!(lines.len(), 1, "compact JSON: {}", excerpt(&content)),
    }
    content
}

/// Fails if `text` shows a planted secret.
pub(crate) fn assert_no_secret(what: &str, text: &str) {
    for secret in [SECRET, SECRET_2] {
        if let Some(at) = text.find(secret) {
            let mut start = at.saturating_sub(120);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            panic!(
                "{what} shows a planted secret: …{}",
                excerpt(&text[start..])
            );
        }
    }
}

/// Every rendering of a result a caller could print, log or send: `(what, text)`.
pub(crate) fn renderings(result: &ToolResult) -> Vec<(String, String)> {
    let mut out = vec![
        ("model text".to_owned(), result.to_model_content()),
        ("result Debug".to_owned(), format!("{result:?}")),
        ("result pretty Debug".to_owned(), format!("{result:#?}")),
        ("call id".to_owned(), result.call_id().to_owned()),
    ];
    if let Some(output) = result.output() {
        out.push((
            "output JSON".to_owned(),
            serde_json::to_string(output).expect("an output serialises"),
        ));
    }
    if let Some(error) = result.error() {
        out.push(("error Display".to_owned(), error.to_string()));
        out.push(("error Debug".to_owned(), format!("{error:?}")));
        out.push(("error model message".to_owned(), error.to_model_message()));
        match error {
            Error::Validation(e) => out.push((
                "issues JSON".to_owned(),
                serde_json::to_string(e.errors()).expect("issues serialise"),
            )),
            Error::Execution(e) => {
                out.push(("execution message".to_owned(), e.message().to_owned()));
                out.push(("cause Display".to_owned(), e.cause().to_string()));
                out.push(("cause Debug".to_owned(), format!("{:?}", e.cause())));
            }
            _ => {}
        }
        let mut source = std::error::Error::source(error);
        let mut depth = 0;
        while let Some(cause) = source {
            out.push((format!("source {depth} Display"), cause.to_string()));
            out.push((format!("source {depth} Debug"), format!("{cause:?}")));
            source = cause.source();
            depth += 1;
        }
    }
    out
}

/// One event an observer saw, with its `Debug` rendering.
#[derive(Clone)]
pub(crate) struct SeenEvent {
    /// `tool.execution.started`, `...completed` or `...failed`.
    pub(crate) name: &'static str,
    /// The call id.
    pub(crate) call_id: String,
    /// The error kind of a `failed` event.
    pub(crate) kind: Option<ErrorKind>,
    /// `{:?}` of the event.
    pub(crate) debug: String,
}

impl SeenEvent {
    /// Whether this is a `started` event.
    pub(crate) fn is_started(&self) -> bool {
        self.name == "tool.execution.started"
    }
}

impl fmt::Debug for SeenEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {:?}", self.name, self.call_id, self.kind)
    }
}

/// An observer keeping every event it sees; clones share the log.
#[derive(Clone, Default)]
pub(crate) struct Events(Arc<Mutex<Vec<SeenEvent>>>);

impl Events {
    /// Takes the events seen so far.
    pub(crate) fn take(&self) -> Vec<SeenEvent> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl ToolObserver for Events {
    fn on_event(&self, event: &ToolEvent<'_>) {
        let seen = SeenEvent {
            name: event.name(),
            call_id: event.call_id().to_owned(),
            kind: event.error_kind(),
            debug: format!("{event:?}"),
        };
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(seen);
    }
}

/// Every span, field record and event `tracing` saw, as `kind name: field=value` lines.
#[derive(Clone, Default)]
pub(crate) struct Spans(Arc<Mutex<Vec<String>>>);

struct SpanCapture {
    log: Spans,
    next: AtomicU64,
}

struct Fields<'a>(&'a mut String);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push_str(&format!(" {}={value}", field.name()));
    }
}

impl Spans {
    fn push(&self, line: String) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(line);
    }

    /// Runs `f` with a subscriber that keeps what `tracing` says in this log.
    pub(crate) fn capture<T>(&self, f: impl FnOnce() -> T) -> T {
        let subscriber = SpanCapture {
            log: self.clone(),
            next: AtomicU64::new(0),
        };
        tracing::subscriber::with_default(subscriber, f)
    }

    /// Takes the lines kept so far.
    pub(crate) fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Subscriber for SpanCapture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut line = format!("span {}:", span.metadata().name());
        span.record(&mut Fields(&mut line));
        self.log.push(line);
        Id::from_u64(self.next.fetch_add(1, Ordering::Relaxed) + 1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        let mut line = "record:".to_owned();
        values.record(&mut Fields(&mut line));
        self.log.push(line);
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut line = format!("event {}:", event.metadata().level());
        event.record(&mut Fields(&mut line));
        self.log.push(line);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// An executor with planted credentials, an event log and a recorder, running one hostile
/// call at a time.
pub(crate) struct Harness {
    executor: ToolExecutor,
    registry: ToolRegistry,
    recorder: ExecutionRecorder,
    events: Events,
    limits: TextLimits,
}

impl Harness {
    /// A harness over `registry` with the default limits.
    pub(crate) fn new(registry: ToolRegistry) -> Self {
        Harness::configured(registry, TextLimits::DEFAULT, |builder| builder)
    }

    /// A harness over `registry` with `limits`; `configure` may replace the credential
    /// provider, and add observers, which see each event before the harness's own.
    pub(crate) fn configured(
        registry: ToolRegistry,
        limits: TextLimits,
        configure: impl FnOnce(ToolExecutorBuilder) -> ToolExecutorBuilder,
    ) -> Self {
        let recorder = ExecutionRecorder::new();
        let events = Events::default();
        let builder = ToolExecutor::builder(registry.clone()).credentials(planted_credentials());
        let executor = configure(builder)
            .text_limits(limits)
            .observer(events.clone())
            .observer(recorder.clone())
            .build();
        Harness {
            executor,
            registry,
            recorder,
            events,
            limits,
        }
    }

    /// The executor.
    pub(crate) fn executor(&self) -> &ToolExecutor {
        &self.executor
    }

    /// The limits the executor renders within.
    pub(crate) fn limits(&self) -> &TextLimits {
        &self.limits
    }

    /// Dispatches `call` and keeps every rendering of it.
    pub(crate) fn call(&self, call: &ToolCall) -> Outcome {
        self.run(|executor| block_on(executor.dispatch(call)))
    }

    /// Runs `dispatch` (any way of making one call) and keeps every rendering of it.
    pub(crate) fn run(&self, dispatch: impl FnOnce(&ToolExecutor) -> ToolResult) -> Outcome {
        let _ = self.events.take();
        let _ = self.recorder.take();
        let spans = Spans::default();
        let result = spans.capture(|| catch_unwind(AssertUnwindSafe(|| dispatch(&self.executor))));
        let Ok(result) = result else {
            panic!("a panic escaped the executor");
        };
        Outcome {
            result,
            events: self.events.take(),
            spans: spans.take(),
            recordings: self.recorder.take(),
            limits: self.limits,
        }
    }

    /// The events the harness's observer has seen and not yet handed out.
    pub(crate) fn events(&self) -> &Events {
        &self.events
    }

    /// The harness's recorder.
    pub(crate) fn recorder(&self) -> &ExecutionRecorder {
        &self.recorder
    }

    /// Polls the dispatch of `call` at most `polls` times, then drops it if it has not
    /// finished, as a caller that gives up on a call does; keeps what it produced.
    pub(crate) fn drop_after(&self, call: &ToolCall, polls: usize) -> Dropped {
        let _ = self.events.take();
        let _ = self.recorder.take();
        let spans = Spans::default();
        let finished = spans.capture(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let mut dispatch = Box::pin(self.executor.dispatch(call));
                for _ in 0..polls {
                    if let Poll::Ready(result) = poll_once(dispatch.as_mut()) {
                        return Some(result);
                    }
                }
                drop(dispatch);
                None
            }))
        });
        let Ok(finished) = finished else {
            panic!("a panic escaped a dropped dispatch");
        };
        Dropped {
            finished,
            events: self.events.take(),
            spans: spans.take(),
            recordings: self.recorder.take(),
        }
    }

    /// Replays `outcome` (recorded by this harness) through a JSON fixture, without
    /// credentials, by dispatching `call` again; checks the replay ends as the live call did
    /// and tells the model the same, and returns it.
    pub(crate) fn replay(&self, outcome: &Outcome, call: &ToolCall) -> Outcome {
        let fixture = serde_json::to_string(&outcome.recordings).expect("recordings serialise");
        assert_no_secret("the JSON fixture", &fixture);
        let recordings: Vec<Recording> =
            serde_json::from_str(&fixture).expect("a fixture reads back");
        let registry = Replay::new(recordings).registry_for(&self.registry);
        let replayer = Harness::configured(registry, self.limits, |b| b.credentials(NoCredentials));
        let replayed = replayer.call(call);
        match outcome.result.error() {
            Some(live) => {
                let again = replayed.error(live.kind());
                assert_eq!(
                    again.to_string(),
                    live.to_string(),
                    "operators read the same"
                );
                if let (Error::Execution(live), Error::Execution(again)) = (live, again) {
                    assert_eq!(again.message(), live.message());
                    assert_eq!(again.cause().to_string(), live.cause().to_string());
                }
                if let (Error::Validation(live), Error::Validation(again)) = (live, again) {
                    assert_eq!(live.direction(), again.direction());
                    assert_eq!(live.errors(), again.errors());
                    assert_eq!(live.omitted(), again.omitted());
                }
            }
            None => assert_eq!(Some(replayed.output()), outcome.result.output()),
        }
        assert_eq!(
            replayed.result.to_model_content(),
            outcome.result.to_model_content(),
            "the replay tells the model what the live call did"
        );
        replayed
    }
}

/// Polls `future` once, with a waker that does nothing.
pub(crate) fn poll_once<F: Future + ?Sized>(future: Pin<&mut F>) -> Poll<F::Output> {
    future.poll(&mut Context::from_waker(Waker::noop()))
}

/// A dispatch given up on, and what it produced.
pub(crate) struct Dropped {
    /// The result, when the call finished before it was dropped.
    pub(crate) finished: Option<ToolResult>,
    /// The events an observer saw.
    pub(crate) events: Vec<SeenEvent>,
    /// What `tracing` saw.
    pub(crate) spans: Vec<String>,
    /// The recorder's log.
    pub(crate) recordings: Vec<Recording>,
}

impl Dropped {
    /// Checks that the dropped call was ended as cancelled, once, and leaked nothing.
    #[track_caller]
    pub(crate) fn assert_cancelled(&self) {
        assert!(self.finished.is_none(), "the call finished before the drop");
        let seen: Vec<(&str, Option<ErrorKind>)> =
            self.events.iter().map(|e| (e.name, e.kind)).collect();
        assert_eq!(
            seen,
            [
                ("tool.execution.started", None),
                ("tool.execution.failed", Some(ErrorKind::Cancelled)),
            ]
        );
        assert_eq!(self.recordings.len(), 1);
        assert!(matches!(
            &self.recordings[0].outcome,
            RecordedOutcome::Error(e) if e.kind == ErrorKind::Cancelled
        ));
        for event in &self.events {
            assert_no_secret("an event's Debug", &event.debug);
        }
        for line in &self.spans {
            assert_no_secret("a span", line);
        }
        assert_no_secret("the recordings' Debug", &format!("{:?}", self.recordings));
    }
}

/// One hostile call and everything it produced.
pub(crate) struct Outcome {
    /// The result.
    pub(crate) result: ToolResult,
    /// The events an observer saw.
    pub(crate) events: Vec<SeenEvent>,
    /// What `tracing` saw.
    pub(crate) spans: Vec<String>,
    /// The recorder's log.
    pub(crate) recordings: Vec<Recording>,
    limits: TextLimits,
}

impl Outcome {
    /// The error, after checking it is of `kind` and that the call passes every check.
    #[track_caller]
    pub(crate) fn error(&self, kind: ErrorKind) -> &Error {
        let Some(error) = self.result.error() else {
            panic!("expected a {kind} failure, got {:?}", self.result);
        };
        assert_eq!(
            error.kind(),
            kind,
            "{}",
            excerpt(&self.result.to_model_content())
        );
        self.check();
        error
    }

    /// The issues of an input validation failure, after every check: `(listed, omitted)`.
    #[track_caller]
    pub(crate) fn input_issues(&self) -> (&[agentkit_core::ValidationIssue], usize) {
        match self.error(ErrorKind::InputValidation) {
            Error::Validation(e) => {
                assert_eq!(e.direction(), Direction::Input);
                (e.errors(), e.omitted())
            }
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    /// The output, after checking the call succeeded and passes every check.
    #[track_caller]
    pub(crate) fn output(&self) -> &Value {
        let Some(output) = self.result.output() else {
            panic!(
                "expected a success, got {}",
                excerpt(&self.result.to_model_content())
            );
        };
        self.check();
        output
    }

    /// The model text (already checked by [`error`](Self::error) or
    /// [`output`](Self::output)).
    pub(crate) fn model_text(&self) -> String {
        self.result.to_model_content()
    }

    /// Every check a hostile call must pass.
    #[track_caller]
    pub(crate) fn check(&self) {
        assert_model_safe(&self.result, &self.limits);
        let kind = self.result.error().map(Error::kind);

        // The call started and ended once, and was recorded once.
        let names: Vec<&str> = self.events.iter().map(|e| e.name).collect();
        let terminal = if kind.is_some() {
            "tool.execution.failed"
        } else {
            "tool.execution.completed"
        };
        assert_eq!(names, ["tool.execution.started", terminal]);
        assert_eq!(self.events[1].kind, kind);
        assert_eq!(self.events[0].call_id, self.events[1].call_id);
        assert_eq!(self.recordings.len(), 1, "one recording per call");
        let recorded_kind = match &self.recordings[0].outcome {
            RecordedOutcome::Error(e) => Some(e.kind),
            _ => None,
        };
        assert_eq!(recorded_kind, kind);

        // What `tracing` saw cannot forge log lines either.
        for line in &self.spans {
            if let Some(c) = line.chars().find(|c| is_unsafe_char(*c)) {
                panic!("raw U+{:04X} in a span: {}", u32::from(c), excerpt(line));
            }
        }

        // No secret anywhere.
        for (what, text) in renderings(&self.result) {
            assert_no_secret(&what, &text);
        }
        for event in &self.events {
            assert_no_secret("an event's Debug", &event.debug);
        }
        for line in &self.spans {
            assert_no_secret("a span", line);
        }
        assert_no_secret("the recordings' Debug", &format!("{:?}", self.recordings));
        assert_no_secret(
            "the recordings' JSON",
            &serde_json::to_string(&self.recordings).expect("recordings serialise"),
        );
    }
}

/// The spec of `lookup`: one parameter of each shape, and credential [`KEY`].
pub(crate) fn lookup_spec() -> ToolSpec {
    let stop = ToolSchema::new([Param::required("city", ParamType::String)]).expect("stop fields");
    ToolSpec::builder("lookup")
        .description("Echoes its arguments.")
        .input(
            ToolSchema::new([
                Param::required("city", ParamType::String),
                Param::optional("n", ParamType::Integer),
                Param::optional("x", ParamType::Float),
                Param::optional("tags", ParamType::List).with_items(ParamType::String),
                Param::optional("opts", ParamType::Dictionary),
                Param::optional("stops", ParamType::List)
                    .with_items(ParamType::Dictionary)
                    .with_fields(stop),
            ])
            .expect("lookup input"),
        )
        .credential(KEY)
        .build()
        .expect("lookup spec")
}

/// `lookup`: echoes its validated inputs, once it has checked that it was handed the secret.
pub(crate) fn lookup_tool() -> (FnTool, Probe) {
    FnTool::new(lookup_spec(), |inputs, creds| {
        if creds.require(KEY)?.expose() != SECRET {
            return Err("the credential was not handed over".into());
        }
        Ok(inputs.clone())
    })
}

/// A harness over `lookup` alone, and its probe.
pub(crate) fn lookup_harness() -> (Harness, Probe) {
    let (tool, probe) = lookup_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).expect("lookup registers");
    (Harness::new(registry), probe)
}
