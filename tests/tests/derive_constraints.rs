//! Constraints in `#[tool(...)]`: `enum`, `minimum`/`maximum`, `min_length`/`max_length` and
//! `min_items`/`max_items`, at any depth, give the same `static` spec as the builders at run
//! time, are enforced by the executor, and a mistake in them reads the same whether the
//! compiler or `ToolSchema::from_value` finds it.
#![warn(clippy::pedantic)]

use agentkit_core::{
    BoxError, InMemoryCredentials, JsonObject, Literal, Number, Param, ParamType, Tool, ToolCall,
    ToolContext, ToolExecutor, ToolHandler, ToolOutput, ToolRegistry, ToolSchema, ToolSpec,
    block_on, tool,
};
use serde_json::{Value, json};

#[tool(
    name = "search",
    description = "Search the catalogue.",
    input = [
        { name = "query", type = string, min_length = 1, max_length = 100 },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "limit", type = integer, required = false, minimum = 1, maximum = 50, default = 10 },
        { name = "score", type = float, required = false, minimum = -0.5, maximum = 1 },
        { name = "page", type = integer, required = false, enum = [1, 2, -3] },
        { name = "tags", type = list, items = string, required = false, min_items = 1, max_items = 5 },
        { name = "filter", type = dictionary, required = false, fields = [
            { name = "colour", type = string, enum = ["red", "blue"] },
            { name = "sizes", type = list, items = integer, required = false, max_items = 3 },
        ] },
    ],
    output = [{ name = "hits", type = integer, minimum = 0 }],
)]
struct Search;

impl ToolHandler for Search {
    async fn run(&self, input: SearchInput, _: &ToolContext<'_>) -> Result<SearchOutput, BoxError> {
        let hits = if input.query == "nothing" {
            -1
        } else {
            input.limit
        };
        Ok(SearchOutput { hits })
    }
}

fn by_hand() -> ToolSchema {
    let filter = ToolSchema::new([
        Param::required("colour", ParamType::String).with_enum(["red", "blue"]),
        Param::optional("sizes", ParamType::List)
            .with_items(ParamType::Integer)
            .with_max_items(3),
    ])
    .expect("valid");
    ToolSchema::new([
        Param::required("query", ParamType::String)
            .with_min_length(1)
            .with_max_length(100),
        Param::optional("units", ParamType::String)
            .with_enum(["metric", "imperial"])
            .with_default("metric"),
        Param::optional("limit", ParamType::Integer)
            .with_minimum(1)
            .with_maximum(50)
            .with_default(10),
        Param::optional("score", ParamType::Float)
            .with_minimum(-0.5)
            .with_maximum(1),
        Param::optional("page", ParamType::Integer).with_enum([1, 2, -3]),
        Param::optional("tags", ParamType::List)
            .with_items(ParamType::String)
            .with_min_items(1)
            .with_max_items(5),
        Param::optional("filter", ParamType::Dictionary).with_fields(filter),
    ])
    .expect("valid")
}

#[test]
fn the_static_spec_equals_the_one_built_at_run_time() {
    let spec = Search.spec();
    assert_eq!(spec.input_schema(), Some(&by_hand()));
    let limit = spec
        .input_schema()
        .and_then(|s| s.parameter("limit"))
        .expect("limit");
    assert_eq!(limit.minimum(), Some(Number::Integer(1)));
    assert_eq!(limit.maximum(), Some(Number::Integer(50)));
    let units = spec
        .input_schema()
        .and_then(|s| s.parameter("units"))
        .expect("units");
    assert_eq!(
        units.enum_values(),
        Some(&[Literal::from("metric"), Literal::from("imperial")][..])
    );
    assert_eq!(
        spec.input_json_schema(),
        ToolSchema::to_json_schema(&by_hand())
    );
}

fn dispatch(arguments: &Value) -> agentkit_core::ToolResult {
    let mut registry = ToolRegistry::new();
    registry.register(Search).expect("registers");
    let executor = ToolExecutor::builder(registry).build();
    block_on(executor.dispatch(&ToolCall::new("c1", "search", arguments.to_string())))
}

#[test]
fn the_executor_enforces_the_constraints_on_input_and_output() {
    let ok = dispatch(&json!({"query": "rust", "tags": ["a"], "filter": {"colour": "red"}}));
    assert!(ok.is_success(), "{ok:?}");
    assert_eq!(ok.output().expect("output")["hits"], 10);
    let bad = dispatch(&json!({
        "query": "",
        "units": "kelvin",
        "limit": 80,
        "page": 4,
        "filter": {"colour": "green", "sizes": [1, 2, 3, 4]},
    }));
    let text = bad.to_model_content();
    for expected in [
        "Parameter 'query': must be at least 1 character long, got 0",
        "Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'",
        "Parameter 'limit': must be at most 50, got 80",
        "Parameter 'page': expected one of 1, 2, -3, got 4",
        "Parameter 'filter.colour': expected one of 'red', 'blue', got 'green'",
        "Parameter 'filter.sizes': must have at most 3 items, got 4",
    ] {
        assert!(text.contains(expected), "{expected} not in {text}");
    }
    // The output is validated too: a negative count breaks its `minimum`.
    let out = dispatch(&json!({"query": "nothing"}));
    assert!(!out.is_success());
    assert!(
        out.error()
            .expect("error")
            .to_string()
            .contains("Parameter 'hits': must be at least 0, got -1"),
        "{out:?}"
    );
}

