//! The application's handlers for what an [`McpServer`](super::McpServer) serves beside
//! tools: resources ([`McpResources`]), prompts ([`McpPrompts`]) and argument completion
//! ([`McpCompletions`]), written in rmcp's types.

use std::future::{Future, ready};
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    PromptsCapability, ReadResourceRequestParams, ReadResourceResponse, ResourcesCapability,
    SubscribeRequestMethod, SubscribeRequestParams, UnsubscribeRequestMethod,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;

/// The resources an [`McpServer`](super::McpServer) serves beside its tools (MCP's
/// `resources/*` methods), given with [`McpServer::with_resources`](super::McpServer::with_resources).
///
/// Written in rmcp's types: each method gets the request's parameters and rmcp's
/// [`RequestContext`] (the client's peer, the negotiated protocol version, and over HTTP the
/// request's [`http::request::Parts`], whose extensions hold the
/// [`Principal`](crate::Principal) [bearer authentication](super::McpServer::with_auth) found).
/// A failure is a JSON-RPC error: a URI that names no resource is
/// [`ErrorData::resource_not_found`] with the URI in its `data` (rmcp sends it as `-32602` to
/// clients of the 2026-07-28 revision, `-32002` to older ones, as each revision asks).
///
/// The server declares the `resources` capability once it has a handler, with the
/// sub-capabilities [`capabilities`](Self::capabilities) gives (none by default): implement
/// [`subscribe`](Self::subscribe) and [`unsubscribe`](Self::unsubscribe) and declare
/// `subscribe` there. Without a handler, every `resources/*` method is answered "method not
/// found" (-32601), as MCP asks of a server without resources.
///
/// Results that leave `ttlMs`/`cacheScope` unset get the server's
/// [`CacheHints`](super::CacheHints) (for clients of 2026-07-28); set them on a result whose
/// content depends on who asks (`CacheScope::Private`).
///
/// ```
/// use agentkit_core::mcp::McpResources;
/// use agentkit_core::mcp::rmcp::model::{
///     ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
///     ReadResourceResponse, ReadResourceResult, Resource, ResourceContents,
/// };
/// use agentkit_core::mcp::rmcp::service::RequestContext;
/// use agentkit_core::mcp::rmcp::{ErrorData, RoleServer};
///
/// /// One text file, served as `notes://today`.
/// struct Notes;
///
/// impl McpResources for Notes {
///     async fn list_resources(
///         &self,
///         _: Option<PaginatedRequestParams>,
///         _: RequestContext<RoleServer>,
///     ) -> Result<ListResourcesResult, ErrorData> {
///         let today = Resource::new("notes://today", "today").with_mime_type("text/plain");
///         Ok(ListResourcesResult::with_all_items(vec![today]))
///     }
///
///     async fn read_resource(
///         &self,
///         request: ReadResourceRequestParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<ReadResourceResponse, ErrorData> {
///         if request.uri != "notes://today" {
///             let uri = serde_json::json!({ "uri": request.uri });
///             return Err(ErrorData::resource_not_found("Resource not found", Some(uri)));
///         }
///         let text = ResourceContents::text("Water the plants.", request.uri)
///             .with_mime_type("text/plain");
///         Ok(ReadResourceResult::new(vec![text]).into())
///     }
/// }
/// ```
pub trait McpResources: Send + Sync + 'static {
    /// The sub-capabilities declared with `resources`: `subscribe` when
    /// [`subscribe`](Self::subscribe) is implemented, `listChanged` when the application
    /// sends `notifications/resources/list_changed` (through the request context's peer).
    /// None by default.
    ///
    /// To clients of the 2026-07-28 revision, which learn of changes through
    /// `subscriptions/listen` (which `McpServer` does not serve), neither is declared.
    fn capabilities(&self) -> ResourcesCapability {
        ResourcesCapability::default()
    }

    /// `resources/list`: the resources (not the templates), one page at a time when
    /// `request` carries a cursor.
    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourcesResult, ErrorData>> + Send;

    /// `resources/templates/list`: the resource templates (URI templates, RFC 6570). None
    /// by default.
    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourceTemplatesResult, ErrorData>> + Send {
        let _ = (request, context);
        ready(Ok(ListResourceTemplatesResult::default()))
    }

    /// `resources/read`: the contents of the resource at `request.uri` (a listed one, or
    /// one a template describes), or an [`InputRequiredResult`](rmcp::model::InputRequiredResult)
    /// asking the client for input first (clients of 2026-07-28 only).
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, ErrorData>> + Send;

    /// `resources/subscribe` (before 2026-07-28): the client wants
    /// `notifications/resources/updated` for `request.uri`. "Method not found" by default.
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        let _ = (request, context);
        ready(Err(ErrorData::method_not_found::<SubscribeRequestMethod>()))
    }

    /// `resources/unsubscribe` (before 2026-07-28): the client no longer wants updates of
    /// `request.uri`. "Method not found" by default.
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        let _ = (request, context);
        ready(Err(
            ErrorData::method_not_found::<UnsubscribeRequestMethod>(),
        ))
    }
}

