//! An MCP client written with agentkit, for the client scenarios of the official MCP
//! conformance suite (`@modelcontextprotocol/conformance`): the suite starts a server of its
//! own for a scenario, then runs this program with the server's URL as the last argument, the
//! scenario's name in `MCP_CONFORMANCE_SCENARIO`, and for some scenarios what the client is
//! given beforehand (such as a pre-registered client id and secret) as JSON in
//! `MCP_CONFORMANCE_CONTEXT`.
//!
//! ```sh
//! npx @modelcontextprotocol/conformance client --scenario tools_call \
//!     --command "cargo run -q --example mcp_conformance_client --features mcp-oauth --"
//! ```
//!
//! (`cargo test --workspace` runs the scenarios `initialize`, `tools_call`, `sse-retry`, the
//! authorization ones, `auth/*`, those about JSON Schema, `json-schema-2020-12-preservation`
//! and `json-schema-ref-no-deref`, and, with the suite's next release, those of revision
//! 2026-07-28's stateless core (`request-metadata`, `http-standard-headers`,
//! `http-custom-headers`, `http-invalid-tool-headers`, `sep-2322-client-request-state`) and
//! `elicitation-sep1034-client-defaults` this way; see `tests/mcp/tests/conformance.rs`.)
//!
//! It is how an agent uses a remote server's tools: [`McpClient`] connects and registers
//! them in a [`ToolRegistry`], and the [`ToolExecutor`] over it validates and calls them
//! like any other tool, declaring each with the server's `inputSchema` as it was sent (every
//! JSON Schema 2020-12 keyword kept) and never fetching a `$ref` from the network. In the
//! `auth/*` scenarios the server wants OAuth: the client connects with [`McpOAuth`], and a
//! person's approval is stood in for by [`approve_without_a_person`], as the suite's
//! authorization server approves every request.

use agentkit_core::mcp::rmcp::model::{ElicitResult, ElicitationAction};
use agentkit_core::mcp::{EnterpriseIdp, JwtSigningAlgorithm, McpClient, McpOAuth, Refusal};
use agentkit_core::provider::mcp;
use agentkit_core::serde_json::{self, Value, json};
use agentkit_core::{BoxError, Problem, Secret, ToolCall, ToolExecutor, ToolRegistry};

/// Where the authorization server sends the browser back to. Nothing listens there: the
/// redirect is read, not followed (see [`approve_without_a_person`]).
const REDIRECT_URI: &str = "http://localhost:3000/callback";

/// The client's metadata document, its client id where the authorization server takes those
/// (the suite's `auth/basic-cimd` scenario); the suite does not fetch it.
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let url = std::env::args()
        .next_back()
        .filter(|url| url.starts_with("http"))
        .ok_or("usage: mcp_conformance_client URL (with MCP_CONFORMANCE_SCENARIO set)")?;
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();

    // Connecting is `server/discover` (2026-07-28), or the `initialize` handshake with a
    // server of an earlier revision; listing the tools follows it. The person who would
    // fill in the server's forms accepts each as proposed: the client fills in its defaults.
    let builder = McpClient::builder()
        .on_elicitation(|_form| async { ElicitResult::new(ElicitationAction::Accept) });
    let client = if scenario.starts_with("auth/") {
        builder
            .connect_http_with_oauth(&url, oauth(&scenario)?)
            .await?
    } else {
        builder.connect_http(&url).await?
    };
    if scenario == "json-schema-ref-no-deref" {
        return refuse_network_refs(&client).await;
    }
    let mut registry = ToolRegistry::new();
    let import = client.register_tools(&mut registry, None).await?;
    println!("connected to {url}; tools: {:?}", import.registered());
    for refused in import.refused() {
        println!("{refused}");
    }
    // The schema the client declares for the server's tool, as agentkit declares it over MCP
    // (read before the registry moves into the executor).
    let declared = registry
        .lookup(FOCAL_TOOL)
        .map(|spec| mcp::tool(spec)["inputSchema"].clone());
    let executor = ToolExecutor::new(registry);

    // What each scenario expects the client to call: the calls the suite lists in the
    // context (`toolCalls`, as `http-custom-headers` does), or the scenario's own.
    let listed = context()?["toolCalls"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let calls: Vec<ToolCall> = if !listed.is_empty() {
        listed
            .iter()
            .enumerate()
            .map(|(n, call)| {
                let name = call["name"].as_str().unwrap_or_default();
                ToolCall::new(format!("call_{n}"), name, call["arguments"].clone())
            })
            .collect()
    } else {
        scenario_calls(&scenario, declared)?
    };
    for call in calls {
        let result = executor.dispatch(&call).await;
        println!("{}: {}", call.name(), result.to_model_content());
        if let Some(error) = result.error() {
            return Err(format!("{} failed: {error}", call.name()).into());
        }
    }
    Ok(())
}

