//! The example tools declared to a model API, as that API expects them.
//!
//! Prints one JSON document on stdout: `{"tools": [...]}`, the part of the request body (or,
//! for MCP, the `tools/list` result) that declares the tools, in strict mode where the API
//! has one (OpenAI's `strict: true`, Anthropic's strict tool use).
//!
//! ```sh
//! cargo run --example declarations -- openai-chat
//! cargo run --example declarations -- openai-responses
//! cargo run --example declarations -- anthropic
//! cargo run --example declarations -- gemini
//! cargo run --example declarations -- mcp
//! ```
//!
//! The tools: the README's `fetch_weather`, and `plan_trip`, whose arguments hold a list of
//! strings, an integer with a default and a dictionary with declared fields.

use std::io::Write;
use std::process::ExitCode;

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use agentkit_core::serde_json::{Value, json};
use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolRegistry, tool};

/// Look up the current weather for a city.
#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US" },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "imperial" },
    ],
    output = [
        { name = "city", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
    ],
    credentials = ["weather-api-key"],
)]
pub struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let _key = ctx.credential("weather-api-key")?.expose();
        let temperature = match input.units {
            FetchWeatherInputUnits::Metric => 22.0,
            FetchWeatherInputUnits::Imperial => 71.6,
        };
        Ok(FetchWeatherOutput {
            city: input.city,
            temperature,
            units: input.units.to_string(),
        })
    }
}

/// Split a trip's days between cities.
#[tool(
    name = "plan_trip",
    input = [
        { name = "cities", type = list, items = string, description = "Cities to visit, in order" },
        { name = "days", type = integer, required = false, default = 5, description = "Length of the trip in days" },
        { name = "budget", type = dictionary, required = false, fields = [
            { name = "amount", type = float },
            { name = "currency", type = string, required = false, default = "EUR" },
        ] },
    ],
    output = [
        { name = "stops", type = list, items = dictionary, fields = [
            { name = "city", type = string },
            { name = "nights", type = integer },
        ] },
    ],
)]
pub struct PlanTrip;

impl ToolHandler for PlanTrip {
    async fn run(
        &self,
        input: PlanTripInput,
        _: &ToolContext<'_>,
    ) -> Result<PlanTripOutput, BoxError> {
        if input.cities.is_empty() || input.days < 1 {
            return Err("a trip needs at least one city and one day".into());
        }
        let cities = i64::try_from(input.cities.len())?;
        let (nights, remainder) = (input.days / cities, input.days % cities);
        let stops = (0..)
            .zip(input.cities)
            .map(|(index, city)| {
                // The first cities take the remainder, a night each.
                PlanTripOutputStops {
                    city,
                    nights: nights + i64::from(index < remainder),
                }
            })
            .collect();
        Ok(PlanTripOutput { stops })
    }
}

/// The example tools, in declaration order.
pub fn registry() -> Result<ToolRegistry, BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather)?;
    registry.register(PlanTrip)?;
    Ok(registry)
}

/// The APIs this example knows, as given on the command line.
pub const PROVIDERS: [&str; 5] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
];

/// The document declaring `registry`'s tools to `provider`, or `None` for an unknown one.
pub fn declarations(provider: &str, registry: &ToolRegistry) -> Option<Value> {
    let specs = registry.specs();
    let tools = match provider {
        "openai-chat" => openai_chat::strict_tools(specs),
        "openai-responses" => openai_responses::strict_tools(specs),
        "anthropic" => anthropic::strict_tools(specs),
        "gemini" => gemini::tools(specs),
        "mcp" => mcp::tools(specs),
        _ => return None,
    };
    Some(json!({ "tools": tools }))
}

fn main() -> ExitCode {
    let registry = match registry() {
        Ok(registry) => registry,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let provider = std::env::args().nth(1).unwrap_or_default();
    match declarations(&provider, &registry) {
        // Written, not `println!`ed: a closed pipe (`| head`) is a failure, not a panic.
        Some(document) => match writeln!(std::io::stdout().lock(), "{document:#}") {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        },
        None => {
            eprintln!(
                "usage: cargo run --example declarations -- <provider>\n\
                 where <provider> is one of: {}",
                PROVIDERS.join(", ")
            );
            ExitCode::from(2)
        }
    }
}
