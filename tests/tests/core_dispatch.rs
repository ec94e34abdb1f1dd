//! Behaviour of dispatch from what a model sends (tool name, call id, JSON argument string):
//! bad argument strings are input validation failures, unknown tools name the nearest ones,
//! and `dispatch_all` runs one turn's calls concurrently, returning results in call order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::{
    BoxError, Direction, Error, ErrorKind, InMemoryCredentials, IssueKind, JsonObject, Param,
    ParamType, Tool, ToolCall, ToolContext, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry,
    ToolSchema, ToolSpec, ValueKind, block_on,
};
use serde_json::{Value, json};

use crate::core_fixtures::{FnTool, WEATHER_KEY, bare_spec, weather_tool};

fn weather_executor() -> (ToolExecutor, crate::core_fixtures::Probe) {
    let (tool, probe) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with(WEATHER_KEY, "k"))
        .build();
    (executor, probe)
}

fn dispatch(executor: &ToolExecutor, name: &str, arguments: &str) -> agentkit_core::ToolResult {
    block_on(executor.dispatch(&ToolCall::new("call_1", name, arguments)))
}

fn input_issue(result: &agentkit_core::ToolResult) -> agentkit_core::ValidationIssue {
    match result.error() {
        Some(Error::Validation(e)) => {
            assert_eq!(e.direction(), Direction::Input);
            assert_eq!(e.errors().len(), 1, "{e}");
            e.errors()[0].clone()
        }
        other => panic!("expected an input validation error, got {other:?}"),
    }
}

#[test]
fn a_valid_call_runs_the_tool() {
    let (executor, probe) = weather_executor();
    let result = dispatch(&executor, "fetch_weather", r#"{"city": "San Francisco"}"#);
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.call_id(), "call_1");
    assert_eq!(result.output().unwrap()["units"], "imperial");
    assert_eq!(probe.runs(), 1);
}

#[test]
fn malformed_json_is_an_input_validation_failure_not_a_panic() {
    let (executor, probe) = weather_executor();
    for text in [
        r#"{"city": "Paris""#,
        "{city: Paris}",
        "not json",
        r#"{"a":1}}"#,
        "{'a': 1}",
    ] {
        let result = dispatch(&executor, "fetch_weather", text);
        let issue = input_issue(&result);
        assert_eq!(issue.kind(), IssueKind::InvalidJson, "{text}");
        assert_eq!(issue.param(), None);
        assert!(
            issue
                .to_string()
                .starts_with("Arguments are not valid JSON: "),
            "{issue}"
        );
        assert_eq!(result.error().unwrap().kind(), ErrorKind::InputValidation);
        assert!(
            result.to_model_content().starts_with(
                "Error: invalid arguments for tool 'fetch_weather':\n- Arguments are not valid JSON"
            ),
            "{}",
            result.to_model_content()
        );
    }
    assert_eq!(probe.runs(), 0);
}

#[test]
fn json_that_is_not_an_object_is_an_input_validation_failure() {
    let (executor, probe) = weather_executor();
    let cases = [
        ("[1, 2]", ValueKind::List),
        (r#""Paris""#, ValueKind::String),
        ("42", ValueKind::Integer),
        ("4.5", ValueKind::Float),
        ("true", ValueKind::Boolean),
        ("null", ValueKind::Null),
    ];
    for (text, got) in cases {
        let result = dispatch(&executor, "fetch_weather", text);
        let issue = input_issue(&result);
        assert_eq!(issue.kind(), IssueKind::NotAnObject, "{text}");
        assert_eq!(issue.got(), Some(got), "{text}");
        assert_eq!(issue.expected(), Some(ParamType::Dictionary));
        assert_eq!(
            issue.to_string(),
            format!("Arguments must be a JSON object, got '{}'", got.as_str())
        );
    }
    assert_eq!(probe.runs(), 0);
}

#[test]
fn an_empty_argument_string_counts_as_an_empty_object() {
    let (tool, probe) = FnTool::new(bare_spec("now"), |inputs, _| {
        Ok(json!({"args": inputs.len()})
            .as_object()
            .cloned()
            .unwrap_or_default())
    });
    let (weather, _) = weather_tool();
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    registry.register(weather).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with(WEATHER_KEY, "k"))
        .build();
    for empty in ["", "   ", "\n"] {
        let result = dispatch(&executor, "now", empty);
        assert!(result.is_success(), "{empty:?}: {result:?}");
        assert_eq!(result.output().unwrap()["args"], 0);
    }
    assert_eq!(probe.runs(), 3);
    // `{}` for a tool that needs arguments: the usual missing-parameter error, not a JSON one.
    let result = dispatch(&executor, "fetch_weather", "");
    let issue = input_issue(&result);
    assert_eq!(issue.kind(), IssueKind::MissingParameter);
    assert_eq!(issue.param(), Some("city"));
}

