//! Behaviour of tool schemas and specs: the six types, the Python original's `{"parameters": [...]}`
//! shape in both directions, and `SemanticError`s that list every problem of a declaration.

use agentkit_core::{
    DEFAULT_VERSION, Literal, Param, ParamType, SemanticError, ToolSchema, ToolSpec, ValueKind,
};
use agentkit_core::{NameError, NameKind, Problem};
use serde_json::{Value, json};

use crate::core_fixtures::{weather_input_value, weather_output_value};

/// `(location, problem)` for every problem of `err`, in order.
fn problems(err: &SemanticError) -> Vec<(String, Problem)> {
    err.problems()
        .iter()
        .map(|p| (p.location().to_owned(), p.problem().clone()))
        .collect()
}

fn schema_err(value: Value) -> SemanticError {
    match ToolSchema::from_value(value) {
        Ok(schema) => panic!("expected a SemanticError, got {schema:?}"),
        Err(err) => err,
    }
}

fn spec_err(value: Value) -> SemanticError {
    match ToolSpec::from_value(value) {
        Ok(spec) => panic!("expected a SemanticError, got {spec:?}"),
        Err(err) => err,
    }
}

// ---------------------------------------------------------------- the six types

#[test]
fn there_are_exactly_the_seeds_six_types_and_each_parses_from_its_name() {
    let names: Vec<&str> = ParamType::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(
        names,
        [
            "string",
            "integer",
            "float",
            "boolean",
            "list",
            "dictionary"
        ]
    );
    for ty in ParamType::ALL {
        assert_eq!(ty.as_str().parse::<ParamType>(), Ok(ty));
        assert_eq!(ParamType::from_name(ty.as_str()), Some(ty));
        assert_eq!(ty.to_string(), ty.as_str());
    }
    for not_a_type in [
        "str", "int", "number", "array", "object", "dict", "bool", "", "String",
    ] {
        assert_eq!(ParamType::from_name(not_a_type), None, "{not_a_type}");
    }
}

#[test]
fn each_type_maps_to_one_json_schema_type() {
    let mapped: Vec<(&str, &str)> = ParamType::ALL
        .iter()
        .map(|t| (t.as_str(), t.json_schema_type()))
        .collect();
    assert_eq!(
        mapped,
        [
            ("string", "string"),
            ("integer", "integer"),
            ("float", "number"),
            ("boolean", "boolean"),
            ("list", "array"),
            ("dictionary", "object"),
        ]
    );
}

#[test]
fn unknown_type_names_suggest_the_nearest_type_or_list_all() {
    let err = "intger".parse::<ParamType>().unwrap_err();
    assert_eq!(
        err,
        Problem::UnknownType {
            found: "intger".into(),
            suggestion: Some("integer"),
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown type 'intger'; did you mean 'integer'?"
    );
    let err = "datetime".parse::<ParamType>().unwrap_err();
    let message = err.to_string();
    for ty in ParamType::ALL {
        assert!(message.contains(ty.as_str()), "{message}");
    }
}

#[test]
fn the_words_of_other_schema_languages_suggest_ours_at_run_time() {
    for (word, meant) in [
        ("object", "dictionary"),
        ("array", "list"),
        ("number", "float"),
        ("bool", "boolean"),
        ("int", "integer"),
        ("str", "string"),
    ] {
        let err = word.parse::<ParamType>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("unknown type '{word}'; did you mean '{meant}'?")
        );
    }
    let err = ToolSchema::from_value(json!({"parameters": [
        {"name": "city", "type": "string", "desc": "City name"},
    ]}))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown key 'desc'; did you mean 'description'?"),
        "{err}"
    );
    let err = spec_err(json!({"name": "t", "parameters": {"parameters": []}}));
    assert!(
        err.to_string()
            .contains("unknown key 'parameters'; did you mean 'input_schema'?"),
        "{err}"
    );
}

#[test]
fn type_acceptance_ints_are_floats_bools_are_not_numbers_null_fits_nothing() {
    let kinds = [
        ValueKind::Null,
        ValueKind::Boolean,
        ValueKind::Integer,
        ValueKind::Float,
        ValueKind::String,
        ValueKind::List,
        ValueKind::Dictionary,
    ];
    for ty in ParamType::ALL {
        let accepted: Vec<ValueKind> = kinds.into_iter().filter(|k| ty.accepts(*k)).collect();
        let expected: &[ValueKind] = match ty {
            ParamType::String => &[ValueKind::String],
            ParamType::Integer => &[ValueKind::Integer],
            ParamType::Float => &[ValueKind::Integer, ValueKind::Float],
            ParamType::Boolean => &[ValueKind::Boolean],
            ParamType::List => &[ValueKind::List],
            ParamType::Dictionary => &[ValueKind::Dictionary],
            other => panic!("a type this test does not know: {other}"),
        };
        assert_eq!(accepted, expected, "{ty}");
    }
}

