//! The typed views `#[tool(...)]` generates are real types: they serialize to the JSON the
//! executor validates (parameter names as keys, absent optionals left out), deserialize from
//! it to what the typed path builds, a dictionary with `fields` is a nested struct at any
//! depth, and a string `enum` is a Rust enum. All through agentkit-core's own serde: this
//! file names serde nowhere.
#![warn(clippy::pedantic)]

use agentkit_core::{
    BoxError, FromInputs, FromParam, IntoOutput, IntoParam, JsonObject, ParamType, ToolCall,
    ToolContext, ToolExecutor, ToolHandler, ToolRegistry, block_on, tool,
};
use serde_json::{Value, json};

#[tool(
    name = "plan_trip",
    input = [
        { name = "max-days", type = integer, required = false, default = 7 },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
        { name = "pace", type = string, required = false, enum = ["slow", "fast-track", "KM/H"] },
        { name = "mood", type = string, required = false, enum = ["1st", "second"] },
        { name = "level", type = integer, required = false, enum = [1, 2, 3] },
        { name = "type", type = string, required = false },
        { name = "origin", type = dictionary, fields = [
            { name = "city", type = string },
            { name = "zipCode", type = string, required = false },
        ] },
        { name = "stops", type = list, items = dictionary, required = false, fields = [
            { name = "city", type = string },
            { name = "hotel", type = dictionary, required = false, fields = [
                { name = "name", type = string },
                { name = "rooms", type = list, items = dictionary, fields = [
                    { name = "kind", type = string, enum = ["single", "double"] },
                ] },
            ] },
        ] },
        { name = "notes", type = dictionary, required = false },
    ],
    output = [
        { name = "units", type = string, enum = ["metric", "imperial"] },
        { name = "legs", type = list, items = dictionary, fields = [
            { name = "from", type = string },
            { name = "km", type = float, required = false },
        ] },
        { name = "note", type = string, required = false, default = "none" },
    ],
)]
/// Plans a trip.
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(
        &self,
        input: PlanTripInput,
        _: &ToolContext<'_>,
    ) -> Result<PlanTripOutput, BoxError> {
        let units = match input.units {
            PlanTripInputUnits::Metric => PlanTripOutputUnits::Metric,
            PlanTripInputUnits::Imperial => PlanTripOutputUnits::Imperial,
        };
        let mut legs = vec![PlanTripOutputLegs {
            from: input.origin.city,
            km: None,
        }];
        for stop in input.stops.unwrap_or_default() {
            let rooms = stop.hotel.map_or(0, |hotel| hotel.rooms.len());
            legs.push(PlanTripOutputLegs {
                from: stop.city,
                km: Some(f64::from(u32::try_from(rooms)?)),
            });
        }
        Ok(PlanTripOutput {
            units,
            legs,
            note: input.pace.map(|pace| pace.to_string()),
        })
    }
}

