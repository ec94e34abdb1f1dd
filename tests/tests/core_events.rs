//! Behaviour of execution events and recording: `tool.execution.started` / `completed` /
//! `failed` delivered in order with their fields, and `ExecutionRecorder` + `Replay` serving
//! recorded outputs in place of the real tools.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::{
    BoxError, ErrorKind, ExecutionRecorder, InMemoryCredentials, JsonObject, RecordedOutcome,
    Recording, Replay, ToolCall, ToolEvent, ToolExecutor, ToolRegistry, block_on,
};
use serde_json::{Value, json};

use crate::core_fixtures::{FnTool, Probe, WEATHER_KEY, bare_spec, obj, weather_tool};

/// An owned copy of a `ToolEvent`.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    name: &'static str,
    tool: String,
    call_id: String,
    duration: Option<Duration>,
    error_kind: Option<ErrorKind>,
    inputs: Option<Value>,
    output: Option<Value>,
}

fn copy(event: &ToolEvent<'_>) -> Seen {
    let (inputs, output) = match event {
        ToolEvent::Completed { inputs, output, .. } => {
            (Some(Value::Object((*inputs).clone())), output.cloned())
        }
        ToolEvent::Failed { inputs, .. } => (inputs.map(|i| Value::Object(i.clone())), None),
        _ => (None, None),
    };
    Seen {
        name: event.name(),
        tool: event.tool_name().to_owned(),
        call_id: event.call_id().to_owned(),
        duration: event.duration(),
        error_kind: event.error_kind(),
        inputs,
        output,
    }
}

type Log = Arc<Mutex<Vec<Seen>>>;

fn observer(log: &Log) -> impl Fn(&ToolEvent<'_>) + Send + Sync + 'static {
    let log = Arc::clone(log);
    move |event: &ToolEvent<'_>| {
        log.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(copy(event));
    }
}

fn take(log: &Log) -> Vec<Seen> {
    std::mem::take(&mut *log.lock().unwrap_or_else(PoisonError::into_inner))
}

fn creds() -> InMemoryCredentials {
    InMemoryCredentials::new().with(WEATHER_KEY, "k")
}

fn setup() -> (ToolExecutor, Log, Probe) {
    let (weather, probe) = weather_tool();
    let (failing, _) = FnTool::new(bare_spec("failing"), |_, _| {
        Err::<JsonObject, BoxError>("upstream said no".into())
    });
    let (panicking, _) = FnTool::new(bare_spec("panicking"), |_, _| panic!("boom"));
    let mut registry = ToolRegistry::new();
    registry.register(weather).unwrap();
    registry.register(failing).unwrap();
    registry.register(panicking).unwrap();
    let log: Log = Arc::default();
    let executor = ToolExecutor::builder(registry)
        .credentials(creds())
        .observer(observer(&log))
        .build();
    (executor, log, probe)
}

