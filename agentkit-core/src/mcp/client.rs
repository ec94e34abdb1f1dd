//! [`McpClient`]: the tools of an MCP server, as agentkit tools.

use std::fmt;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, Tool as McpToolInfo};
use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient};
use serde_json::Value;

use super::connect::McpClientBuilder;
use super::connection::Connection;
use super::convert::{TAGS_META_KEY, result_output, result_text};
use super::elicit::Elicit;
use super::error::{McpError, McpErrorKind};
use super::forward::Routes;
use super::import::{McpImport, McpToolList, Refusal, RefusedTool};
use crate::content::ToolOutput;
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::error::ToolError;
use crate::registry::ToolRegistry;
use crate::rules::Problem;
use crate::schema::JsonObject;
use crate::schema::{SemanticError, SemanticProblem};
use crate::tool::{Tool, ToolSpec, ToolSpecBuilder};

/// The tag naming the server a tool comes from.
const SERVER_TAG: &str = "mcp_server";

/// A connection to an MCP server, whose tools become agentkit tools.
///
/// [`register_tools`](Self::register_tools) puts every tool the server lists into a
/// [`ToolRegistry`], as an [`McpTool`]; the [`ToolExecutor`](crate::ToolExecutor) over that
/// registry then validates their arguments, times, observes and records their calls like any
/// other tool's, and sends only valid calls to the server (`tools/call`).
///
/// The connection stays open while the client or any of its tools is alive; it needs a tokio
/// runtime.
///
/// # Revisions
///
/// The client speaks MCP's revision 2026-07-28 with a server that does, and 2025-11-25 with
/// one that does not ([`protocol_version`](Self::protocol_version) says which):
///
/// - At 2026-07-28 it finds the server with `server/discover` and keeps no session: every
///   request carries the protocol version and the client's name and capabilities in its
///   `_meta`, and over streamable HTTP the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`
///   and `Mcp-Param-*` headers (the arguments a tool's schema marks with `x-mcp-header`). A
///   call whose result asks for input first (`input_required`) is answered and sent again:
///   an elicitation by the application's handler ([`McpClientBuilder::on_elicitation`]),
///   declined without one.
/// - A server that answers `server/discover` with an error, or with a result of another kind,
///   gets the `initialize` handshake at 2025-11-25 and a session; its `elicitation/create`
///   requests go to the same handler.
///
/// [`McpClientBuilder`] says more; [`McpClient::builder`] makes one.
///
/// ```no_run
/// use agentkit_core::mcp::McpClient;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry};
/// use serde_json::json;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let mut command = tokio::process::Command::new("npx");
/// command.args(["-y", "@modelcontextprotocol/server-everything"]);
/// let everything = McpClient::connect_stdio(command).await?;
///
/// let mut registry = ToolRegistry::new();
/// everything.register_tools(&mut registry, Some("everything_")).await?;
/// let executor = ToolExecutor::new(registry);
///
/// let call = ToolCall::new("call_1", "everything_echo", json!({"message": "hi"}));
/// let result = executor.dispatch(&call).await;
/// println!("{}", result.to_model_content());
/// # Ok(())
/// # }
/// ```
#[cfg_attr(
    feature = "mcp-oauth",
    doc = r#"
# OAuth

