//! Dispatch of the README's `fetch_weather` call, from the model's JSON argument string, through
//! registry + executor with a no-op tool body, beside `serde_json::from_str::<Value>` alone on
//! the same string.
//!
//! Run with `cargo bench -p agentkit-core --bench dispatch`. Allocations are not profiled
//! here, so that the times are those of the system allocator; that validation of complete
//! arguments allocates nothing is asserted by `tests/tests/perf_alloc.rs`.

use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Tool, ToolCall, ToolContext, ToolExecutor,
    ToolRegistry, ToolSchema, ToolSpec, block_on,
};
use divan::{Bencher, black_box};
use serde_json::Value;

fn main() {
    divan::main();
}

/// The three argument strings of the brief: (a) only the required city, (b) all three
/// arguments, (c) a missing city and a wrongly typed unit.
const CASES: [&str; 3] = [
    r#"{"city":"Paris"}"#,
    r#"{"city":"Paris","country":"FR","units":"metric"}"#,
    r#"{"units":5}"#,
];

struct FetchWeather {
    spec: ToolSpec,
}

impl Tool for FetchWeather {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

fn executor() -> ToolExecutor {
    let input = ToolSchema::new([
        Param::required("city", ParamType::String).with_description("City name"),
        Param::optional("country", ParamType::String).with_default("US"),
        Param::optional("units", ParamType::String).with_default("imperial"),
    ])
    .expect("the Python original's schema is valid");
    let spec = ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .input(input)
        .build()
        .expect("the Python original's spec is valid");
    let mut registry = ToolRegistry::new();
    registry
        .register(FetchWeather { spec })
        .expect("one tool, no duplicate");
    ToolExecutor::new(registry)
}

#[divan::bench(args = CASES)]
fn parse_only(bencher: Bencher<'_, '_>, arguments: &str) {
    bencher.bench(|| serde_json::from_str::<Value>(black_box(arguments)));
}

/// Parsing, with the parsed value dropped inside the measurement, as dispatch must drop the
/// arguments it parsed (divan drops returned values outside it).
#[divan::bench(args = CASES)]
fn parse_and_drop(bencher: Bencher<'_, '_>, arguments: &str) {
    bencher.bench(|| drop(serde_json::from_str::<Value>(black_box(arguments))));
}

#[divan::bench(args = CASES)]
fn dispatch(bencher: Bencher<'_, '_>, arguments: &str) {
    let executor = executor();
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    bencher.bench(|| block_on(executor.dispatch(black_box(&call))));
}

/// Validation alone, of arguments with nothing to fill: no allocation.
#[divan::bench]
fn validate_complete(bencher: Bencher<'_, '_>) {
    let executor = executor();
    let schema = executor
        .registry()
        .lookup("fetch_weather")
        .and_then(ToolSpec::input_schema)
        .expect("registered with an input schema");
    let Ok(Value::Object(mut arguments)) = serde_json::from_str(CASES[1]) else {
        unreachable!("case (b) is an object")
    };
    bencher.bench_local(|| schema.validate(black_box(&mut arguments)).len());
}
