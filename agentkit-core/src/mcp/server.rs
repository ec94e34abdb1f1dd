//! [`McpServer`]: a [`ToolExecutor`] served over MCP.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

#[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, GetTaskParams, GetTaskResult,
    Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool as McpToolInfo, UpdateTaskParams,
};
use rmcp::model::{
    CompleteRequestParams, CompleteResult, DiscoverResult, GetPromptRequestParams,
    GetPromptResponse, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ReadResourceRequestParams, ReadResourceResponse, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::convert::to_mcp_tool;
use super::deferred::DeferredStore;
use super::extras::Extras;
use super::inflight::CallsInFlight;
use super::input_state::StateKey;
use super::options::HttpOptions;
use super::progress::{LogThreshold, our_level};
use super::raw::PendingArguments;
use super::tasks::{Dispatch, Tasks};
use crate::executor::ToolExecutor;
use crate::principal::Principal;
use crate::tool::ToolSpec;

/// Serves the tools of a [`ToolExecutor`] to MCP clients (Claude Desktop, IDEs, agents), over
/// stdio or streamable HTTP, on [`rmcp`].
///
/// - `tools/list` lists the registry's tools in registration order, the same at every
///   request (see [`to_mcp_tool`](super::to_mcp_tool)).
/// - `tools/call` goes through [`ToolExecutor::dispatch`], so input validation, credentials,
///   observers and recording, output validation and the executor's guarantees on hostile input
///   all apply; the call id the executor sees is the JSON-RPC request id. Any failure of the
///   call (invalid arguments, all of their problems at once; a tool error; a timeout) is a
///   result with `isError: true` carrying the model-facing text, so the model can correct
///   itself (see [`to_call_tool_result`](super::to_call_tool_result)). Only a call of a tool
///   that does not exist is a protocol error (invalid params), as MCP asks.
/// - A client's `notifications/cancelled` cancels the call (the tool's future is dropped), and
///   [`with_timeout`](Self::with_timeout) bounds every call.
/// - When the client asks for progress (a `progressToken` in the request's `_meta`), every
///   [`report_progress`](crate::ToolContext::report_progress) of the tool is sent to it as a
///   `notifications/progress` (progress, total, message), in order and before the result;
///   the message is the one observers get, bounded and free of the call's secrets. Reports
///   never make the tool wait on the connection. A client that did not ask gets none.
/// - Every [`log`](crate::ToolContext::log) of the tool at or above the client's level is
///   sent to it as a `notifications/message`, in order with the progress and before the
///   result. Over HTTP they ride the call's own response stream (a 2025-11-25 session's
///   `POST`, where rmcp alone would send log messages on the session's `GET` stream, which
///   may deliver them after the result); a [task](Self::with_task_support)'s go to the
///   session, the request having been answered with the task.
/// - Resources, prompts and argument completion are the application's: give the server your
///   handlers, written in rmcp's types ([`with_resources`](Self::with_resources),
///   [`with_prompts`](Self::with_prompts), [`with_completions`](Self::with_completions)),
///   and it serves them beside the tools, on the same sessions, declaring each capability
///   only when its handler is given. Without one, its methods are answered "method not
///   found" (-32601), as MCP asks of a server without the capability.
/// - Clients of the 2026-07-28 revision get caching hints (`ttlMs`, `cacheScope`) on
///   `tools/list` and on the handlers' lists and reads:
///   [`with_cache_hints`](Self::with_cache_hints), no caching by default ([`CacheHints`](super::CacheHints)).
///
/// `McpServer` is an rmcp [`ServerHandler`]: besides the two transports here, serve it on any
/// transport rmcp has with [`ServiceExt::serve`](rmcp::ServiceExt::serve). Needs a tokio
/// runtime.
///
/// # Asking the client
///
/// A tool asks the client through its context ([`elicit`](crate::ToolContext::elicit),
/// [`sample`](crate::ToolContext::sample), [`list_roots`](crate::ToolContext::list_roots)),
/// and so does the [approval policy](crate::ApprovalPolicy) when it asks the user. The same
/// code serves both revisions of MCP, each the way its client negotiated:
///
/// - **2025-11-25** and before: the server sends the client the request
///   (`elicitation/create`, `sampling/createMessage`, `roots/list`) while the call runs, and
///   the tool waits for the answer.
/// - **2026-07-28**: the server sends the client no request. A call whose tool asks what the
///   client has not answered is answered with an `InputRequiredResult`: every question the
///   tool asked before it had to wait (two joined futures: both, in one result), each under
///   a key (see [`ElicitationRequest::with_key`](crate::ElicitationRequest::with_key)), and a
///   sealed `requestState`. The client calls again with its answers (`inputResponses`) and
///   the state; the tool runs again from its start, each question answered from the
///   answers given so far, until it finishes or asks something new (another round). The
///   questions are answered by their key and content: a tool must ask the same questions in
///   the same order for the same arguments, and should do nothing it must not do twice
///   before its last question. Each round is a call for the executor's observers; a round
///   that stops for the client's answers ends as cancelled. A tool that fails after asking
///   for what the client did not declare is answered with the missing capability error
///   (-32021, HTTP 400), naming what it needs. Log messages reach the client only at or
///   above the level the request's `_meta` sets.
///
/// The state is the call's memory between rounds, so the server keeps none: it carries the
/// answers so far, sealed with HMAC-SHA256, bound to the tool, its arguments and the
/// principal's subject, for 15 minutes
/// ([`with_request_state_ttl`](Self::with_request_state_ttl)). A state that was changed, has
/// expired or was sealed for another call is refused (invalid params), as are answers that
/// are not what their question asked for. The key is random per process unless set with
/// [`with_request_state_key`](Self::with_request_state_key): give replicas behind a load
/// balancer the same key, and any of them takes a call's next round.
///
/// # Limits
///
/// Over HTTP ([`serve_http`](Self::serve_http), [`streamable_http_service`](Self::streamable_http_service)),
/// with their defaults:
///
/// | limit | default | past it | set with |
/// |---|---|---|---|
/// | `Host` | loopback names | 403 | [`with_allowed_hosts`](Self::with_allowed_hosts) |
/// | `Origin` (when sent) | loopback origins | 403 | [`with_allowed_origins`](Self::with_allowed_origins), [`allow_any_origin`](Self::allow_any_origin) |
/// | authentication | none | 401 / 403 with `WWW-Authenticate` | [`with_auth`](Self::with_auth), [`with_access`](Self::with_access) |
/// | request body | 4 MiB | 413, before it is read | [`with_max_body_bytes`](Self::with_max_body_bytes) |
/// | request headers | 30 s to send them | connection closed | [`with_header_timeout`](Self::with_header_timeout) |
/// | live sessions | 1 000 | 503 with `Retry-After` | [`with_max_sessions`](Self::with_max_sessions) |
/// | idle session | 5 minutes without a request | closed, its memory freed | [`with_session_idle_timeout`](Self::with_session_idle_timeout) |
/// | calls per session | no cap of their own: the executor's [in-flight limit](crate::ToolExecutorBuilder::max_in_flight) bounds all calls | the call waits for room | |
/// | one call | none | `isError` timeout result | [`with_timeout`](Self::with_timeout), the tool's own timeout |
/// | live [tasks](Self::with_task_support) | 100 | -32000, try again later | [`with_max_tasks`](Self::with_max_tasks) |
/// | an ended task | kept 5 minutes (`ttlMs`), as many as the live cap | dropped, oldest first; its id unknown (-32602) | [`with_task_ttl`](Self::with_task_ttl) |
/// | shutdown | calls in flight get 10 s | cancelled, each with its terminal event | [`with_shutdown_grace`](Self::with_shutdown_grace), [`serve_http_until`](Self::serve_http_until) |
/// | a tool's JSON Schema (served, or consumed by [`McpClient`](super::McpClient)) | 128 deep, 200 000 subschemas, 10 000 patterns of 4 KiB; `$ref`s inside it only | the tool is refused at registration, saying why | [`SchemaLimits`](crate::SchemaLimits) |
/// | validating one call against it | 1 000 000 subschema evaluations, 200 deep | an input issue (`TooComplex`) | [`SchemaLimits`](crate::SchemaLimits) |
///
/// Every call runs on its arguments as the client wrote them, over HTTP and stdio alike: a
/// key given twice is an input error, as from a model (where this does not hold: a message
/// whose own `params` or `arguments` key repeats, and transports driven through rmcp
/// directly). What a result tells the client is bounded by the executor's
/// [`TextLimits`](crate::TextLimits). [Stateless](Self::stateless) serving keeps no session:
/// replicas behind a load balancer each answer any request.
///
/// A request of revision 2026-07-28 names its method and tool in the `Mcp-Method` and
/// `Mcp-Name` headers, and a parameter whose schema says `"x-mcp-header": "Region"` (declare it
/// with [`input_json_schema`](crate::ToolSpecBuilder::input_json_schema)) travels in
/// `Mcp-Param-Region` too, for proxies that route on headers: a request whose headers
/// contradict its body is refused with -32020 before its tool runs.
///
/// Tools can run as tasks, MCP 2026-07-28's `io.modelcontextprotocol/tasks` extension
/// (SEP-2663), each as its spec declares ([`ToolSpec::task_support`],
/// `#[tool(task_support = "optional")]`) or [`with_task_support`](Self::with_task_support)
/// sets: a client that
/// declared the extension gets a task at once (`resultType: "task"`) while the call runs
/// through the executor in the background; it polls `tasks/get` for the status and, once the
/// call has ended, its result (inlined: there is no `tasks/result` in this revision), answers
/// what the tool asks its user or model with `tasks/update` (the task is `input_required`
/// meanwhile), and ends it with `tasks/cancel`. A task is its principal's alone. Status
/// notifications (`notifications/tasks`) are not sent: clients poll. A tool can gather what
/// it asks in input-required rounds first, and become a task only once answered
/// ([`with_input_before_task`](Self::with_input_before_task)).
///
/// ```no_run
/// use std::sync::Arc;
/// use agentkit_core::mcp::McpServer;
/// use agentkit_core::{ToolExecutor, ToolRegistry};
///
/// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
/// let registry = ToolRegistry::new(); // register your tools here
/// let server = McpServer::new(Arc::new(ToolExecutor::new(registry)));
/// server.serve_stdio().await // until the client closes the connection
/// # }
/// ```
///
/// Prompts beside the tools (the [module docs](super) serve resources too):
///
/// ```
/// use std::sync::Arc;
/// use agentkit_core::mcp::rmcp::model::{
///     GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
///     PaginatedRequestParams, Prompt, PromptMessage, Role,
/// };
/// use agentkit_core::mcp::rmcp::service::RequestContext;
/// use agentkit_core::mcp::rmcp::{ErrorData, RoleServer, ServerHandler};
/// use agentkit_core::mcp::{McpPrompts, McpServer};
/// use agentkit_core::{ToolExecutor, ToolRegistry};
///
/// struct Standup;
///
/// impl McpPrompts for Standup {
///     async fn list_prompts(
///         &self,
///         _: Option<PaginatedRequestParams>,
///         _: RequestContext<RoleServer>,
///     ) -> Result<ListPromptsResult, ErrorData> {
///         let standup = Prompt::new("standup", Some("Summarise yesterday's work"), None);
///         Ok(ListPromptsResult::with_all_items(vec![standup]))
///     }
///
///     async fn get_prompt(
///         &self,
///         request: GetPromptRequestParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<GetPromptResponse, ErrorData> {
///         if request.name != "standup" {
///             return Err(ErrorData::invalid_params("unknown prompt", None));
///         }
///         let ask = PromptMessage::new_text(Role::User, "Summarise what I did yesterday.");
///         Ok(GetPromptResult::new(vec![ask]).into())
///     }
/// }
///
/// let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
/// let server = McpServer::new(executor).with_prompts(Standup);
/// let capabilities = server.get_info().capabilities;
/// assert!(capabilities.prompts.is_some());
/// assert!(capabilities.resources.is_none()); // not given, not declared
/// ```
#[derive(Clone)]
pub struct McpServer {
    pub(super) executor: Arc<ToolExecutor>,
    tools: Arc<[McpToolInfo]>,
    // Shared, as every field a session's clone does not change: `McpServer` is cloned for each
    // session, and for each request when serving stateless.
    info: Arc<Implementation>,
    instructions: Option<Arc<str>>,
    pub(super) timeout: Option<Duration>,
    /// The session's log threshold: each session (each clone a transport makes) has its own.
    pub(super) log_threshold: Arc<LogThreshold>,
    /// The HTTP service's limits.
    pub(super) http: Arc<HttpOptions>,
    /// Which tools a principal may list and call.
    pub(super) access: Option<Access>,
    /// A stdio session's arguments texts, by request id.
    pub(super) raw: Option<Arc<PendingArguments>>,
    /// The calls in flight, when serving until a shutdown.
    pub(super) calls: Option<Arc<CallsInFlight>>,
    /// Where deferred calls wait for a decision, for any replica to resume.
    pub(super) deferred: Option<Arc<dyn DeferredStore>>,
    /// What the server serves beside tools (resources, prompts, completion), and the caching
    /// hints of its lists.
    pub(super) extras: Extras,
    /// The key that seals the state of calls waiting for their client's input.
    pub(super) input_state: StateKey,
    /// Which tools run as tasks, and the tasks of every session (see `tasks`).
    pub(super) tasks: Arc<Tasks>,
}

/// Whether a principal (none for an unauthenticated client) may list and call a tool.
type Access = Arc<dyn Fn(Option<&Principal>, &ToolSpec) -> bool + Send + Sync>;

impl fmt::Debug for McpServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServer")
            .field("executor", &self.executor)
            .field("name", &self.info.name)
            .field("version", &self.info.version)
            .field("timeout", &self.timeout)
            .field("serves", &self.extras.served())
            .field("cache_hints", &self.extras.cache)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// A server for the tools of `executor`, calling them through it. It introduces itself as
    /// `agentkit` with this crate's version; see [`with_name`](Self::with_name).
    pub fn new(executor: Arc<ToolExecutor>) -> Self {
        // The registry cannot change behind an executor, so the list is built once.
        let tools = executor.registry().specs().map(to_mcp_tool).collect();
        let tasks = Arc::new(Tasks::of(executor.registry().specs()));
        McpServer {
            executor,
            tools,
            info: Arc::new(Implementation::new("agentkit", env!("CARGO_PKG_VERSION"))),
            instructions: None,
            timeout: None,
            log_threshold: Arc::default(),
            http: Arc::default(),
            access: None,
            raw: None,
            calls: None,
            deferred: None,
            extras: Extras::default(),
            input_state: StateKey::per_process(),
            tasks,
        }
    }

    /// The server, its calls counted in `calls` and cancelled with it.
    pub(super) fn with_calls(mut self, calls: Arc<CallsInFlight>) -> Self {
        self.calls = Some(calls);
        self
    }

    /// The server for a new session: the same tools, a state of its own.
    pub(super) fn for_session(&self) -> Self {
        McpServer {
            log_threshold: Arc::default(),
            ..self.clone()
        }
    }

    /// Sets the name and version the server gives clients when they connect.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info = Arc::new(Implementation::new(name, version));
        self
    }

    /// Sets the instructions the server gives clients when they connect (MCP's
    /// `instructions`, which hosts may add to the model's prompt).
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(Arc::from(instructions.into()));
        self
    }

    /// Ends every call that runs longer than `timeout`: it fails with
    /// [`ErrorKind::Timeout`](crate::ErrorKind::Timeout) (an `isError` result), and the tool's future is dropped.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Lets a principal list and call only the tools `policy` allows: the others are not
    /// listed, and a call of one is a call of an unknown tool. The principal is the one
    /// [bearer authentication](Self::with_auth) found, `None` for a request without (over
    /// stdio, or an HTTP server without authentication).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use agentkit_core::mcp::McpServer;
    /// # use agentkit_core::{ToolExecutor, ToolRegistry};
    /// # let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
    /// // Tools tagged `admin` only for principals with the `admin` scope.
    /// let server = McpServer::new(executor).with_access(|principal, spec| {
    ///     spec.tag("admin").is_none() || principal.is_some_and(|p| p.has_scope("admin"))
    /// });
    /// ```
    #[must_use]
    pub fn with_access(
        mut self,
        policy: impl Fn(Option<&Principal>, &ToolSpec) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.access = Some(Arc::new(policy));
        self
    }

    /// Keeps the calls the approval policy defers in `store`, for any replica of the server
    /// to resume once a person has decided (see [`DeferredStore`]): a deferred call's result
    /// carries its id in `_meta["io.agentkit/deferred"]`, and a `tools/call` of the same tool
    /// with `_meta["io.agentkit/resume"]` set to it runs, ends or still defers the call, by
    /// the decision recorded. Without a store, a deferred call's result says it waits, and
    /// the call is the application's to keep ([`ToolResult::deferred`](crate::ToolResult::deferred)
    /// through an observer).
    #[must_use]
    pub fn with_deferred_store(mut self, store: impl DeferredStore) -> Self {
        self.deferred = Some(Arc::new(store));
        self
    }

    /// Whether `principal` may list and call the tool called `name`.
    pub(super) fn may_use(&self, principal: Option<&Principal>, name: &str) -> bool {
        // Without a policy, no lookup: this runs before every call.
        let Some(access) = &self.access else {
            return true;
        };
        match self.executor.registry().lookup(name) {
            Some(spec) => access(principal, spec),
            None => true,
        }
    }

    /// The executor the server calls tools through.
    pub fn executor(&self) -> &Arc<ToolExecutor> {
        &self.executor
    }
}

