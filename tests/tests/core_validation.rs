//! Behaviour of `ToolSchema::validate`: every problem reported, defaults filled in place, the
//! Python original's message wording with machine-readable fields, and the decisions of the
//! design brief (unknown arguments, `null`, booleans, integers as floats, `1.0` as an integer).

use agentkit_core::{
    IssueKind, Param, ParamType, ToolSchema, UnknownArguments, ValidationIssue, ValueKind,
};
use serde_json::{Value, json};

use crate::core_fixtures::{obj, weather_input_value};

fn weather() -> ToolSchema {
    ToolSchema::from_value(weather_input_value()).unwrap()
}

fn one(name: &'static str, ty: ParamType) -> ToolSchema {
    ToolSchema::new([Param::required(name, ty)]).unwrap()
}

/// Validates `args` against `schema`; returns the issues and the map as validation left it.
fn check(schema: &ToolSchema, args: Value) -> (Vec<ValidationIssue>, Value) {
    let mut values = obj(args);
    let issues = schema.validate(&mut values);
    (issues, Value::Object(values))
}

fn messages(issues: &[ValidationIssue]) -> Vec<String> {
    issues.iter().map(ToString::to_string).collect()
}

#[test]
fn three_missing_required_parameters_give_three_errors() {
    let schema = ToolSchema::new([
        Param::required("a", ParamType::String),
        Param::required("b", ParamType::Integer),
        Param::optional("c", ParamType::Boolean),
        Param::required("d", ParamType::List),
    ])
    .unwrap();
    let (issues, _) = check(&schema, json!({}));
    assert_eq!(
        messages(&issues),
        [
            "Missing required parameter: 'a'",
            "Missing required parameter: 'b'",
            "Missing required parameter: 'd'",
        ]
    );
    assert!(
        issues
            .iter()
            .all(|i| i.kind() == IssueKind::MissingParameter)
    );
    let expected: Vec<Option<ParamType>> = issues.iter().map(ValidationIssue::expected).collect();
    assert_eq!(
        expected,
        [
            Some(ParamType::String),
            Some(ParamType::Integer),
            Some(ParamType::List)
        ]
    );
    assert!(issues.iter().all(|i| i.got().is_none()));
}

#[test]
fn defaults_are_filled_in_place_and_given_values_are_kept() {
    let (issues, values) = check(&weather(), json!({"city": "San Francisco"}));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        values,
        json!({"city": "San Francisco", "country": "US", "units": "imperial"})
    );

    let (issues, values) = check(&weather(), json!({"city": "Paris", "units": "metric"}));
    assert!(issues.is_empty());
    assert_eq!(
        values,
        json!({"city": "Paris", "country": "US", "units": "metric"})
    );
}

#[test]
fn defaults_of_every_type_are_filled() {
    let schema = ToolSchema::from_value(json!({"parameters": [
        {"name": "i", "type": "integer", "required": false, "default": 7},
        {"name": "f", "type": "float", "required": false, "default": 0.5},
        {"name": "b", "type": "boolean", "required": false, "default": true},
        {"name": "l", "type": "list", "required": false, "default": ["x", 1]},
        {"name": "d", "type": "dictionary", "required": false, "default": {"k": null}},
    ]}))
    .unwrap();
    let (issues, values) = check(&schema, json!({}));
    assert!(issues.is_empty());
    assert_eq!(
        values,
        json!({"i": 7, "f": 0.5, "b": true, "l": ["x", 1], "d": {"k": null}})
    );
}

#[test]
fn an_optional_parameter_without_default_stays_absent() {
    let schema = ToolSchema::new([Param::optional("note", ParamType::String)]).unwrap();
    let (issues, values) = check(&schema, json!({}));
    assert!(issues.is_empty());
    assert_eq!(values, json!({}));
}

