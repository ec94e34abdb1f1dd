//! Declared dictionary fields: the spec `#[tool(...)]` builds as `static` data equals the one
//! built at run time with `Param::with_fields`, and the typed view of such a dictionary is a
//! generated struct (`PlanTripInputOrigin`; a `Vec` of them for a list of dictionaries, and
//! `PlanTripInputStopsHotel` one level down), which `execute` fills. The generated code stays
//! clean under `clippy::pedantic` next to a user `mod core {}`.
#![warn(clippy::pedantic)]
#![deny(unused_qualifications)]

use agentkit_core::{
    BoxError, Credentials, JsonObject, Literal, Param, ParamType, Tool, ToolCall, ToolContext,
    ToolExecutor, ToolHandler, ToolRegistry, ToolSchema, ToolSpec, block_on, tool,
};
use serde_json::json;

#[allow(dead_code)]
mod core {}

#[tool(
    name = "plan_trip",
    description = "Plan a trip.",
    input = [
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string, description = "City name" },
            { name = "country", type = string, required = false, default = "US" },
        ] },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1 },
            { name = "hotel", type = dictionary, required = false, fields = [
                { name = "name", type = string },
                { name = "tags", type = list, items = string, required = false },
            ] },
        ] },
        { name = "prefs", type = dictionary, required = false,
          default = { seat = "aisle" },
          fields = [ { name = "seat", type = string }, { name = "meal", type = string, required = false } ] },
        { name = "legs", type = list, items = dictionary, required = false,
          default = [{ from = "A", to = "B" }],
          fields = [ { name = "from", type = string }, { name = "to", type = string } ] },
    ],
    output = [
        { name = "summary", type = dictionary, fields = [
            { name = "origin", type = string },
            { name = "stops", type = integer },
            { name = "nights", type = integer },
            { name = "hotel", type = string, required = false },
            { name = "seat", type = string },
        ] },
    ],
)]
struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(
        &self,
        input: PlanTripInput,
        _: &ToolContext<'_>,
    ) -> Result<PlanTripOutput, BoxError> {
        let origin: PlanTripInputOrigin = input.origin;
        let stops: Option<Vec<PlanTripInputStops>> = input.stops;
        let prefs: PlanTripInputPrefs = input.prefs;
        let legs: Vec<PlanTripInputLegs> = input.legs;
        assert_eq!(legs.len(), 1);
        let stops = stops.unwrap_or_default();
        let hotel: Option<&PlanTripInputStopsHotel> = stops.iter().find_map(|s| s.hotel.as_ref());
        let nights: i64 = stops.iter().map(|s| s.nights).sum();
        Ok(PlanTripOutput {
            summary: PlanTripOutputSummary {
                origin: format!("{}, {}", origin.city, origin.country),
                stops: i64::try_from(stops.len())?,
                nights,
                hotel: hotel.map(|h| h.name.clone()),
                seat: prefs.seat,
            },
        })
    }
}

fn schema(params: impl IntoIterator<Item = Param>) -> ToolSchema {
    ToolSchema::new(params).expect("a valid schema")
}

