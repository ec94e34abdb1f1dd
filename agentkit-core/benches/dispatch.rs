//! The README's `fetch_weather` call, from the model's JSON argument string to a result, among
//! 50 registered tools, through agentkit and through the baselines it is measured against, in
//! one run:
//!
//! - `baseline`: a hand-written function that parses the string to a `serde_json::Value`,
//!   checks the three types and fills the two defaults (all problems, no tool, no lookup);
//! - `minimal_executor`: a name lookup among the 50, the baseline, and one boxed future
//!   running the same tool body as the agentkit paths;
//! - `serde_only`: the typed dispatch of serde-only peers (rig): the lookup, a boxed future,
//!   `serde_json::from_str` into a `#[derive(Deserialize)]` struct (first error only), the
//!   tool body on it, and its output serialized back to JSON;
//! - `dispatch`: agentkit's executor with a hand-written tool (dynamic schema, output
//!   validated);
//! - `dispatch_typed`: the same through a `#[tool(...)]` tool, its typed input and output;
//! - `serde_only_text` and `dispatch_typed_text`: the two typed paths followed by the model
//!   text (the output as a JSON string), since a `#[tool]` output is made JSON only then.
//!
//! Cases: (a) only the required city, (b) all three arguments, (c) a missing city and a
//! wrongly typed unit. Run with
//! `cargo bench -p agentkit-core --bench dispatch --features derive`, and see
//! `benches/ratios.sh` for the ratios of each path to the baselines, from one run;
//! `benches/paired.sh` for the same ratios with the paths interleaved, round after round; and
//! `benches/callgrind.sh` for each path's instructions and instruction-cache misses per call.
//!
//! Allocations are counted (divan's `AllocProfiler`) for every path alike.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput,
    ToolRegistry, ToolSchema, ToolSpec, block_on,
};
use divan::{AllocProfiler, Bencher, black_box};
use serde_json::{Map, Value, json};

#[path = "common/weather.rs"]
mod weather;

use weather::{FetchWeatherByHand, FetchWeatherTyped, serde_weather, weather};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    // The paths must do the same work to be compared: check they return the same for (a).
    agreement_check();
    // `AGENTKIT_BENCH_LOOP=<path>:<case>:<calls>` runs one path that many times, untimed, and
    // exits: for counting instructions and cache misses under callgrind (`callgrind.sh`).
    if let Ok(spec) = std::env::var("AGENTKIT_BENCH_LOOP") {
        run_loop(&spec);
        return;
    }
    // `AGENTKIT_BENCH_PAIRED=<rounds>`: every path in turn, round after round (`paired.sh`).
    if let Ok(rounds) = std::env::var("AGENTKIT_BENCH_PAIRED") {
        run_paired(rounds.parse().expect("a number of rounds"));
        return;
    }
    divan::main();
}