#[test]
fn seed_wording_and_machine_readable_fields() {
    let (issues, values) = check(&weather(), json!({"units": 5}));
    assert_eq!(
        messages(&issues),
        [
            "Missing required parameter: 'city'",
            "Parameter 'units': expected type 'string', got 'integer'",
        ]
    );
    assert_eq!(issues[0].kind(), IssueKind::MissingParameter);
    assert_eq!(issues[0].param(), Some("city"));
    assert_eq!(issues[0].expected(), Some(ParamType::String));
    assert_eq!(issues[0].got(), None);

    assert_eq!(issues[1].kind(), IssueKind::WrongType);
    assert_eq!(issues[1].param(), Some("units"));
    assert_eq!(issues[1].expected(), Some(ParamType::String));
    assert_eq!(issues[1].got(), Some(ValueKind::Integer));
    // The wrong value is left as it was; the untouched default still applies to `country`.
    assert_eq!(values, json!({"units": 5, "country": "US"}));
}

#[test]
fn issues_serialise_with_their_fields_and_message() {
    let (issues, _) = check(&weather(), json!({"units": 5}));
    assert_eq!(
        serde_json::to_value(&issues).unwrap(),
        json!([
            {"kind": "missing_parameter", "param": "city", "expected": "string", "got": null,
             "message": "Missing required parameter: 'city'"},
            {"kind": "wrong_type", "param": "units", "expected": "string", "got": "integer",
             "message": "Parameter 'units': expected type 'string', got 'integer'"},
        ])
    );
}

#[test]
fn wrong_types_name_the_kind_that_was_given() {
    let cases = [
        (json!("x"), ParamType::Integer, "string"),
        (json!(1.5), ParamType::Integer, "float"),
        (json!(true), ParamType::Float, "boolean"),
        (json!([1]), ParamType::String, "list"),
        (json!({"a": 1}), ParamType::List, "dictionary"),
        (json!(3), ParamType::Dictionary, "integer"),
        (json!("true"), ParamType::Boolean, "string"),
    ];
    for (value, ty, got) in cases {
        let (issues, _) = check(&one("p", ty), json!({ "p": value }));
        assert_eq!(issues.len(), 1, "{value} as {ty}");
        assert_eq!(
            issues[0].to_string(),
            format!("Parameter 'p': expected type '{ty}', got '{got}'")
        );
    }
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let schema = ToolSchema::new([
        Param::required("a", ParamType::String),
        Param::required("b", ParamType::Integer),
        Param::required("c", ParamType::Boolean),
        Param::optional("d", ParamType::Float),
    ])
    .unwrap();
    let (issues, _) = check(&schema, json!({"b": "x", "c": 1, "d": "y", "e": 0}));
    let kinds: Vec<(IssueKind, Option<&str>)> =
        issues.iter().map(|i| (i.kind(), i.param())).collect();
    assert_eq!(
        kinds,
        [
            (IssueKind::MissingParameter, Some("a")),
            (IssueKind::WrongType, Some("b")),
            (IssueKind::WrongType, Some("c")),
            (IssueKind::WrongType, Some("d")),
            (IssueKind::UnknownParameter, Some("e")),
        ]
    );
}

#[test]
fn unknown_arguments_are_rejected_by_default_with_a_suggestion() {
    let (issues, values) = check(&weather(), json!({"city": "Paris", "untis": "metric"}));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::UnknownParameter);
    assert_eq!(issues[0].param(), Some("untis"));
    assert_eq!(issues[0].suggestion(), Some("units"));
    assert_eq!(
        issues[0].to_string(),
        "Unknown parameter: 'untis'; did you mean 'units'?"
    );
    // Not silently dropped either.
    assert_eq!(values["untis"], "metric");

    let (issues, _) = check(&weather(), json!({"city": "Paris", "zzzzzzzz": 1}));
    assert_eq!(issues[0].suggestion(), None);
    assert_eq!(
        issues[0].to_string(),
        "Unknown parameter: 'zzzzzzzz'; it is not declared by this tool"
    );
}