// ---------------------------------------------------------------- the Python original's shape

#[test]
fn seed_input_schema_loads_with_required_defaults_and_descriptions() {
    let schema = ToolSchema::from_value(weather_input_value()).unwrap();
    let params = schema.parameters();
    assert_eq!(params.len(), 3);

    assert_eq!(params[0].name(), "city");
    assert_eq!(params[0].param_type(), ParamType::String);
    assert!(params[0].is_required());
    assert_eq!(params[0].default_value(), None);
    assert_eq!(params[0].description(), "City name (e.g., 'San Francisco')");

    assert_eq!(params[1].name(), "country");
    assert!(!params[1].is_required());
    assert_eq!(
        params[1].default_value().map(Literal::to_value),
        Some(json!("US"))
    );
    assert_eq!(params[1].description(), "ISO country code");

    assert_eq!(params[2].name(), "units");
    assert_eq!(
        params[2].default_value().map(Literal::to_value),
        Some(json!("imperial"))
    );
    assert_eq!(schema.parameter("units"), Some(&params[2]));
    assert_eq!(schema.parameter("temperature"), None);
}

#[test]
fn seed_output_schema_loads_five_required_parameters() {
    let schema = ToolSchema::from_value(weather_output_value()).unwrap();
    let shape: Vec<(&str, ParamType, bool)> = schema
        .parameters()
        .iter()
        .map(|p| (p.name(), p.param_type(), p.is_required()))
        .collect();
    assert_eq!(
        shape,
        [
            ("city", ParamType::String, true),
            ("country", ParamType::String, true),
            ("temperature", ParamType::Float, true),
            ("units", ParamType::String, true),
            ("conditions", ParamType::String, true),
        ]
    );
}

#[test]
fn seed_schemas_round_trip_through_to_value_exactly() {
    for seed in [weather_input_value(), weather_output_value()] {
        let schema = ToolSchema::from_value(seed.clone()).unwrap();
        assert_eq!(schema.to_value(), seed);
        assert_eq!(ToolSchema::from_value(schema.to_value()).unwrap(), schema);
        // serde goes through the same shape.
        assert_eq!(serde_json::to_value(&schema).unwrap(), seed);
        let back: ToolSchema = serde_json::from_value(seed.clone()).unwrap();
        assert_eq!(back, schema);
    }
}

#[test]
fn from_json_reads_the_seed_text_and_equals_from_value() {
    let text = r#"{
        "parameters": [
            {"name": "city", "type": "string", "required": true,
             "description": "City name (e.g., 'San Francisco')"},
            {"name": "country", "type": "string", "required": false,
             "default": "US", "description": "ISO country code"},
            {"name": "units", "type": "string", "required": false,
             "default": "imperial",
             "description": "'imperial' (Fahrenheit) or 'metric' (Celsius)"}
        ]
    }"#;
    let from_json = ToolSchema::from_json(text).unwrap();
    assert_eq!(
        from_json,
        ToolSchema::from_value(weather_input_value()).unwrap()
    );
}

#[test]
fn builder_form_equals_data_form() {
    let built = ToolSchema::new([
        Param::required("city", ParamType::String)
            .with_description("City name (e.g., 'San Francisco')"),
        Param::optional("country", ParamType::String)
            .with_default("US")
            .with_description("ISO country code"),
        Param::optional("units", ParamType::String)
            .with_default("imperial")
            .with_description("'imperial' (Fahrenheit) or 'metric' (Celsius)"),
    ])
    .unwrap();
    assert_eq!(
        built,
        ToolSchema::from_value(weather_input_value()).unwrap()
    );
    assert_eq!(built.to_value(), weather_input_value());
}

#[test]
fn required_defaults_to_true_and_is_written_out() {
    let schema = ToolSchema::from_value(json!({"parameters": [
        {"name": "n", "type": "integer"},
    ]}))
    .unwrap();
    assert!(schema.parameters()[0].is_required());
    assert_eq!(
        schema.to_value(),
        json!({"parameters": [{"name": "n", "type": "integer", "required": true}]})
    );
}