/// A path as the benchmarks name it, and a closure making one call, its setup done.
type Path = (&'static str, Box<dyn FnMut()>);

/// The paths as the benchmarks name them, each a closure making one call with `arguments`,
/// its setup (registries, executors) done.
fn paths(arguments: &'static str) -> Vec<Path> {
    let minimal = minimal_registry();
    let serde = serde_registry();
    let serde_text = serde_registry();
    let dynamic = executor(FetchWeatherByHand(dynamic_spec()));
    let typed = executor(FetchWeatherTyped);
    let typed_text = executor(FetchWeatherTyped);
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    let (dynamic_call, typed_call, text_call) = (call.clone(), call.clone(), call);
    vec![
        (
            "baseline_parse_check_fill",
            Box::new(move || drop(baseline(black_box(arguments)))),
        ),
        (
            "minimal_executor",
            Box::new(move || {
                drop(minimal_dispatch(
                    &minimal,
                    "fetch_weather",
                    black_box(arguments),
                ))
            }),
        ),
        (
            "serde_only",
            Box::new(move || drop(block_on(serde["fetch_weather"].call(black_box(arguments))))),
        ),
        (
            "dispatch",
            Box::new(move || drop(block_on(dynamic.dispatch(black_box(&dynamic_call))))),
        ),
        (
            "dispatch_typed",
            Box::new(move || drop(block_on(typed.dispatch(black_box(&typed_call))))),
        ),
        (
            "serde_only_text",
            Box::new(move || {
                let output = block_on(serde_text["fetch_weather"].call(black_box(arguments)));
                drop(output.map(|value| serde_json::to_string(&value)));
            }),
        ),
        (
            "dispatch_typed_text",
            Box::new(move || {
                drop(block_on(typed_text.dispatch(black_box(&text_call))).to_model_content());
            }),
        ),
    ]
}

/// `path:case:calls`: `case` 0, 1 or 2 for (a), (b) and (c).
fn run_loop(spec: &str) {
    let fields: Vec<&str> = spec.split(':').collect();
    let [path, case, calls] = fields[..] else {
        panic!("AGENTKIT_BENCH_LOOP is <path>:<case>:<calls>, not {spec:?}");
    };
    let arguments = CASES[case.parse::<usize>().expect("a case: 0, 1 or 2")];
    let calls: usize = calls.parse().expect("a number of calls");
    let mut paths = paths(arguments);
    let Some((_, call)) = paths.iter_mut().find(|(name, _)| *name == path) else {
        panic!("no path {path:?}");
    };
    for _ in 0..calls {
        call();
    }
}

/// For each case, `rounds` rounds in which every path makes a batch of calls, timed: a
/// machine whose speed drifts slows the paths of one round alike, so each path's ratio to a
/// baseline is taken within each round, and the median over the rounds printed.
fn run_paired(rounds: usize) {
    const BATCH: u32 = 200;
    for arguments in CASES {
        let mut paths = paths(arguments);
        // Warm-up: one batch each, untimed.
        for (_, call) in &mut paths {
            (0..BATCH).for_each(|_| call());
        }
        let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); paths.len()];
        for round in 0..rounds {
            // Rotated, so that no path always runs first or after the same one.
            for step in 0..paths.len() {
                let index = (round + step) % paths.len();
                let call = &mut paths[index].1;
                let start = std::time::Instant::now();
                (0..BATCH).for_each(|_| call());
                times[index].push(start.elapsed().as_nanos() as f64 / f64::from(BATCH));
            }
        }
        let median = |mut values: Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values[values.len() / 2]
        };
        let ratio = |path: usize, base: usize| {
            median(
                (0..rounds)
                    .map(|r| times[path][r] / times[base][r])
                    .collect(),
            )
        };
        let index = |name: &str| paths.iter().position(|(n, _)| *n == name).expect("a path");
        let (baseline, minimal) = (
            index("baseline_parse_check_fill"),
            index("minimal_executor"),
        );
        println!("\n{arguments}");
        println!(
            "  {:<28} {:>10} {:>10} {:>10} {:>10}",
            "path", "median", "/baseline", "/minimal", "/serde"
        );
        for (path, (name, _)) in paths.iter().enumerate() {
            // The `_text` paths are compared with serde-only's text.
            let serde = index(if name.ends_with("_text") {
                "serde_only_text"
            } else {
                "serde_only"
            });
            println!(
                "  {:<28} {:>7.1} ns {:>9.2}x {:>9.2}x {:>9.2}x",
                name,
                median(times[path].clone()),
                ratio(path, baseline),
                ratio(path, minimal),
                ratio(path, serde),
            );
        }
    }
}

const CASES: [&str; 3] = [
    r#"{"city":"Paris"}"#,
    r#"{"city":"Paris","country":"FR","units":"metric"}"#,
    r#"{"units":5}"#,
];

/// How many tools are registered, `fetch_weather` among them.
const TOOLS: usize = 50;

// ---- the baselines -------------------------------------------------------------------------

/// Parse, check the three types (every problem), fill the two defaults.
fn baseline(arguments: &str) -> Result<Map<String, Value>, Vec<String>> {
    let Ok(Value::Object(mut args)) = serde_json::from_str::<Value>(arguments) else {
        return Err(vec!["arguments are not a JSON object".into()]);
    };
    let mut problems = Vec::new();
    match args.get("city") {
        Some(Value::String(_)) => {}
        Some(_) => problems.push("Parameter 'city': expected type 'string'".to_owned()),
        None => problems.push("Missing required parameter: 'city'".to_owned()),
    }
    for (name, default) in [("country", "US"), ("units", "imperial")] {
        match args.get(name) {
            Some(Value::String(_)) => {}
            None | Some(Value::Null) => {
                args.insert(name.into(), default.into());
            }
            Some(_) => problems.push(format!("Parameter '{name}': expected type 'string'")),
        }
    }
    if problems.is_empty() {
        Ok(args)
    } else {
        Err(problems)
    }
}

