//! With the `tracing` feature, each call opens an `execute_tool` span named after the
//! OpenTelemetry GenAI conventions, records the kind of a failure, and never records argument
//! values or secrets.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use agentkit_core::{
    BoxError, InMemoryCredentials, JsonObject, Param, ParamType, Tool, ToolCall, ToolContext,
    ToolExecutor, ToolOutput, ToolRegistry, ToolSchema, ToolSpec, block_on,
};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Everything a span or event said, as `name: field=value` lines.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

struct Capture {
    log: Log,
    next: AtomicU64,
}

struct Fields<'a>(&'a mut String);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!(" {}={value:?}", field.name()));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push_str(&format!(" {}={value}", field.name()));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut line = format!("span {}:", span.metadata().name());
        span.record(&mut Fields(&mut line));
        self.log.0.lock().unwrap().push(line);
        Id::from_u64(self.next.fetch_add(1, Ordering::Relaxed) + 1)
    }

    fn record(&self, _: &Id, values: &Record<'_>) {
        let mut line = "record:".to_owned();
        values.record(&mut Fields(&mut line));
        self.log.0.lock().unwrap().push(line);
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut line = "event:".to_owned();
        event.record(&mut Fields(&mut line));
        self.log.0.lock().unwrap().push(line);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

const SECRET: &str = "sk-tracing-secret-4242";

struct Lookup(ToolSpec);

impl Tool for Lookup {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        ctx.credential("api-key")?;
        if inputs["query"] == "fail" {
            return Err("upstream unavailable".into());
        }
        Ok(JsonObject::new().into())
    }
}

fn lookup_spec(name: &'static str) -> agentkit_core::ToolSpecBuilder {
    ToolSpec::builder(name)
        .input(ToolSchema::new([Param::required("query", ParamType::String)]).unwrap())
        .credential("api-key")
}

fn executor() -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry
        .register(Lookup(lookup_spec("lookup").build().unwrap()))
        .unwrap();
    // Without an approval policy, a call to it is deferred.
    registry
        .register(Lookup(
            lookup_spec("guarded").requires_approval().build().unwrap(),
        ))
        .unwrap();
    ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("api-key", SECRET))
        .build()
}

fn capture(calls: &[ToolCall]) -> Vec<String> {
    let log = Log::default();
    let subscriber = Capture {
        log: log.clone(),
        next: AtomicU64::new(0),
    };
    let executor = executor();
    tracing::subscriber::with_default(subscriber, || {
        for call in calls {
            let _ = block_on(executor.dispatch(call));
        }
    });
    log.0.lock().unwrap().clone()
}

#[test]
fn a_call_opens_an_execute_tool_span_with_genai_attributes() {
    let lines = capture(&[ToolCall::new(
        "call_7",
        "lookup",
        r#"{"query": "weather in Paris"}"#,
    )]);
    let span = lines
        .iter()
        .find(|l| l.starts_with("span execute_tool:"))
        .unwrap_or_else(|| panic!("no execute_tool span in {lines:#?}"));
    assert!(span.contains("otel.name=execute_tool lookup"), "{span}");
    assert!(
        span.contains("gen_ai.operation.name=execute_tool"),
        "{span}"
    );
    assert!(span.contains("gen_ai.tool.name=lookup"), "{span}");
    assert!(span.contains("gen_ai.tool.call.id=call_7"), "{span}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("histogram.agent.tool.execution.duration=")),
        "{lines:#?}"
    );
    // The span's status is recorded when the call ends, and a success records no error.
    let records: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("record:"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        records,
        ["record: agentkit.tool.status=success"],
        "{lines:#?}"
    );
}

#[test]
fn a_failure_records_its_kind_and_nothing_is_leaked() {
    let lines = capture(&[
        ToolCall::new("c1", "lookup", r#"{"query": "fail"}"#),
        ToolCall::new("c2", "lookup", r#"{"query": 5}"#),
    ]);
    // Each call records its status, then the kind of its failure and the OpenTelemetry span
    // status, in its own span.
    let records: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("span ") || l.starts_with("record:"))
        .map(String::as_str)
        .collect();
    assert_eq!(records.len(), 8, "{lines:#?}");
    assert!(
        records[0].contains("gen_ai.tool.call.id=c1"),
        "{records:#?}"
    );
    assert_eq!(
        records[1..4],
        [
            "record: agentkit.tool.status=failure",
            "record: error.type=execution",
            "record: otel.status_code=ERROR"
        ]
    );
    assert!(
        records[4].contains("gen_ai.tool.call.id=c2"),
        "{records:#?}"
    );
    assert_eq!(
        records[5..],
        [
            "record: agentkit.tool.status=failure",
            "record: error.type=input_validation",
            "record: otel.status_code=ERROR"
        ]
    );
    for line in &lines {
        assert!(!line.contains(SECRET), "secret in trace: {line}");
        assert!(!line.contains("fail\""), "argument value in trace: {line}");
    }
}

#[test]
fn a_deferred_call_records_its_status() {
    let lines = capture(&[ToolCall::new("c1", "guarded", r#"{"query": "x"}"#)]);
    let records: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("record:"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        records.first().copied(),
        Some("record: agentkit.tool.status=deferred"),
        "{lines:#?}"
    );
    assert_eq!(
        records
            .iter()
            .filter(|l| l.contains("agentkit.tool.status="))
            .count(),
        1,
        "one status per call: {lines:#?}"
    );
}

/// The duration histogram counts the calls whose tool ran, failures included; a call refused
/// before its tool could run (invalid arguments, an unknown tool) has no duration to count.
#[test]
fn the_duration_histogram_counts_the_calls_that_ran() {
    let lines = capture(&[
        ToolCall::new("c1", "lookup", r#"{"query": "fail"}"#),
        ToolCall::new("c2", "lookup", r#"{"query": 5}"#),
        ToolCall::new("c3", "no_such_tool", r#"{"query": "x"}"#),
        ToolCall::new("c4", "lookup", r#"{"query": "x"}"#),
    ]);
    let histograms = lines
        .iter()
        .filter(|l| l.contains("histogram.agent.tool.execution.duration="))
        .count();
    assert_eq!(
        histograms, 2,
        "the failed call and the successful one: {lines:#?}"
    );
}
