//! The Python original's `{"parameters": [...]}` shape: loading, defaults and round trips.

use super::*;

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