impl ServerHandler for McpServer {
    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .build();
        self.extras.declare(&mut capabilities);
        self.declare_tasks(&mut capabilities);
        let mut config =
            ServerConfig::new(capabilities).with_server_info(Implementation::clone(&self.info));
        if let Some(instructions) = &self.instructions {
            config = config.with_instructions(instructions.to_string());
        }
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let has_hints = self.extras.cache.applies(&context);
        let hinted = |mut result: ListToolsResult, private| {
            self.extras.cache.put(&mut result, has_hints, private);
            Ok(result)
        };
        let Some(access) = &self.access else {
            return hinted(ListToolsResult::with_all_items(self.tools.to_vec()), false);
        };
        let principal = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>());
        let listed = self
            .executor
            .registry()
            .specs()
            .zip(self.tools.iter())
            .filter(|(spec, _)| access(principal, spec))
            .map(|(_, tool)| tool.clone())
            .collect();
        // The list depends on who asks: no cache may give it to another.
        hinted(ListToolsResult::with_all_items(listed), true)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let then_task = match self.call_as_task(&request, &context)? {
            Dispatch::Task(task) => return Ok(task),
            Dispatch::RoundsThenTask => true,
            Dispatch::Plain => false,
        };
        // Boxed: a served call is a future of some kilobytes (the executor's call inside),
        // which rmcp would otherwise move, whole, into its request task and out again.
        Box::pin(self.call(request, context, then_task)).await
    }

    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.log_threshold.set(our_level(&request.level));
        Ok(())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.get_task_of(&request, &context)
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.update_task_of(&request, &context)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.cancel_task_of(&request, &context)
    }

    fn get_tool(&self, name: &str) -> Option<McpToolInfo> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    // What the server serves beside tools: the application's handlers, if it gave them
    // (`extras.rs`); "method not found" for those it did not.

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let info = DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        );
        Ok(Extras::discovered(info))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.extras.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.extras.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.extras.read_resource(request, context).await
    }

    #[allow(deprecated)] // resources/subscribe, which the 2026-07-28 revision removes.
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.extras.subscribe(request, context).await
    }

    #[allow(deprecated)] // resources/unsubscribe, which the 2026-07-28 revision removes.
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.extras.unsubscribe(request, context).await
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.extras.list_prompts(request, context).await
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.extras.get_prompt(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.extras.complete(request, context).await
    }
}