With the `mcp-oauth` feature, [`connect_http_with_oauth`](Self::connect_http_with_oauth)
connects to a server that wants OAuth (MCP's authorization, revision 2025-11-25), through
rmcp's OAuth client. An [`McpOAuth`](super::McpOAuth) says how the client gets its tokens:
with the authorization code grant and PKCE, a person approving through the host
([`McpOAuth::authorization_code`](super::McpOAuth::authorization_code): the host opens the
authorization URL, and hands back the URL the browser was redirected to), or with the client
credentials grant, the client on its own ([`McpOAuth::client_credentials`](super::McpOAuth::client_credentials),
or [`McpOAuth::private_key_jwt`](super::McpOAuth::private_key_jwt) with a private key); or, of
MCP's authorization extensions, with a workload's identity token
([`McpOAuth::jwt_bearer`](super::McpOAuth::jwt_bearer)) or a person's ID token at their
enterprise's identity provider ([`McpOAuth::enterprise_managed`](super::McpOAuth::enterprise_managed)).

The client authorizes when the server first answers `401`: it finds the authorization server
from the challenge (or the well-known URLs), registers (unless it has a pre-registered client
id, or a client metadata document the authorization server takes), asks for the scopes the
server names, and sends the request again with the token. It refreshes the token when it
expires, and steps up to more scopes when the server answers `403 insufficient_scope`. Tokens
and the client secret never appear in `Debug`, errors, events or logs.

```no_run
use agentkit_core::mcp::{McpClient, McpOAuth};
use agentkit_core::{BoxError, ToolExecutor, ToolRegistry};

// The host's part of the authorization code grant: show `url` to the person (open their
// browser at it), and return the URL the authorization server redirected the browser to,
// as received by a listener at the redirect URI.
async fn ask_the_person(url: String) -> Result<String, BoxError> {
    # let _ = url;
    # todo!()
}

# async fn run() -> Result<(), BoxError> {
let mut registry = ToolRegistry::new();

// A person authorizes the agent to use their tickets.
let oauth = McpOAuth::authorization_code("http://127.0.0.1:8976/callback", ask_the_person)
    .client_name("my-agent");
McpClient::connect_http_with_oauth("https://tickets.example.com/mcp", oauth)
    .await?
    .register_tools(&mut registry, Some("tickets_"))
    .await?;

// The agent authorizes itself, with the client id and secret it was registered with.
let secret = std::env::var("REPORTS_CLIENT_SECRET")?;
let oauth = McpOAuth::client_credentials("my-agent", secret);
McpClient::connect_http_with_oauth("https://reports.example.com/mcp", oauth)
    .await?
    .register_tools(&mut registry, Some("reports_"))
    .await?;

let executor = ToolExecutor::new(registry);
# let _ = executor;
# Ok(())
# }
```
"#
)]
#[derive(Clone)]
pub struct McpClient {
    connection: Arc<Connection>,
}

impl fmt::Debug for McpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpClient")
            .field("server", &self.server_name())
            .finish_non_exhaustive()
    }
}

impl McpClient {
    /// How to connect with more than tools: a [`McpClientBuilder`] (an elicitation handler).
    pub fn builder() -> McpClientBuilder {
        McpClientBuilder::default()
    }

    /// Starts `command` as a child process and connects to the MCP server it runs, over its
    /// stdin and stdout; its stderr is inherited. The process is ended when the connection
    /// closes.
    pub async fn connect_stdio(command: tokio::process::Command) -> Result<Self, McpError> {
        McpClient::builder().connect_stdio(command).await
    }

    /// Connects to the MCP server at `url` over streamable HTTP.
    ///
    /// Plain `http://` only: agentkit enables no TLS stack. For `https://`, enable one of
    /// rmcp's TLS features in your own `Cargo.toml` (`rmcp = { version = "3", features =
    /// ["reqwest"] }`, rustls); Cargo unifies it with agentkit's.
    pub async fn connect_http(url: &str) -> Result<Self, McpError> {
        McpClient::builder().connect_http(url).await
    }

    /// Connects to the MCP server at `url` over streamable HTTP, getting authorized as `oauth`
    /// says when the server asks for it (see the [OAuth](Self#oauth) section). Feature
    /// `mcp-oauth`.
    ///
    /// When the server refuses the handshake and authorizing fails, the error's source is the
    /// [`McpAuthError`](super::McpAuthError) saying which step failed. Later, a request the
    /// server refuses is authorized and sent again the same way; when that fails, the request
    /// fails with [`McpErrorKind::Request`], and a tool call with it.
    #[cfg(feature = "mcp-oauth")]
    pub async fn connect_http_with_oauth(
        url: &str,
        oauth: super::McpOAuth,
    ) -> Result<Self, McpError> {
        McpClient::builder()
            .connect_http_with_oauth(url, oauth)
            .await
    }

    /// A client over a connection made by [`McpClientBuilder`], whose progress and log
    /// messages go to `routes`.
    pub(super) fn connected<H: ClientHandler>(
        connection: RunningService<RoleClient, H>,
        routes: Arc<Routes>,
        elicit: Option<Elicit>,
    ) -> Self {
        McpClient::with_routes(connection, Some(routes), elicit)
    }