/// The prompts an [`McpServer`](super::McpServer) serves beside its tools (`prompts/list`,
/// `prompts/get`), given with [`McpServer::with_prompts`](super::McpServer::with_prompts).
///
/// The server declares the `prompts` capability once it has a handler; without one, both
/// methods are answered "method not found" (-32601). An unknown prompt, or arguments that do
/// not fit it, is [`ErrorData::invalid_params`]. `prompts/list` results that leave
/// `ttlMs`/`cacheScope` unset get the server's [`CacheHints`](super::CacheHints).
///
/// ```
/// use agentkit_core::mcp::McpPrompts;
/// use agentkit_core::mcp::rmcp::model::{
///     GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
///     PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, Role,
/// };
/// use agentkit_core::mcp::rmcp::service::RequestContext;
/// use agentkit_core::mcp::rmcp::{ErrorData, RoleServer};
///
/// /// `review`: asks the model to review a piece of code.
/// struct Review;
///
/// impl McpPrompts for Review {
///     async fn list_prompts(
///         &self,
///         _: Option<PaginatedRequestParams>,
///         _: RequestContext<RoleServer>,
///     ) -> Result<ListPromptsResult, ErrorData> {
///         let code = PromptArgument::new("code").with_required(true);
///         let review = Prompt::new("review", Some("Review a piece of code"), Some(vec![code]));
///         Ok(ListPromptsResult::with_all_items(vec![review]))
///     }
///
///     async fn get_prompt(
///         &self,
///         request: GetPromptRequestParams,
///         _: RequestContext<RoleServer>,
///     ) -> Result<GetPromptResponse, ErrorData> {
///         let code = request.arguments.as_ref().and_then(|a| a.get("code")?.as_str());
///         let (Some(code), "review") = (code, request.name.as_str()) else {
///             return Err(ErrorData::invalid_params("unknown prompt or missing `code`", None));
///         };
///         let text = format!("Review this code:\n\n{code}");
///         Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]).into())
///     }
/// }
/// ```
pub trait McpPrompts: Send + Sync + 'static {
    /// The sub-capabilities declared with `prompts`: `listChanged` when the application sends
    /// `notifications/prompts/list_changed` (not to clients of 2026-07-28, as for
    /// [resources](McpResources::capabilities)). None by default.
    fn capabilities(&self) -> PromptsCapability {
        PromptsCapability::default()
    }

    /// `prompts/list`: the prompts, one page at a time when `request` carries a cursor.
    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListPromptsResult, ErrorData>> + Send;

    /// `prompts/get`: the messages of prompt `request.name` with `request.arguments`, or an
    /// [`InputRequiredResult`](rmcp::model::InputRequiredResult) asking the client for input
    /// first (clients of 2026-07-28 only: rmcp refuses to send one to an older client).
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResponse, ErrorData>> + Send;
}

/// Completion of the arguments of prompts and resource templates (`completion/complete`),
/// given with [`McpServer::with_completions`](super::McpServer::with_completions).
///
/// The server declares the `completions` capability once it has a handler; without one, the
/// method is answered "method not found" (-32601).
pub trait McpCompletions: Send + Sync + 'static {
    /// `completion/complete`: values for `request.argument` of the prompt or resource
    /// template `request.ref` names, given what the user typed so far (`argument.value`) and
    /// the other arguments (`request.context`). At most
    /// [`CompletionInfo::MAX_VALUES`](rmcp::model::CompletionInfo::MAX_VALUES) values.
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + Send;
}

impl<T: McpResources> McpResources for Arc<T> {
    fn capabilities(&self) -> ResourcesCapability {
        T::capabilities(self)
    }

    fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourcesResult, ErrorData>> + Send {
        T::list_resources(self, request, context)
    }

    fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListResourceTemplatesResult, ErrorData>> + Send {
        T::list_resource_templates(self, request, context)
    }

    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, ErrorData>> + Send {
        T::read_resource(self, request, context)
    }

    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        T::subscribe(self, request, context)
    }

    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + Send {
        T::unsubscribe(self, request, context)
    }
}

impl<T: McpPrompts> McpPrompts for Arc<T> {
    fn capabilities(&self) -> PromptsCapability {
        T::capabilities(self)
    }

    fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListPromptsResult, ErrorData>> + Send {
        T::list_prompts(self, request, context)
    }

    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResponse, ErrorData>> + Send {
        T::get_prompt(self, request, context)
    }
}

impl<T: McpCompletions> McpCompletions for Arc<T> {
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + Send {
        T::complete(self, request, context)
    }
}
