//! Constraints beyond the type (`enum`, `minimum`/`maximum`, `min_length`/`max_length`,
//! `min_items`/`max_items`) at run time: every broken constraint reported in the validator's
//! words, at any depth; declarations that break the rules refused with every problem; defaults
//! checked against their constraints; the JSON spec shape round-trips them; recorded issues
//! read back the same; every export carries them (or states them in words where a strict
//! mode cannot), and the `jsonschema` crate agrees with the validator on the exported schema.

use agentkit_core::Problem;
use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use agentkit_core::{
    IssueKind, JsonObject, Literal, Number, Param, ParamType, ToolSchema, ToolSpec, ValidationIssue,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn search() -> ToolSchema {
    ToolSchema::new([
        Param::required("query", ParamType::String)
            .with_min_length(1)
            .with_max_length(10),
        Param::optional("units", ParamType::String)
            .with_enum(["metric", "imperial"])
            .with_default("metric"),
        Param::optional("limit", ParamType::Integer)
            .with_minimum(1)
            .with_maximum(50)
            .with_default(10),
        Param::optional("score", ParamType::Float)
            .with_minimum(0.5)
            .with_maximum(1),
        Param::optional("page", ParamType::Integer).with_enum([1, 2, 3]),
        Param::optional("tags", ParamType::List)
            .with_items(ParamType::String)
            .with_min_items(1)
            .with_max_items(3),
    ])
    .expect("valid schema")
}

fn messages(issues: &[ValidationIssue]) -> Vec<String> {
    issues.iter().map(ToString::to_string).collect()
}

#[test]
fn valid_values_pass_and_defaults_fill() {
    let mut args = object(json!({"query": "rust", "score": 1, "page": 2.0, "tags": ["a"]}));
    assert!(search().validate(&mut args).is_empty());
    assert_eq!(args["units"], "metric");
    assert_eq!(args["limit"], 10);
    // Bounds are inclusive, and lengths count characters, not bytes.
    let mut args =
        object(json!({"query": "éééééééééé", "limit": 50, "score": 0.5, "tags": ["a", "b", "c"]}));
    assert!(search().validate(&mut args).is_empty(), "{args:?}");
    // `null` for an optional parameter is "absent": no constraint applies to it.
    let mut args = object(json!({"query": "x", "units": null, "page": null}));
    assert!(search().validate(&mut args).is_empty());
    assert_eq!(args["units"], "metric");
}

#[test]
fn every_broken_constraint_is_reported_in_the_validators_words() {
    let mut args = object(json!({
        "query": "",
        "units": "kelvin",
        "limit": 80,
        "score": 0.25,
        "page": 7,
        "tags": [],
    }));
    let issues = search().validate(&mut args);
    assert_eq!(
        messages(&issues),
        [
            "Parameter 'query': must be at least 1 character long, got 0",
            "Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'",
            "Parameter 'limit': must be at most 50, got 80",
            "Parameter 'score': must be at least 0.5, got 0.25",
            "Parameter 'page': expected one of 1, 2, 3, got 7",
            "Parameter 'tags': must have at least 1 item, got 0",
        ]
    );
    let kinds: Vec<IssueKind> = issues.iter().map(ValidationIssue::kind).collect();
    assert_eq!(
        kinds,
        [
            IssueKind::TooShort,
            IssueKind::NotInEnum,
            IssueKind::AboveMaximum,
            IssueKind::BelowMinimum,
            IssueKind::NotInEnum,
            IssueKind::TooShort,
        ]
    );
    assert_eq!(issues[0].expected(), Some(ParamType::String));
    assert_eq!(issues[5].expected(), Some(ParamType::List));
    assert_eq!(issues[2].limit(), Some(Number::Integer(50)));
    assert_eq!(issues[2].measured(), Some(Number::Integer(80)));
    assert_eq!(issues[3].limit(), Some(Number::Float(0.5)));
    assert_eq!(
        issues[1].allowed(),
        Some(&[Literal::from("metric"), Literal::from("imperial")][..])
    );
    let mut args =
        object(json!({"query": "much too long", "limit": 0, "tags": ["a", "b", "c", "d"]}));
    assert_eq!(
        messages(&search().validate(&mut args)),
        [
            "Parameter 'query': must be at most 10 characters long, got 13",
            "Parameter 'limit': must be at least 1, got 0",
            "Parameter 'tags': must have at most 3 items, got 4",
        ]
    );
}

#[test]
fn a_value_of_the_wrong_type_is_not_also_out_of_bounds() {
    let mut args = object(json!({"query": 5, "limit": "80", "tags": ["a", 1]}));
    assert_eq!(
        messages(&search().validate(&mut args)),
        [
            "Parameter 'query': expected type 'string', got 'integer'",
            "Parameter 'limit': expected type 'integer', got 'string'",
            "Parameter 'tags[1]': expected type 'string', got 'integer'",
        ]
    );
}

#[test]
fn several_constraints_on_one_value_are_all_reported() {
    let schema = ToolSchema::new([Param::required("code", ParamType::Integer)
        .with_enum([100, 200])
        .with_maximum(150)])
    .expect("valid");
    let mut args = object(json!({"code": 300}));
    assert_eq!(
        messages(&schema.validate(&mut args)),
        [
            "Parameter 'code': expected one of 100, 200, got 300",
            "Parameter 'code': must be at most 150, got 300",
        ]
    );
}

#[test]
fn constraints_apply_at_any_depth() {
    let stop = ToolSchema::new([
        Param::required("city", ParamType::String).with_min_length(2),
        Param::optional("nights", ParamType::Integer)
            .with_minimum(1)
            .with_default(1),
    ])
    .expect("valid");
    let schema = ToolSchema::new([Param::required("stops", ParamType::List)
        .with_items(ParamType::Dictionary)
        .with_fields(stop)
        .with_max_items(2)])
    .expect("valid");
    let mut args = object(json!({"stops": [{"city": "P"}, {"city": "Rome", "nights": 0}]}));
    assert_eq!(
        messages(&schema.validate(&mut args)),
        [
            "Parameter 'stops[0].city': must be at least 2 characters long, got 1",
            "Parameter 'stops[1].nights': must be at least 1, got 0",
        ]
    );
    let mut args = object(json!({"stops": [{"city": "Rome"}, {"city": "Oslo"}, {"city": "Bern"}]}));
    assert_eq!(
        messages(&schema.validate(&mut args)),
        ["Parameter 'stops': must have at most 2 items, got 3"]
    );
}

#[test]
fn the_models_value_is_echoed_escaped_and_bounded() {
    let schema = ToolSchema::new([Param::required("units", ParamType::String).with_enum(["a"])])
        .expect("valid");
    let mut args = object(json!({"units": "x'\n\u{202e}y"}));
    let issues = schema.validate(&mut args);
    let message = issues[0].to_string();
    assert!(
        !message.contains('\n') && !message.contains('\u{202e}'),
        "{message}"
    );
    assert!(message.ends_with(r"got 'x\'\n\u{202e}y'"), "{message}");
    let mut args = object(json!({"units": "z".repeat(100_000)}));
    let message = schema.validate(&mut args)[0].to_string();
    assert!(message.len() < 300, "{} bytes", message.len());
    assert!(message.ends_with("…'"), "{message}");
}

#[test]
fn a_long_enum_lists_its_first_values() {
    let values: Vec<i64> = (0..25).collect();
    let schema = ToolSchema::new([Param::required("n", ParamType::Integer).with_enum(values)])
        .expect("valid");
    let mut args = object(json!({"n": 99}));
    assert_eq!(
        schema.validate(&mut args)[0].to_string(),
        "Parameter 'n': expected one of 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ... (15 more), got 99"
    );
}

#[test]
fn issues_read_back_from_a_recording_are_the_same() {
    let mut args = object(json!({"query": "", "units": "kelvin", "limit": 80, "score": 0.25}));
    for issue in search().validate(&mut args) {
        let recorded = serde_json::to_value(&issue).expect("serialises");
        assert_eq!(recorded["message"], issue.to_string());
        let back: ValidationIssue = serde_json::from_value(recorded).expect("reads back");
        assert_eq!(back, issue);
        assert_eq!(back.to_string(), issue.to_string());
    }
}

fn refused(params: Vec<Param>) -> Vec<String> {
    let error = ToolSchema::new(params).expect_err("refused");
    error
        .problems()
        .iter()
        .map(|p| p.problem().to_string())
        .collect()
}

#[test]
fn declarations_that_break_the_rules_are_refused_with_every_problem() {
    assert_eq!(
        refused(vec![
            Param::required("units", ParamType::String).with_enum(Vec::<&'static str>::new()),
            Param::required("code", ParamType::String).with_enum(["a", "a"]),
            Param::required("page", ParamType::Integer)
                .with_enum([Literal::from(1), Literal::from("two")]),
            Param::required("limit", ParamType::Integer)
                .with_minimum(50)
                .with_maximum(1),
            Param::required("name", ParamType::String)
                .with_min_length(5)
                .with_max_length(2),
            Param::required("tags", ParamType::List).with_minimum(1),
            Param::required("flag", ParamType::Boolean).with_enum([true]),
            Param::required("ratio", ParamType::Float).with_maximum(f64::INFINITY),
        ]),
        [
            "parameter 'units': 'enum' is empty, so no value would be accepted; list the allowed values or remove it",
            "parameter 'code': 'enum' lists 'a' twice",
            "parameter 'page': enum value 'two' of type 'string' does not fit the declared type 'integer'",
            "parameter 'limit': 'minimum' (50) is greater than 'maximum' (1), so no value would be accepted",
            "parameter 'name': 'min_length' (5) is greater than 'max_length' (2), so no value would be accepted",
            "parameter 'tags': 'minimum' applies to integer and float parameters, but this parameter is a 'list'; use 'min_items'",
            "parameter 'flag': 'enum' applies to string and integer parameters, but this parameter is a 'boolean'",
            "parameter 'ratio': 'maximum' is not a finite number; JSON has no NaN or infinity",
        ]
    );
}

#[test]
fn defaults_must_keep_their_constraints() {
    assert_eq!(
        refused(vec![
            Param::optional("units", ParamType::String)
                .with_enum(["metric", "imperial"])
                .with_default("kelvin"),
            Param::optional("limit", ParamType::Integer)
                .with_maximum(50)
                .with_default(80),
            Param::optional("tags", ParamType::List)
                .with_min_items(1)
                .with_default(json!([])),
        ]),
        [
            "parameter 'units': default must be one of 'metric', 'imperial', got 'kelvin'",
            "parameter 'limit': default must be at most 50, got 80",
            "parameter 'tags': default must have at least 1 item, got 0",
        ]
    );
    let address = ToolSchema::new([Param::required("zip", ParamType::String).with_max_length(5)])
        .expect("valid");
    let error = ToolSchema::new([Param::optional("to", ParamType::Dictionary)
        .with_fields(address)
        .with_default(json!({"zip": "1234567"}))])
    .expect_err("refused");
    assert!(matches!(
        error.problems()[0].problem(),
        Problem::DefaultBreaksConstraint {
            key: "max_length",
            ..
        }
    ));
    assert_eq!(
        error.problems()[0].problem().to_string(),
        "parameter 'to': default value 'to.zip' must be at most 5 characters long, got 7"
    );
}

#[test]
fn the_json_spec_shape_round_trips_constraints() {
    let schema = search();
    let saved = schema.to_value();
    assert_eq!(saved["parameters"][0]["min_length"], 1);
    assert_eq!(saved["parameters"][0]["max_length"], 10);
    assert_eq!(
        saved["parameters"][1]["enum"],
        json!(["metric", "imperial"])
    );
    assert_eq!(saved["parameters"][3]["minimum"], json!(0.5));
    assert_eq!(saved["parameters"][3]["maximum"], json!(1));
    assert_eq!(saved["parameters"][5]["max_items"], 3);
    assert_eq!(ToolSchema::from_value(saved).expect("loads"), schema);
    let loaded = ToolSchema::from_value(json!({"parameters": [
        {"name": "units", "type": "string", "enum": ["metric", "imperial"]},
        {"name": "limit", "type": "integer", "minimum": 1, "maximum": 50},
    ]}))
    .expect("loads");
    assert_eq!(
        loaded,
        ToolSchema::new([
            Param::required("units", ParamType::String).with_enum(["metric", "imperial"]),
            Param::required("limit", ParamType::Integer)
                .with_minimum(1)
                .with_maximum(50),
        ])
        .expect("valid")
    );
}

#[test]
fn the_json_spec_shape_reports_every_constraint_problem() {
    let error = ToolSchema::from_value(json!({"parameters": [
        {"name": "units", "type": "string", "enum": "metric"},
        {"name": "limit", "type": "integer", "minimum": "1", "max_items": -1},
        {"name": "tags", "type": "list", "min_length": 1, "max_itmes": 3},
        {"name": "n", "type": "integer", "minimum": 5, "maximum": 1, "default": 9, "required": false},
    ]}))
    .expect_err("refused");
    let problems: Vec<String> = error
        .problems()
        .iter()
        .map(|p| format!("{}: {}", p.location(), p.problem()))
        .collect();
    assert_eq!(
        problems,
        [
            "parameters[0] ('units'): 'enum' takes a list of the allowed values, strings or integers",
            // Keys in the order the JSON object holds them (alphabetical).
            "parameters[1] ('limit'): 'max_items' takes a whole number, 0 or more",
            "parameters[1] ('limit'): 'minimum' takes a number",
            "parameters[2] ('tags'): unknown key 'max_itmes'; did you mean 'max_items'?",
            "parameters[2] ('tags'): parameter 'tags': 'min_length' applies to string parameters, but this parameter is a 'list'; use 'min_items'",
            "parameters[3] ('n'): parameter 'n': 'minimum' (5) is greater than 'maximum' (1), so no value would be accepted",
        ]
    );
}

// ---------------------------------------------------------------- JSON Schema and providers

fn forecast() -> ToolSchema {
    ToolSchema::new([
        Param::optional("units", ParamType::String)
            .with_enum(["metric", "imperial"])
            .with_default("metric"),
        Param::required("days", ParamType::Integer)
            .with_minimum(1)
            .with_maximum(14),
        Param::required("city", ParamType::String)
            .with_description("City name")
            .with_min_length(1)
            .with_max_length(85),
        Param::optional("hours", ParamType::List)
            .with_items(ParamType::Integer)
            .with_min_items(2)
            .with_max_items(24),
    ])
    .expect("valid")
}

#[test]
fn the_validation_schema_carries_every_constraint() {
    assert_eq!(
        forecast().to_json_schema()["properties"],
        json!({
            "units": {"type": ["string", "null"], "enum": ["metric", "imperial", null], "default": "metric"},
            "days": {"type": "integer", "minimum": 1, "maximum": 14},
            "city": {"type": "string", "description": "City name", "minLength": 1, "maxLength": 85},
            "hours": {
                "type": ["array", "null"],
                "items": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
                "minItems": 2,
                "maxItems": 24,
            },
        })
    );
    // A bound looser than the 64-bit range leaves the range in place.
    let wide = ToolSchema::new([Param::required("n", ParamType::Integer).with_minimum(-1e30)])
        .expect("valid");
    assert_eq!(
        wide.to_json_schema()["properties"]["n"]["minimum"],
        json!(i64::MIN)
    );
}

#[test]
fn declarations_carry_every_constraint_and_strict_modes_state_the_rest_in_words() {
    let spec = ToolSpec::builder("forecast")
        .input(forecast())
        .build()
        .expect("valid");
    let declared = json!({
        "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
        "city": {"type": "string", "description": "City name", "minLength": 1, "maxLength": 85},
        "hours": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 24},
    });
    assert_eq!(
        openai_chat::tools([&spec])[0]["function"]["parameters"]["properties"],
        declared
    );
    assert_eq!(
        openai_responses::tools([&spec])[0]["parameters"]["properties"],
        declared
    );
    assert_eq!(
        anthropic::tools([&spec])[0]["input_schema"]["properties"],
        declared
    );
    assert_eq!(
        gemini::tools([&spec])[0]["functionDeclarations"][0]["parametersJsonSchema"]["properties"],
        declared
    );
    assert_eq!(mcp::tool(&spec)["inputSchema"]["properties"], declared);
    // OpenAI strict: no string lengths; they go into the description.
    let strict = json!({
        "units": {"type": ["string", "null"], "enum": ["metric", "imperial", null], "description": "Defaults to \"metric\"."},
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
        "city": {"type": "string", "description": "City name. Between 1 and 85 characters long."},
        "hours": {"type": ["array", "null"], "items": {"type": "integer"}, "minItems": 2, "maxItems": 24},
    });
    assert_eq!(forecast().to_strict_json_schema()["properties"], strict);
    assert_eq!(
        openai_chat::strict_tools([&spec])[0]["function"]["parameters"]["properties"],
        strict
    );
    // Anthropic strict: `enum` only (and `minItems` of 0 or 1); the bounds go into words.
    assert_eq!(
        anthropic::strict_tools([&spec])[0]["input_schema"]["properties"],
        json!({
            "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"},
            "days": {"type": "integer", "description": "Between 1 and 14."},
            "city": {"type": "string", "description": "City name. Between 1 and 85 characters long."},
            "hours": {"type": "array", "items": {"type": "integer"}, "description": "Between 2 and 24 items."},
        })
    );
    let one = ToolSchema::new([Param::required("tags", ParamType::List)
        .with_items(ParamType::String)
        .with_min_items(1)])
    .expect("valid");
    let spec = ToolSpec::builder("tag").input(one).build().expect("valid");
    assert_eq!(
        anthropic::strict_tools([&spec])[0]["input_schema"]["properties"]["tags"],
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1})
    );
}

