//! Behaviour of the JSON Schema export: the shapes sent to providers (standard and OpenAI
//! strict), registry declarations in registration order, and agreement between our validator
//! and a real JSON Schema validator (`jsonschema`) on a corpus and on generated inputs.

use agentkit_core::provider::{anthropic, openai_chat};
use agentkit_core::{Param, ParamType, ToolRegistry, ToolSchema, ToolSpec};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::core_fixtures::{FnTool, bare_spec, obj, weather_input_value};

fn weather() -> ToolSchema {
    ToolSchema::from_value(weather_input_value()).unwrap()
}

/// Every type, required and optional, with and without defaults.
fn all_types() -> ToolSchema {
    ToolSchema::new([
        Param::required("s", ParamType::String).with_description("a string"),
        Param::required("i", ParamType::Integer),
        Param::optional("f", ParamType::Float).with_default(1.5),
        Param::optional("b", ParamType::Boolean),
        Param::optional("l", ParamType::List).with_default(json!([1, "a"])),
        Param::required("d", ParamType::Dictionary),
    ])
    .unwrap()
}

/// Every type, optional: integer and dictionary with defaults, the others without.
fn all_optional() -> ToolSchema {
    ToolSchema::new([
        Param::optional("s", ParamType::String),
        Param::optional("i", ParamType::Integer).with_default(3_i64),
        Param::optional("f", ParamType::Float),
        Param::optional("b", ParamType::Boolean).with_default(false),
        Param::optional("l", ParamType::List),
        Param::optional("d", ParamType::Dictionary).with_default(json!({"k": "v"})),
    ])
    .unwrap()
}

/// Every type, required.
fn all_required() -> ToolSchema {
    ToolSchema::new(ParamType::ALL.map(|ty| Param::required(ty.as_str(), ty))).unwrap()
}

fn schemas() -> Vec<(&'static str, ToolSchema)> {
    vec![
        ("weather", weather()),
        ("all_types", all_types()),
        ("all_optional", all_optional()),
        ("all_required", all_required()),
        ("empty", ToolSchema::empty()),
    ]
}

fn ours_accepts(schema: &ToolSchema, input: &Value) -> bool {
    match input {
        Value::Object(map) => schema.validate(&mut map.clone()).is_empty(),
        // Arguments that are not an object fail before validation (see core_dispatch).
        _ => false,
    }
}

/// 2^63, the end of the 64-bit range, as a double.
const TWO_63: f64 = 9_223_372_036_854_775_808.0;

/// The numbers at the edges of what an `integer` takes, as JSON values: the ends of the
/// 64-bit range as integers and as doubles, the doubles next to them, 2^53 and its
/// neighbours, zero and negative zero, and integral floats written with exponents. Each is
/// paired with whether it lies inside the 64-bit range.
fn edge_numbers() -> Vec<(Value, bool)> {
    // The doubles either side of -2^63 and below 2^63 (their spacing there is 2048 and 1024).
    let two_63 = TWO_63;
    let f = |x: f64| Value::from(x);
    vec![
        (json!(i64::MIN), true),
        (json!(i64::MIN + 1), true),
        (json!(i64::MAX), true),
        (json!(i64::MAX - 1), true),
        (f(-two_63), true), // -2^63 as a double is exactly i64::MIN
        (f(-two_63 + 2048.0), true),
        (f(-two_63 - 2048.0), false),
        (f(two_63), false), // i64::MAX rounds up to 2^63, outside
        (f(two_63 - 1024.0), true),
        (json!(9_223_372_036_854_775_808_u64), false),
        (json!(u64::MAX), false),
        (json!(9_007_199_254_740_992_i64), true), // 2^53
        (json!(9_007_199_254_740_993_i64), true),
        (json!(-9_007_199_254_740_993_i64), true),
        (f(9_007_199_254_740_992.0), true),
        (f(-9_007_199_254_740_992.0), true),
        (f(-0.0), true),
        (f(0.0), true),
        (serde_json::from_str("1e3").unwrap(), true),
        (serde_json::from_str("-9.2e18").unwrap(), true),
        (serde_json::from_str("9.2e18").unwrap(), true),
        (serde_json::from_str("-9.3e18").unwrap(), false),
        (serde_json::from_str("1e19").unwrap(), false),
        (serde_json::from_str("-1e300").unwrap(), false),
    ]
}

/// One value of each kind, and the edge cases the brief names.
fn probe_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(-7),
        json!(1.0),
        json!(-3.0),
        json!(1.5),
        json!(-0.25),
        json!(i64::MAX),
        json!(i64::MIN),
        json!(""),
        json!("text"),
        json!("1"),
        json!([]),
        json!([1, "a", null, [true]]),
        json!({}),
        json!({"nested": {"deep": [1.5, null]}}),
    ]
    .into_iter()
    .chain(edge_numbers().into_iter().map(|(value, _)| value))
    .collect()
}