fn object(value: &Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

/// Inputs as validation leaves them: defaults filled in, absent optionals left out.
fn validated() -> JsonObject {
    object(&json!({
        "max-days": 3,
        "units": "imperial",
        "pace": "fast-track",
        "level": 2,
        "type": "city break",
        "origin": {"city": "Lyon", "zipCode": "69001"},
        "stops": [
            {"city": "Turin"},
            {"city": "Genoa", "hotel": {"name": "Mare", "rooms": [{"kind": "double"}, {"kind": "single"}]}},
        ],
        "notes": {"free": ["form", 1]},
    }))
}

#[test]
fn the_input_serializes_to_the_validated_inputs() {
    let inputs = validated();
    let input = PlanTripInput::from_inputs(&inputs).expect("converts");
    assert_eq!(
        serde_json::to_value(&input).expect("serializes"),
        Value::Object(inputs)
    );
}

#[test]
fn deserializing_gives_what_the_typed_path_gives() {
    let inputs = validated();
    let typed = PlanTripInput::from_inputs(&inputs).expect("converts");
    let deserialized: PlanTripInput =
        serde_json::from_value(Value::Object(inputs)).expect("deserializes");
    assert_eq!(deserialized, typed);
    // Absent optionals are `None`, and skipped again on the way out.
    let minimal = object(&json!({"max-days": 7, "units": "metric", "origin": {"city": "Oslo"}}));
    let typed = PlanTripInput::from_inputs(&minimal).expect("converts");
    assert_eq!(typed.stops, None);
    assert_eq!(typed.origin.zipCode, None);
    let deserialized: PlanTripInput =
        serde_json::from_value(Value::Object(minimal.clone())).expect("deserializes");
    assert_eq!(deserialized, typed);
    assert_eq!(
        serde_json::to_value(&typed).expect("serializes"),
        Value::Object(minimal)
    );
}

#[test]
fn names_that_are_not_identifiers_keep_their_parameter_names() {
    let input = PlanTripInput::from_inputs(&validated()).expect("converts");
    assert_eq!(input.max_days, 3);
    assert_eq!(input.r#type.as_deref(), Some("city break"));
    assert_eq!(input.origin.zipCode.as_deref(), Some("69001"));
    let value = serde_json::to_value(&input).expect("serializes");
    assert_eq!(value["max-days"], 3);
    assert_eq!(value["type"], "city break");
    assert!(value.get("max_days").is_none(), "{value}");
}

#[test]
fn nested_dictionaries_are_structs_at_any_depth() {
    let input = PlanTripInput::from_inputs(&validated()).expect("converts");
    let stops: Vec<PlanTripInputStops> = input.stops.expect("given");
    let hotel: &PlanTripInputStopsHotel = stops[1].hotel.as_ref().expect("given");
    assert_eq!(hotel.name, "Mare");
    let kinds: Vec<PlanTripInputStopsHotelRoomsKind> =
        hotel.rooms.iter().map(|room| room.kind).collect();
    assert_eq!(
        kinds,
        [
            PlanTripInputStopsHotelRoomsKind::Double,
            PlanTripInputStopsHotelRoomsKind::Single
        ]
    );
    // A dictionary without declared fields stays a map.
    let notes: Option<serde_json::Map<String, Value>> = input.notes;
    assert_eq!(notes.map(Value::Object), Some(json!({"free": ["form", 1]})));
    // A nested struct converts like any parameter value, and a wrong shape is refused.
    let origin = PlanTripInputOrigin::from_value(Some(&json!({"city": "Rome"}))).expect("fits");
    assert_eq!(origin.city, "Rome");
    assert_eq!(PlanTripInputOrigin::PARAM_TYPE, ParamType::Dictionary);
    assert_eq!(
        PlanTripInputOrigin::from_value(Some(&json!({"city": 5}))),
        None
    );
    assert_eq!(PlanTripInputOrigin::from_value(Some(&json!("Rome"))), None);
    assert_eq!(origin.into_value(), Some(json!({"city": "Rome"})));
}

#[test]
fn string_enums_are_rust_enums() {
    let input = PlanTripInput::from_inputs(&validated()).expect("converts");
    assert_eq!(input.units, PlanTripInputUnits::Imperial);
    assert_eq!(input.pace, Some(PlanTripInputPace::FastTrack));
    assert_eq!(PlanTripInputPace::KmH.as_str(), "KM/H");
    assert_eq!(PlanTripInputPace::FastTrack.to_string(), "fast-track");
    assert_eq!(
        serde_json::to_value(PlanTripInputPace::KmH).expect("serializes"),
        json!("KM/H")
    );
    assert_eq!(
        serde_json::from_value::<PlanTripInputUnits>(json!("metric")).expect("deserializes"),
        PlanTripInputUnits::Metric
    );
    assert!(serde_json::from_value::<PlanTripInputUnits>(json!("kelvin")).is_err());
    assert_eq!(PlanTripInputUnits::from_value(Some(&json!("kelvin"))), None);
    // An integer enum stays an integer, and a value that makes no variant name (`1st`)
    // leaves its enum a string.
    let level: Option<i64> = input.level;
    assert_eq!(level, Some(2));
    let mood: Option<String> = PlanTripInput::from_inputs(&object(&json!({
        "max-days": 1, "units": "metric", "origin": {"city": "Oslo"}, "mood": "1st",
    })))
    .expect("converts")
    .mood;
    assert_eq!(mood.as_deref(), Some("1st"));
}

#[test]
fn outputs_serialize_to_what_into_output_writes() {
    let output = PlanTripOutput {
        units: PlanTripOutputUnits::Metric,
        legs: vec![
            PlanTripOutputLegs {
                from: "Lyon".into(),
                km: None,
            },
            PlanTripOutputLegs {
                from: "Turin".into(),
                km: Some(2.5),
            },
        ],
        note: None,
    };
    let expected =
        json!({"units": "metric", "legs": [{"from": "Lyon"}, {"from": "Turin", "km": 2.5}]});
    assert_eq!(serde_json::to_value(&output).expect("serializes"), expected);
    assert_eq!(Value::Object(output.clone().into_output()), expected);
    let back: PlanTripOutput = serde_json::from_value(expected).expect("deserializes");
    assert_eq!(back, output);
}

#[test]
fn the_executor_runs_the_typed_views() {
    let mut registry = ToolRegistry::new();
    registry.register(PlanTrip).expect("registers");
    let executor = ToolExecutor::builder(registry).build();
    let call = ToolCall::new(
        "call_1",
        "plan_trip",
        r#"{"origin": {"city": "Lyon"}, "pace": "slow",
            "stops": [{"city": "Genoa", "hotel": {"name": "Mare", "rooms": [{"kind": "single"}]}}]}"#,
    );
    let result = block_on(executor.dispatch(&call));
    assert!(result.is_success(), "{}", result.to_model_content());
    assert_eq!(
        result.output().cloned(),
        Some(json!({
            "units": "metric",
            "legs": [{"from": "Lyon"}, {"from": "Genoa", "km": 1.0}],
            "note": "slow",
        }))
    );
    let call = ToolCall::new(
        "call_2",
        "plan_trip",
        r#"{"origin": {"city": "Lyon"}, "units": "kelvin"}"#,
    );
    let result = block_on(executor.dispatch(&call));
    assert!(!result.is_success());
    assert!(
        result.to_model_content().contains("'kelvin'"),
        "{}",
        result.to_model_content()
    );
}
