//! Output defaults apply as input defaults do (the Python original's `validate` fills both):
//! an optional output with a default is an `Option` field of the generated output struct, and
//! when `run` leaves it out (`None`), output validation fills the default in. Hand-written
//! tools get the same through `ToolSchema::validate`.

use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Tool, ToolCall, ToolContext, ToolExecutor, ToolHandler,
    ToolOutput, ToolRegistry, ToolSchema, ToolSpec, block_on, tool,
};
use serde_json::{Value, json};

#[tool(
    name = "forecast",
    input = [
        { name = "city", type = string },
        { name = "units", type = string, required = false },
    ],
    output = [
        { name = "city", type = string },
        { name = "units", type = string, required = false, default = "metric" },
        { name = "days", type = list, items = dictionary, required = false,
          default = [{ high = 20 }],
          fields = [
            { name = "high", type = float },
            { name = "sky", type = string, required = false, default = "clear" },
          ] },
        { name = "note", type = string, required = false },
    ],
)]
struct Forecast;

impl ToolHandler for Forecast {
    async fn run(
        &self,
        input: ForecastInput,
        _: &ToolContext<'_>,
    ) -> Result<ForecastOutput, BoxError> {
        // Optional outputs are `Option`s, with or without a default.
        let units: Option<String> = input.units;
        Ok(ForecastOutput {
            city: input.city,
            units,
            days: None,
            note: None,
        })
    }
}

fn dispatch(tool: impl Tool, arguments: &str) -> Value {
    let mut registry = ToolRegistry::new();
    registry.register(tool).expect("registers");
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("call_1", "forecast", arguments)));
    assert!(result.is_success(), "{}", result.to_model_content());
    result.output().cloned().expect("an output")
}

#[test]
fn an_output_left_out_gets_its_default() {
    assert_eq!(
        dispatch(Forecast, r#"{"city": "Oslo"}"#),
        json!({
            "city": "Oslo",
            "units": "metric",
            // The default's own nested default is filled too.
            "days": [{"high": 20, "sky": "clear"}],
        })
    );
}

#[test]
fn an_output_given_is_kept() {
    assert_eq!(
        dispatch(Forecast, r#"{"city": "Oslo", "units": "imperial"}"#)["units"],
        "imperial"
    );
}

/// The same outputs, written by hand: `ToolSchema::validate` fills output defaults for any
/// tool.
struct HandWritten(ToolSpec);

impl Tool for HandWritten {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let mut output = JsonObject::new();
        output.insert("city".into(), inputs["city"].clone());
        if let Some(units) = inputs.get("units") {
            output.insert("units".into(), units.clone());
        }
        Ok(output.into())
    }
}

fn hand_written() -> HandWritten {
    let day = ToolSchema::new([
        Param::required("high", ParamType::Float),
        Param::optional("sky", ParamType::String).with_default("clear"),
    ])
    .expect("valid");
    let output = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("units", ParamType::String).with_default("metric"),
        Param::optional("days", ParamType::List)
            .with_items(ParamType::Dictionary)
            .with_fields(day)
            .with_default(json!([{"high": 20}])),
        Param::optional("note", ParamType::String),
    ])
    .expect("valid");
    let input = ToolSchema::new([
        Param::required("city", ParamType::String),
        Param::optional("units", ParamType::String),
    ])
    .expect("valid");
    HandWritten(
        ToolSpec::builder("forecast")
            .input(input)
            .output(output)
            .build()
            .expect("valid"),
    )
}

#[test]
fn hand_written_tools_get_output_defaults_too() {
    for arguments in [
        r#"{"city": "Oslo"}"#,
        r#"{"city": "Oslo", "units": "imperial"}"#,
    ] {
        assert_eq!(
            dispatch(hand_written(), arguments),
            dispatch(Forecast, arguments),
            "{arguments}"
        );
    }
}

#[test]
fn the_macro_spec_equals_the_run_time_one() {
    // The macro stores the default as a schema built at run time does: with `sky` filled.
    assert_eq!(Forecast.spec(), hand_written().spec());
    let days = Forecast
        .spec()
        .output_schema()
        .and_then(|schema| schema.parameter("days"))
        .and_then(Param::default_value)
        .map(agentkit_core::Literal::to_value);
    assert_eq!(days, Some(json!([{"high": 20, "sky": "clear"}])));
}
