//! Dictionaries with declared fields (`"fields": [...]`, `fields = [...]`): nested objects are
//! validated field by field (paths such as `origin.city` and `stops[1].nights`), their defaults
//! filled, exported as nested JSON Schema objects (as OpenAI's strict mode requires), and
//! loaded from and saved to the Python original's JSON shape.

use agentkit_core::Problem;
use agentkit_core::{IssueKind, JsonObject, Param, ParamType, ToolSchema, UnknownArguments};
use serde_json::{Value, json};

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn place() -> ToolSchema {
    ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("country", ParamType::String).with_default("US"),
    ])
    .unwrap()
}

fn trip() -> ToolSchema {
    ToolSchema::new([
        Param::required("origin", ParamType::Dictionary).with_fields(place()),
        Param::optional("stops", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(
                ToolSchema::new([
                    Param::required("city", ParamType::String),
                    Param::optional("nights", ParamType::Integer).with_default(1),
                ])
                .unwrap(),
            ),
        Param::optional("notes", ParamType::Dictionary),
    ])
    .unwrap()
}

fn messages(schema: &ToolSchema, args: &mut JsonObject) -> Vec<String> {
    schema
        .validate(args)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn nested_fields_are_validated_with_paths() {
    let mut args = object(json!({
        "origin": {"city": 5, "zip": "75001"},
        "stops": [{"city": "Lyon"}, {"nights": "two"}, 3],
    }));
    assert_eq!(
        messages(&trip(), &mut args),
        [
            "Parameter 'origin.city': expected type 'string', got 'integer'",
            "Unknown parameter: 'origin.zip'; it is not declared by this tool",
            "Missing required parameter: 'stops[1].city'",
            "Parameter 'stops[1].nights': expected type 'integer', got 'string'",
            "Parameter 'stops[2]': expected type 'dictionary', got 'integer'",
        ]
    );
}

#[test]
fn nested_defaults_are_filled_in_place() {
    let mut args = object(json!({
        "origin": {"city": "Paris", "country": null},
        "stops": [{"city": "Lyon"}, {"city": "Nice", "nights": 3}],
    }));
    assert!(trip().validate(&mut args).is_empty());
    assert_eq!(args["origin"], json!({"city": "Paris", "country": "US"}));
    assert_eq!(
        args["stops"],
        json!([{"city": "Lyon", "nights": 1}, {"city": "Nice", "nights": 3}])
    );
}

#[test]
fn undeclared_nested_fields_follow_the_unknown_argument_policy() {
    let mut args = object(json!({"origin": {"city": "Paris", "zip": "75001"}}));
    let issues = trip().validate(&mut args);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind(), IssueKind::UnknownParameter);
    assert_eq!(issues[0].param(), Some("origin.zip"));
    let mut args = object(json!({"origin": {"city": "Paris", "zip": "75001"}}));
    assert!(
        trip()
            .validate_with(&mut args, UnknownArguments::Ignore)
            .is_empty()
    );
    // A dictionary without declared fields takes anything, as in the Python original.
    let mut args = object(json!({"origin": {"city": "Paris"}, "notes": {"a": [1, null]}}));
    assert!(trip().validate(&mut args).is_empty());
}

#[test]
fn nested_objects_are_exported_as_json_schema() {
    let exported = trip().to_json_schema();
    assert_eq!(
        exported["properties"]["origin"],
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "country": {"type": ["string", "null"], "default": "US"},
            },
            "required": ["city"],
            "additionalProperties": false,
        })
    );
    let stops = &exported["properties"]["stops"];
    assert_eq!(stops["type"], json!(["array", "null"]));
    assert_eq!(stops["items"]["required"], json!(["city"]));
    assert_eq!(stops["items"]["additionalProperties"], json!(false));

    let strict = trip().to_strict_json_schema();
    assert_eq!(
        strict["properties"]["origin"]["required"],
        json!(["city", "country"])
    );
    assert_eq!(
        strict["properties"]["origin"]["properties"]["country"],
        json!({"type": ["string", "null"], "description": "Defaults to \"US\"."}),
        "strict mode has no `default`: the nested default is stated in words"
    );
    assert_eq!(
        strict["properties"]["stops"]["items"]["required"],
        json!(["city", "nights"])
    );
}

