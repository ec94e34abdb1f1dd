//! Constraints beyond the type (`enum`, `minimum`/`maximum`, `min_length`/`max_length`,
//! `min_items`/`max_items`) at run time: every broken constraint reported in the validator's
//! words, at any depth; declarations that break the rules refused with every problem; defaults
//! checked against their constraints; the JSON spec shape round-trips them; recorded issues
//! read back the same.

use agentkit_core::rules::Problem;
use agentkit_core::{
    IssueKind, JsonObject, Literal, Number, Param, ParamType, ToolSchema, ValidationIssue,
};
use serde_json::{Value, json};

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