/// Whether every number in `value`, at any depth, lies inside the 64-bit range: what the
/// schemas sent to models (which leave the 64-bit bounds out) agree on with the validator.
fn inside_64_bits(value: &Value) -> bool {
    match value {
        Value::Number(n) => {
            n.is_i64()
                || n.as_f64()
                    .is_some_and(|f| f.fract() != 0.0 || (-TWO_63..TWO_63).contains(&f))
        }
        Value::Array(items) => items.iter().all(inside_64_bits),
        Value::Object(map) => map.values().all(inside_64_bits),
        _ => true,
    }
}

/// Valid base inputs per schema, then every key set to every probe value, every key
/// removed, and extra keys added.
fn corpus(schema: &ToolSchema) -> Vec<Value> {
    let base = obj(json!({
        "city": "Paris", "country": "FR", "units": "metric",
        "s": "x", "i": 2, "f": 0.5, "b": true, "l": [], "d": {},
        "string": "x", "integer": 2, "float": 0.5, "boolean": true, "list": [], "dictionary": {},
    }));
    let keys: Vec<&str> = schema.parameters().iter().map(|p| p.name()).collect();
    let valid: Map<String, Value> = base
        .into_iter()
        .filter(|(k, _)| keys.contains(&k.as_str()))
        .collect();
    let mut corpus = vec![Value::Object(valid.clone()), json!({})];
    for key in &keys {
        for value in probe_values() {
            let mut input = valid.clone();
            input.insert((*key).to_owned(), value);
            corpus.push(Value::Object(input));
        }
        let mut input = valid.clone();
        input.remove(*key);
        corpus.push(Value::Object(input));
    }
    for extra in ["extra", "citty", "S"] {
        for value in [Value::Null, json!(1), json!("x")] {
            let mut input = valid.clone();
            input.insert(extra.to_owned(), value);
            corpus.push(Value::Object(input));
        }
    }
    // Not objects at all: both sides refuse.
    corpus.extend([json!(null), json!([]), json!("{}"), json!(1)]);
    corpus
}