type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A tool of the minimal executor: validated arguments in, an output object out.
type MinimalTool = fn(&Map<String, Value>) -> BoxFuture<'_, Result<Map<String, Value>, String>>;

fn minimal_weather(args: &Map<String, Value>) -> BoxFuture<'_, Result<Map<String, Value>, String>> {
    Box::pin(async move {
        let city = args["city"].as_str().unwrap_or_default();
        let units = args["units"].as_str().unwrap_or_default();
        let (city, temperature, units) = weather(city, units);
        let mut out = Map::new();
        out.insert("city".into(), city.into());
        out.insert("temperature".into(), temperature.into());
        out.insert("units".into(), units.into());
        Ok(out)
    })
}

fn minimal_other(_: &Map<String, Value>) -> BoxFuture<'_, Result<Map<String, Value>, String>> {
    Box::pin(async { Ok(Map::new()) })
}

fn minimal_registry() -> HashMap<String, MinimalTool> {
    let mut tools: HashMap<String, MinimalTool> = (1..TOOLS)
        .map(|i| (format!("tool_{i}"), minimal_other as MinimalTool))
        .collect();
    tools.insert("fetch_weather".into(), minimal_weather);
    tools
}

fn minimal_dispatch(
    tools: &HashMap<String, MinimalTool>,
    name: &str,
    arguments: &str,
) -> Result<Map<String, Value>, String> {
    let tool = tools.get(name).ok_or("unknown tool")?;
    let args = baseline(arguments).map_err(|problems| problems.join("\n"))?;
    block_on(tool(&args))
}

/// A tool of serde-only peers: typed arguments parsed from the string, output serialized.
trait SerdeTool: Send + Sync {
    fn call<'a>(&'a self, arguments: &'a str) -> BoxFuture<'a, Result<Value, String>>;
}

struct SerdeWeather;

impl SerdeTool for SerdeWeather {
    fn call<'a>(&'a self, arguments: &'a str) -> BoxFuture<'a, Result<Value, String>> {
        serde_weather(arguments)
    }
}

struct SerdeOther;

impl SerdeTool for SerdeOther {
    fn call<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async { Ok(Value::Null) })
    }
}

fn serde_registry() -> HashMap<String, Box<dyn SerdeTool>> {
    let mut tools: HashMap<String, Box<dyn SerdeTool>> = (1..TOOLS)
        .map(|i| {
            (
                format!("tool_{i}"),
                Box::new(SerdeOther) as Box<dyn SerdeTool>,
            )
        })
        .collect();
    tools.insert("fetch_weather".into(), Box::new(SerdeWeather));
    tools
}

// ---- agentkit --------------------------------------------------------------------------------

/// The spec of the hand-written tool ([`FetchWeatherByHand`]), built at run time; its output
/// is validated.
fn dynamic_spec() -> ToolSpec {
    let input = ToolSchema::new([
        Param::required("city", ParamType::String).with_description("City name"),
        Param::optional("country", ParamType::String).with_default("US"),
        Param::optional("units", ParamType::String).with_default("imperial"),
    ])
    .expect("the Python original's schema is valid");
    let output = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::required("temperature", ParamType::Float),
        Param::required("units", ParamType::String),
    ])
    .expect("a valid output schema");
    ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .input(input)
        .output(output)
        .build()
        .expect("the Python original's spec is valid")
}

/// A registered tool that is not called.
struct Other(ToolSpec);

impl Tool for Other {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(JsonObject::new().into())
    }
}

fn executor(weather: impl Tool) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    for i in 1..TOOLS {
        let spec = ToolSpec::builder(format!("tool_{i}"))
            .build()
            .expect("a valid name");
        registry.register(Other(spec)).expect("distinct names");
    }
    registry.register(weather).expect("distinct names");
    ToolExecutor::new(registry)
}