#[test]
fn unknown_tool_names_the_nearest_registered_tools() {
    let mut registry = ToolRegistry::new();
    for name in [
        "fetch_weather",
        "fetch_forecast",
        "send_email",
        "search_web",
    ] {
        registry
            .register(FnTool::new(bare_spec(name), |_, _| Ok(JsonObject::new())).0)
            .unwrap();
    }
    let executor = ToolExecutor::new(registry);

    let result = dispatch(&executor, "fetch_wether", "{}");
    assert_eq!(result.tool_name(), "fetch_wether");
    assert_eq!(result.call_id(), "call_1");
    let Some(Error::UnknownTool(e)) = result.error() else {
        panic!("expected UnknownTool, got {result:?}");
    };
    assert_eq!(e.name(), "fetch_wether");
    assert_eq!(
        e.nearest().first().map(String::as_str),
        Some("fetch_weather")
    );
    assert!(
        !e.nearest().iter().any(|n| n == "send_email"),
        "{:?}",
        e.nearest()
    );
    assert_eq!(result.error().unwrap().kind(), ErrorKind::UnknownTool);
    assert!(
        result
            .to_model_content()
            .starts_with("Error: unknown tool 'fetch_wether'; did you mean"),
        "{}",
        result.to_model_content()
    );
    assert!(result.to_model_content().contains("'fetch_weather'"));

    // Strict mode returns it as the typed error.
    let strict = block_on(executor.try_dispatch(&ToolCall::new("c", "send_emial", "{}")));
    match strict {
        Err(Error::UnknownTool(e)) => assert_eq!(e.nearest(), ["send_email"]),
        other => panic!("expected UnknownTool, got {other:?}"),
    }

    // Nothing near: no suggestion.
    let result = dispatch(&executor, "translate_document", "{}");
    let Some(Error::UnknownTool(e)) = result.error() else {
        panic!("expected UnknownTool");
    };
    assert!(e.nearest().is_empty(), "{:?}", e.nearest());
    assert_eq!(
        result.to_model_content(),
        "Error: unknown tool 'translate_document'"
    );
}

#[test]
fn an_unknown_tool_is_reported_before_the_arguments_are_parsed() {
    let (executor, _) = weather_executor();
    let result = dispatch(&executor, "nope", "not json");
    assert!(matches!(result.error(), Some(Error::UnknownTool(_))));
}

// ---------------------------------------------------------------- dispatch_all

/// An async tool that sleeps `ms` milliseconds (a Tokio timer), tracking how many of its
/// calls are in flight at once.
struct Sleepy {
    spec: ToolSpec,
    in_flight: Arc<AtomicUsize>,
    max_in_flight: Arc<AtomicUsize>,
    finished: Arc<Mutex<Vec<String>>>,
}

