//! The annotations and input examples of `#[tool(...)]` end up in the tool's spec: the same
//! spec the builder makes, the same JSON shape, unset hints left unset; the examples as
//! written, and those of an `input = Args` tool checked when it is registered, in the words
//! the compiler uses for the others.

use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolHandler, ToolParams,
    ToolRegistry, ToolSchema, ToolSpec, tool,
};
use serde_json::{Value, json};

/// Deletes a file.
#[tool(
    name = "delete_file",
    title = "Delete a file",
    destructive,
    idempotent = true,
    open_world = false
)]
struct DeleteFile;

impl ToolHandler for DeleteFile {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

/// Read-only and explicitly not destructive: no contradiction.
#[tool(name = "read_file", read_only, destructive = false)]
struct ReadFile;

impl ToolHandler for ReadFile {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string, min_length = 1 },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "days", type = integer, required = false, minimum = 1, maximum = 7 },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
        ] },
    ],
    examples = [
        { city = "Paris" },
        { city = "Lyon", units = "imperial", days = 3.0 },
        { city = "Nice", stops = [{ city = "Cannes" }, { city = "Antibes", nights = 2 }] },
    ],
    read_only,
)]
struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<JsonObject, BoxError> {
        Ok(json!({ "city": input.city })
            .as_object()
            .cloned()
            .unwrap_or_default())
    }
}

/// No input schema: any object is an example.
#[tool(name = "echo", examples = [{ anything = [1, "two", { three = 3.5 }] }])]
struct Echo;

impl ToolHandler for Echo {
    async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(input)
    }
}

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

#[test]
fn annotations_reach_the_spec_as_the_builder_makes_them() {
    let built = ToolSpec::builder("delete_file")
        .description("Deletes a file.")
        .title("Delete a file")
        .destructive(true)
        .idempotent(true)
        .open_world(false)
        .build()
        .unwrap();
    assert_eq!(DeleteFile.spec(), &built);
    let annotations = DeleteFile.spec().annotations();
    assert_eq!(annotations.title(), Some("Delete a file"));
    // Not written: unset, which MCP reads otherwise than `false`.
    assert_eq!(annotations.read_only(), None);
    assert_eq!(annotations.destructive(), Some(true));
    assert_eq!(annotations.open_world(), Some(false));
    assert_eq!(
        DeleteFile.spec().to_value()["annotations"],
        json!({"title": "Delete a file", "destructive": true, "idempotent": true, "open_world": false})
    );
    let reader = ReadFile.spec().annotations();
    assert_eq!(
        (reader.read_only(), reader.destructive()),
        (Some(true), Some(false))
    );
    assert!(!reader.may_destroy());
    // A tool that says nothing has no annotations.
    assert!(Echo.spec().annotations().is_empty());
}

#[test]
fn examples_reach_the_spec_as_written() {
    let examples = [
        json!({"city": "Paris"}),
        json!({"city": "Lyon", "units": "imperial", "days": 3.0}),
        json!({"city": "Nice", "stops": [{"city": "Cannes"}, {"city": "Antibes", "nights": 2}]}),
    ]
    .map(object);
    let spec = FetchWeather.spec();
    // As written: no default filled in (`units`, `nights`), `3.0` not made `3`.
    assert_eq!(spec.examples(), examples);
    let stop = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("nights", ParamType::Integer).with_default(1),
    ])
    .unwrap();
    let built = ToolSpec::builder("fetch_weather")
        .input(
            ToolSchema::new([
                Param::required("city", ParamType::String).with_min_length(1),
                Param::optional("units", ParamType::String)
                    .with_enum(["metric", "imperial"])
                    .with_default("metric"),
                Param::optional("days", ParamType::Integer)
                    .with_minimum(1)
                    .with_maximum(7),
                Param::optional("stops", ParamType::List)
                    .with_items(ParamType::Dictionary)
                    .with_fields(stop),
            ])
            .unwrap(),
        )
        .read_only(true)
        .examples(examples.clone())
        .build()
        .unwrap();
    assert_eq!(spec, &built);
    // The JSON shape keeps them, and loads back to the same spec.
    let value = spec.to_value();
    assert_eq!(value["examples"], json!(examples));
    assert_eq!(&ToolSpec::from_value(value).unwrap(), spec);
    assert_eq!(
        Echo.spec().examples(),
        [object(json!({"anything": [1, "two", {"three": 3.5}]}))]
    );
    // Reading them twice gives the same objects, made once.
    assert!(std::ptr::eq(
        spec.examples(),
        FetchWeather.spec().examples()
    ));
}

#[derive(ToolParams)]
pub(crate) struct SearchArgs {
    /// What to look for.
    pub(crate) query: String,
    #[param(maximum = 50)]
    pub(crate) limit: Option<i64>,
}

/// The compiler cannot see `SearchArgs`' parameters from here: the registry checks.
#[tool(
    name = "search",
    input = SearchArgs,
    examples = [{ query = "rust", limit = 10 }, { qurey = "rust", limit = 80 }, { limit = 5 }],
)]
struct BadSearch;

impl ToolHandler for BadSearch {
    async fn run(&self, _: SearchArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

#[tool(name = "search", input = SearchArgs, examples = [{ query = "rust", limit = 10 }])]
struct Search;

impl ToolHandler for Search {
    async fn run(&self, _: SearchArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        Ok(JsonObject::new())
    }
}

#[test]
fn the_examples_of_a_typed_input_are_checked_when_registered() {
    let mut registry = ToolRegistry::new();
    let err = registry.register(BadSearch).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid tool declaration (3 problems):
  input example 1: parameter 'limit': the value must be at most 50, got 80
  input example 1: unknown parameter 'qurey'; did you mean 'query'?
  input example 2: missing required parameter 'query'"
    );
    assert!(registry.lookup("search").is_none());
    registry.register(Search).unwrap();
    assert_eq!(
        registry.lookup("search").unwrap().examples(),
        [object(json!({"query": "rust", "limit": 10}))]
    );
}