/// The calls `scenario` expects, when the suite does not list them; `declared` is the
/// `inputSchema` the client declares for the tool [`FOCAL_TOOL`], when the server has it.
fn scenario_calls(scenario: &str, declared: Option<Value>) -> Result<Vec<ToolCall>, BoxError> {
    let call = |name: &str, arguments: Value| ToolCall::new("call_1", name, arguments);
    Ok(match scenario {
        // Connecting and listing the tools is all: the handshake (`initialize`), or the
        // request metadata every request carries at 2026-07-28 (`request-metadata`).
        "initialize" | "request-metadata" => vec![],
        "tools_call" => vec![call("add_numbers", json!({"a": 5, "b": 3}))],
        // The server closes the call's SSE stream before it answers; the answer comes on the
        // stream the client reopens after the `retry` delay the server gave (SEP-1699).
        "sse-retry" => vec![call("test_reconnection", json!({}))],
        // Authorized, the client lists the tools and calls the one there is (which may need
        // more scopes than listing: `auth/scope-step-up`).
        auth if auth.starts_with("auth/") => vec![call("test-tool", json!({}))],
        // The server has a tool with a JSON Schema 2020-12 `inputSchema` (`$anchor`, `allOf`,
        // `if`/`then`/`else`, ...) and an echo tool: the client sends back the schema it
        // declares for the first, which the suite compares with what the server sent.
        "json-schema-2020-12-preservation" => {
            let declared = declared.ok_or(format!("the server has no tool '{FOCAL_TOOL}'"))?;
            vec![call("json_schema_echo", json!({"schema": declared}))]
        }
        // Every request carries `Mcp-Method`, a call `Mcp-Name` too (SEP-2243).
        "http-standard-headers" => vec![
            call("test_headers", json!({})),
            call("my-hyphenated-tool", json!({})),
        ],
        // The server's tools with invalid `x-mcp-header` annotations are refused; the valid
        // one is used all the same.
        "http-invalid-tool-headers" => vec![call("valid_tool", json!({"region": "us-west1"}))],
        // Calls whose results ask for input first (SEP-2322): the client answers and sends
        // the call again, with the server's `requestState` as it was, and a call between them
        // carries none of it.
        "sep-2322-client-request-state" => vec![
            call("test_mrtr_echo_state", json!({})),
            call("test_mrtr_unrelated", json!({})),
            call("test_mrtr_no_state", json!({})),
            call("test_mrtr_no_result_type", json!({})),
        ],
        // The server asks the person for a form whose fields all have defaults; the answer
        // accepts it as proposed, and the client fills in the defaults (SEP-1034).
        "elicitation-sep1034-client-defaults" => {
            vec![call("test_client_elicitation_defaults", json!({}))]
        }
        other => return Err(format!("no steps for the scenario '{other}'").into()),
    })
}

/// What the suite gives the client beforehand (`MCP_CONFORMANCE_CONTEXT`), `null` when
/// nothing.
fn context() -> Result<Value, BoxError> {
    Ok(match std::env::var("MCP_CONFORMANCE_CONTEXT") {
        Ok(context) => serde_json::from_str(&context)?,
        Err(_) => Value::Null,
    })
}

/// The tool with a JSON Schema 2020-12 `inputSchema` in the scenario
/// `json-schema-2020-12-preservation`.
const FOCAL_TOOL: &str = "json_schema_2020_12_tool";