impl Sleepy {
    fn new() -> Self {
        let spec = ToolSpec::builder("sleepy")
            .input(
                ToolSchema::new([
                    Param::required("id", ParamType::String),
                    Param::required("ms", ParamType::Integer),
                ])
                .unwrap(),
            )
            .build()
            .unwrap();
        Sleepy {
            spec,
            in_flight: Arc::default(),
            max_in_flight: Arc::default(),
            finished: Arc::default(),
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
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let ms = inputs["ms"].as_u64().unwrap_or(0);
        tokio::time::sleep(Duration::from_millis(ms)).await;
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        let id = inputs["id"].as_str().unwrap_or_default().to_owned();
        self.finished
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(id.clone());
        Ok(json!({ "id": id })
            .as_object()
            .cloned()
            .unwrap_or_default()
            .into())
    }
}

fn sleepy_executor() -> (ToolExecutor, Arc<AtomicUsize>, Arc<Mutex<Vec<String>>>) {
    let tool = Sleepy::new();
    let max = Arc::clone(&tool.max_in_flight);
    let finished = Arc::clone(&tool.finished);
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    (ToolExecutor::new(registry), max, finished)
}

fn sleepy_call(id: &str, ms: u64) -> ToolCall {
    ToolCall::new(
        format!("call_{id}"),
        "sleepy",
        json!({"id": id, "ms": ms}).to_string(),
    )
}

#[tokio::test]
async fn dispatch_all_runs_the_calls_concurrently() {
    let (executor, max_in_flight, _) = sleepy_executor();
    let calls: Vec<ToolCall> = (0..5).map(|i| sleepy_call(&i.to_string(), 200)).collect();
    let results = executor.dispatch_all(&calls).await;
    assert!(results.iter().all(|r| r.is_success()), "{results:?}");
    // The property: calls overlap. All five were in flight together (proved by a counter,
    // not a timing bound, which a loaded machine could break).
    assert_eq!(max_in_flight.load(Ordering::SeqCst), 5);
}

#[tokio::test]
async fn dispatch_all_returns_results_in_call_order_when_later_calls_finish_first() {
    let (executor, _, finished) = sleepy_executor();
    let calls = [
        sleepy_call("a", 300),
        sleepy_call("b", 200),
        sleepy_call("c", 100),
        sleepy_call("d", 0),
    ];
    let results = executor.dispatch_all(&calls).await;
    // They finished in reverse...
    assert_eq!(
        *finished.lock().unwrap_or_else(PoisonError::into_inner),
        ["d", "c", "b", "a"]
    );
    // ...and come back in call order, each with its own call id.
    let ids: Vec<(&str, Value)> = results
        .iter()
        .map(|r| (r.call_id(), r.output().unwrap()["id"].clone()))
        .collect();
    assert_eq!(
        ids,
        [
            ("call_a", json!("a")),
            ("call_b", json!("b")),
            ("call_c", json!("c")),
            ("call_d", json!("d")),
        ]
    );
}

#[tokio::test]
async fn dispatch_all_keeps_failures_in_place_and_independent() {
    let (executor, _, _) = sleepy_executor();
    let calls = [
        sleepy_call("a", 50),
        ToolCall::new("call_bad_json", "sleepy", "{"),
        ToolCall::new("call_unknown", "sleepi", "{}"),
        ToolCall::new("call_missing", "sleepy", r#"{"id": "x"}"#),
        sleepy_call("e", 10),
    ];
    let results = executor.dispatch_all(&calls).await;
    let summary: Vec<(&str, Option<ErrorKind>)> = results
        .iter()
        .map(|r| (r.call_id(), r.error().map(Error::kind)))
        .collect();
    assert_eq!(
        summary,
        [
            ("call_a", None),
            ("call_bad_json", Some(ErrorKind::InputValidation)),
            ("call_unknown", Some(ErrorKind::UnknownTool)),
            ("call_missing", Some(ErrorKind::InputValidation)),
            ("call_e", None),
        ]
    );
    assert!(executor.dispatch_all(&[]).await.is_empty());
}

#[tokio::test]
async fn a_panicking_call_does_not_disturb_the_others_of_its_turn() {
    let (boom, _) = FnTool::new(bare_spec("boom"), |_, _| panic!("boom"));
    let sleepy = Sleepy::new();
    let mut registry = ToolRegistry::new();
    registry.register(sleepy).unwrap();
    registry.register(boom).unwrap();
    let executor = ToolExecutor::new(registry);
    let calls = [
        sleepy_call("a", 30),
        ToolCall::new("call_boom", "boom", "{}"),
        sleepy_call("c", 10),
    ];
    let results = executor.dispatch_all(&calls).await;
    assert!(results[0].is_success());
    assert_eq!(results[1].error().map(Error::kind), Some(ErrorKind::Panic));
    assert!(results[2].is_success());
}

#[tokio::test]
async fn events_of_concurrent_calls_carry_their_own_call_ids() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&log);
    let mut registry = ToolRegistry::new();
    registry.register(Sleepy::new()).unwrap();
    let executor = ToolExecutor::builder(registry)
        .observer(move |event: &ToolEvent<'_>| {
            sink.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(format!("{} {}", event.name(), event.call_id()));
        })
        .build();
    let calls = [sleepy_call("a", 200), sleepy_call("b", 0)];
    let _results = executor.dispatch_all(&calls).await;
    let log = log.lock().unwrap_or_else(PoisonError::into_inner).clone();
    assert_eq!(
        log,
        [
            "tool.execution.started call_a",
            "tool.execution.started call_b",
            "tool.execution.completed call_b",
            "tool.execution.completed call_a",
        ]
    );
}

#[test]
fn dispatch_all_works_under_block_on_for_tools_without_io() {
    let (executor, probe) = weather_executor();
    let calls = [
        ToolCall::new("1", "fetch_weather", r#"{"city": "A"}"#),
        ToolCall::new("2", "fetch_weather", r#"{"city": "B"}"#),
    ];
    let results = block_on(executor.dispatch_all(&calls));
    let cities: Vec<&Value> = results
        .iter()
        .map(|r| &r.output().unwrap()["city"])
        .collect();
    assert_eq!(cities, [&json!("A"), &json!("B")]);
    assert_eq!(probe.runs(), 2);
}
