//! [`McpClient`]: the tools of an MCP server, as agentkit tools.

use std::fmt;
use std::sync::Arc;

use rmcp::service::RunningService;
use rmcp::{ClientHandler, RoleClient};

use super::connect::McpClientBuilder;
use super::connection::Connection;
use super::elicit::Answers;
use super::error::{McpError, McpErrorKind};
use super::forward::Routes;
use super::import::{McpImport, McpToolList, Refusal, RefusedTool};
use super::legacy_tasks::LegacyTasks;
use super::tool::McpTool;
use crate::registry::ToolRegistry;
use crate::rules::Problem;
use crate::schema::{SemanticError, SemanticProblem};
use crate::tool::{TaskSupport, Tool};

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
///   declined without one; a sampling request by its sampling handler
///   ([`McpClientBuilder::on_sampling`]), failing the call without one
///   ([`McpErrorKind::Input`]). A call the server runs as a task (SEP-2663) is waited for,
///   polling `tasks/get` (see [`McpTool`]).
/// - A server that answers `server/discover` with an error, or with a result of another kind,
///   gets the `initialize` handshake at 2025-11-25 and a session; its `elicitation/create`
///   and `sampling/createMessage` requests go to the same handlers. Over stdio and
///   streamable HTTP, a tool it lists as running only as a task (`execution.taskSupport:
///   "required"`, that revision's tasks, SEP-1686) is called as one, or refused at import
///   when the server does not declare tasks for `tools/call` (see [`McpClient::tools`] and
///   [`McpTool`]).
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
or `McpOAuth::private_key_jwt` with a private key, feature `mcp-oauth-jwt`); or, of
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
    /// How to connect with more than tools: a [`McpClientBuilder`] (elicitation and sampling
    /// handlers).
    pub fn builder() -> McpClientBuilder {
        McpClientBuilder::default()
    }

    /// Starts `command` as a child process and connects to the MCP server it runs, over its
    /// stdin and stdout; its stderr is as `command` sets it (inherited by default). The
    /// process is killed when the connection closes (its stdin closed first). The client
    /// reads the server's stdout itself too, before rmcp does, for what a 2025-11-25 server
    /// says of tasks that rmcp's types leave out (see [`tools`](Self::tools)).
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
        answers: Answers,
        legacy: Option<Arc<LegacyTasks>>,
    ) -> Self {
        McpClient::with_routes(connection, Some(routes), answers, legacy)
    }

    /// Wraps a connection made with rmcp directly (any transport rmcp supports, any client
    /// handler). The server's notifications go to `connection`'s handler: unlike the
    /// connections of [`connect_stdio`](Self::connect_stdio) and
    /// [`connect_http`](Self::connect_http), its progress and log messages do not reach the
    /// calls' observers.
    pub fn from_connection<H: ClientHandler>(connection: RunningService<RoleClient, H>) -> Self {
        McpClient::with_routes(connection, None, Answers::default(), None)
    }

    fn with_routes<H: ClientHandler>(
        connection: RunningService<RoleClient, H>,
        routes: Option<Arc<Routes>>,
        answers: Answers,
        legacy: Option<Arc<LegacyTasks>>,
    ) -> Self {
        McpClient {
            connection: Arc::new(Connection {
                peer: (*connection).clone(),
                routes,
                answers,
                legacy,
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
    /// A tool that runs only as a task is imported when the client can call it as one: at
    /// 2026-07-28 always (the client declares the tasks extension, SEP-2663); at 2025-11-25
    /// (SEP-1686, which rmcp's types do not model), over stdio and streamable HTTP, when the
    /// server declares tasks for `tools/call` (`capabilities.tasks.requests.tools.call`), and
    /// refused otherwise ([`Refusal::TaskRequired`]), rather than registered to fail when
    /// called. The client reads a tool's `execution` off the server's stream, before rmcp
    /// parses it. A server that answers with JSON bodies rather than SSE streams (the
    /// TypeScript SDK's `enableJsonResponse`) is asked for its `initialize` and `tools/list`
    /// answers a second time, to read them whole; the second `initialize` opens a session
    /// that is ended (`DELETE`) as soon as it is read. Where the client cannot read the
    /// server's stream, it does not see a tool's `execution`, and such a tool is imported as
    /// any other (its calls fail on the server): over a transport of the application's own
    /// ([`connect_transport`](super::McpClientBuilder::connect_transport),
    /// [`from_connection`](Self::from_connection)).
    ///
    /// The listing honours the server's caching hints (MCP 2026-07-28, SEP-2549, through
    /// rmcp's client cache): a list the server says is fresh for a while (`ttlMs`, honoured up
    /// to 24 hours) is reused within that time, by `tools` and
    /// [`register_tools`](Self::register_tools) alike, rather than asked for again; a list
    /// that is stale at once (`ttlMs: 0`, what [`CacheHints::NONE`](super::CacheHints::NONE)
    /// sends), or that has no hints (a server of 2025-11-25), is asked for each time. A
    /// `private` list is kept for this client alone, which is what each `McpClient` is. A
    /// `notifications/tools/list_changed` from the server drops the kept list; when asking
    /// again fails, the last list the server sent is used, as SEP-2549 allows.
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
        // What a 2025-11-25 server said of tasks, where the client could read it.
        let legacy = self
            .connection
            .legacy
            .as_ref()
            .filter(|_| self.protocol_version().as_deref() < Some("2026-07-28"));
        let mut tools = Vec::with_capacity(listed.len());
        let mut refused = Vec::new();
        for info in listed {
            let name = info.name.to_string();
            let legacy_task = match legacy {
                Some(legacy) if legacy.support(&name) == TaskSupport::Required => {
                    if !legacy.tools_call() {
                        refused.push(RefusedTool::new(name, Refusal::TaskRequired));
                        continue;
                    }
                    true
                }
                _ => false,
            };
            match McpTool::new(
                &self.connection,
                info,
                prefix,
                server.as_deref(),
                legacy_task,
            ) {
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
            let name = tool.spec().name();
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
        let registered = tools.iter().map(|t| t.spec().name().to_owned()).collect();
        for tool in tools {
            registry.register(tool)?;
        }
        Ok(McpImport {
            registered,
            refused,
        })
    }
}
