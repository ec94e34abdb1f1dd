//! Type-first tools: `#[derive(ToolParams)]` structs and enums in `#[tool(input = ..,
//! output = ..)]` give the spec, validation, JSON Schema and provider declarations of the
//! same parameters written as list literals, and the handler gets and returns the user's
//! own types.

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use agentkit_core::{
    BoxError, JsonObject, ParamSchema, ParamType, Tool, ToolCall, ToolContext, ToolExecutor,
    ToolHandler, ToolParams, ToolRegistry, ToolSpec, block_on, tool,
};
use serde_json::{Value, json};

// The literal form.
#[tool(
    name = "plan_trip",
    description = "Plan a trip.",
    input = [
        { name = "city", type = string, description = "Where to go.", min_length = 1, max_length = 80 },
        { name = "days", type = integer, required = false, default = 3, minimum = 1, maximum = 30, description = "How long." },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "pace", type = string, required = false, enum = ["slow", "fast_track"] },
        { name = "budget", type = float, required = false, minimum = 0 },
        { name = "tags", type = list, items = string, required = false, max_items = 5 },
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string },
            { name = "country", type = string, required = false, default = "US" },
        ] },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer, required = false, default = 1, minimum = 1 },
        ] },
        { name = "max-legs", type = integer, required = false },
        { name = "notes", type = dictionary, required = false },
        { name = "raw", type = list, required = false },
    ],
    output = [
        { name = "summary", type = string },
        { name = "legs", type = integer },
    ],
)]
struct PlanTripLiteral;

impl ToolHandler for PlanTripLiteral {
    async fn run(
        &self,
        _: PlanTripLiteralInput,
        _: &ToolContext<'_>,
    ) -> Result<PlanTripLiteralOutput, BoxError> {
        Ok(PlanTripLiteralOutput {
            summary: String::new(),
            legs: 0,
        })
    }
}

// The same parameters as Rust types.
#[derive(Debug, Clone, Copy, PartialEq, ToolParams)]
enum Units {
    Metric,
    Imperial,
}

#[derive(Debug, Clone, Copy, PartialEq, ToolParams)]
enum Pace {
    Slow,
    FastTrack,
}

#[derive(Debug, PartialEq, ToolParams)]
struct Place {
    city: String,
    #[param(default = "US")]
    country: String,
}

#[derive(Debug, PartialEq, ToolParams)]
struct Stop {
    city: String,
    #[param(default = 1, minimum = 1)]
    nights: i64,
}

#[derive(Debug, PartialEq, ToolParams)]
struct TripArgs {
    /// Where to go.
    #[param(min_length = 1, max_length = 80)]
    city: String,
    /// How long.
    #[param(default = 3, minimum = 1, maximum = 30)]
    days: i64,
    #[param(default = "metric")]
    units: Units,
    pace: Option<Pace>,
    #[param(minimum = 0)]
    budget: Option<f64>,
    #[param(max_items = 5)]
    tags: Option<Vec<String>>,
    origin: Place,
    stops: Option<Vec<Stop>>,
    #[param(rename = "max-legs")]
    max_legs: Option<i64>,
    notes: Option<JsonObject>,
    raw: Option<Vec<Value>>,
}

#[derive(Debug, PartialEq, ToolParams)]
struct TripPlan {
    summary: String,
    legs: i64,
}

#[tool(name = "plan_trip", description = "Plan a trip.", input = TripArgs, output = TripPlan)]
struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(&self, input: TripArgs, _: &ToolContext<'_>) -> Result<TripPlan, BoxError> {
        let stops = input.stops.unwrap_or_default();
        let nights: i64 = stops.iter().map(|s| s.nights).sum();
        let summary = format!(
            "{} days in {} from {}, {}; {:?}, {:?}; {nights} nights at stops",
            input.days,
            input.city,
            input.origin.city,
            input.origin.country,
            input.units,
            input.pace
        );
        Ok(TripPlan {
            summary,
            legs: i64::try_from(stops.len())? + 1,
        })
    }
}

fn executor(tool: impl Tool) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    ToolExecutor::new(registry)
}

