//! `SemanticError`: every problem of a schema reported, with its location.

use super::*;

#[test]
fn structural_problems_are_all_reported_with_locations() {
    let err = schema_err(json!({"parameters": [
        {"type": "string"},                                     // 0: missing name
        {"name": "count"},                                      // 1: missing type
        {"name": "limit", "type": "intger"},                    // 2: unknown type
        {"name": "units", "type": "string", "requred": false},  // 3: unknown key
    ]}));
    assert_eq!(
        problems(&err),
        [
            ("parameters[0]".into(), Problem::MissingKey { key: "name" }),
            (
                "parameters[1] ('count')".into(),
                Problem::MissingKey { key: "type" }
            ),
            (
                "parameters[2] ('limit')".into(),
                Problem::UnknownType {
                    found: "intger".into(),
                    suggestion: Some("integer"),
                }
            ),
            (
                "parameters[3] ('units')".into(),
                Problem::UnknownKey {
                    found: "requred".into(),
                    suggestion: Some("required"),
                    allowed: agentkit_core::__private::rules::PARAM_KEYS,
                }
            ),
        ]
    );
    let text = err.to_string();
    assert!(
        text.starts_with("invalid tool declaration (4 problems):"),
        "{text}"
    );
    assert!(text.contains("did you mean 'integer'?"), "{text}");
    assert!(text.contains("did you mean 'required'?"), "{text}");
}

#[test]
fn rule_problems_are_all_reported_with_locations() {
    let err = schema_err(json!({"parameters": [
        {"name": "city", "type": "string"},
        {"name": "city", "type": "string"},                                        // duplicate
        {"name": "days", "type": "integer", "required": false, "default": "three"}, // misfit
        {"name": "units", "type": "string", "default": "metric"},                  // required+default
        {"name": "1st", "type": "string"},                                         // bad name
    ]}));
    let found = problems(&err);
    assert_eq!(found.len(), 4, "{err}");
    assert!(found.contains(&(
        "parameters[2] ('days')".into(),
        Problem::DefaultTypeMismatch {
            name: "days".into(),
            at: String::new(),
            expected: ParamType::Integer,
            got: ValueKind::String,
        }
    )));
    assert!(found.contains(&(
        "parameters[3] ('units')".into(),
        Problem::RequiredWithDefault {
            name: "units".into()
        }
    )));
    assert!(found.contains(&(
        "parameters[4] ('1st')".into(),
        Problem::InvalidName {
            kind: NameKind::Parameter,
            name: "1st".into(),
            reason: NameError::BadStart { found: '1' },
        }
    )));
    assert!(
        found.iter().any(|(_, p)| *p
            == Problem::DuplicateParameter {
                name: "city".into()
            }),
        "{err}"
    );
}

#[test]
fn builder_schemas_report_every_rule_problem_too() {
    let err = ToolSchema::new([
        Param::required("a", ParamType::Integer).with_default(1_i64), // required+default
        Param::optional("b", ParamType::Boolean).with_default(0_i64), // misfit: no bool from int
        Param::optional("c", ParamType::Integer).with_default(true),  // misfit: no int from bool
        Param::required("fetch weather", ParamType::String),          // bad name
        Param::required("a", ParamType::Integer),                     // duplicate
    ])
    .unwrap_err();
    let kinds: Vec<&Problem> = err.problems().iter().map(|p| p.problem()).collect();
    assert_eq!(kinds.len(), 5, "{err}");
    assert!(matches!(kinds[0], Problem::RequiredWithDefault { name } if name == "a"));
    assert!(matches!(
        kinds[1],
        Problem::DefaultTypeMismatch {
            expected: ParamType::Boolean,
            got: ValueKind::Integer,
            ..
        }
    ));
    assert!(matches!(
        kinds[2],
        Problem::DefaultTypeMismatch {
            expected: ParamType::Integer,
            got: ValueKind::Boolean,
            ..
        }
    ));
    assert!(matches!(
        kinds[3],
        Problem::InvalidName {
            reason: NameError::BadChar {
                found: ' ',
                index: 5
            },
            ..
        }
    ));
    assert!(matches!(kinds[4], Problem::DuplicateParameter { name } if name == "a"));
}

