//! Input examples on a spec built at run time: kept as written, in the JSON shape and back,
//! and checked by `build` against the input schema with the executor's validator, every
//! problem named with its example's index, in the words the compiler uses for `#[tool(...)]`;
//! bounded in number and length.

use agentkit_core::{
    ExampleIssue, JsonObject, MAX_EXAMPLE_BYTES, MAX_EXAMPLES, Param, ParamType, Problem,
    SemanticError, ToolSchema, ToolSpec,
};
use serde_json::{Value, json};

fn object(value: Value) -> JsonObject {
    value.as_object().cloned().expect("an object")
}

fn messages(err: &SemanticError) -> Vec<String> {
    err.problems().iter().map(ToString::to_string).collect()
}

fn weather() -> ToolSchema {
    let stop = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("nights", ParamType::Integer).with_default(1),
    ])
    .unwrap();
    ToolSchema::new([
        Param::required("city", ParamType::String).with_min_length(1),
        Param::optional("units", ParamType::String)
            .with_enum(["metric", "imperial"])
            .with_default("metric"),
        Param::optional("days", ParamType::Integer)
            .with_minimum(1)
            .with_maximum(7),
        Param::optional("stops", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(stop),
    ])
    .unwrap()
}

#[test]
fn good_examples_are_kept_as_written() {
    let examples = [
        json!({"city": "Paris"}),
        json!({"city": "Lyon", "units": null, "days": 2.0}),
        json!({"city": "Nice", "stops": [{"city": "Cannes"}]}),
    ]
    .map(object);
    let spec = ToolSpec::builder("fetch_weather")
        .input(weather())
        .example(examples[0].clone())
        .examples(examples[1..].iter().cloned())
        .build()
        .unwrap();
    // No default filled in (`units`, `nights`), `null` and `2.0` as given.
    assert_eq!(spec.examples(), examples);
    assert!(
        ToolSpec::builder("plain")
            .build()
            .unwrap()
            .examples()
            .is_empty()
    );
}

#[test]
fn every_problem_of_every_example_is_named_with_its_index() {
    let err = ToolSpec::builder("fetch_weather")
        .input(weather())
        .example(object(json!({"city": "Paris"})))
        .example(object(json!({"units": "kelvin", "days": 0})))
        .example(object(json!({
            "ctiy": "Lyon",
            "stops": [{"city": 3, "pet": true}],
        })))
        .build()
        .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "input example 1: missing required parameter 'city'",
            "input example 1: parameter 'units': the value must be one of 'metric', 'imperial', \
             got 'kelvin'",
            "input example 1: parameter 'days': the value must be at least 1, got 0",
            "input example 2: parameter 'stops[0].city': a value of type 'integer' does not fit \
             the declared type 'string'",
            "input example 2: unknown parameter 'stops[0].pet': the tool does not declare it",
            // `city` is missing too, but only because of the typo: reported once, as the typo.
            "input example 2: unknown parameter 'ctiy'; did you mean 'city'?",
        ]
    );
    // Machine-readable too.
    assert_eq!(
        err.problems()[0].problem(),
        &Problem::InvalidExample {
            index: 1,
            issue: ExampleIssue::Missing { at: "city".into() },
        }
    );
    // With the spec's other problems, in one error.
    let err = ToolSpec::builder("bad name")
        .input(weather())
        .example(object(json!({"city": ""})))
        .build()
        .unwrap_err();
    assert_eq!(err.problems().len(), 2, "{err}");
}

#[test]
fn without_an_input_schema_any_object_is_an_example() {
    let example = object(json!({"anything": [1, {"goes": null}]}));
    let spec = ToolSpec::builder("echo")
        .example(example.clone())
        .build()
        .unwrap();
    assert_eq!(spec.examples(), [example]);
}

#[test]
fn examples_are_few_and_short() {
    let city = object(json!({"city": "Paris"}));
    let err = ToolSpec::builder("fetch_weather")
        .input(weather())
        .examples(vec![city.clone(); MAX_EXAMPLES + 2])
        .build()
        .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "a tool has at most 10 input examples, and this one has 12: each is sent with every \
             request; keep the few that show the most"
        ]
    );
    assert!(
        ToolSpec::builder("fetch_weather")
            .examples(vec![city; MAX_EXAMPLES])
            .build()
            .is_ok()
    );
    // `{"city":"xx..."}`: 11 bytes around the string.
    let long = |len: usize| object(json!({"city": "x".repeat(len)}));
    assert!(
        ToolSpec::builder("echo")
            .example(long(MAX_EXAMPLE_BYTES - 11))
            .build()
            .is_ok()
    );
    let err = ToolSpec::builder("echo")
        .example(long(MAX_EXAMPLE_BYTES - 10))
        .build()
        .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "input example 0 is 4097 bytes as JSON, more than the 4096 an example may have: it \
             is sent with every request; shorten its values"
        ]
    );
}

#[test]
fn examples_are_kept_in_the_json_shape() {
    let spec = ToolSpec::builder("fetch_weather")
        .input(weather())
        .example(object(json!({"city": "Paris", "days": 3})))
        .build()
        .unwrap();
    let value = spec.to_value();
    assert_eq!(value["examples"], json!([{"city": "Paris", "days": 3}]));
    assert_eq!(ToolSpec::from_value(value).unwrap(), spec);
    // None, no key.
    let plain = ToolSpec::builder("plain").build().unwrap();
    assert!(plain.to_value().get("examples").is_none());
}

#[test]
fn a_bad_example_from_data_is_refused() {
    let err = ToolSpec::from_value(json!({
        "name": "fetch_weather",
        "input_schema": {"parameters": [
            {"name": "city", "type": "string"},
            {"name": "days", "type": "integer", "required": false, "maximum": 7},
        ]},
        "examples": [{"city": "Paris"}, {"city": "Lyon", "days": 10}],
    }))
    .unwrap_err();
    assert_eq!(
        messages(&err),
        ["input example 1: parameter 'days': the value must be at most 7, got 10"]
    );
    // Not a list of objects, beside the spec's other problems.
    let err = ToolSpec::from_value(json!({
        "name": "fetch_weather",
        "examples": ["Paris", {"city": "Lyon"}],
        "version": "1.0",
    }))
    .unwrap_err();
    assert_eq!(
        messages(&err),
        [
            "'examples' takes a list of objects, one per example, such as [{\"city\": \"Paris\"}]",
            "version '1.0' is not MAJOR.MINOR.PATCH (for example '1.0.0'): it has fewer than \
             three numbers",
        ]
    );
    // A misspelt key is named.
    let err = ToolSpec::from_value(json!({"name": "x", "input_examples": []})).unwrap_err();
    assert_eq!(
        messages(&err),
        ["unknown key 'input_examples'; did you mean 'examples'?"]
    );
}