#[test]
fn the_type_first_spec_equals_the_literal_one() {
    assert_eq!(PlanTrip.spec(), PlanTripLiteral.spec());
    assert_eq!(
        PlanTrip.spec().input_json_schema(),
        PlanTripLiteral.spec().input_json_schema()
    );
    assert_eq!(
        PlanTrip.spec().output_json_schema(),
        PlanTripLiteral.spec().output_json_schema()
    );
    let both = |f: fn(&[&ToolSpec]) -> Value| {
        assert_eq!(f(&[PlanTrip.spec()]), f(&[PlanTripLiteral.spec()]));
    };
    both(|s| openai_chat::tools(s.iter().copied()));
    both(|s| openai_chat::strict_tools(s.iter().copied()));
    both(|s| openai_responses::tools(s.iter().copied()));
    both(|s| openai_responses::strict_tools(s.iter().copied()));
    both(|s| anthropic::tools(s.iter().copied()));
    both(|s| anthropic::strict_tools(s.iter().copied()));
    both(|s| gemini::tools(s.iter().copied()));
    both(|s| mcp::tools(s.iter().copied()));
    // And the spec round-trips through its JSON shape like any other.
    let json = PlanTrip.spec().to_value();
    assert_eq!(&ToolSpec::from_value(json).unwrap(), PlanTrip.spec());
}

#[test]
fn validation_is_the_same_for_both_forms() {
    let typed = executor(PlanTrip);
    let literal = executor(PlanTripLiteral);
    for arguments in [
        json!({}),
        json!({"city": "", "days": 0, "units": "kelvin", "origin": {}}),
        json!({"city": "Nice", "origin": {"city": 5}, "stops": [{"nights": 0}], "tags": ["a", "b", "c", "d", "e", "f"]}),
        json!({"city": "Nice", "origin": {"city": "Paris"}, "pace": "fast-track", "budget": -1, "max-legs": "2"}),
        json!({"city": "Nice", "origin": {"city": "Paris"}, "days": 31, "notes": [], "raw": {}}),
    ] {
        let call = ToolCall::new("c1", "plan_trip", arguments.to_string());
        let a = block_on(typed.dispatch(&call));
        let b = block_on(literal.dispatch(&call));
        assert!(!a.is_success(), "{arguments}");
        assert_eq!(a.to_model_content(), b.to_model_content(), "{arguments}");
    }
}

#[test]
fn the_handler_gets_its_own_types_with_defaults_filled() {
    let typed = executor(PlanTrip);
    let call = ToolCall::new(
        "c1",
        "plan_trip",
        r#"{"city":"Nice","origin":{"city":"Paris"},"pace":"fast_track","stops":[{"city":"Lyon"},{"city":"Arles","nights":2}]}"#,
    );
    let result = block_on(typed.dispatch(&call));
    assert!(result.is_success(), "{}", result.to_model_content());
    assert_eq!(
        result.output().unwrap(),
        &json!({"summary": "3 days in Nice from Paris, US; Metric, Some(FastTrack); 3 nights at stops", "legs": 3})
    );
}

#[test]
fn conversions_read_and_write_the_validated_json() {
    let inputs = json!({
        "city": "Nice", "days": 2, "units": "imperial", "origin": {"city": "Paris", "country": "FR"},
        "stops": [{"city": "Lyon", "nights": 1}], "max-legs": 4,
    });
    let args = <TripArgs as agentkit_core::__private::FromInputs>::from_inputs(
        inputs.as_object().unwrap(),
    )
    .unwrap();
    assert_eq!(args.units, Units::Imperial);
    assert_eq!(args.max_legs, Some(4));
    assert_eq!(
        args.origin,
        Place {
            city: "Paris".into(),
            country: "FR".into()
        }
    );
    assert_eq!(args.pace, None);
    // Back to JSON: the parameter names, absent optionals left out.
    let out = agentkit_core::__private::IntoOutput::into_output(args);
    assert_eq!(Value::Object(out), inputs);
    // A value the schema would refuse does not convert (for a call around the executor).
    let bad = json!({"city": "Nice", "days": 2, "units": "kelvin", "origin": {"city": "Paris", "country": "FR"}});
    let err =
        <TripArgs as agentkit_core::__private::FromInputs>::from_inputs(bad.as_object().unwrap())
            .map(|_| ())
            .unwrap_err();
    assert_eq!(err.param(), "units");
}

