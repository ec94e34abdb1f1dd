//! Input and output validation: directions, output defaults, undeclared arguments.

use super::steps::{bad_output, good_output};
use super::*;

#[test]
fn output_breaking_the_output_schema_is_an_output_validation_error() {
    let (tool, probe) = FnTool::new(weather_spec(), |inputs, _| Ok(bad_output(inputs)));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("fetch_weather", obj(json!({"city": "Paris"}))));
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Output);
    assert_eq!(result.error().unwrap().kind(), ErrorKind::OutputValidation);
    let found: Vec<(IssueKind, Option<&str>)> =
        e.errors().iter().map(|i| (i.kind(), i.param())).collect();
    assert_eq!(
        found,
        [
            (IssueKind::MissingParameter, Some("country")),
            (IssueKind::WrongType, Some("temperature")),
            (IssueKind::MissingParameter, Some("units")),
            (IssueKind::MissingParameter, Some("conditions")),
        ]
    );
    assert!(
        e.to_string()
            .starts_with("output validation failed for tool 'fetch_weather'")
    );
    assert_eq!(probe.runs(), 1, "the tool ran; its output was wrong");
    // The model is told the tool failed, not the tool's internals.
    assert_eq!(
        result.to_model_content(),
        "Error: tool 'fetch_weather' failed: it produced an invalid result."
    );
}

#[test]
fn outputs_are_held_to_their_schema_even_when_inputs_may_carry_extras() {
    let (tool, probe) = FnTool::new(weather_spec(), |inputs, _| {
        let mut output = good_output(inputs);
        output.insert("humidity".into(), json!(0.4));
        Ok(output)
    });
    let mut registry = ToolRegistry::new();
    registry.register(tool).unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(creds())
        .unknown_arguments(UnknownArguments::Ignore)
        .build();
    let result = block_on(executor.execute(
        "fetch_weather",
        obj(json!({"city": "Paris", "debug": true})),
    ));
    // The extra input passed through to the tool...
    assert_eq!(probe.seen()[0].inputs["debug"], true);
    // ...but the extra output key is refused.
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Output);
    assert_eq!(e.errors()[0].kind(), IssueKind::UnknownParameter);
    assert_eq!(e.errors()[0].param(), Some("humidity"));
}

#[test]
fn output_defaults_are_filled_too() {
    let spec = ToolSpec::builder("defaults_out")
        .output(
            ToolSchema::new([
                Param::required("value", ParamType::Integer),
                Param::optional("unit", ParamType::String).with_default("m"),
            ])
            .unwrap(),
        )
        .build()
        .unwrap();
    let (tool, _) = FnTool::new(spec, |_, _| Ok(obj(json!({"value": 3}))));
    let executor = executor_with(vec![tool]);
    let result = block_on(executor.execute("defaults_out", JsonObject::new()));
    assert_eq!(
        result.output().unwrap().clone(),
        json!({"value": 3, "unit": "m"})
    );
}

#[test]
fn unknown_arguments_are_input_errors_unless_the_executor_ignores_them() {
    let (executor, probe) = weather_executor();
    let result = block_on(executor.execute(
        "fetch_weather",
        obj(json!({"city": "Paris", "untis": "metric"})),
    ));
    let e = validation_error(&result);
    assert_eq!(e.direction(), Direction::Input);
    assert_eq!(e.errors()[0].suggestion(), Some("units"));
    assert_eq!(probe.runs(), 0);
}

#[test]
fn a_tool_without_schemas_gets_its_inputs_as_given() {
    let (tool, probe) = echo_tool("echo");
    let executor = executor_with(vec![tool]);
    let inputs = json!({"anything": [1, {"x": null}], "n": 1.0});
    let result = block_on(executor.execute("echo", obj(inputs.clone())));
    assert!(result.is_success());
    assert_eq!(Value::Object(probe.seen()[0].inputs.clone()), inputs);
    assert_eq!(result.output().unwrap().clone(), inputs);
}