// ---- the benchmarks --------------------------------------------------------------------------

#[divan::bench(args = CASES)]
fn baseline_parse_check_fill(bencher: Bencher<'_, '_>, arguments: &str) {
    bencher.bench(|| drop(baseline(black_box(arguments))));
}

#[divan::bench(args = CASES)]
fn minimal_executor(bencher: Bencher<'_, '_>, arguments: &str) {
    let tools = minimal_registry();
    bencher.bench(|| {
        drop(minimal_dispatch(
            &tools,
            black_box("fetch_weather"),
            black_box(arguments),
        ))
    });
}

#[divan::bench(args = CASES)]
fn serde_only(bencher: Bencher<'_, '_>, arguments: &str) {
    let tools = serde_registry();
    bencher.bench(|| {
        let result = match tools.get(black_box("fetch_weather")) {
            Some(tool) => block_on(tool.call(black_box(arguments))),
            None => Err("unknown tool".to_owned()),
        };
        drop(result);
    });
}

#[divan::bench(args = CASES)]
fn dispatch(bencher: Bencher<'_, '_>, arguments: &str) {
    let executor = executor(FetchWeatherByHand(dynamic_spec()));
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    bencher.bench(|| drop(block_on(executor.dispatch(black_box(&call)))));
}

#[divan::bench(args = CASES)]
fn dispatch_typed(bencher: Bencher<'_, '_>, arguments: &str) {
    let executor = executor(FetchWeatherTyped);
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    bencher.bench(|| drop(block_on(executor.dispatch(black_box(&call)))));
}

/// `serde_only`, then the model text: the output as a JSON string.
#[divan::bench(args = CASES)]
fn serde_only_text(bencher: Bencher<'_, '_>, arguments: &str) {
    let tools = serde_registry();
    bencher.bench(|| {
        let text = match tools.get(black_box("fetch_weather")) {
            Some(tool) => block_on(tool.call(black_box(arguments)))
                .map(|value| serde_json::to_string(&value).expect("a JSON value")),
            None => Err("unknown tool".to_owned()),
        };
        drop(text);
    });
}

/// `dispatch_typed`, then the model text (`ToolResult::to_model_content`): the typed output
/// is made JSON here, as it is when an agent sends the result back.
#[divan::bench(args = CASES)]
fn dispatch_typed_text(bencher: Bencher<'_, '_>, arguments: &str) {
    let executor = executor(FetchWeatherTyped);
    let call = ToolCall::new("call_1", "fetch_weather", arguments);
    bencher.bench(|| drop(block_on(executor.dispatch(black_box(&call))).to_model_content()));
}

/// Validation alone, of arguments with nothing to fill: no allocation.
#[divan::bench]
fn validate_complete(bencher: Bencher<'_, '_>) {
    let spec = dynamic_spec();
    let schema = spec.input_schema().expect("an input schema");
    let Ok(Value::Object(mut arguments)) = serde_json::from_str(CASES[1]) else {
        unreachable!("case (b) is an object")
    };
    bencher.bench_local(|| schema.validate(black_box(&mut arguments)).len());
}

/// The paths agree on what they return for case (a), so that they are measured doing the
/// same work.
fn agreement_check() {
    let expected = json!({"city": "Paris", "temperature": 72.0, "units": "imperial"});
    let minimal = minimal_dispatch(&minimal_registry(), "fetch_weather", CASES[0]).unwrap();
    assert_eq!(Value::Object(minimal), expected);
    let serde = block_on(serde_registry()["fetch_weather"].call(CASES[0])).unwrap();
    assert_eq!(serde, expected);
    let call = ToolCall::new("call_1", "fetch_weather", CASES[0]);
    let dynamic = block_on(executor(FetchWeatherByHand(dynamic_spec())).dispatch(&call));
    assert_eq!(dynamic.output().cloned(), Some(expected.clone()));
    let typed = block_on(executor(FetchWeatherTyped).dispatch(&call));
    assert_eq!(typed.output().cloned(), Some(expected));
}