#[test]
fn every_type_round_trips_with_a_default() {
    let seed = json!({"parameters": [
        {"name": "s", "type": "string", "required": false, "default": "x"},
        {"name": "i", "type": "integer", "required": false, "default": -3},
        {"name": "f", "type": "float", "required": false, "default": 2.5},
        {"name": "fi", "type": "float", "required": false, "default": 2},
        {"name": "b", "type": "boolean", "required": false, "default": false},
        {"name": "l", "type": "list", "required": false, "default": [1, "two", null]},
        {"name": "d", "type": "dictionary", "required": false, "default": {"k": [true]}},
    ]});
    let schema = ToolSchema::from_value(seed.clone()).unwrap();
    assert_eq!(schema.to_value(), seed);
    let types: Vec<ParamType> = schema.parameters().iter().map(|p| p.param_type()).collect();
    assert_eq!(
        types,
        [
            ParamType::String,
            ParamType::Integer,
            ParamType::Float,
            ParamType::Float,
            ParamType::Boolean,
            ParamType::List,
            ParamType::Dictionary,
        ]
    );
}

#[test]
fn an_empty_or_null_parameter_list_is_an_empty_schema() {
    for value in [
        json!({}),
        json!({"parameters": []}),
        json!({"parameters": null}),
    ] {
        let schema = ToolSchema::from_value(value.clone()).unwrap();
        assert!(schema.parameters().is_empty(), "{value}");
        assert_eq!(schema, ToolSchema::empty());
    }
}

// ---------------------------------------------------------------- SemanticError: every problem

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

// ---------------------------------------------------------------- ToolSpec

#[test]
fn spec_version_defaults_to_1_0_0() {
    let spec = ToolSpec::builder("fetch_weather").build().unwrap();
    assert_eq!(DEFAULT_VERSION, "1.0.0");
    assert_eq!(spec.version(), "1.0.0");
    assert_eq!(spec.description(), "");
    assert!(spec.input_schema().is_none());
    assert!(spec.output_schema().is_none());
    assert_eq!(spec.tags().len(), 0);
    assert_eq!(spec.credential_names().len(), 0);
    let spec = ToolSpec::from_value(json!({"name": "fetch_weather"})).unwrap();
    assert_eq!(spec.version(), "1.0.0");
}

#[test]
fn spec_builder_keeps_every_field() {
    let spec = ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .version("2.1.0")
        .input(ToolSchema::from_value(weather_input_value()).unwrap())
        .output(ToolSchema::from_value(weather_output_value()).unwrap())
        .tag("category", "weather")
        .tag("cost", "cheap")
        .credential("weather-api-key")
        .credential("geo-key")
        .build()
        .unwrap();
    assert_eq!(spec.name(), "fetch_weather");
    assert_eq!(spec.version(), "2.1.0");
    assert_eq!(spec.input_schema().unwrap().parameters().len(), 3);
    assert_eq!(spec.output_schema().unwrap().parameters().len(), 5);
    assert_eq!(
        spec.tags().collect::<Vec<_>>(),
        [("category", "weather"), ("cost", "cheap")]
    );
    assert_eq!(spec.tag("cost"), Some("cheap"));
    assert_eq!(spec.tag("missing"), None);
    assert_eq!(
        spec.credential_names().collect::<Vec<_>>(),
        ["weather-api-key", "geo-key"]
    );
    // And it survives its own data form.
    assert_eq!(ToolSpec::from_value(spec.to_value()).unwrap(), spec);
}

#[test]
fn spec_builder_reports_every_problem() {
    let err = ToolSpec::builder("fetch weather")
        .version("1.0")
        .credential("weather-api-key")
        .credential("weather-api-key")
        .credential("")
        .tag("team", "a")
        .tag("team", "b")
        .build()
        .unwrap_err();
    let found: Vec<Problem> = err.problems().iter().map(|p| p.problem().clone()).collect();
    assert_eq!(
        found,
        [
            Problem::InvalidName {
                kind: NameKind::Tool,
                name: "fetch weather".into(),
                reason: NameError::BadChar {
                    found: ' ',
                    index: 5
                },
            },
            Problem::InvalidVersion {
                found: "1.0".into(),
                reason: "it has fewer than three numbers",
            },
            Problem::DuplicateCredential {
                name: "weather-api-key".into()
            },
            Problem::EmptyCredentialName,
            Problem::DuplicateTag { key: "team".into() },
        ]
    );
    assert_eq!(err.problems()[2].location(), "credential_names");
    assert_eq!(err.problems()[4].location(), "tags");
}

#[test]
fn spec_needs_a_name() {
    let err = ToolSpec::builder("").build().unwrap_err();
    assert_eq!(err.problems()[0].problem(), &Problem::MissingToolName);
    let err = spec_err(json!({"description": "no name"}));
    assert!(
        err.problems()
            .iter()
            .any(|p| *p.problem() == Problem::MissingToolName),
        "{err}"
    );
}