    /// Wraps a connection made with rmcp directly (any transport rmcp supports, any client
    /// handler). The server's notifications go to `connection`'s handler: unlike the
    /// connections of [`connect_stdio`](Self::connect_stdio) and
    /// [`connect_http`](Self::connect_http), its progress and log messages do not reach the
    /// calls' observers.
    pub fn from_connection<H: ClientHandler>(connection: RunningService<RoleClient, H>) -> Self {
        McpClient::with_routes(connection, None, None)
    }

    fn with_routes<H: ClientHandler>(
        connection: RunningService<RoleClient, H>,
        routes: Option<Arc<Routes>>,
        elicit: Option<Elicit>,
    ) -> Self {
        McpClient {
            connection: Arc::new(Connection {
                peer: (*connection).clone(),
                routes,
                elicit,
                _service: Box::new(connection),
            }),
        }
    }

    /// The revision of MCP the client and the server speak: `"2026-07-28"` (found with
    /// `server/discover`, no session) or the one the `initialize` handshake agreed on (see
    /// [`McpClientBuilder`]'s revisions).
    pub fn protocol_version(&self) -> Option<String> {
        let info = self.connection.peer.peer_info()?;
        Some(info.protocol_version.to_string())
    }

    /// The name the server gave when it connected.
    pub fn server_name(&self) -> Option<String> {
        let info = self.connection.peer.peer_info()?;
        Some(info.server_info.as_ref()?.name.clone())
    }

    /// The server's tools, as agentkit tools named `prefix` + the server's name (or the
    /// server's name alone). Every page of `tools/list` is read.
    ///
    /// A tool agentkit cannot take is refused alone, listed with why in
    /// [`McpToolList::refused`]; the others are imported all the same (MCP asks that one
    /// malformed tool not keep the others from being used). A tool is refused when its name is
    /// not a valid agentkit tool name (`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`; a prefix can make a
    /// name valid, such as one starting with a digit), or when its input or output schema is
    /// one the validator cannot take. Over streamable HTTP at revision 2026-07-28, rmcp's
    /// transport drops a tool whose `x-mcp-header` annotations are invalid (SEP-2243) before
    /// the listing reaches the client (it logs a warning): such a tool is neither imported nor
    /// listed as refused.
    ///
    /// Fails with [`McpErrorKind::Request`] when the listing itself fails.
    pub async fn tools(&self, prefix: Option<&str>) -> Result<McpToolList, McpError> {
        let listed = self
            .connection
            .peer
            .list_all_tools()
            .await
            .map_err(|e| McpError::new(McpErrorKind::Request, e))?;
        let server = self.server_name();
        let mut tools = Vec::with_capacity(listed.len());
        let mut refused = Vec::new();
        for info in listed {
            let name = info.name.to_string();
            match McpTool::new(self, info, prefix, server.as_deref()) {
                Ok(tool) => tools.push(tool),
                Err(error) => refused.push(RefusedTool::new(name, Refusal::Invalid(error))),
            }
        }
        Ok(McpToolList { tools, refused })
    }

    /// Registers the server's tools in `registry` (see [`tools`](Self::tools) for the names,
    /// and for the tools refused, which the returned [`McpImport`] lists with why).
    ///
    /// The tools agentkit takes are registered all or none: a name the registry already holds
    /// (a tool of another server with the same name, say) fails the whole registration with
    /// [`McpErrorKind::Registration`], listing every such name. Give each server its own
    /// `prefix` (`Some("github_")`) to keep their names apart.
    pub async fn register_tools(
        &self,
        registry: &mut ToolRegistry,
        prefix: Option<&str>,
    ) -> Result<McpImport, McpError> {
        let McpToolList { tools, refused } = self.tools(prefix).await?;
        let mut problems = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for tool in &tools {
            let name = tool.spec.name();
            if registry.lookup(name).is_some() || seen.contains(&name) {
                problems.push(SemanticProblem::new(
                    String::new(),
                    Problem::DuplicateTool {
                        name: name.to_owned(),
                    },
                ));
            }
            seen.push(name);
        }
        if !problems.is_empty() {
            return Err(SemanticError::new(problems).into());
        }
        let registered = tools.iter().map(|t| t.spec.name().to_owned()).collect();
        for tool in tools {
            registry.register(tool)?;
        }
        Ok(McpImport {
            registered,
            refused,
        })
    }
}