#[test]
fn an_integer_default_fits_a_float_parameter() {
    let schema = ToolSchema::new([Param::optional("t", ParamType::Float).with_default(20_i64)]);
    assert!(schema.is_ok(), "{schema:?}");
}

/// The brief's list of eight problems in one schema: structural ones (missing name, missing
/// type, unknown type, unknown key) and rule ones (duplicate, misfit default, required with
/// default, bad name) together must all be reported.
#[test]

fn mixed_structural_and_rule_problems_are_all_reported() {
    let err = schema_err(json!({"parameters": [
        {"type": "string"},                                                         // missing name
        {"name": "count"},                                                          // missing type
        {"name": "limit", "type": "intger"},                                        // unknown type
        {"name": "units", "type": "string", "requred": false},                      // unknown key
        {"name": "city", "type": "string"},
        {"name": "city", "type": "string"},                                         // duplicate
        {"name": "days", "type": "integer", "required": false, "default": "three"}, // misfit
        {"name": "lang", "type": "string", "default": "en"},                        // required+default
        {"name": "bad name", "type": "string"},                                     // bad name
    ]}));
    assert_eq!(err.problems().len(), 8, "{err}");
}

#[test]
fn not_a_schema_object_and_bad_json_are_semantic_errors() {
    let err = schema_err(json!([{"name": "city", "type": "string"}]));
    assert_eq!(err.problems().len(), 1);
    assert_eq!(err.problems()[0].location(), "schema");

    let err = schema_err(json!({"parameters": {"name": "city"}}));
    assert!(matches!(
        err.problems()[0].problem(),
        Problem::InvalidKeyValue {
            key: "parameters",
            ..
        }
    ));

    let err = schema_err(json!({"parameters": [], "paramters": []}));
    assert!(matches!(
        err.problems()[0].problem(),
        Problem::UnknownKey {
            suggestion: Some("parameters"),
            ..
        }
    ));

    let err = ToolSchema::from_json(r#"{"parameters": ["#).unwrap_err();
    assert_eq!(err.problems().len(), 1);
    assert!(matches!(
        err.problems()[0].problem(),
        Problem::InvalidJson { .. }
    ));
    assert!(serde_json::from_value::<ToolSchema>(json!({"parameters": [{"name": "x"}]})).is_err());
}

#[test]
fn wrongly_typed_keys_are_reported_per_key() {
    let err = schema_err(json!({"parameters": [
        {"name": 5, "type": "string"},
        {"name": "b", "type": 3},
        {"name": "c", "type": "string", "required": "yes"},
        {"name": "d", "type": "string", "description": 1},
    ]}));
    let keys: Vec<&str> = err
        .problems()
        .iter()
        .filter_map(|p| match p.problem() {
            Problem::InvalidKeyValue { key, .. } => Some(*key),
            _ => None,
        })
        .collect();
    assert_eq!(keys, ["name", "type", "required", "description"], "{err}");
}

#[test]
fn parameter_names_follow_the_provider_rules() {
    let ok = ["a", "_x", "fetch-weather_2", &"n".repeat(64)];
    for name in ok {
        let schema = ToolSchema::new([Param::required(name.to_owned(), ParamType::String)]);
        assert!(schema.is_ok(), "{name}: {schema:?}");
    }
    let bad: [(String, NameError); 4] = [
        (String::new(), NameError::Empty),
        ("n".repeat(65), NameError::TooLong { len: 65 }),
        ("-x".into(), NameError::BadStart { found: '-' }),
        (
            "a.b".into(),
            NameError::BadChar {
                found: '.',
                index: 1,
            },
        ),
    ];
    for (name, reason) in bad {
        let err = ToolSchema::new([Param::required(name.clone(), ParamType::String)]).unwrap_err();
        assert_eq!(
            err.problems()[0].problem(),
            &Problem::InvalidName {
                kind: NameKind::Parameter,
                name,
                reason,
            }
        );
    }
}