#[test]
fn the_validator_and_the_exported_schema_agree_on_nested_objects() {
    let schema = trip();
    let validator = jsonschema::validator_for(&schema.to_json_schema()).expect("valid JSON Schema");
    for input in [
        json!({"origin": {"city": "Paris"}}),
        json!({"origin": {"city": "Paris", "country": null}}),
        json!({"origin": {"city": 5}}),
        json!({"origin": {}}),
        json!({"origin": {"city": "Paris", "zip": 1}}),
        json!({"origin": null}),
        json!({"origin": {"city": "P"}, "stops": []}),
        json!({"origin": {"city": "P"}, "stops": [{"city": "L"}]}),
        json!({"origin": {"city": "P"}, "stops": [{"city": "L", "nights": 2.0}]}),
        json!({"origin": {"city": "P"}, "stops": [{"city": "L", "nights": 2.5}]}),
        json!({"origin": {"city": "P"}, "stops": [{"nights": 2}]}),
        json!({"origin": {"city": "P"}, "stops": [1]}),
        json!({"origin": {"city": "P"}, "stops": null, "notes": {"x": 1}}),
    ] {
        let ours = schema.validate(&mut object(input.clone())).is_empty();
        assert_eq!(ours, validator.is_valid(&input), "disagreement on {input}");
    }
}

#[test]
fn fields_round_trip_through_the_seed_shape() {
    let value = json!({"parameters": [
        {"name": "origin", "type": "dictionary", "required": true, "fields": [
            {"name": "city", "type": "string", "required": true},
            {"name": "country", "type": "string", "required": false, "default": "US"},
        ]},
    ]});
    let schema = ToolSchema::from_value(value.clone()).expect("valid");
    assert_eq!(schema.parameters()[0].fields(), Some(&place()));
    assert_eq!(schema.to_value(), value);
}

#[test]
fn mistakes_inside_fields_are_reported_where_they_are() {
    let err = ToolSchema::from_value(json!({"parameters": [
        {"name": "origin", "type": "dictionary", "fields": [
            {"name": "city", "type": "strng"},
            {"name": "zip", "type": "string"},
            {"name": "zip", "type": "string"},
        ]},
        {"name": "city", "type": "string", "fields": []},
    ]}))
    .unwrap_err();
    let found: Vec<(&str, &Problem)> = err
        .problems()
        .iter()
        .map(|p| (p.location(), p.problem()))
        .collect();
    assert_eq!(found.len(), 3, "{err}");
    assert_eq!(found[0].0, "parameters[0] ('origin') fields[0] ('city')");
    assert!(matches!(
        found[0].1,
        Problem::UnknownType {
            suggestion: Some("string"),
            ..
        }
    ));
    assert_eq!(found[1].0, "parameters[0] ('origin') fields");
    assert!(matches!(found[1].1, Problem::DuplicateParameter { name } if name == "zip"));
    assert_eq!(found[2].0, "parameters[1] ('city')");
    assert!(matches!(
        found[2].1,
        Problem::FieldsOnNonDictionary {
            ty: ParamType::String,
            ..
        }
    ));
}

#[test]
fn a_default_must_fit_the_declared_fields() {
    let err = ToolSchema::new([Param::optional("origin", ParamType::Dictionary)
        .with_fields(place())
        .with_default(json!({"country": 1, "zip": "x"}))])
    .unwrap_err();
    let rendered: Vec<String> = err
        .problems()
        .iter()
        .map(|p| p.problem().to_string())
        .collect();
    assert_eq!(
        rendered,
        [
            "parameter 'origin': the default has no 'city', a required field",
            "parameter 'origin': default value 'origin.country' of type 'integer' does not fit the declared type 'string'",
            "parameter 'origin': the default has a field 'zip' that is not declared",
        ]
    );
    assert!(
        ToolSchema::new([Param::optional("origin", ParamType::Dictionary)
            .with_fields(place())
            .with_default(json!({"city": "Paris"}))])
        .is_ok()
    );
}
