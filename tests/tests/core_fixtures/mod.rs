//! Fixtures shared by the `core_*` behaviour tests: the README's `fetch_weather` schemas and
//! spec, and a tool whose logic is a closure and which records every run.
//!
//! This lives beside the tests rather than in `tests/src/lib.rs` because the test crate's
//! library has no `agentkit-core` dependency (it is a dev-dependency only). Each test binary
//! that uses it (`behaviour`, `tracing_capture`, and the MCP tests' `mcp`) declares it once, and
//! uses a subset of it.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use agentkit_core::{
    BoxError, Credentials, JsonObject, Tool, ToolContext, ToolOutput, ToolSchema, ToolSpec,
};
use serde_json::{Value, json};

/// The name of the Python original's credential.
pub(crate) const WEATHER_KEY: &str = "weather-api-key";

/// The JSON object inside `value`; panics on anything else.
pub(crate) fn obj(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("expected a JSON object, got {other}"),
    }
}

/// The Python original's `FetchWeatherTool.INPUT_SCHEMA`, verbatim.
pub(crate) fn weather_input_value() -> Value {
    json!({
        "parameters": [
            {"name": "city", "type": "string", "required": true,
             "description": "City name (e.g., 'San Francisco')"},
            {"name": "country", "type": "string", "required": false,
             "default": "US",
             "description": "ISO country code"},
            {"name": "units", "type": "string", "required": false,
             "default": "imperial",
             "description": "'imperial' (Fahrenheit) or 'metric' (Celsius)"},
        ]
    })
}

/// The Python original's `FetchWeatherTool.OUTPUT_SCHEMA`, verbatim.
pub(crate) fn weather_output_value() -> Value {
    json!({
        "parameters": [
            {"name": "city", "type": "string", "required": true},
            {"name": "country", "type": "string", "required": true},
            {"name": "temperature", "type": "float", "required": true},
            {"name": "units", "type": "string", "required": true},
            {"name": "conditions", "type": "string", "required": true},
        ]
    })
}

/// The README's `fetch_weather` spec, needing credential `weather-api-key`.
pub(crate) fn weather_spec() -> ToolSpec {
    ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .input(ToolSchema::from_value(weather_input_value()).expect("input schema"))
        .output(ToolSchema::from_value(weather_output_value()).expect("output schema"))
        .credential(WEATHER_KEY)
        .build()
        .expect("spec")
}

/// What a [`FnTool`] received on one run.
#[derive(Clone)]
pub(crate) struct Seen {
    /// The inputs, as the tool got them.
    pub(crate) inputs: JsonObject,
    /// The credentials, as `(name, exposed value)`.
    pub(crate) credentials: Vec<(String, String)>,
}

/// A handle on the runs of a [`FnTool`]; clones share the log.
#[derive(Clone, Default)]
pub(crate) struct Probe {
    runs: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Probe {
    /// How many times the tool's logic was entered.
    pub(crate) fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }

    /// What the tool received, run by run.
    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

type Logic = dyn Fn(&JsonObject, &Credentials) -> Result<JsonObject, BoxError> + Send + Sync;

/// A tool whose logic is a closure; every run is counted and recorded in its [`Probe`]
/// before the closure is called.
pub(crate) struct FnTool {
    spec: ToolSpec,
    probe: Probe,
    logic: Box<Logic>,
}

impl FnTool {
    /// A tool with `spec` running `logic`, and the probe to watch it.
    pub(crate) fn new<F>(spec: ToolSpec, logic: F) -> (Self, Probe)
    where
        F: Fn(&JsonObject, &Credentials) -> Result<JsonObject, BoxError> + Send + Sync + 'static,
    {
        let probe = Probe::default();
        let tool = FnTool {
            spec,
            probe: probe.clone(),
            logic: Box::new(logic),
        };
        (tool, probe)
    }
}

impl Tool for FnTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        self.probe.runs.fetch_add(1, Ordering::SeqCst);
        let credentials_seen = ctx
            .credentials()
            .names()
            .map(|name| {
                let value = ctx.credentials().get(name).map_or("", |s| s.expose());
                (name.to_owned(), value.to_owned())
            })
            .collect();
        self.probe
            .seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Seen {
                inputs: inputs.clone(),
                credentials: credentials_seen,
            });
        (self.logic)(inputs, ctx.credentials()).map(Into::into)
    }
}

/// The Python original's `execute`: echoes city, country and units, reports 72.0 and "sunny", and fails
/// if the credential was not handed over.
pub(crate) fn weather_logic(
    inputs: &JsonObject,
    credentials: &Credentials,
) -> Result<JsonObject, BoxError> {
    let _key = credentials.require(WEATHER_KEY)?.expose();
    Ok(obj(json!({
        "city": inputs["city"],
        "country": inputs["country"],
        "temperature": 72.0,
        "units": inputs["units"],
        "conditions": "sunny",
    })))
}

/// The README's `fetch_weather` tool and its probe.
pub(crate) fn weather_tool() -> (FnTool, Probe) {
    FnTool::new(weather_spec(), weather_logic)
}

/// A spec without schemas or credentials.
pub(crate) fn bare_spec(name: &'static str) -> ToolSpec {
    ToolSpec::builder(name).build().expect("valid bare spec")
}