/// Every `error: ` line of a compile-fail case's expected output, without `error: `.
fn compile_errors(case: &str) -> Vec<String> {
    let path = format!("{}/ui/fail/{case}.stderr", env!("CARGO_MANIFEST_DIR"));
    let stderr = std::fs::read_to_string(&path).expect("the case's expected output");
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("error: "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_mistake_in_a_constraint_reads_the_same_at_compile_and_run_time() {
    let query = json!({"name": "query", "type": "string"});
    let cases = [
        (
            "default_not_in_enum",
            json!({"name": "units", "type": "string", "required": false, "enum": ["metric", "imperial"], "default": "kelvin"}),
        ),
        (
            "default_above_maximum",
            json!({"name": "limit", "type": "integer", "required": false, "minimum": 1, "maximum": 50, "default": 80}),
        ),
        (
            "default_too_short",
            json!({"name": "tags", "type": "list", "items": "string", "required": false, "min_items": 1, "default": []}),
        ),
        (
            "default_nested_breaks_constraint",
            json!({"name": "filter", "type": "dictionary", "required": false, "default": {"limit": 0},
                "fields": [{"name": "limit", "type": "integer", "minimum": 1}]}),
        ),
        (
            "enum_empty",
            json!({"name": "units", "type": "string", "enum": []}),
        ),
        (
            "enum_value_wrong_type",
            json!({"name": "units", "type": "string", "enum": ["metric", 3]}),
        ),
        (
            "enum_duplicate_value",
            json!({"name": "units", "type": "string", "enum": ["metric", "imperial", "metric"]}),
        ),
        (
            "enum_on_float",
            json!({"name": "ratio", "type": "float", "enum": [0.5, 1.0]}),
        ),
        (
            "minimum_above_maximum",
            json!({"name": "limit", "type": "integer", "minimum": 50, "maximum": 1}),
        ),
        (
            "min_length_above_max_length",
            json!({"name": "code", "type": "string", "min_length": 5, "max_length": 2}),
        ),
        (
            "constraint_on_wrong_type",
            json!({"name": "tags", "type": "list", "items": "string", "min_length": 1}),
        ),
    ];
    for (case, param) in cases {
        let error =
            ToolSchema::from_value(json!({ "parameters": [query, param] })).expect_err("refused");
        let runtime: Vec<String> = error
            .problems()
            .iter()
            .map(|p| p.problem().to_string())
            .collect();
        assert_eq!(compile_errors(case), runtime, "{case}");
    }
}

#[test]
fn an_output_schema_with_constraints_is_exported() {
    let output = Search.spec().output_schema().expect("an output schema");
    assert_eq!(
        output.to_json_schema()["properties"]["hits"],
        json!({"type": "integer", "minimum": 0, "maximum": i64::MAX})
    );
}

/// Echoes its key into an output field whose `enum` it breaks. Written by hand: with
/// `#[tool]`, the field is a generated enum, and no other value compiles.
struct Leaky {
    spec: ToolSpec,
}

impl Leaky {
    fn new() -> Self {
        let output =
            ToolSchema::new([Param::required("mode", ParamType::String).with_enum(["on", "off"])])
                .expect("a valid schema");
        let spec = ToolSpec::builder("leaky")
            .output(output)
            .credential("api-key")
            .build()
            .expect("a valid spec");
        Leaky { spec }
    }
}

impl Tool for Leaky {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        let key = ctx.credential("api-key")?.expose().to_owned();
        let mut output = JsonObject::new();
        output.insert("mode".into(), format!("mode {key}").into());
        Ok(output.into())
    }
}

#[test]
fn an_output_value_outside_its_enum_is_echoed_without_the_secret() {
    let mut registry = ToolRegistry::new();
    registry.register(Leaky::new()).expect("registers");
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("api-key", "sk-live-0123456789"))
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("c1", "leaky", "{}")));
    assert!(!result.is_success());
    let shown = format!(
        "{} {:?} {}",
        result.to_model_content(),
        result,
        result.error().map(ToString::to_string).unwrap_or_default()
    );
    assert!(
        shown.contains("expected one of 'on', 'off', got 'mode "),
        "{shown}"
    );
    assert!(!shown.contains("sk-live-0123456789"), "{shown}");
}