#[test]
fn unknown_arguments_can_be_ignored_as_the_seed_does() {
    let mut values = obj(json!({"city": "Paris", "untis": "metric"}));
    let issues = weather().validate_with(&mut values, UnknownArguments::Ignore);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        Value::Object(values),
        json!({"city": "Paris", "untis": "metric", "country": "US", "units": "imperial"})
    );
    // The explicit Reject policy is the default one.
    assert_eq!(UnknownArguments::default(), UnknownArguments::Reject);
    let mut values = obj(json!({"city": "Paris", "untis": "metric"}));
    assert_eq!(
        weather().validate_with(&mut values, UnknownArguments::Reject),
        weather().validate(&mut obj(json!({"city": "Paris", "untis": "metric"})))
    );
}

#[test]
fn null_for_an_optional_parameter_means_absent() {
    // With a default: the default applies.
    let (issues, values) = check(&weather(), json!({"city": "Oslo", "units": null}));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        values,
        json!({"city": "Oslo", "country": "US", "units": "imperial"})
    );

    // Without a default: the key is removed.
    let schema = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("note", ParamType::String),
    ])
    .unwrap();
    let (issues, values) = check(&schema, json!({"city": "Oslo", "note": null}));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(values, json!({"city": "Oslo"}));
}

#[test]
fn null_for_a_required_parameter_is_a_wrong_type() {
    let (issues, _) = check(&weather(), json!({"city": null}));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::WrongType);
    assert_eq!(issues[0].got(), Some(ValueKind::Null));
    assert_eq!(
        issues[0].to_string(),
        "Parameter 'city': expected type 'string', got 'null'"
    );
}

#[test]
fn booleans_are_never_numbers() {
    for ty in [ParamType::Integer, ParamType::Float] {
        for b in [true, false] {
            let (issues, _) = check(&one("n", ty), json!({ "n": b }));
            assert_eq!(issues.len(), 1, "{b} as {ty}");
            assert_eq!(issues[0].kind(), IssueKind::WrongType);
            assert_eq!(issues[0].got(), Some(ValueKind::Boolean));
        }
    }
    // Nor are numbers booleans.
    let (issues, _) = check(&one("b", ParamType::Boolean), json!({"b": 1}));
    assert_eq!(issues[0].got(), Some(ValueKind::Integer));
}

#[test]
fn an_integer_is_a_valid_float_and_stays_an_integer() {
    let (issues, values) = check(&one("t", ParamType::Float), json!({"t": 72}));
    assert!(issues.is_empty());
    assert_eq!(values["t"].as_i64(), Some(72));
    let (issues, _) = check(&one("t", ParamType::Float), json!({"t": -0.25}));
    assert!(issues.is_empty());
    let (issues, _) = check(
        &one("t", ParamType::Float),
        json!({"t": 18_446_744_073_709_551_615_u64}),
    );
    assert!(issues.is_empty());
}