/// The same spec, built at run time.
fn hand_built() -> ToolSpec {
    let origin = schema([
        Param::required("city", ParamType::String).with_description("City name"),
        Param::optional("country", ParamType::String).with_default("US"),
    ]);
    let hotel = schema([
        Param::required("name", ParamType::String),
        Param::optional("tags", ParamType::List).with_items(ParamType::String),
    ]);
    let stop = schema([
        Param::required("city", ParamType::String),
        Param::optional("nights", ParamType::Integer).with_default(1),
        Param::optional("hotel", ParamType::Dictionary).with_fields(hotel),
    ]);
    let prefs = schema([
        Param::required("seat", ParamType::String),
        Param::optional("meal", ParamType::String),
    ]);
    let leg = schema([
        Param::required("from", ParamType::String),
        Param::required("to", ParamType::String),
    ]);
    let summary = schema([
        Param::required("origin", ParamType::String),
        Param::required("stops", ParamType::Integer),
        Param::required("nights", ParamType::Integer),
        Param::optional("hotel", ParamType::String),
        Param::required("seat", ParamType::String),
    ]);
    let input = schema([
        Param::required("origin", ParamType::Dictionary).with_fields(origin),
        Param::optional("stops", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(stop),
        Param::optional("prefs", ParamType::Dictionary)
            .with_default(Literal::from(json!({"seat": "aisle"})))
            .with_fields(prefs),
        Param::optional("legs", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_default(Literal::from(json!([{"from": "A", "to": "B"}])))
            .with_fields(leg),
    ]);
    let output = schema([Param::required("summary", ParamType::Dictionary).with_fields(summary)]);
    ToolSpec::builder("plan_trip")
        .description("Plan a trip.")
        .input(input)
        .output(output)
        .build()
        .expect("a valid spec")
}

#[test]
fn the_macro_spec_equals_the_run_time_one() {
    let hand = hand_built();
    assert_eq!(PlanTrip.spec(), &hand);
    assert_eq!(
        PlanTrip.spec().input_json_schema(),
        hand.input_json_schema()
    );
    assert_eq!(PlanTrip.spec().to_value(), hand.to_value());
}

#[test]
fn nested_fields_are_in_the_static_spec() {
    let input = PlanTrip.spec().input_schema().expect("declared");
    let hotel = input
        .parameter("stops")
        .and_then(Param::fields)
        .and_then(|stop| stop.parameter("hotel"))
        .and_then(Param::fields)
        .expect("nested fields");
    let tags = hotel.parameter("tags").expect("declared");
    assert_eq!(tags.items(), Some(ParamType::String));
    assert!(!tags.is_required());
    let prefs = input.parameter("prefs").expect("declared");
    assert_eq!(
        prefs.default_value().map(Literal::to_value),
        Some(json!({"seat": "aisle"}))
    );
}

#[test]
fn execute_reads_dictionaries_with_fields_as_structs() {
    // Already valid, with every default filled in.
    let inputs: JsonObject = json!({
        "origin": {"city": "Lyon", "country": "FR"},
        "stops": [{"city": "Turin", "nights": 2}, {"city": "Genoa", "nights": 1, "hotel": {"name": "Mare"}}],
        "prefs": {"seat": "window"},
        "legs": [{"from": "A", "to": "B"}],
    })
    .as_object()
    .cloned()
    .expect("an object");
    let credentials = Credentials::new();
    let ctx = ToolContext::detached("plan_trip", &credentials);
    let output = block_on(PlanTrip.execute(&inputs, &ctx)).expect("the tool runs");
    assert_eq!(
        output.into_structured().unwrap(),
        json!({"summary": {"origin": "Lyon, FR", "stops": 2, "nights": 3, "hotel": "Mare", "seat": "window"}})
    );
}

#[test]
fn the_executor_fills_nested_defaults_before_run() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).expect("registers");
    let executor = ToolExecutor::builder(registry).build();
    let call = ToolCall::new(
        "call_1",
        "plan_trip",
        r#"{"origin": {"city": "Lyon"}, "stops": [{"city": "Turin"}]}"#,
    );
    let result = block_on(executor.dispatch(&call));
    assert!(result.is_success(), "{}", result.to_model_content());
    assert_eq!(
        result.output().cloned(),
        Some(json!({"summary": {"origin": "Lyon, US", "stops": 1, "nights": 1, "seat": "aisle"}}))
    );
    let call = ToolCall::new("call_2", "plan_trip", r#"{"origin": {"city": 5}}"#);
    let result = block_on(executor.dispatch(&call));
    assert!(!result.is_success());
    assert!(
        result.to_model_content().contains("origin.city"),
        "{}",
        result.to_model_content()
    );
}
