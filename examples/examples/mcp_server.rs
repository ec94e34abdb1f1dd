//! The README's example tools, served to any MCP client (Claude Desktop, an IDE, the MCP
//! Inspector, another agent).
//!
//! Over stdio (what a host starts as a child process):
//!
//! ```sh
//! cargo run --example mcp_server --features mcp
//! ```
//!
//! Over streamable HTTP on a loopback address (port 0 picks a free port; the address is
//! printed on stdout, the endpoint is any path such as `/mcp`):
//!
//! ```sh
//! cargo run --example mcp_server --features mcp -- --http 127.0.0.1:8080
//! ```
//!
//! Every call goes through the executor: arguments are validated (a call with mistakes comes
//! back as one `isError` result listing every mistake), the weather key is resolved, the
//! output is validated. `convert_currency` fails for a currency it has no rate for ("XYZ").

use std::sync::Arc;
use std::time::Duration;

use agentkit_core::mcp::McpServer;
use agentkit_core::{
    BoxError, InMemoryCredentials, ToolContext, ToolExecutor, ToolHandler, ToolRegistry, tool,
};

/// Look up the current weather for a city.
#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US", description = "ISO country code" },
        { name = "units", type = string, required = false, default = "imperial",
          description = "'imperial' (Fahrenheit) or 'metric' (Celsius)" },
    ],
    output = [
        { name = "city", type = string },
        { name = "country", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
        { name = "conditions", type = string },
    ],
    tags = { category = "weather" },
    credentials = ["weather-api-key"],
)]
struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let _api_key = ctx.credential("weather-api-key")?.expose();
        let celsius = 22.0;
        let temperature = if input.units == "metric" {
            celsius
        } else {
            celsius * 9.0 / 5.0 + 32.0
        };
        Ok(FetchWeatherOutput {
            city: input.city,
            country: input.country,
            temperature,
            units: input.units,
            conditions: "sunny".to_owned(),
        })
    }
}

/// Convert an amount between two currencies.
#[tool(
    name = "convert_currency",
    input = [
        { name = "amount", type = float },
        { name = "from", type = string },
        { name = "to", type = string },
    ],
    output = [{ name = "amount", type = float }],
    tags = { category = "finance" },
)]
struct ConvertCurrency {
    /// Rates to one euro.
    rates: Vec<(&'static str, f64)>,
}

/// The error a tool returns when it cannot do its job.
#[derive(Debug)]
struct UnknownCurrency(String);

impl std::fmt::Display for UnknownCurrency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no exchange rate for currency '{}'", self.0)
    }
}

impl std::error::Error for UnknownCurrency {}

impl ToolHandler for ConvertCurrency {
    async fn run(
        &self,
        input: ConvertCurrencyInput,
        _: &ToolContext<'_>,
    ) -> Result<ConvertCurrencyOutput, BoxError> {
        let rate = |code: &str| {
            self.rates
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, rate)| *rate)
                .ok_or_else(|| UnknownCurrency(code.to_owned()))
        };
        let amount = input.amount / rate(&input.from)? * rate(&input.to)?;
        Ok(ConvertCurrencyOutput { amount })
    }
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather)?;
    registry.register(ConvertCurrency {
        rates: vec![("EUR", 1.0), ("USD", 1.08), ("GBP", 0.85)],
    })?;
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-demo-not-a-real-key"))
        .build();
    let server = McpServer::new(Arc::new(executor))
        .with_name("agentkit-example", env!("CARGO_PKG_VERSION"))
        .with_timeout(Duration::from_secs(30));

    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => {
            // Stdout carries the protocol; say hello on stderr.
            eprintln!("agentkit example MCP server on stdio");
            server.serve_stdio().await?;
        }
        [flag, address] if flag == "--http" => {
            let listener = tokio::net::TcpListener::bind(address.as_str()).await?;
            // The bound address (port 0 picks one), for whoever started us.
            println!("listening on http://{}/mcp", listener.local_addr()?);
            server.serve_http(listener).await;
        }
        _ => return Err("usage: mcp_server [--http ADDRESS:PORT]".into()),
    }
    Ok(())
}