fn assert_agreement(name: &str, schema: &ToolSchema, exported: &Value, inputs: &[Value]) {
    let validator = jsonschema::validator_for(exported)
        .unwrap_or_else(|e| panic!("{name}: exported schema does not compile: {e}"));
    let mut disagreements = Vec::new();
    for input in inputs {
        let ours = ours_accepts(schema, input);
        let theirs = validator.is_valid(input);
        if ours != theirs {
            disagreements.push(format!("{input} (ours: {ours}, jsonschema: {theirs})"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{name}: {} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

// ---------------------------------------------------------------- shapes

#[test]
fn standard_export_of_the_seed_schema() {
    assert_eq!(
        weather().to_json_schema(),
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name (e.g., 'San Francisco')"},
                "country": {"type": ["string", "null"], "description": "ISO country code",
                            "default": "US"},
                "units": {"type": ["string", "null"],
                          "description": "'imperial' (Fahrenheit) or 'metric' (Celsius)",
                          "default": "imperial"},
            },
            "required": ["city"],
            "additionalProperties": false,
        })
    );
}

#[test]
fn standard_export_maps_every_type_and_default() {
    assert_eq!(
        all_types().to_json_schema(),
        json!({
            "type": "object",
            "properties": {
                "s": {"type": "string", "description": "a string"},
                "i": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
                "f": {"type": ["number", "null"], "default": 1.5},
                "b": {"type": ["boolean", "null"]},
                "l": {"type": ["array", "null"], "default": [1, "a"]},
                "d": {"type": "object"},
            },
            "required": ["s", "i", "d"],
            "additionalProperties": false,
        })
    );
}

#[test]
fn strict_export_requires_everything_nullable_optionals_defaults_in_words() {
    let strict = weather().to_strict_json_schema();
    assert_eq!(
        strict,
        json!({
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name (e.g., 'San Francisco')"},
                "country": {"type": ["string", "null"],
                            "description": "ISO country code. Defaults to \"US\"."},
                "units": {"type": ["string", "null"],
                          "description": "'imperial' (Fahrenheit) or 'metric' (Celsius). \
                                          Defaults to \"imperial\"."},
            },
            "required": ["city", "country", "units"],
            "additionalProperties": false,
        })
    );
    for (name, schema) in schemas() {
        let strict = schema.to_strict_json_schema();
        let properties = strict["properties"].as_object().unwrap();
        let required: Vec<&str> = strict["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let declared: Vec<&str> = schema.parameters().iter().map(|p| p.name()).collect();
        assert_eq!(
            required, declared,
            "{name}: every property is required, in order"
        );
        assert!(
            properties.values().all(|p| p.get("default").is_none()),
            "{name}: {strict}"
        );
        assert_eq!(strict["additionalProperties"], false);
    }
}

#[test]
fn exported_schemas_are_valid_json_schema() {
    for (name, schema) in schemas() {
        assert!(
            jsonschema::meta::is_valid(&schema.to_json_schema()),
            "{name}"
        );
        assert!(
            jsonschema::meta::is_valid(&schema.to_strict_json_schema()),
            "{name}"
        );
    }
}

#[test]
fn declarations_come_in_registration_order() {
    let mut registry = ToolRegistry::new();
    let weather_spec = ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .input(weather())
        .build()
        .unwrap();
    let sum_spec = ToolSpec::builder("add")
        .description("Add.")
        .input(all_required())
        .build()
        .unwrap();
    for spec in [sum_spec, bare_spec("zzz_no_schema"), weather_spec] {
        registry
            .register(FnTool::new(spec, |_, _| Ok(Default::default())).0)
            .unwrap();
    }

    let declarations = anthropic::tools(registry.specs());
    let names: Vec<&Value> = declarations
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["name"])
        .collect();
    assert_eq!(names, ["add", "zzz_no_schema", "fetch_weather"]);
    assert_eq!(declarations[0]["description"], "Add.");
    // A tool without an input schema takes any object.
    assert_eq!(declarations[1]["input_schema"], json!({"type": "object"}));

    let strict = openai_chat::strict_tools(registry.specs());
    let names: Vec<&Value> = strict
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["function"]["name"])
        .collect();
    assert_eq!(names, ["add", "zzz_no_schema", "fetch_weather"]);
    assert_eq!(
        strict[2]["function"]["parameters"],
        weather().to_strict_json_schema()
    );
    // Strict mode takes only closed objects, even for a tool without a schema.
    assert_eq!(
        strict[1]["function"]["parameters"],
        ToolSchema::empty().to_strict_json_schema()
    );
    // Stable from call to call.
    assert_eq!(anthropic::tools(registry.specs()), declarations);
}

/// The validation schema bounds integers (the validator refuses what does not fit in an
/// `i64`); what models are sent leaves the bounds out.
#[test]
fn integer_bounds_are_kept_for_validation_and_left_out_of_declarations() {
    let spec = ToolSpec::builder("t").input(all_types()).build().unwrap();
    let bounded = &spec.input_json_schema()["properties"]["i"];
    assert_eq!(bounded["minimum"], json!(i64::MIN));
    assert_eq!(bounded["maximum"], json!(i64::MAX));
    let declared = [
        anthropic::tools([&spec])[0]["input_schema"].clone(),
        openai_chat::tools([&spec])[0]["function"]["parameters"].clone(),
        spec.input_schema().unwrap().to_strict_json_schema(),
    ];
    for schema in declared {
        assert_eq!(
            schema["properties"]["i"],
            json!({"type": "integer"}),
            "{schema}"
        );
    }
}

// ---------------------------------------------------------------- agreement

#[test]
fn validator_and_exported_schema_agree_on_the_corpus() {
    let mut total = 0;
    for (name, schema) in schemas() {
        let inputs = corpus(&schema);
        total += inputs.len();
        assert_agreement(name, &schema, &schema.to_json_schema(), &inputs);
    }
    assert!(
        total > 300,
        "the corpus should be large, it has {total} inputs"
    );
}

#[test]
fn the_corpus_has_both_valid_and_invalid_inputs_for_each_schema() {
    for (name, schema) in schemas() {
        let inputs = corpus(&schema);
        let valid = inputs.iter().filter(|i| ours_accepts(&schema, i)).count();
        assert!(valid > 0, "{name}");
        assert!(valid < inputs.len(), "{name}");
    }
}

/// The strict schema is sent to models and leaves integer bounds out, so the agreement holds
/// for integers inside `i64`; the validation schema is checked outside.
#[test]
fn validator_and_strict_schema_agree_when_every_key_is_present() {
    for (name, schema) in schemas() {
        let keys: Vec<&str> = schema.parameters().iter().map(|p| p.name()).collect();
        let inputs: Vec<Value> = corpus(&schema)
            .into_iter()
            .filter(|input| {
                input
                    .as_object()
                    .is_some_and(|o| keys.iter().all(|k| o.contains_key(*k)))
                    && inside_64_bits(input)
            })
            .collect();
        assert!(!inputs.is_empty(), "{name}");
        assert_agreement(name, &schema, &schema.to_strict_json_schema(), &inputs);
    }
}