/// The scenario `json-schema-ref-no-deref`: the server's one tool has a property whose schema
/// is a `$ref` to a URL on the network (the suite counts the requests to it). agentkit never
/// fetches one: the tool is refused when the tools are listed, saying why, rather than called
/// unvalidated. Succeeds when it is refused for that reason.
async fn refuse_network_refs(client: &McpClient) -> Result<(), BoxError> {
    let listed = client.tools(None).await?;
    if !listed.tools().is_empty() {
        return Err(format!(
            "tools with a network `$ref` were accepted: {:?}",
            listed
                .tools()
                .iter()
                .map(|t| t.remote_name())
                .collect::<Vec<_>>()
        )
        .into());
    }
    for refused in listed.refused() {
        let Refusal::Invalid(problems) = refused.reason() else {
            return Err(format!("refused for another reason: {refused}").into());
        };
        let for_the_ref = problems.problems().iter().all(|problem| {
            matches!(problem.problem(),
                Problem::InvalidJsonSchema { pointer, .. } if pointer.ends_with("/$ref"))
        });
        if !for_the_ref {
            return Err(format!("refused for another reason: {refused}").into());
        }
        println!("refused, as it should be: {refused}");
    }
    Ok(())
}

/// How the client authorizes in the `auth/*` scenario `scenario`: with the grant the scenario
/// is about, from what `MCP_CONFORMANCE_CONTEXT` gives it (a private key, a workload's JWT, a
/// person's ID token at their identity provider); with the authorization code grant
/// otherwise, with the client id and secret of the context when it has them
/// (`auth/pre-registration`), else with a client metadata document where the authorization
/// server takes one, else with a client registered on the spot.
fn oauth(scenario: &str) -> Result<McpOAuth, BoxError> {
    let context = context()?;
    let given = |key: &str| {
        context[key]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| BoxError::from(format!("MCP_CONFORMANCE_CONTEXT has no {key}")))
    };
    let client_id = context["client_id"].as_str();
    let client_secret = context["client_secret"].as_str();
    match scenario {
        "auth/client-credentials-jwt" => {
            let algorithm = match given("signing_algorithm")?.as_str() {
                "ES256" => JwtSigningAlgorithm::ES256,
                "ES384" => JwtSigningAlgorithm::ES384,
                "RS256" => JwtSigningAlgorithm::RS256,
                "RS384" => JwtSigningAlgorithm::RS384,
                "RS512" => JwtSigningAlgorithm::RS512,
                other => return Err(format!("no signing algorithm {other}").into()),
            };
            let key = given("private_key_pem")?;
            return Ok(McpOAuth::private_key_jwt(
                given("client_id")?,
                key,
                algorithm,
            ));
        }
        "auth/wif-jwt-bearer" => {
            // The workload's identity token, as its platform would hand it over.
            let jwt = Secret::new(given("valid_jwt")?);
            let oauth = McpOAuth::jwt_bearer(move || {
                let jwt = jwt.clone();
                async move { Ok(jwt) }
            });
            return Ok(oauth.client_id(given("client_id")?));
        }
        "auth/enterprise-managed-authorization" => {
            let idp = EnterpriseIdp::new(
                given("idp_issuer")?,
                given("idp_token_endpoint")?,
                given("idp_client_id")?,
            );
            // The ID token the person got signing in at the identity provider.
            let id_token = Secret::new(given("idp_id_token")?);
            let oauth = McpOAuth::enterprise_managed(idp, move || {
                let id_token = id_token.clone();
                async move { Ok(id_token) }
            });
            return Ok(oauth
                .client_id(given("client_id")?)
                .client_secret(given("client_secret")?));
        }
        _ => {}
    }
    if scenario.starts_with("auth/client-credentials") {
        let (Some(id), Some(secret)) = (client_id, client_secret) else {
            return Err("MCP_CONFORMANCE_CONTEXT has no client_id and client_secret".into());
        };
        return Ok(McpOAuth::client_credentials(id, secret));
    }
    let mut oauth = McpOAuth::authorization_code(REDIRECT_URI, approve_without_a_person)
        .client_name("agentkit conformance client")
        .client_metadata_url(CLIENT_METADATA_URL);
    if let Some(id) = client_id {
        oauth = oauth.client_id(id);
    }
    if let Some(secret) = client_secret {
        oauth = oauth.client_secret(secret);
    }
    Ok(oauth)
}

/// Stands in for the person and their browser. The suite's authorization server approves every
/// authorization request at once, answering it with its redirect to the redirect URI
/// (`?code=...&state=...`); that redirect is the authorization response, returned without
/// being followed. A real host opens `url` in the person's browser instead, and returns the
/// URL the browser is sent to, as received by a listener at the redirect URI.
async fn approve_without_a_person(url: String) -> Result<String, BoxError> {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let response = browser.get(url).send().await?;
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .ok_or_else(|| format!("the authorization server answered {}", response.status()))?;
    Ok(location.to_str()?.to_owned())
}