#[test]
fn event_names_are_the_seeds() {
    let (executor, log, _) = setup();
    let _ok = block_on(executor.dispatch(&ToolCall::new("1", "fetch_weather", r#"{"city":"A"}"#)));
    let _err = block_on(executor.dispatch(&ToolCall::new("2", "failing", "{}")));
    let names: Vec<&str> = take(&log).iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "tool.execution.started",
            "tool.execution.completed",
            "tool.execution.started",
            "tool.execution.failed",
        ]
    );
}

#[test]
fn a_successful_call_emits_started_then_completed_with_its_fields() {
    let (executor, log, _) = setup();
    let result = block_on(executor.dispatch(&ToolCall::new(
        "call_1",
        "fetch_weather",
        r#"{"city": "Paris"}"#,
    )));
    let events = take(&log);
    assert_eq!(events.len(), 2);
    let [started, completed] = [&events[0], &events[1]];
    assert_eq!(started.name, "tool.execution.started");
    assert_eq!(started.tool, "fetch_weather");
    assert_eq!(started.call_id, "call_1");
    assert_eq!(started.duration, None);
    assert_eq!(started.error_kind, None);

    assert_eq!(completed.name, "tool.execution.completed");
    assert_eq!(completed.tool, "fetch_weather");
    assert_eq!(completed.call_id, "call_1");
    assert_eq!(completed.duration, Some(result.duration()));
    assert_eq!(completed.error_kind, None);
    // The validated inputs, defaults filled, and the validated output.
    assert_eq!(
        completed.inputs,
        Some(json!({"city": "Paris", "country": "US", "units": "imperial"}))
    );
    assert_eq!(completed.output, result.output().cloned());
}

#[test]
fn failures_emit_started_then_failed_with_the_error_kind() {
    let (executor, log, _) = setup();
    let cases: [(&str, &str, ErrorKind); 6] = [
        (
            "fetch_weather",
            r#"{"units": 5}"#,
            ErrorKind::InputValidation,
        ),
        ("fetch_weather", "[1]", ErrorKind::InputValidation),
        ("failing", "{}", ErrorKind::Execution),
        ("panicking", "{}", ErrorKind::Panic),
        ("fetch_wether", "{}", ErrorKind::UnknownTool),
        (
            "fetch_weather",
            r#"{"city": 1.5}"#,
            ErrorKind::InputValidation,
        ),
    ];
    for (i, (tool, args, kind)) in cases.into_iter().enumerate() {
        let id = format!("call_{i}");
        let result = block_on(executor.dispatch(&ToolCall::new(id.clone(), tool, args)));
        let events = take(&log);
        assert_eq!(events.len(), 2, "{tool} {args}");
        assert_eq!(events[0].name, "tool.execution.started");
        assert_eq!(events[1].name, "tool.execution.failed");
        for event in &events {
            assert_eq!(event.tool, tool);
            assert_eq!(event.call_id, id);
        }
        assert_eq!(events[1].error_kind, Some(kind), "{tool} {args}");
        assert_eq!(events[1].duration, Some(result.duration()));
        assert_eq!(result.error().map(agentkit_core::Error::kind), Some(kind));
        assert_eq!(events[1].output, None);
    }
}

#[test]
fn failed_events_carry_inputs_only_when_there_was_an_object() {
    let (executor, log, _) = setup();
    let _r = block_on(executor.dispatch(&ToolCall::new("a", "fetch_weather", r#"{"units": 5}"#)));
    let _r = block_on(executor.dispatch(&ToolCall::new("b", "fetch_weather", "not json")));
    let events = take(&log);
    assert_eq!(events[1].inputs, Some(json!({"units": 5, "country": "US"})));
    assert_eq!(events[3].inputs, None);
}

#[test]
fn missing_credentials_are_reported_as_credential_failures() {
    let (weather, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(weather).unwrap();
    let log: Log = Arc::default();
    let executor = ToolExecutor::builder(registry)
        .observer(observer(&log))
        .build();
    let _r = block_on(executor.execute("fetch_weather", obj(json!({"city": "A"}))));
    let events = take(&log);
    assert_eq!(events[1].error_kind, Some(ErrorKind::Credential));
    assert_eq!(events[1].call_id, "");
    assert_eq!(probe.runs(), 0);
}

#[test]
fn every_observer_gets_every_event_in_order() {
    let (weather, _) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(weather).unwrap();
    let order = Arc::new(Mutex::new(Vec::<String>::new()));
    let tagged = |tag: &'static str| {
        let order = Arc::clone(&order);
        move |event: &ToolEvent<'_>| {
            order
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{tag} {}", event.name()));
        }
    };
    let executor = ToolExecutor::builder(registry)
        .credentials(creds())
        .observer(tagged("first"))
        .observer(tagged("second"))
        .build();
    let _r = block_on(executor.execute("fetch_weather", obj(json!({"city": "A"}))));
    assert_eq!(
        *order.lock().unwrap_or_else(PoisonError::into_inner),
        [
            "first tool.execution.started",
            "second tool.execution.started",
            "first tool.execution.completed",
            "second tool.execution.completed",
        ]
    );
}

#[test]
fn error_kinds_have_stable_names() {
    let kinds = [
        (ErrorKind::InputValidation, "input_validation"),
        (ErrorKind::OutputValidation, "output_validation"),
        (ErrorKind::Execution, "execution"),
        (ErrorKind::Panic, "panic"),
        (ErrorKind::Credential, "credential"),
        (ErrorKind::UnknownTool, "unknown_tool"),
        (ErrorKind::Semantic, "semantic"),
    ];
    for (kind, name) in kinds {
        assert_eq!(kind.as_str(), name);
        assert_eq!(kind.to_string(), name);
        assert_eq!(serde_json::to_value(kind).unwrap(), name);
    }
}

// ---------------------------------------------------------------- ExecutionRecorder

fn recorded_setup() -> (ToolExecutor, ExecutionRecorder, Probe, ToolRegistry) {
    let (weather, probe) = weather_tool();
    let (failing, _) = FnTool::new(bare_spec("failing"), |_, _| {
        Err::<JsonObject, BoxError>("upstream said no".into())
    });
    let mut registry = ToolRegistry::new();
    registry.register(weather).unwrap();
    registry.register(failing).unwrap();
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(registry.clone())
        .credentials(creds())
        .observer(recorder.clone())
        .build();
    (executor, recorder, probe, registry)
}

#[test]
fn the_recorder_keeps_each_call_with_inputs_outcome_and_duration() {
    let (executor, recorder, _, _) = recorded_setup();
    let ok =
        block_on(executor.dispatch(&ToolCall::new("c1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    let failed = block_on(executor.dispatch(&ToolCall::new("c2", "failing", "{}")));
    let invalid = block_on(executor.dispatch(&ToolCall::new("c3", "fetch_weather", "[]")));

    let recordings = recorder.recordings();
    assert_eq!(recordings.len(), 3);

    let r = &recordings[0];
    assert_eq!(
        (r.tool_name.as_str(), r.call_id.as_str()),
        ("fetch_weather", "c1")
    );
    assert_eq!(
        r.inputs.clone().map(Value::Object),
        Some(json!({"city": "Oslo", "country": "US", "units": "imperial"}))
    );
    assert_eq!(
        r.outcome,
        RecordedOutcome::Output(ok.output().unwrap().clone())
    );
    assert_eq!(r.duration, ok.duration());

    let r = &recordings[1];
    assert_eq!(r.call_id, "c2");
    assert_eq!(r.inputs, Some(JsonObject::new()));
    let RecordedOutcome::Error(e) = &r.outcome else {
        panic!("a failure is recorded as an error: {:?}", r.outcome)
    };
    assert_eq!(e.kind, ErrorKind::Execution);
    assert_eq!(e.message, failed.error().unwrap().to_string());
    assert!(e.issues.is_empty());
    assert_eq!(r.duration, failed.duration());

    let r = &recordings[2];
    assert_eq!(r.inputs, None);
    assert!(matches!(
        &r.outcome,
        RecordedOutcome::Error(e) if e.kind == ErrorKind::InputValidation
    ));
    assert_eq!(r.duration, invalid.duration());

    // Clones share the log; clear empties it for all.
    let clone = recorder.clone();
    assert_eq!(clone.recordings(), recordings);
    clone.clear();
    assert!(recorder.recordings().is_empty());
}

#[test]
fn recordings_survive_json() {
    let (executor, recorder, _, _) = recorded_setup();
    let _r =
        block_on(executor.dispatch(&ToolCall::new("c1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    let _r = block_on(executor.dispatch(&ToolCall::new("c2", "failing", "{}")));
    let recordings = recorder.recordings();
    let text = serde_json::to_string(&recordings).unwrap();
    let back: Vec<Recording> = serde_json::from_str(&text).unwrap();
    // Durations are kept to the microsecond.
    for (a, b) in recordings.iter().zip(&back) {
        assert_eq!(a.duration.as_micros(), b.duration.as_micros());
        assert_eq!(
            (&a.tool_name, &a.call_id, &a.inputs, &a.outcome),
            (&b.tool_name, &b.call_id, &b.inputs, &b.outcome)
        );
    }
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value[1]["outcome"]["error"]["kind"], "execution");
    assert!(value[0]["outcome"]["output"].is_object(), "{value}");
}

#[test]
fn replay_serves_recorded_outputs_without_running_the_real_tool() {
    let (executor, recorder, probe, registry) = recorded_setup();
    let calls = [
        ToolCall::new("c1", "fetch_weather", r#"{"city": "Oslo"}"#),
        ToolCall::new(
            "c2",
            "fetch_weather",
            r#"{"city": "Lima", "units": "metric"}"#,
        ),
        ToolCall::new("c3", "failing", "{}"),
    ];
    let originals: Vec<_> = calls
        .iter()
        .map(|c| block_on(executor.dispatch(c)))
        .collect();
    assert_eq!(probe.runs(), 2);

    let replay = recorder.replay();
    assert_eq!(replay.remaining(), 3);
    let replay_registry = replay.registry_for(&registry);
    let names: Vec<&str> = replay_registry.specs().map(|s| s.name()).collect();
    assert_eq!(names, ["fetch_weather", "failing"]);
    assert_eq!(
        replay_registry
            .lookup("fetch_weather")
            .map(|s| s.input_schema()),
        registry.lookup("fetch_weather").map(|s| s.input_schema())
    );
    let replayer = ToolExecutor::builder(replay_registry)
        .credentials(creds())
        .build();

    // In another order: each call finds its recording by inputs.
    let replayed: Vec<_> = [&calls[1], &calls[2], &calls[0]]
        .iter()
        .map(|c| block_on(replayer.dispatch(c)))
        .collect();
    assert_eq!(probe.runs(), 2, "the real tool did not run again");
    assert_eq!(replayed[0].output(), originals[1].output());
    assert_eq!(replayed[2].output(), originals[0].output());
    assert_eq!(
        replayed[1].error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Execution)
    );
    assert!(
        replayed[1]
            .error()
            .unwrap()
            .to_string()
            .contains("upstream said no")
    );
    assert_eq!(replay.remaining(), 0);

    // Each recording is used once; a call without one fails.
    let again = block_on(replayer.dispatch(&calls[0]));
    assert_eq!(
        again.error().map(agentkit_core::Error::kind),
        Some(ErrorKind::Execution)
    );
    assert!(
        again
            .error()
            .unwrap()
            .to_string()
            .contains("no recorded call"),
        "{again:?}"
    );
    let unseen =
        block_on(replayer.dispatch(&ToolCall::new("c9", "fetch_weather", r#"{"city": "Rome"}"#)));
    assert!(!unseen.is_success());
    assert_eq!(probe.runs(), 2);
}

#[test]
fn replay_from_a_json_fixture() {
    let (executor, recorder, probe, registry) = recorded_setup();
    let _r =
        block_on(executor.dispatch(&ToolCall::new("c1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    let fixture = serde_json::to_string(&recorder.recordings()).unwrap();

    let recordings: Vec<Recording> = serde_json::from_str(&fixture).unwrap();
    let replayer = ToolExecutor::builder(Replay::new(recordings).registry_for(&registry))
        .credentials(creds())
        .build();
    let result =
        block_on(replayer.dispatch(&ToolCall::new("r1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.output().unwrap()["conditions"], "sunny");
    assert_eq!(result.call_id(), "r1");
    assert_eq!(probe.runs(), 1);
}

/// The recorder's documentation promises replay "without the network, the credentials or the
/// side effects of the real tools"; the replaying registry copies the specs, credential names
/// included, so a replay executor without the credentials refuses every call.
#[test]

fn replay_does_not_need_the_credentials() {
    let (executor, recorder, _, registry) = recorded_setup();
    let _r =
        block_on(executor.dispatch(&ToolCall::new("c1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    let replayer = ToolExecutor::new(recorder.replay().registry_for(&registry));
    let result =
        block_on(replayer.dispatch(&ToolCall::new("r1", "fetch_weather", r#"{"city": "Oslo"}"#)));
    assert!(result.is_success(), "{result:?}");
}