/// One tool of an MCP server, as an agentkit [`Tool`]; see [`McpClient::register_tools`].
///
/// Its spec has the server's name (prefixed if asked), description and input schema, the tags
/// an agentkit server sent (under `_meta["agentkit/tags"]`), and the tag `mcp_server` = the
/// server's name. The model is shown the server's `inputSchema` as declared, in every
/// [`provider`](crate::provider) declaration (without a strict mode) and when served again
/// over MCP; the executor validates the arguments against it in full
/// ([`ToolSpec::input_json`](crate::ToolSpec::input_json), a [`JsonSchema`](crate::JsonSchema)):
/// every JSON Schema keyword, pydantic's `anyOf` with `null`, `$ref`s into `$defs`, zod's type
/// arrays, with the policies for models (`null` for an optional parameter reads as absent,
/// defaults filled, and, by the executor's [`UnknownArguments`](crate::UnknownArguments)
/// policy, undeclared arguments refused). A tool whose schema the validator cannot take (a
/// `$ref` to another document, which is never fetched, a `pattern` it cannot compile) is
/// refused when the tools are registered, with the reason, never registered unvalidated (the
/// server's other tools are registered all the same: see [`McpClient::tools`]).
///
/// A server tool's `outputSchema`, any JSON Schema (MCP's 2026-07-28 revision allows any),
/// is compiled too, checked exactly as JSON Schema says, none of the policies for models
/// ([`ToolSpec::output_json`](crate::ToolSpec::output_json)); one the validator cannot take
/// refuses the tool the same way.
///
/// `execute` sends `tools/call` with the validated arguments. The result's
/// `structuredContent`, any JSON value (an object, a list, a string, a number, a boolean,
/// `null`), is the tool's structured output ([`ToolResult::output`](crate::ToolResult::output)),
/// and its content blocks are the content parts. The model reads each piece of data once, and
/// nothing meant for the user alone; the application keeps every block:
///
/// - a text block that repeats the structured output (MCP asks servers to send its JSON as
///   text too, and the reference servers do: server-memory pretty-printed, server-filesystem
///   as the text it wraps in `{"content": text}`) is the same data: it goes to the
///   application's parts ([`ToolResult::app_content`](crate::ToolResult::app_content)), not
///   the model's. "The same" is decided on the data, not the characters: the text read as
///   JSON is the same value as `structuredContent` (whatever the spacing and key order,
///   numbers compared as numbers), or `structuredContent` is an object of one string and the
///   text is that string. A text that differs otherwise (cut, a summary) stays the model's.
/// - a block whose `annotations.audience` leaves out `"assistant"` (`["user"]`) is for the
///   application too, as MCP means it; it is not in the model text of an `isError` result
///   either.
///
/// The executor validates the structured output against the
/// `outputSchema`: a result that does not match it, or that has none when the tool declares
/// one, is an output validation failure ([`ToolValidationError`](crate::ToolValidationError),
/// every problem with its path).
///
/// A result with `isError: true` is a failed call whose text reaches the model: the tool
/// returns [`ToolError::failed`](crate::ToolError::failed) with an [`McpToolError`] as cause
/// and the server's text as [model message](crate::ToolError::with_model_message). That
/// breaks agentkit's default of not telling the model a tool's error text, on purpose: in
/// MCP, an `isError` result's content is written *for the model*, so that it can correct its
/// call (agentkit's own server sends exactly that), and hiding it would leave the model
/// guessing. The executor handles it as any model message: cut, escaped, and scrubbed of the
/// call's secrets. A request that fails (the connection, a protocol error) is an error for
/// operators only: the model is told that the tool failed.
///
/// The server's progress notifications for a call (`notifications/progress` for its request's
/// progress token) and its log messages while the call runs (`notifications/message`) reach
/// the call's [`ToolContext`], as if the tool had reported them: the executor's observers see
/// them as `tool.execution.progress` and `tool.execution.log` events, in the order they
/// arrive, and a client that the executor serves over MCP gets them in turn. MCP does not say
/// which request a log message concerns: one that arrives while several calls to the same
/// server run reaches each of them, and one that arrives while none runs goes nowhere. Over
/// streamable HTTP, a server may send its log messages on the session's stream rather than
/// the call's (rmcp's server does), so one sent just before the result can arrive after it;
/// progress notifications come on the call's stream, before its result. (Not for a client
/// made with [`McpClient::from_connection`], whose notifications go to its own handler.)
#[derive(Clone)]
pub struct McpTool {
    spec: ToolSpec,
    remote_name: String,
    connection: Arc<Connection>,
}

