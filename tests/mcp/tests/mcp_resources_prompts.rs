//! What an `McpServer` serves beside its tools, driven in process over an in-memory duplex
//! stream with rmcp's client, at 2025-11-25 (`initialize`) and 2026-07-28 (`server/discover`):
//!
//! - resources, prompts and completion come from the application's handlers
//!   (`with_resources`, `with_prompts`, `with_completions`), each capability declared only
//!   when its handler is given, and every method of one not given answered "method not
//!   found";
//! - the caching hints (SEP-2549) of `tools/list` and of the handlers' lists and reads: the
//!   server's where a result has none, the handler's own kept, private whenever an access
//!   policy decides who sees which tool, none at all for a client of an older revision;
//! - `tools/list` in registration order, the same at every request.
//!
//! The conformance suite's scenarios for the same (resources-*, prompts-*,
//! completion-complete, caching) run in `conformance.rs`.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::mcp::rmcp::model::{
    ArgumentInfo, CacheScope, ClientCapabilities, ClientConfig, CompleteRequestParams,
    CompleteResult, CompletionInfo, ErrorCode, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, Prompt, PromptMessage, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Reference, Resource,
    ResourceContents, ResourceTemplate, ResourcesCapability, Role, ServerCapabilities,
    SubscribeRequestParams,
};
use agentkit_core::mcp::rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService, ServiceError,
};
use agentkit_core::mcp::rmcp::{ErrorData, RoleClient, RoleServer, ServiceExt};
use agentkit_core::mcp::{CacheHints, McpCompletions, McpPrompts, McpResources, McpServer};
use agentkit_core::{
    BoxError, JsonObject, Tool, ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
};
use serde_json::json;

use crate::core_fixtures::bare_spec;
use crate::mcp_support::PEER_TIMEOUT;

/// Awaits `future`, failing the test if the peer makes it wait too long.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// A tool that does nothing.
struct Noop(ToolSpec);

impl Tool for Noop {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(ToolOutput::from("done"))
    }
}

/// A server of three tools, registered out of alphabetical order.
fn server() -> McpServer {
    let mut registry = ToolRegistry::new();
    for name in ["zeta", "alpha", "mid"] {
        registry.register(Noop(bare_spec(name))).expect("registers");
    }
    McpServer::new(Arc::new(ToolExecutor::new(registry)))
}

/// One resource (`memo://one`, with a hint of its own on its read), one template, one prompt,
/// completion of the prompt's argument; the URIs subscribed to.
#[derive(Default)]
struct Catalog {
    subscribed: Mutex<Vec<String>>,
}

type Context = RequestContext<RoleServer>;

impl McpResources for Catalog {
    fn capabilities(&self) -> ResourcesCapability {
        let mut capabilities = ResourcesCapability::default();
        capabilities.subscribe = Some(true);
        capabilities
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListResourcesResult, ErrorData> {
        let one = Resource::new("memo://one", "one").with_mime_type("text/plain");
        Ok(ListResourcesResult::with_all_items(vec![one]))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let memo = ResourceTemplate::new("memo://{name}", "memo");
        Ok(ListResourceTemplatesResult::with_all_items(vec![memo]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: Context,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != "memo://one" {
            let uri = json!({ "uri": request.uri });
            return Err(ErrorData::resource_not_found(
                "Resource not found",
                Some(uri),
            ));
        }
        let text = ResourceContents::text("first memo", request.uri);
        // This one is the reader's own: its hints are kept, whatever the server's.
        let result = ReadResourceResult::new(vec![text])
            .with_ttl_ms(5)
            .with_cache_scope(CacheScope::Private);
        Ok(result.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: Context,
    ) -> Result<(), ErrorData> {
        let mut subscribed = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        subscribed.push(request.uri);
        Ok(())
    }
}

impl McpPrompts for Catalog {
    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListPromptsResult, ErrorData> {
        let greet = Prompt::new("greet", Some("Greets someone"), None);
        Ok(ListPromptsResult::with_all_items(vec![greet]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _: Context,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = request
            .arguments
            .as_ref()
            .and_then(|a| a.get("name")?.as_str());
        let text = format!("Say hello to {}", name.unwrap_or("everyone"));
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).into())
    }
}

impl McpCompletions for Catalog {
    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: Context,
    ) -> Result<CompleteResult, ErrorData> {
        let names = ["ada", "alan", "grace"];
        let typed = request.argument.value;
        let values = names.iter().filter(|n| n.starts_with(&typed));
        let completion = CompletionInfo::with_all_values(values.map(|n| n.to_string()).collect())
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(completion))
    }
}

/// A client of `server` on `version`: 2026-07-28 through `server/discover`, an older one
/// through `initialize`.
async fn connect(
    server: McpServer,
    version: ProtocolVersion,
) -> RunningService<RoleClient, ClientConfig> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("resources-prompts-test", "0.1.0"),
    )
    .with_protocol_version(version.clone());
    let lifecycle = if version.has_initialize() {
        ClientLifecycleMode::Initialize
    } else {
        ClientLifecycleMode::Discover {
            preferred_versions: vec![version],
        }
    };
    bounded(info.serve_with_lifecycle(client_io, lifecycle))
        .await
        .expect("handshake")
}

