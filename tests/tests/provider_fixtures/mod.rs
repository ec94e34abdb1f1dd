//! Fixtures shared by the `provider_*` tests: the tools of the `declarations` example (so the
//! example's output is what these tests check), an executor for them, the schemas each API
//! is expected to be sent (written out by hand), and the scripted turn every provider's round
//! trip makes.
#![allow(dead_code, unreachable_pub)]

#[path = "../../../examples/examples/declarations.rs"]
pub mod example;

use agentkit_core::{InMemoryCredentials, ToolExecutor, ToolRegistry, ToolResult};
use serde_json::{Value, json};

/// The example's tools.
pub fn registry() -> ToolRegistry {
    example::registry().expect("the example's tools register")
}

/// An executor for the example's tools, with the weather key.
pub fn executor() -> ToolExecutor {
    ToolExecutor::builder(registry())
        .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-test"))
        .build()
}

pub const WEATHER_DESCRIPTION: &str = "Look up the current weather for a city.";
pub const TRIP_DESCRIPTION: &str = "Split a trip's days between cities.";

/// `fetch_weather`'s arguments as every non-strict declaration (and Anthropic's strict tool
/// use) gives them: optional parameters not required, defaults kept.
pub fn weather_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name (e.g., 'San Francisco')"},
            "country": {"type": "string", "default": "US"},
            "units": {"type": "string", "enum": ["metric", "imperial"], "default": "imperial"},
        },
        "required": ["city"],
        "additionalProperties": false,
    })
}

/// `plan_trip`'s arguments, likewise: no integer bounds.
pub fn trip_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "cities": {"type": "array", "items": {"type": "string"},
                       "description": "Cities to visit, in order"},
            "days": {"type": "integer", "description": "Length of the trip in days",
                     "default": 5},
            "budget": {
                "type": "object",
                "properties": {
                    "amount": {"type": "number"},
                    "currency": {"type": "string", "default": "EUR"},
                },
                "required": ["amount"],
                "additionalProperties": false,
            },
        },
        "required": ["cities"],
        "additionalProperties": false,
    })
}

/// `fetch_weather`'s arguments in OpenAI's strict mode: all required, optional ones
/// nullable, defaults in words.
pub fn weather_strict_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name (e.g., 'San Francisco')"},
            "country": {"type": ["string", "null"], "description": "Defaults to \"US\"."},
            "units": {"type": ["string", "null"], "enum": ["metric", "imperial", null],
                      "description": "Defaults to \"imperial\"."},
        },
        "required": ["city", "country", "units"],
        "additionalProperties": false,
    })
}

/// `plan_trip`'s arguments in OpenAI's strict mode, nested fields included.
pub fn trip_strict_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "cities": {"type": "array", "items": {"type": "string"},
                       "description": "Cities to visit, in order"},
            "days": {"type": ["integer", "null"],
                     "description": "Length of the trip in days. Defaults to 5."},
            "budget": {
                "type": ["object", "null"],
                "properties": {
                    "amount": {"type": "number"},
                    "currency": {"type": ["string", "null"], "description": "Defaults to \"EUR\"."},
                },
                "required": ["amount", "currency"],
                "additionalProperties": false,
            },
        },
        "required": ["cities", "days", "budget"],
        "additionalProperties": false,
    })
}

/// `fetch_weather`'s output schema, as MCP's `outputSchema`.
pub fn weather_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "temperature": {"type": "number"},
            "units": {"type": "string"},
        },
        "required": ["city", "temperature", "units"],
        "additionalProperties": false,
    })
}

/// `plan_trip`'s output schema, as MCP's `outputSchema`.
pub fn trip_output() -> Value {
    json!({
        "type": "object",
        "properties": {
            "stops": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}},
                    "required": ["city", "nights"],
                    "additionalProperties": false,
                },
            },
        },
        "required": ["stops"],
        "additionalProperties": false,
    })
}

// The scripted turn: the model asks for the weather in Paris, plans a trip, and makes a
// mistake. Each provider's test writes these three calls in its API's shape.

/// The first call's arguments, and the output the tool returns for them.
pub fn weather_arguments() -> Value {
    json!({"city": "Paris", "units": "metric"})
}
pub fn weather_result() -> Value {
    json!({"city": "Paris", "temperature": 22.0, "units": "metric"})
}

/// The second call's arguments (a default left out), and its output.
pub fn trip_arguments() -> Value {
    json!({"cities": ["Rome", "Florence"]})
}
pub fn trip_result() -> Value {
    json!({"stops": [{"city": "Rome", "nights": 3}, {"city": "Florence", "nights": 2}]})
}

/// The third call: no city, and units of the wrong type.
pub fn bad_arguments() -> Value {
    json!({"units": 5})
}

/// What the model is told about the third call.
pub const BAD_CALL_TEXT: &str = "\
Error: invalid arguments for tool 'fetch_weather':
- Missing required parameter: 'city'
- Parameter 'units': expected type 'string', got 'integer'";

/// The model text of a successful result: its output as compact JSON.
pub fn text(output: &Value) -> String {
    serde_json::to_string(output).unwrap()
}

/// Checks the three results of the scripted turn, whatever the API.
pub fn assert_scripted_outcomes(results: &[ToolResult]) {
    let outcomes: Vec<(bool, String)> = results
        .iter()
        .map(|r| (r.is_success(), r.to_model_content()))
        .collect();
    assert_eq!(
        outcomes,
        [
            (true, text(&weather_result())),
            (true, text(&trip_result())),
            (false, BAD_CALL_TEXT.to_owned()),
        ]
    );
}

/// Every schema object inside `schema` (itself included), with `properties`, `items` and
/// nested fields walked.
pub fn subschemas(schema: &Value) -> Vec<&Value> {
    let mut found = vec![schema];
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        for property in properties.values() {
            found.extend(subschemas(property));
        }
    }
    if let Some(items) = schema.get("items") {
        found.extend(subschemas(items));
    }
    found
}
pub mod streams;