fn ours_accepts(schema: &ToolSchema, input: &Value) -> bool {
    match input {
        Value::Object(map) => schema.validate(&mut map.clone()).is_empty(),
        _ => false,
    }
}

/// Every constraint, required and optional, on top-level parameters and nested fields.
fn constrained() -> ToolSchema {
    let inner = ToolSchema::new([
        Param::required("code", ParamType::Integer).with_enum([1, 2, 30]),
        Param::optional("label", ParamType::String).with_max_length(2),
    ])
    .expect("valid");
    ToolSchema::new([
        Param::optional("e", ParamType::String).with_enum(["a", "bb", "é"]),
        Param::required("i", ParamType::Integer)
            .with_minimum(-3)
            .with_maximum(3),
        Param::optional("f", ParamType::Float)
            .with_minimum(-0.5)
            .with_maximum(2),
        Param::optional("s", ParamType::String)
            .with_min_length(1)
            .with_max_length(3),
        Param::optional("l", ParamType::List)
            .with_min_items(1)
            .with_max_items(2),
        Param::optional("d", ParamType::Dictionary).with_fields(inner),
        Param::optional("n", ParamType::Integer).with_enum([-1, 0, 7]),
    ])
    .expect("valid")
}

const KEYS: [&str; 7] = ["e", "i", "f", "s", "l", "d", "n"];