#[test]
fn spec_versions_must_be_major_minor_patch() {
    for ok in ["0.1.0", "1.0.0", "10.20.30"] {
        assert!(ToolSpec::builder("t").version(ok).build().is_ok(), "{ok}");
    }
    for bad in ["1.0", "1", "v1.0.0", "1.0.0.0", "01.0.0", "1.0.x", ""] {
        let err = ToolSpec::builder("t").version(bad).build().unwrap_err();
        assert!(
            matches!(
                err.problems()[0].problem(),
                Problem::InvalidVersion { found, .. } if found == bad
            ),
            "{bad}"
        );
    }
}

#[test]
fn spec_from_value_reads_the_whole_spec() {
    let value = json!({
        "name": "fetch_weather",
        "description": "Look up the current weather for a city.",
        "version": "1.2.3",
        "input_schema": weather_input_value(),
        "output_schema": weather_output_value(),
        "tags": {"category": "weather"},
        "credential_names": ["weather-api-key"],
    });
    let spec = ToolSpec::from_value(value.clone()).unwrap();
    assert_eq!(spec.version(), "1.2.3");
    assert_eq!(spec.tag("category"), Some("weather"));
    assert_eq!(
        spec.input_schema(),
        Some(&ToolSchema::from_value(weather_input_value()).unwrap())
    );
    assert_eq!(spec.to_value(), value);
}

#[test]
fn spec_from_value_reports_every_problem_with_locations() {
    let err = spec_err(json!({
        "name": "fetch weather",
        "version": "1.0",
        "input_schema": {"parameters": [{"name": "city", "type": "strng"}]},
        "output_schema": {"parameters": [{"name": "t"}]},
        "credential_names": ["k", "k"],
        "tagz": {},
    }));
    let found = problems(&err);
    assert_eq!(found.len(), 6, "{err}");
    assert!(found.contains(&(
        "input_schema parameters[0] ('city')".into(),
        Problem::UnknownType {
            found: "strng".into(),
            suggestion: Some("string"),
        }
    )));
    assert!(found.contains(&(
        "output_schema parameters[0] ('t')".into(),
        Problem::MissingKey { key: "type" }
    )));
    assert!(found.iter().any(|(_, p)| matches!(
        p,
        Problem::UnknownKey { found, suggestion: Some("tags"), .. } if found == "tagz"
    )));
    assert!(
        found
            .iter()
            .any(|(_, p)| matches!(p, Problem::InvalidName { .. }))
    );
    assert!(found.contains(&(
        String::new(),
        Problem::InvalidVersion {
            found: "1.0".into(),
            reason: "it has fewer than three numbers",
        }
    )));
    assert!(found.contains(&(
        "credential_names".into(),
        Problem::DuplicateCredential { name: "k".into() }
    )));
}

#[test]
fn spec_from_value_refuses_wrongly_typed_fields() {
    let err = spec_err(json!({
        "name": 1,
        "tags": {"team": 5},
        "credential_names": "weather-api-key",
    }));
    let keys: Vec<&str> = err
        .problems()
        .iter()
        .filter_map(|p| match p.problem() {
            Problem::InvalidKeyValue { key, .. } => Some(*key),
            _ => None,
        })
        .collect();
    assert!(keys.contains(&"name"), "{err}");
    assert!(keys.contains(&"tags"), "{err}");
    assert!(keys.contains(&"credential_names"), "{err}");
    assert!(ToolSpec::from_value(json!("fetch_weather")).is_err());
}

#[test]
fn tool_names_follow_the_provider_rules() {
    for ok in ["fetch_weather", "_private", "a-b", &"t".repeat(64)] {
        assert!(ToolSpec::builder(ok.to_owned()).build().is_ok(), "{ok}");
    }
    for bad in ["9lives", "fetch.weather", "fetch weather", &"t".repeat(65)] {
        let err = ToolSpec::builder(bad.to_owned()).build().unwrap_err();
        assert!(
            matches!(
                err.problems()[0].problem(),
                Problem::InvalidName {
                    kind: NameKind::Tool,
                    ..
                }
            ),
            "{bad}: {err}"
        );
    }
}

/// The validator accepts `2.0` as the integer 2, so a default written `2.0` fits an integer
/// parameter by the same rule.
#[test]

fn an_integral_float_default_fits_an_integer_parameter() {
    let schema = ToolSchema::from_value(json!({"parameters": [
        {"name": "n", "type": "integer", "required": false, "default": 2.0},
    ]}));
    assert!(schema.is_ok(), "{schema:?}");
}