#[test]
fn one_point_zero_is_an_integer_and_is_normalised_in_place() {
    let (issues, values) = check(&one("n", ParamType::Integer), json!({"n": 1.0}));
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(values["n"].as_i64(), Some(1));
    assert!(values["n"].is_i64(), "{values}");
    assert_eq!(serde_json::to_string(&values).unwrap(), r#"{"n":1}"#);

    let (issues, values) = check(&one("n", ParamType::Integer), json!({"n": -42.0}));
    assert!(issues.is_empty());
    assert_eq!(values["n"].as_i64(), Some(-42));
}

#[test]
fn a_fractional_number_is_not_an_integer() {
    for value in [json!(1.5), json!(-0.1), json!(1e-9)] {
        let (issues, values) = check(&one("n", ParamType::Integer), json!({ "n": value }));
        assert_eq!(issues.len(), 1, "{value}");
        assert_eq!(issues[0].kind(), IssueKind::WrongType);
        assert_eq!(issues[0].got(), Some(ValueKind::Float));
        assert_eq!(
            issues[0].to_string(),
            "Parameter 'n': expected type 'integer', got 'float'"
        );
        assert_eq!(values["n"], value, "a refused value is left as given");
    }
}

#[test]
fn integers_outside_64_bits_are_out_of_range() {
    for value in [
        json!(18_446_744_073_709_551_615_u64),
        json!(9_223_372_036_854_775_808_u64),
        json!(1e19),
        json!(-1e19),
    ] {
        let (issues, _) = check(&one("n", ParamType::Integer), json!({ "n": value }));
        assert_eq!(issues.len(), 1, "{value}");
        assert_eq!(issues[0].kind(), IssueKind::OutOfRange, "{value}");
        assert_eq!(issues[0].param(), Some("n"));
        assert_eq!(issues[0].expected(), Some(ParamType::Integer));
        assert_eq!(
            issues[0].to_string(),
            "Parameter 'n': expected type 'integer', got an integer outside the 64-bit range"
        );
    }
    // The edges of i64 are in range.
    for edge in [i64::MAX, i64::MIN] {
        let (issues, _) = check(&one("n", ParamType::Integer), json!({ "n": edge }));
        assert!(issues.is_empty(), "{edge}");
    }
}

#[test]
fn a_valid_input_with_nothing_to_fill_is_left_unchanged() {
    let input = json!({
        "s": "text", "i": -5, "f": 2.25, "b": false,
        "l": [1, "a", null, {"x": []}], "d": {"nested": {"deep": [true]}},
        "o": "given",
    });
    let schema = ToolSchema::new([
        Param::required("s", ParamType::String),
        Param::required("i", ParamType::Integer),
        Param::required("f", ParamType::Float),
        Param::required("b", ParamType::Boolean),
        Param::required("l", ParamType::List),
        Param::required("d", ParamType::Dictionary),
        Param::optional("o", ParamType::String).with_default("default"),
    ])
    .unwrap();
    let (issues, values) = check(&schema, input.clone());
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(values, input);
}

#[test]
fn lists_and_dictionaries_take_any_contents() {
    let schema = ToolSchema::new([
        Param::required("l", ParamType::List),
        Param::required("d", ParamType::Dictionary),
    ])
    .unwrap();
    let (issues, _) = check(&schema, json!({"l": [], "d": {}}));
    assert!(issues.is_empty());
    let (issues, _) = check(
        &schema,
        json!({"l": [null, [[]], {"a": 1.5}], "d": {"x": null, "y": [1, true]}}),
    );
    assert!(issues.is_empty());
}

#[test]
fn an_empty_schema_accepts_only_an_empty_object_by_default() {
    let schema = ToolSchema::empty();
    assert!(check(&schema, json!({})).0.is_empty());
    let (issues, _) = check(&schema, json!({"x": 1}));
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::UnknownParameter);
    let mut values = obj(json!({"x": 1}));
    assert!(
        schema
            .validate_with(&mut values, UnknownArguments::Ignore)
            .is_empty()
    );
}

#[test]
fn validation_is_idempotent() {
    let schema = weather();
    let mut values = obj(json!({"city": "Lima", "units": null}));
    assert!(schema.validate(&mut values).is_empty());
    let once = values.clone();
    assert!(schema.validate(&mut values).is_empty());
    assert_eq!(values, once);
}

#[test]
fn no_type_coercion_happens() {
    let cases = [
        (ParamType::Integer, json!("72")),
        (ParamType::Float, json!("72.5")),
        (ParamType::Boolean, json!("true")),
        (ParamType::Boolean, json!(0)),
        (ParamType::String, json!(5)),
        (ParamType::String, json!(true)),
        (ParamType::List, json!("[1, 2]")),
        (ParamType::Dictionary, json!("{}")),
        (ParamType::List, json!({"0": "a"})),
    ];
    for (ty, value) in cases {
        let (issues, values) = check(&one("p", ty), json!({ "p": value }));
        assert_eq!(issues.len(), 1, "{value} as {ty}");
        assert_eq!(issues[0].kind(), IssueKind::WrongType);
        assert_eq!(values["p"], value, "{value} as {ty} must be left as given");
    }
}