/// Values near every bound, of every kind.
fn probe() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-40_i64..40).prop_map(Value::from),
        (-40_i64..40).prop_map(|i| json!(i as f64)),
        (-3.0_f64..3.0).prop_map(|f| json!(f)),
        "(a|bb|é|x|ab){0,3}".prop_map(Value::from),
        prop::collection::vec((0_i64..3).prop_map(Value::from), 0..4).prop_map(Value::Array),
        (
            prop::option::of(prop_oneof![
                (0_i64..40).prop_map(Value::from),
                Just(json!("1"))
            ]),
            prop::option::of("[a-zé]{0,3}".prop_map(Value::from)),
        )
            .prop_map(|(code, label)| {
                let mut map = Map::new();
                if let Some(code) = code {
                    map.insert("code".into(), code);
                }
                if let Some(label) = label {
                    map.insert("label".into(), label);
                }
                Value::Object(map)
            }),
    ]
}

fn objects(all_present: bool) -> impl Strategy<Value = Value> {
    let value = if all_present {
        probe().prop_map(Some).boxed()
    } else {
        prop::option::weighted(0.7, probe()).boxed()
    };
    prop::collection::vec(value, KEYS.len()).prop_map(|values| {
        Value::Object(
            KEYS.iter()
                .zip(values)
                .filter_map(|(k, v)| v.map(|v| ((*k).to_owned(), v)))
                .collect(),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn the_validator_and_jsonschema_agree_on_constraints(input in objects(false)) {
        let schema = constrained();
        let exported = schema.to_json_schema();
        let validator = jsonschema::validator_for(&exported).unwrap();
        prop_assert_eq!(
            ours_accepts(&schema, &input),
            validator.is_valid(&input),
            "input {} against {}", input, exported
        );
    }

    #[test]
    fn the_validator_and_the_strict_schema_agree_on_constraints(input in objects(true)) {
        // Strict mode keeps every constraint but the string lengths, which it states in words:
        // on inputs whose strings are short enough, the two agree.
        let schema = constrained();
        let exported = schema.to_strict_json_schema();
        let validator = jsonschema::validator_for(&exported).unwrap();
        let lengths_ok = input["s"].as_str().is_none_or(|s| (1..=3).contains(&s.chars().count()))
            && input["d"]["label"].as_str().is_none_or(|s| s.chars().count() <= 2);
        prop_assume!(lengths_ok);
        prop_assert_eq!(
            ours_accepts(&schema, &input),
            validator.is_valid(&input),
            "input {} against {}", input, exported
        );
    }
}

#[test]
fn the_generated_inputs_reach_both_answers() {
    // The differential test means something only if the probes hit both sides of each bound.
    let schema = constrained();
    let accepted = |input: Value| ours_accepts(&schema, &input);
    assert!(accepted(
        json!({"i": 3, "e": "é", "f": 2, "s": "ééé", "l": [0], "n": -1, "d": {"code": 30}})
    ));
    for rejected in [
        json!({"i": 4}),
        json!({"i": 0, "e": "x"}),
        json!({"i": 0, "f": -0.75}),
        json!({"i": 0, "s": ""}),
        json!({"i": 0, "l": [0, 1, 2]}),
        json!({"i": 0, "d": {"code": 3}}),
        json!({"i": 0, "d": {"code": 1, "label": "abc"}}),
        json!({"i": 0, "n": 1}),
    ] {
        assert!(!accepted(rejected.clone()), "{rejected}");
    }
}
