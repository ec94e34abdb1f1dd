//! `ToolSpec`: its builder, its JSON form, names and versions, and every problem of one parameter.

use super::*;

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