#[test]
fn data_that_is_not_an_object_says_what_shape_is_expected() {
    let err = ToolSchema::from_value(json!(["city"])).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"invalid tool declaration: schema: a schema must be a JSON object, such as {"parameters": [{"name": "city", "type": "string"}]}"#
    );
    let err = agentkit_core::ToolSpec::from_value(json!("fetch_weather")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid tool declaration: a tool spec must be a JSON object, such as {"),
        "{err}"
    );
}

/// The problems of a schema loaded from `parameters`, rendered with their locations.
fn rendered(parameters: Value) -> Vec<String> {
    schema_err(json!({ "parameters": parameters }))
        .problems()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// "Every problem in one `SemanticError`" holds within a parameter too: a parameter with
/// several mistakes reports each, and nothing that only follows from another.
#[test]
fn every_problem_of_one_parameter_is_reported() {
    let cases = [
        // An invalid name and an unknown type.
        (
            json!([{"name": "zip code", "type": "strng"}]),
            vec![
                "parameters[0] ('zip code'): unknown type 'strng'; did you mean 'string'?",
                "parameters[0] ('zip code'): invalid parameter name 'zip code': ' ' at position 3 is not allowed; use ASCII letters, digits, '_' and '-'",
            ],
        ),
        // A duplicate name and an unknown type.
        (
            json!([{"name": "city", "type": "string"}, {"name": "city", "type": "intger"}]),
            vec![
                "parameters[1] ('city'): unknown type 'intger'; did you mean 'integer'?",
                "parameters: duplicate parameter 'city'",
            ],
        ),
        // A bad default and a bad key.
        (
            json!([{"name": "days", "type": "integer", "required": false, "colour": "red", "default": "3"}]),
            vec![
                "parameters[0] ('days'): unknown key 'colour'; expected one of: name, type, required, default, description, items, fields, enum, minimum, maximum, min_length, max_length, min_items, max_items",
                "parameters[0] ('days'): parameter 'days': default of type 'string' does not fit the declared type 'integer'",
            ],
        ),
        // A bad default, a bad name and `required` that cannot be read: the default is still
        // checked against its type, but not against a guess of `required`.
        (
            json!([{"name": "1st", "type": "integer", "required": "no", "default": [1]}]),
            vec![
                "parameters[0] ('1st'): 'required' takes true or false",
                "parameters[0] ('1st'): invalid parameter name '1st': it starts with '1'; names start with an ASCII letter or '_'",
                "parameters[0] ('1st'): parameter '1st': default of type 'list' does not fit the declared type 'integer'",
            ],
        ),
        // `items` and `fields` misplaced, and a mistake inside the fields.
        (
            json!([{"name": "x", "type": "string", "items": "string", "fields": [{"name": "a", "type": "strng"}]}]),
            vec![
                "parameters[0] ('x') fields[0] ('a'): unknown type 'strng'; did you mean 'string'?",
                "parameters[0] ('x'): parameter 'x': 'items' declares the type of a list's items, but this parameter is a 'string'",
                "parameters[0] ('x'): parameter 'x': 'fields' declares the fields of a dictionary (or of a list's dictionary items), but this parameter is a 'string'",
            ],
        ),
        // A default inside the fields and a duplicate field, both reported.
        (
            json!([{"name": "at", "type": "dictionary", "fields": [
                {"name": "a", "type": "integer", "required": false, "default": 1.5},
                {"name": "a", "type": "string"},
            ]}]),
            vec![
                "parameters[0] ('at') fields[0] ('a'): parameter 'a': default of type 'float' does not fit the declared type 'integer'",
                "parameters[0] ('at') fields: duplicate parameter 'a'",
            ],
        ),
    ];
    for (parameters, expected) in cases {
        assert_eq!(rendered(parameters.clone()), expected, "{parameters}");
    }
}

/// A misspelt or unreadable key is one problem: the key is not also reported missing, and no
/// rule runs on a guess of its value.
#[test]
fn a_misspelt_key_is_not_also_missing() {
    let cases = [
        (
            json!([{"name": "units", "type": "string", "requred": false, "default": "metric"}]),
            vec!["parameters[0] ('units'): unknown key 'requred'; did you mean 'required'?"],
        ),
        (
            json!([{"name": "units", "tpye": "string"}]),
            vec!["parameters[0] ('units'): unknown key 'tpye'; did you mean 'type'?"],
        ),
        (
            json!([{"name": 5, "type": "strng"}]),
            vec![
                "parameters[0]: 'name' takes a string",
                "parameters[0]: unknown type 'strng'; did you mean 'string'?",
            ],
        ),
    ];
    for (parameters, expected) in cases {
        assert_eq!(rendered(parameters.clone()), expected, "{parameters}");
    }
}
