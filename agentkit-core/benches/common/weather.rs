//! The tool body every benchmarked path runs, the `#[tool]` tool and the hand-written tool
//! around it, and the serde-only peers' dispatch of it.
//!
//! Shared by the dispatch benchmark (`benches/dispatch.rs`) and the allocation test
//! (`tests/tests/perf_alloc.rs`, through `#[path]`), so that the test holds the very tools
//! the benchmark measures to the very peer it measures them against.

use std::future::Future;
use std::pin::Pin;

use agentkit_core::{
    BoxError, JsonObject, Tool, ToolContext, ToolHandler, ToolOutput, ToolSpec, tool,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The tool body: `{city, temperature, units}` from the inputs.
pub(crate) fn weather(city: &str, units: &str) -> (String, f64, String) {
    let temperature = if units == "metric" { 22.0 } else { 72.0 };
    (city.to_owned(), temperature, units.to_owned())
}

#[derive(Deserialize)]
struct WeatherArgs {
    city: String,
    #[serde(default = "us")]
    #[allow(dead_code)]
    country: String,
    #[serde(default = "imperial")]
    units: String,
}

fn us() -> String {
    "US".into()
}

fn imperial() -> String {
    "imperial".into()
}

#[derive(Serialize)]
struct WeatherOut {
    city: String,
    temperature: f64,
    units: String,
}

/// The call as serde-only peers (rig) make it: `serde_json::from_str` into a derived struct
/// (first error only, no validation beyond the types), the tool body, and the output
/// serialized back to JSON.
pub(crate) fn serde_weather(
    arguments: &str,
) -> Pin<Box<dyn Future<Output = Result<Value, String>> + Send + '_>> {
    Box::pin(async move {
        let args: WeatherArgs = serde_json::from_str(arguments).map_err(|e| e.to_string())?;
        let (city, temperature, units) = weather(&args.city, &args.units);
        serde_json::to_value(WeatherOut {
            city,
            temperature,
            units,
        })
        .map_err(|e| e.to_string())
    })
}

/// The tool as `#[tool]` declares it, its body [`weather`].
#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
    input = [
        { name = "city", type = string, description = "City name" },
        { name = "country", type = string, required = false, default = "US" },
        { name = "units", type = string, required = false, default = "imperial" },
    ],
    output = [
        { name = "city", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
    ],
)]
pub(crate) struct FetchWeatherTyped;

impl ToolHandler for FetchWeatherTyped {
    async fn run(
        &self,
        input: FetchWeatherTypedInput,
        _: &ToolContext<'_>,
    ) -> Result<FetchWeatherTypedOutput, BoxError> {
        let (city, temperature, units) = weather(&input.city, &input.units);
        Ok(FetchWeatherTypedOutput {
            city,
            temperature,
            units,
        })
    }
}

/// The tool written by hand, its body [`weather`]: the spec it is given, its output an object
/// built from the inputs, validated by the executor.
pub(crate) struct FetchWeatherByHand(pub(crate) ToolSpec);

impl Tool for FetchWeatherByHand {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let city = inputs["city"].as_str().unwrap_or_default();
        let units = inputs["units"].as_str().unwrap_or_default();
        let (city, temperature, units) = weather(city, units);
        let mut out = JsonObject::new();
        out.insert("city".into(), city.into());
        out.insert("temperature".into(), temperature.into());
        out.insert("units".into(), units.into());
        Ok(out.into())
    }
}
