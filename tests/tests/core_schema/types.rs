//! The six types: their names, suggestions for other names, their JSON Schema types and what each accepts.

use super::*;

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