/// What validation leaves of an accepted input, its defaults filled and integral floats
/// made integers, is accepted again: by the validator, by the exported schema, and, with
/// `null` for each optional parameter still absent (as a model in strict mode sends it), by
/// the strict schema (for numbers inside the 64-bit range, which it leaves unbounded).
fn assert_filled_inputs_agree(name: &str, schema: &ToolSchema, inputs: &[Value]) {
    let exported = jsonschema::validator_for(&schema.to_json_schema()).unwrap();
    let strict = jsonschema::validator_for(&schema.to_strict_json_schema()).unwrap();
    let mut checked = 0;
    for input in inputs {
        let Value::Object(object) = input else {
            continue;
        };
        let mut filled = object.clone();
        if !schema.validate(&mut filled).is_empty() {
            continue;
        }
        checked += 1;
        let refilled = Value::Object(filled.clone());
        assert!(
            ours_accepts(schema, &refilled),
            "{name}: ours refuses {refilled}"
        );
        assert!(
            exported.is_valid(&refilled),
            "{name}: exported refuses {refilled}"
        );
        for param in schema.parameters() {
            filled.entry(param.name().to_owned()).or_insert(Value::Null);
        }
        let complete = Value::Object(filled);
        if inside_64_bits(&complete) {
            assert!(
                strict.is_valid(&complete),
                "{name}: strict refuses {complete}"
            );
        }
    }
    assert!(checked > 0, "{name}: no input was accepted");
}

#[test]
fn inputs_agree_once_their_defaults_are_filled() {
    for (name, schema) in schemas() {
        assert_filled_inputs_agree(name, &schema, &corpus(&schema));
    }
}

/// The edges of the 64-bit range, as integers and as doubles, for an `integer` parameter:
/// the validator and the exported schema agree on each, and the validator takes exactly
/// those inside the range (normalised to the integer).
#[test]
fn validator_and_exported_schema_agree_on_the_edges_of_the_64_bit_range() {
    let schema = all_types();
    let exported = jsonschema::validator_for(&schema.to_json_schema()).unwrap();
    for (number, inside) in edge_numbers() {
        let input = json!({"s": "x", "i": number, "d": {}});
        assert_eq!(ours_accepts(&schema, &input), inside, "ours: {input}");
        assert_eq!(exported.is_valid(&input), inside, "jsonschema: {input}");
        if inside {
            let mut object = input.as_object().cloned().unwrap();
            assert!(schema.validate(&mut object).is_empty());
            assert!(
                object["i"].is_i64(),
                "{input} is not normalised: {}",
                object["i"]
            );
        }
    }
    // As a float parameter, every one is a number.
    for (number, _) in edge_numbers() {
        let input = json!({"s": "x", "i": 1, "f": number, "d": {}});
        assert!(ours_accepts(&schema, &input), "ours: {input}");
        assert!(exported.is_valid(&input), "jsonschema: {input}");
    }
}

#[test]
fn specific_decisions_hold_on_both_sides() {
    let validator = jsonschema::validator_for(&all_types().to_json_schema()).unwrap();
    let base = json!({"s": "x", "i": 1, "d": {}});
    let with = |key: &str, value: Value| {
        let mut input = base.clone();
        input[key] = value;
        input
    };
    let cases = [
        (with("i", json!(1.0)), true),   // 1.0 is an integer
        (with("i", json!(1.5)), false),  // 1.5 is not
        (with("i", json!(true)), false), // booleans are not numbers
        (with("f", json!(2)), true),     // an integer is a float
        (with("f", json!(false)), false),
        (with("f", Value::Null), true), // null for an optional: absent
        (with("s", Value::Null), false), // null for a required one: wrong type
        (with("extra", json!(1)), false), // undeclared argument
    ];
    for (input, expected) in cases {
        assert_eq!(
            ours_accepts(&all_types(), &input),
            expected,
            "ours: {input}"
        );
        assert_eq!(validator.is_valid(&input), expected, "jsonschema: {input}");
    }
}

/// Integers outside the signed 64-bit range: our validator refuses them (`OutOfRange`), so
/// the exported schema must too.
#[test]

fn validator_and_exported_schema_agree_on_integers_outside_64_bits() {
    let schema = all_types();
    let inputs: Vec<Value> = [
        json!(18_446_744_073_709_551_615_u64),
        json!(9_223_372_036_854_775_808_u64),
        json!(1e19),
        json!(-1e19),
        json!(1e300),
    ]
    .into_iter()
    .map(|n| json!({"s": "x", "i": n, "d": {}}))
    .collect();
    assert_agreement("all_types", &schema, &schema.to_json_schema(), &inputs);
}

