//! Validation of arguments with nothing to fill allocates nothing, and neither does building
//! a validation issue's message until it is displayed. A `#[tool]` call allocates no more than
//! the same call dispatched the serde-only way, and its result shares the call's id. A tool
//! written by hand refuses invalid arguments without copying them into a JSON object first.
//!
//! A counting global allocator observes it; speed itself is measured in
//! `agentkit-core/benches/dispatch.rs`, never here.
// A global allocator is an `unsafe impl`; this one only forwards to `System` and counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use agentkit_core::{
    Param, ParamType, Tool, ToolCall, ToolExecutor, ToolRegistry, ToolSchema, block_on,
};
use serde_json::{Value, json};

// The `#[tool]` tool, the hand-written one and the serde-only peer, as the dispatch benchmark
// has them.
#[path = "../../agentkit-core/benches/common/weather.rs"]
mod weather;

use weather::{FetchWeatherByHand, FetchWeatherTyped, serde_weather};

struct Counting;

thread_local! {
    // Per thread, so tests running in parallel do not count each other's allocations.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` with the same arguments; the counter is a
// thread-local `Cell` whose access does not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from `System.alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged; `ptr` came from `System.alloc` above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

fn seed_schema() -> ToolSchema {
    ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("country", ParamType::String).with_default("US"),
        Param::optional("units", ParamType::String).with_default("imperial"),
        Param::optional("days", ParamType::Integer),
        Param::optional("ratio", ParamType::Float),
    ])
    .expect("valid schema")
}

fn object(value: Value) -> agentkit_core::JsonObject {
    value.as_object().cloned().expect("an object")
}

#[test]
fn validating_complete_arguments_allocates_nothing() {
    let schema = seed_schema();
    let mut args = object(json!({
        "city": "Paris", "country": "FR", "units": "metric", "days": 3, "ratio": 0.5
    }));
    let (issues, allocations) = allocations_during(|| schema.validate(&mut args));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(allocations, 0, "validation of complete arguments allocated");
}

#[test]
fn filling_a_default_allocates_only_the_filled_value() {
    let schema = seed_schema();
    let mut args = object(json!({"city": "Paris", "country": "FR"}));
    let (issues, allocations) = allocations_during(|| schema.validate(&mut args));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(args["units"], "imperial");
    // The key, the value, and at most one map node: no per-call schema work beyond that.
    assert!(
        allocations <= 3,
        "filling one default took {allocations} allocations"
    );
}

#[test]
fn issues_render_their_message_only_when_displayed() {
    let schema = seed_schema();
    // Nothing to fill: `country` is given and `units` is present, though wrongly typed.
    let mut args = object(json!({"country": "FR", "units": 5, "days": "three"}));
    let (issues, allocations) = allocations_during(|| schema.validate(&mut args));
    assert_eq!(issues.len(), 3, "{issues:?}");
    // One allocation for the issue list; names come from the schema, messages are not built.
    assert_eq!(
        allocations, 1,
        "collecting issues allocated more than the list"
    );
    let (message, allocations) = allocations_during(|| issues[1].to_string());
    assert_eq!(
        message,
        "Parameter 'units': expected type 'string', got 'integer'"
    );
    assert!(allocations >= 1, "displaying renders the message");
}

#[test]
fn validating_complete_nested_arguments_allocates_nothing() {
    let stop = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("nights", ParamType::Integer),
    ])
    .expect("valid schema");
    let schema = ToolSchema::new([
        Param::required("tags", ParamType::List).with_items(ParamType::String),
        Param::required("stops", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(stop.clone()),
        Param::required("origin", ParamType::Dictionary).with_fields(stop),
    ])
    .expect("valid schema");
    let mut args = object(json!({
        "tags": ["a", "b"],
        "stops": [{"city": "Lyon", "nights": 2}, {"city": "Nice", "nights": 1}],
        "origin": {"city": "Paris", "nights": 0},
    }));
    let (issues, allocations) = allocations_during(|| schema.validate(&mut args));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        allocations, 0,
        "validation of complete nested arguments allocated"
    );
}

fn weather_executor() -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeatherTyped).expect("a valid tool");
    ToolExecutor::new(registry)
}

// The same tool dispatched as serde-only peers do: `weather::serde_weather`.
type SerdeTool = fn(&str) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send + '_>>;

#[test]
fn a_typed_call_allocates_no_more_than_the_serde_only_dispatch() {
    let executor = weather_executor();
    let tools: HashMap<String, SerdeTool> =
        HashMap::from([("fetch_weather".to_owned(), serde_weather as SerdeTool)]);
    for arguments in [
        r#"{"city":"Paris"}"#,
        r#"{"city":"Paris","country":"FR","units":"metric"}"#,
    ] {
        let call = ToolCall::new("call_1", "fetch_weather", arguments);
        let serde_only = || block_on(tools["fetch_weather"](arguments));
        let typed = || block_on(executor.dispatch(&call));
        // Once each first, so that one-time initialisation is not counted.
        let (expected, typed_result) = (serde_only(), typed());
        assert_eq!(typed_result.output().cloned(), expected.ok());

        let (_, serde_allocations) = allocations_during(serde_only);
        let (result, typed_allocations) = allocations_during(typed);
        assert!(result.is_success(), "{result:?}");
        assert!(
            typed_allocations <= serde_allocations,
            "{arguments}: the typed call allocated {typed_allocations} times, \
             the serde-only dispatch {serde_allocations}"
        );
    }
}

#[test]
fn a_result_shares_the_call_id_rather_than_copying_it() {
    let executor = weather_executor();
    for arguments in [r#"{"city":"Paris"}"#, r#"{"units":5}"#, "not json"] {
        let call = ToolCall::new("call_1", "fetch_weather", arguments);
        let result = block_on(executor.dispatch(&call));
        assert_eq!(result.call_id(), "call_1");
        assert_eq!(result.call_id().as_ptr(), call.id().as_ptr(), "{arguments}");
    }
}

#[test]
fn a_hand_written_tool_refuses_invalid_arguments_as_cheaply_as_a_typed_one() {
    let typed = weather_executor();
    let mut registry = ToolRegistry::new();
    let spec = FetchWeatherTyped.spec().clone();
    registry
        .register(FetchWeatherByHand(spec))
        .expect("a valid tool");
    let by_hand = ToolExecutor::new(registry);
    for arguments in [
        r#"{"units":5}"#,
        r#"{"city":"Paris","units":["metric"],"country":7}"#,
    ] {
        let call = ToolCall::new("call_1", "fetch_weather", arguments);
        let (a, b) = (
            block_on(typed.dispatch(&call)),
            block_on(by_hand.dispatch(&call)),
        );
        assert_eq!(format!("{:?}", a.error()), format!("{:?}", b.error()));
        assert!(a.error().is_some(), "{arguments}");

        let (_, typed_allocations) = allocations_during(|| block_on(typed.dispatch(&call)));
        let (_, by_hand_allocations) = allocations_during(|| block_on(by_hand.dispatch(&call)));
        assert!(
            by_hand_allocations <= typed_allocations,
            "{arguments}: the hand-written tool allocated {by_hand_allocations} times, \
             the typed one {typed_allocations}"
        );
    }
}