/// The capabilities the server declared to `client`.
fn declared(client: &RunningService<RoleClient, ClientConfig>) -> ServerCapabilities {
    let info = client
        .peer()
        .peer_info()
        .expect("the server introduced itself");
    info.capabilities.clone()
}

/// The JSON-RPC error code of a request that failed, or why it did not fail so.
fn code<T: std::fmt::Debug>(result: Result<T, ServiceError>) -> ErrorCode {
    match result {
        Err(ServiceError::McpError(error)) => error.code,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

const REVISIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

#[tokio::test]
async fn without_handlers_only_tools_are_declared_and_the_rest_is_not_found() {
    for version in REVISIONS {
        let client = connect(server(), version.clone()).await;
        let capabilities = declared(&client);
        assert!(capabilities.tools.is_some(), "at {version}");
        assert_eq!(capabilities.resources, None, "at {version}");
        assert_eq!(capabilities.prompts, None, "at {version}");
        assert_eq!(capabilities.completions, None, "at {version}");

        let not_found = ErrorCode::METHOD_NOT_FOUND;
        let read = ReadResourceRequestParams::new("memo://one");
        let prompt = GetPromptRequestParams::new("greet");
        let complete = CompleteRequestParams::new(
            Reference::for_prompt("greet"),
            ArgumentInfo::new("name", "a"),
        );
        assert_eq!(code(bounded(client.list_resources(None)).await), not_found);
        assert_eq!(
            code(bounded(client.list_resource_templates(None)).await),
            not_found
        );
        assert_eq!(code(bounded(client.read_resource(read)).await), not_found);
        assert_eq!(code(bounded(client.list_prompts(None)).await), not_found);
        assert_eq!(code(bounded(client.get_prompt(prompt)).await), not_found);
        assert_eq!(code(bounded(client.complete(complete)).await), not_found);
        if version.has_initialize() {
            #[allow(deprecated)] // resources/subscribe, gone in 2026-07-28
            let subscribed = client.subscribe(SubscribeRequestParams::new("memo://one"));
            assert_eq!(code(bounded(subscribed).await), not_found);
        }
    }
}

#[tokio::test]
async fn each_handler_declares_its_capability_and_answers_its_methods() {
    // Prompts alone: only prompts are declared, and resources are still not found.
    let client = connect(
        server().with_prompts(Catalog::default()),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
    let capabilities = declared(&client);
    assert!(capabilities.prompts.is_some());
    assert_eq!(capabilities.resources, None);
    assert_eq!(capabilities.completions, None);
    let prompts = bounded(client.list_prompts(None))
        .await
        .expect("prompts/list");
    assert_eq!(prompts.prompts[0].name, "greet");
    let listed = bounded(client.list_resources(None)).await;
    assert_eq!(code(listed), ErrorCode::METHOD_NOT_FOUND);

    // All three, at both revisions.
    for version in REVISIONS {
        let catalog = Arc::new(Catalog::default());
        let server = server()
            .with_resources(Arc::clone(&catalog))
            .with_prompts(Arc::clone(&catalog))
            .with_completions(Arc::clone(&catalog));
        let client = connect(server, version.clone()).await;
        let capabilities = declared(&client);
        let resources = capabilities.resources.expect("resources declared");
        assert!(capabilities.prompts.is_some(), "at {version}");
        assert!(capabilities.completions.is_some(), "at {version}");

        let listed = bounded(client.list_resources(None)).await.expect("list");
        assert_eq!(listed.resources[0].uri, "memo://one");
        let templates = bounded(client.list_resource_templates(None))
            .await
            .expect("templates");
        assert_eq!(
            templates.resource_templates[0].uri_template,
            "memo://{name}"
        );
        let read = ReadResourceRequestParams::new("memo://one");
        let read = bounded(client.read_resource(read)).await.expect("read");
        assert_eq!(
            read.contents,
            [ResourceContents::text("first memo", "memo://one")]
        );
        let mut arguments = JsonObject::new();
        arguments.insert("name".to_owned(), json!("Ada"));
        let prompt = GetPromptRequestParams::new("greet").with_arguments(arguments);
        let prompt = bounded(client.get_prompt(prompt))
            .await
            .expect("prompts/get");
        assert_eq!(
            prompt.messages,
            [PromptMessage::new_text(Role::User, "Say hello to Ada")]
        );
        let complete = CompleteRequestParams::new(
            Reference::for_prompt("greet"),
            ArgumentInfo::new("name", "a"),
        );
        let completed = bounded(client.complete(complete)).await.expect("complete");
        assert_eq!(completed.completion.values, ["ada", "alan"]);

        // A URI of no resource: resource not found, with the code each revision asks for.
        let unknown = ReadResourceRequestParams::new("memo://none");
        let unknown = code(bounded(client.read_resource(unknown)).await);
        if version.has_initialize() {
            assert_eq!(unknown, ErrorCode::RESOURCE_NOT_FOUND);
            // Subscriptions: declared, and the handler's.
            assert_eq!(resources.subscribe, Some(true));
            #[allow(deprecated)] // resources/subscribe, gone in 2026-07-28
            let subscribed = client.subscribe(SubscribeRequestParams::new("memo://one"));
            bounded(subscribed).await.expect("resources/subscribe");
            let subscribed = catalog
                .subscribed
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            assert_eq!(*subscribed, ["memo://one"]);
        } else {
            assert_eq!(unknown, ErrorCode::INVALID_PARAMS);
            // 2026-07-28 subscribes through subscriptions/listen, which the server does not
            // serve: subscriptions are not declared.
            assert_eq!(resources.subscribe, None);
        }
    }
}

#[tokio::test]
async fn cacheable_results_carry_the_servers_hints_and_keep_the_handlers() {
    let minute = CacheHints::new(Duration::from_secs(60), CacheScope::Public);
    let hinted = |server: McpServer| {
        let catalog = Arc::new(Catalog::default());
        server
            .with_resources(Arc::clone(&catalog))
            .with_prompts(catalog)
            .with_cache_hints(minute)
    };

    let client = connect(hinted(server()), ProtocolVersion::V_2026_07_28).await;
    let public = (Some(60_000), Some(CacheScope::Public));
    let tools = bounded(client.list_tools(None)).await.expect("tools/list");
    assert_eq!((tools.ttl_ms, tools.cache_scope), public);
    let resources = bounded(client.list_resources(None))
        .await
        .expect("resources/list");
    assert_eq!((resources.ttl_ms, resources.cache_scope), public);
    let templates = bounded(client.list_resource_templates(None))
        .await
        .expect("templates");
    assert_eq!((templates.ttl_ms, templates.cache_scope), public);
    let prompts = bounded(client.list_prompts(None))
        .await
        .expect("prompts/list");
    assert_eq!((prompts.ttl_ms, prompts.cache_scope), public);
    // The reader set its own.
    let read = ReadResourceRequestParams::new("memo://one");
    let read = bounded(client.read_resource(read))
        .await
        .expect("resources/read");
    assert_eq!(
        (read.ttl_ms, read.cache_scope),
        (Some(5), Some(CacheScope::Private))
    );

    // By default: no caching.
    let client = connect(server(), ProtocolVersion::V_2026_07_28).await;
    let tools = bounded(client.list_tools(None)).await.expect("tools/list");
    assert_eq!(
        (tools.ttl_ms, tools.cache_scope),
        (Some(0), Some(CacheScope::Private))
    );

    // A list that depends on who asks is private, whatever the hints.
    let guarded = hinted(server()).with_access(|_, spec| spec.name() != "mid");
    let client = connect(guarded, ProtocolVersion::V_2026_07_28).await;
    let tools = bounded(client.list_tools(None)).await.expect("tools/list");
    assert_eq!(tools.tools.len(), 2);
    assert_eq!(
        (tools.ttl_ms, tools.cache_scope),
        (Some(60_000), Some(CacheScope::Private))
    );

    // An older revision has no caching hints: its results keep their shape.
    let client = connect(hinted(server()), ProtocolVersion::V_2025_11_25).await;
    let tools = bounded(client.list_tools(None)).await.expect("tools/list");
    assert_eq!((tools.ttl_ms, tools.cache_scope), (None, None));
    let resources = bounded(client.list_resources(None))
        .await
        .expect("resources/list");
    assert_eq!((resources.ttl_ms, resources.cache_scope), (None, None));
    // Not even the reader's own.
    let read = ReadResourceRequestParams::new("memo://one");
    let read = bounded(client.read_resource(read))
        .await
        .expect("resources/read");
    assert_eq!((read.ttl_ms, read.cache_scope), (None, None));
}

#[tokio::test]
async fn tools_are_listed_in_registration_order_at_every_request() {
    for version in REVISIONS {
        let client = connect(server(), version.clone()).await;
        for _ in 0..3 {
            let listed = bounded(client.list_tools(None)).await.expect("tools/list");
            let names: Vec<&str> = listed.tools.iter().map(|t| t.name.as_ref()).collect();
            assert_eq!(names, ["zeta", "alpha", "mid"], "at {version}");
        }
    }
}