// ---------------------------------------------------------------- generated inputs

/// A leaf value; with `outside`, numbers outside the 64-bit range among the edges too.
fn leaf(outside: bool) -> impl Strategy<Value = Value> {
    let edges: Vec<Value> = edge_numbers()
        .into_iter()
        .filter(|(_, inside)| outside || *inside)
        .map(|(value, _)| value)
        .collect();
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1000_i64..1000).prop_map(|i| json!(i as f64)), // integral floats: 3.0
        (-1.0e6_f64..1.0e6).prop_map(|f| json!(f)),
        "[a-z]{0,4}".prop_map(Value::from),
        prop::sample::select(edges),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_value_with(true)
}

fn json_value_with(outside: bool) -> impl Strategy<Value = Value> {
    leaf(outside).prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Objects over `keys` (each present or not) plus the undeclared keys `extra` and `x`.
fn objects(keys: Vec<&'static str>) -> impl Strategy<Value = Value> {
    let all: Vec<&'static str> = keys.into_iter().chain(["extra", "x"]).collect();
    prop::collection::vec(prop::option::weighted(0.7, json_value()), all.len()).prop_map(
        move |values| {
            let map: Map<String, Value> = all
                .iter()
                .zip(values)
                .filter_map(|(k, v)| v.map(|v| ((*k).to_owned(), v)))
                .collect();
            Value::Object(map)
        },
    )
}

/// Like [`objects`], every declared key present, and every number inside the 64-bit range
/// (the strict schema leaves the 64-bit bounds out).
fn complete_objects(keys: Vec<&'static str>) -> impl Strategy<Value = Value> {
    let n = keys.len();
    (
        prop::collection::vec(json_value_with(false), n),
        prop::option::weighted(0.2, json_value_with(false)),
    )
        .prop_map(move |(values, extra)| {
            let mut map: Map<String, Value> = keys
                .iter()
                .zip(values)
                .map(|(k, v)| ((*k).to_owned(), v))
                .collect();
            if let Some(extra) = extra {
                map.insert("extra".to_owned(), extra);
            }
            Value::Object(map)
        })
}

const KEYS: [&str; 6] = ["s", "i", "f", "b", "l", "d"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_objects_agree_with_the_standard_schema(input in objects(KEYS.to_vec())) {
        for schema in [all_types(), all_optional()] {
            let validator = jsonschema::validator_for(&schema.to_json_schema()).unwrap();
            prop_assert_eq!(
                ours_accepts(&schema, &input),
                validator.is_valid(&input),
                "input {} against {}", input, schema.to_json_schema()
            );
        }
    }

    #[test]
    fn generated_complete_objects_agree_with_the_strict_schema(
        input in complete_objects(KEYS.to_vec())
    ) {
        for schema in [all_types(), all_optional()] {
            let validator = jsonschema::validator_for(&schema.to_strict_json_schema()).unwrap();
            prop_assert_eq!(
                ours_accepts(&schema, &input),
                validator.is_valid(&input),
                "input {} against {}", input, schema.to_strict_json_schema()
            );
        }
    }

    #[test]
    fn generated_objects_agree_once_their_defaults_are_filled(input in objects(KEYS.to_vec())) {
        for (name, schema) in [("all_types", all_types()), ("all_optional", all_optional())] {
            let mut object = input.as_object().cloned().unwrap();
            if schema.validate(&mut object).is_empty() {
                assert_filled_inputs_agree(name, &schema, &[Value::Object(object)]);
            }
        }
    }

    #[test]
    fn generated_objects_agree_on_the_seed_schema(
        input in objects(vec!["city", "country", "units"])
    ) {
        let schema = weather();
        let validator = jsonschema::validator_for(&schema.to_json_schema()).unwrap();
        prop_assert_eq!(ours_accepts(&schema, &input), validator.is_valid(&input));
    }
}

#[test]
fn the_output_json_schema_is_exported_for_mcp() {
    let spec = agentkit_core::ToolSpec::builder("weather")
        .input(weather())
        .output(all_types())
        .build()
        .unwrap();
    assert_eq!(
        spec.output_json_schema(),
        Some(all_types().to_json_schema())
    );
    let without = agentkit_core::ToolSpec::builder("ping").build().unwrap();
    assert_eq!(without.output_json_schema(), None);
    assert_eq!(without.input_json_schema(), json!({"type": "object"}));
}
