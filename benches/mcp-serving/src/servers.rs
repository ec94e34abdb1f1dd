//! The servers measured, each with the same tool: `fetch_weather` of the README's quick start
//! (without its credential, which the plain servers would have nothing to match), taking
//! `city` (required), `country` (default `"US"`) and `units` (`"metric"` or `"imperial"`,
//! default `"imperial"`), no other argument, and answering `{city, temperature, units}` as
//! structured content with its JSON as text.
//!
//! - `agentkit`: the tool as `#[tool]` declares it, served by `McpServer::serve_http`.
//! - `axum`: the tool as rmcp's `#[tool_router]` declares it (serde's `Deserialize` for the
//!   input, `Json` for the output), rmcp's `StreamableHttpService` nested at `/mcp` in an axum
//!   `Router`, served by `axum::serve` with `TCP_NODELAY` on each accepted connection.
//! - `axum-nagle`: the same without `TCP_NODELAY` (axum's default), to show what it costs.
//! - `hyper`: the same rmcp service on bare hyper, as rmcp's `counter_hyper_streamable_http`
//!   example serves it (hyper-util's auto builder, a task per connection), with `TCP_NODELAY`.
//!
//! Invalid arguments: agentkit answers an `isError` result listing every problem; the plain
//! server, with serde's first error as a JSON-RPC error (invalid params), which is what
//! `Parameters<T>` does. Both reject an undeclared argument.

use std::sync::Arc;

use agentkit_core::mcp::McpServer;
use agentkit_core::{BoxError, ToolContext, ToolExecutor, ToolHandler, ToolRegistry, tool};
use axum::serve::ListenerExt;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::service::TowerToHyperService;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

/// The servers this benchmark can start, by the name the command line gives them.
pub const KINDS: [&str; 4] = ["agentkit", "axum", "axum-nagle", "hyper"];

/// Serves `kind` on `listener` until the process is killed, without sessions when
/// `stateless`.
pub async fn serve(kind: &str, listener: TcpListener, stateless: bool) -> Result<(), BoxError> {
    match kind {
        "agentkit" if stateless => agentkit_server()?.stateless().serve_http(listener).await,
        "agentkit" => agentkit_server()?.serve_http(listener).await,
        "axum" => {
            // Each response is written in more than one small segment: without `TCP_NODELAY`
            // the second waits for the client's delayed ACK (about 40 ms on Linux).
            let listener = listener.tap_io(|stream| {
                let _ = stream.set_nodelay(true);
            });
            axum::serve(listener, axum_router(stateless)).await?;
        }
        "axum-nagle" => axum::serve(listener, axum_router(stateless)).await?,
        "hyper" => serve_hyper(listener, stateless).await,
        _ => return Err(format!("unknown server {kind:?}; one of {KINDS:?}").into()),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// agentkit

/// The README's `fetch_weather`, without its credential.
#[tool(
    name = "fetch_weather",
    description = "Look up the current weather for a city.",
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
)]
struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        _ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        let temperature = match input.units {
            FetchWeatherInputUnits::Metric => 22.0,
            FetchWeatherInputUnits::Imperial => 72.0,
        };
        Ok(FetchWeatherOutput {
            city: input.city,
            temperature,
            units: input.units.to_string(),
        })
    }
}

fn agentkit_server() -> Result<McpServer, BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather)?;
    Ok(McpServer::new(Arc::new(ToolExecutor::new(registry))))
}

// ---------------------------------------------------------------------------------------
// Plain rmcp

#[derive(Deserialize, schemars::JsonSchema)]
// agentkit refuses an undeclared argument; so does this.
#[serde(deny_unknown_fields)]
struct WeatherInput {
    /// City name (e.g., 'San Francisco')
    city: String,
    #[serde(default = "us")]
    #[allow(dead_code)] // Declared and validated, unused by the body, as in agentkit's tool.
    country: String,
    #[serde(default)]
    units: Units,
}

fn us() -> String {
    "US".to_owned()
}

#[derive(Deserialize, schemars::JsonSchema, Default, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    #[default]
    Imperial,
}

#[derive(Serialize, schemars::JsonSchema)]
struct WeatherOutput {
    city: String,
    temperature: f64,
    units: String,
}

/// The plain rmcp server, as rmcp's examples and tests write one.
#[derive(Clone)]
struct WeatherServer {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl WeatherServer {
    fn new() -> Self {
        WeatherServer {
            tool_router: Self::tool_router(),
        }
    }

    #[rmcp::tool(description = "Look up the current weather for a city.")]
    async fn fetch_weather(
        &self,
        Parameters(input): Parameters<WeatherInput>,
    ) -> Json<WeatherOutput> {
        let (temperature, units) = match input.units {
            Units::Metric => (22.0, "metric"),
            Units::Imperial => (72.0, "imperial"),
        };
        Json(WeatherOutput {
            city: input.city,
            temperature,
            units: units.to_owned(),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// rmcp's streamable HTTP service of the plain server, with rmcp's default configuration (as
/// agentkit's `streamable_http_service` uses); when `stateless`, without sessions and with
/// JSON responses, as `McpServer::stateless` sets it.
fn rmcp_service(stateless: bool) -> StreamableHttpService<WeatherServer, LocalSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!stateless)
        .with_json_response(stateless);
    StreamableHttpService::new(|| Ok(WeatherServer::new()), Default::default(), config)
}

fn axum_router(stateless: bool) -> axum::Router {
    axum::Router::new().nest_service("/mcp", rmcp_service(stateless))
}

async fn serve_hyper(listener: TcpListener, stateless: bool) {
    let service = TowerToHyperService::new(rmcp_service(stateless));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        // As for axum: without it, every call on a reused connection waits ~40 ms.
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