#[test]
fn enums_are_strings_with_their_values_in_snake_case_or_renamed() {
    #[derive(Debug, PartialEq, ToolParams)]
    enum Mode {
        FastTrack,
        #[param(rename = "km/h")]
        KmH,
        HTTPServer,
    }
    let shape = <Mode as ParamSchema>::SHAPE;
    assert_eq!(shape.ty, ParamType::String);
    let values: Vec<Value> = shape
        .enum_values
        .unwrap()
        .iter()
        .map(|v| v.to_value())
        .collect();
    assert_eq!(
        values,
        [json!("fast_track"), json!("km/h"), json!("http_server")]
    );
}

#[test]
fn narrow_integer_types_are_bounded_by_what_they_hold() {
    #[derive(ToolParams)]
    struct Args {
        level: u8,
        #[param(maximum = 10)]
        count: u32,
        offset: i16,
        big: u64,
    }
    #[tool(name = "narrow", input = Args)]
    struct Narrow;
    impl ToolHandler for Narrow {
        async fn run(&self, input: Args, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
            let _ = (input.level, input.count, input.offset, input.big);
            Ok(JsonObject::new())
        }
    }
    let schema = Args::schema();
    let p = schema.parameters();
    let bounds = |i: usize| {
        (
            p[i].minimum().map(|n| n.to_string()),
            p[i].maximum().map(|n| n.to_string()),
        )
    };
    assert_eq!(bounds(0), (Some("0".into()), Some("255".into())));
    assert_eq!(bounds(1), (Some("0".into()), Some("10".into())));
    assert_eq!(bounds(2), (Some("-32768".into()), Some("32767".into())));
    assert_eq!(bounds(3), (Some("0".into()), None));
    let result = block_on(executor(Narrow).dispatch(&ToolCall::new(
        "c1",
        "narrow",
        r#"{"level":300,"count":11,"offset":-40000,"big":-1}"#,
    )));
    assert_eq!(
        result.to_model_content(),
        "Error: invalid arguments for tool 'narrow':\n\
         - Parameter 'level': must be at most 255, got 300\n\
         - Parameter 'count': must be at most 10, got 11\n\
         - Parameter 'offset': must be at least -32768, got -40000\n\
         - Parameter 'big': must be at least 0, got -1"
    );
    let ok = block_on(executor(Narrow).dispatch(&ToolCall::new(
        "c2",
        "narrow",
        r#"{"level":255,"count":10,"offset":-32768,"big":18}"#,
    )));
    assert!(ok.is_success(), "{}", ok.to_model_content());
}

#[test]
fn a_struct_is_a_dictionary_parameter_and_its_schema_borrows_static_data() {
    assert_eq!(<Place as ParamSchema>::SHAPE.ty, ParamType::Dictionary);
    assert_eq!(
        <Option<Vec<Stop>> as ParamSchema>::SHAPE.items,
        Some(ParamType::Dictionary)
    );
    const { assert!(<Option<Vec<Stop>> as ParamSchema>::SHAPE.optional) };
    // `schema()` is the same list as the static one.
    assert_eq!(TripArgs::schema().parameters(), TripArgs::PARAMS);
    assert_eq!(TripArgs::PARAMS[0].description(), "Where to go.");
}

#[test]
fn the_handler_returns_its_own_output_type_as_json() {
    // `TripPlan` is the output schema: a handler's value always fits it, and the result's
    // output is the struct as JSON.
    let typed = executor(PlanTrip);
    let call = ToolCall::new(
        "c1",
        "plan_trip",
        r#"{"city":"Nice","origin":{"city":"Paris"}}"#,
    );
    let result = block_on(typed.dispatch(&call));
    let output = result.output().unwrap();
    assert_eq!(output["legs"], 1);
    assert!(
        output["summary"]
            .as_str()
            .unwrap()
            .starts_with("3 days in Nice")
    );
}