impl fmt::Debug for McpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTool")
            .field("spec", &self.spec)
            .field("remote_name", &self.remote_name)
            .finish_non_exhaustive()
    }
}

impl McpTool {
    fn new(
        client: &McpClient,
        info: McpToolInfo,
        prefix: Option<&str>,
        server: Option<&str>,
    ) -> Result<Self, SemanticError> {
        let declared = Value::Object(info.input_schema.as_ref().clone());
        // The server's schema, validated in full; one the validator cannot take makes the
        // tool fail to build, saying why, rather than go unvalidated.
        let mut builder = ToolSpec::builder(format!("{}{}", prefix.unwrap_or(""), info.name))
            .description(info.description.clone().unwrap_or_default())
            .input_json_schema(declared);
        // Its output schema, any schema, checked as JSON Schema says (no policies for
        // models): the server's `structuredContent`, any JSON value, is validated against it.
        if let Some(output) = &info.output_schema {
            builder = builder.output_json_schema(Value::Object(output.as_ref().clone()));
        }
        // The server's annotations are what it says of its tool: kept, for policies to show a
        // person, never to rely on. Hints that contradict each other are dropped, rather than
        // the tool.
        if let Some(hints) = &info.annotations {
            if let Some(title) = hints.title.clone().or_else(|| info.title.clone()) {
                builder = builder.title(title);
            }
            let contradict =
                hints.read_only_hint == Some(true) && hints.destructive_hint == Some(true);
            if !contradict {
                for (set, hint) in [
                    (
                        ToolSpecBuilder::read_only as fn(_, _) -> _,
                        hints.read_only_hint,
                    ),
                    (ToolSpecBuilder::destructive, hints.destructive_hint),
                    (ToolSpecBuilder::idempotent, hints.idempotent_hint),
                    (ToolSpecBuilder::open_world, hints.open_world_hint),
                ] {
                    if let Some(hint) = hint {
                        builder = set(builder, hint);
                    }
                }
            }
        } else if let Some(title) = info.title.clone() {
            builder = builder.title(title);
        }
        // Tags served by agentkit travel in `_meta`; they come back as tags.
        let tags = info.meta.as_ref().and_then(|meta| meta.get(TAGS_META_KEY));
        if let Some(Value::Object(tags)) = tags {
            for (key, value) in tags {
                if let (Some(value), true) = (value.as_str(), key != SERVER_TAG) {
                    builder = builder.tag(key.clone(), value.to_owned());
                }
            }
        }
        if let Some(server) = server {
            builder = builder.tag(SERVER_TAG, server.to_owned());
        }
        let spec = builder.build()?;
        Ok(McpTool {
            spec,
            remote_name: info.name.into_owned(),
            connection: Arc::clone(&client.connection),
        })
    }

    /// The tool's name on the server (without the prefix).
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }
}

/// The text of an MCP tool result with `isError: true`; the cause of the tool's
/// [`ToolExecutionError`](crate::ToolExecutionError), whose
/// [model message](crate::ToolExecutionError::model_message) is the same text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolError {
    text: String,
}

impl McpToolError {
    /// The server's text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for McpToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for McpToolError {}

impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let request =
            CallToolRequestParams::new(self.remote_name.clone()).with_arguments(inputs.clone());
        let result = self
            .connection
            .call_tool(request, ctx)
            .await
            .map_err(|e| McpError::new(McpErrorKind::Request, e))?;
        if result.is_error == Some(true) {
            let text = result_text(&result);
            // Written for the model by the server (see the type's docs).
            return Err(ToolError::failed(McpToolError { text: text.clone() })
                .with_model_message(text)
                .into());
        }
        Ok(result_output(result))
    }
}
