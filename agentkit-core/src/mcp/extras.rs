//! How an [`McpServer`](super::McpServer) serves what the application gives it beside tools
//! (the handlers of `handlers.rs`): their futures boxed, their capabilities declared, the
//! methods of those not given answered "method not found", and the caching hints put on
//! their lists and reads.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CompleteRequestMethod, CompleteRequestParams, CompleteResult, DiscoverResult,
    GetPromptRequestMethod, GetPromptRequestParams, GetPromptResponse, ListPromptsRequestMethod,
    ListPromptsResult, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
    ListResourcesRequestMethod, ListResourcesResult, PaginatedRequestParams, PromptsCapability,
    ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResponse,
    ResourcesCapability, ServerCapabilities, SubscribeRequestMethod, SubscribeRequestParams,
    UnsubscribeRequestMethod, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;

use super::McpServer;
use super::cache::CacheHints;
use super::handlers::{McpCompletions, McpPrompts, McpResources};
use crate::tool::BoxFuture;

/// Context of a request, as every method takes it.
type Context = RequestContext<RoleServer>;

/// An [`McpResources`], its futures boxed, as the server keeps it.
trait DynResources: Send + Sync + 'static {
    fn capabilities(&self) -> ResourcesCapability;
    fn list(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListResourcesResult, ErrorData>>;
    fn templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListResourceTemplatesResult, ErrorData>>;
    fn read(
        &self,
        request: ReadResourceRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<ReadResourceResponse, ErrorData>>;
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<(), ErrorData>>;
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<(), ErrorData>>;
}

impl<T: McpResources> DynResources for T {
    fn capabilities(&self) -> ResourcesCapability {
        McpResources::capabilities(self)
    }
    fn list(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListResourcesResult, ErrorData>> {
        Box::pin(self.list_resources(request, context))
    }
    fn templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListResourceTemplatesResult, ErrorData>> {
        Box::pin(self.list_resource_templates(request, context))
    }
    fn read(
        &self,
        request: ReadResourceRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<ReadResourceResponse, ErrorData>> {
        Box::pin(self.read_resource(request, context))
    }
    fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<(), ErrorData>> {
        Box::pin(McpResources::subscribe(self, request, context))
    }
    fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<(), ErrorData>> {
        Box::pin(McpResources::unsubscribe(self, request, context))
    }
}

/// An [`McpPrompts`], its futures boxed.
trait DynPrompts: Send + Sync + 'static {
    fn capabilities(&self) -> PromptsCapability;
    fn list(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListPromptsResult, ErrorData>>;
    fn get(
        &self,
        request: GetPromptRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<GetPromptResponse, ErrorData>>;
}

impl<T: McpPrompts> DynPrompts for T {
    fn capabilities(&self) -> PromptsCapability {
        McpPrompts::capabilities(self)
    }
    fn list(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> BoxFuture<'_, Result<ListPromptsResult, ErrorData>> {
        Box::pin(self.list_prompts(request, context))
    }
    fn get(
        &self,
        request: GetPromptRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<GetPromptResponse, ErrorData>> {
        Box::pin(self.get_prompt(request, context))
    }
}

/// An [`McpCompletions`], its future boxed.
trait DynCompletions: Send + Sync + 'static {
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<CompleteResult, ErrorData>>;
}

impl<T: McpCompletions> DynCompletions for T {
    fn complete(
        &self,
        request: CompleteRequestParams,
        context: Context,
    ) -> BoxFuture<'_, Result<CompleteResult, ErrorData>> {
        Box::pin(McpCompletions::complete(self, request, context))
    }
}

/// The handlers an [`McpServer`](super::McpServer) has beside its tools, and the cache hints of
/// its cacheable results: what the server's `ServerHandler` methods other than the tools' ones
/// answer with.
#[derive(Clone, Default)]
pub(super) struct Extras {
    resources: Option<Arc<dyn DynResources>>,
    prompts: Option<Arc<dyn DynPrompts>>,
    completions: Option<Arc<dyn DynCompletions>>,
    /// The hints of cacheable results that leave them unset.
    pub(super) cache: CacheHints,
}

impl Extras {
    pub(super) fn set_resources(&mut self, resources: impl McpResources) {
        self.resources = Some(Arc::new(resources));
    }

    pub(super) fn set_prompts(&mut self, prompts: impl McpPrompts) {
        self.prompts = Some(Arc::new(prompts));
    }

    pub(super) fn set_completions(&mut self, completions: impl McpCompletions) {
        self.completions = Some(Arc::new(completions));
    }

    /// Which of resources, prompts and completions the server has (for its `Debug`).
    pub(super) fn served(&self) -> [(&'static str, bool); 3] {
        [
            ("resources", self.resources.is_some()),
            ("prompts", self.prompts.is_some()),
            ("completions", self.completions.is_some()),
        ]
    }

    /// Declares, in `capabilities`, what the application gave: nothing it did not.
    pub(super) fn declare(&self, capabilities: &mut ServerCapabilities) {
        if let Some(resources) = &self.resources {
            capabilities.resources = Some(resources.capabilities());
        }
        if let Some(prompts) = &self.prompts {
            capabilities.prompts = Some(prompts.capabilities());
        }
        if self.completions.is_some() {
            capabilities.completions = Some(Default::default());
        }
    }

    /// The `server/discover` result (the 2026-07-28 revision) for `result`: without
    /// `subscribe` and `listChanged`, which clients of that revision take as a promise of
    /// notifications on `subscriptions/listen`, a method the server does not serve.
    pub(super) fn discovered(mut result: DiscoverResult) -> DiscoverResult {
        let capabilities = &mut result.capabilities;
        if let Some(resources) = &mut capabilities.resources {
            resources.subscribe = None;
            resources.list_changed = None;
        }
        if let Some(prompts) = &mut capabilities.prompts {
            prompts.list_changed = None;
        }
        result
    }

    pub(super) async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> Result<ListResourcesResult, ErrorData> {
        let Some(resources) = &self.resources else {
            return Err(ErrorData::method_not_found::<ListResourcesRequestMethod>());
        };
        let has_hints = self.cache.applies(&context);
        let mut result = resources.list(request, context).await?;
        self.cache.put(&mut result, has_hints, false);
        Ok(result)
    }

    pub(super) async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let Some(resources) = &self.resources else {
            return Err(ErrorData::method_not_found::<
                ListResourceTemplatesRequestMethod,
            >());
        };
        let has_hints = self.cache.applies(&context);
        let mut result = resources.templates(request, context).await?;
        self.cache.put(&mut result, has_hints, false);
        Ok(result)
    }

    pub(super) async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: Context,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(resources) = &self.resources else {
            return Err(ErrorData::method_not_found::<ReadResourceRequestMethod>());
        };
        let has_hints = self.cache.applies(&context);
        let mut response = resources.read(request, context).await?;
        // Only a complete result is cacheable: an input-required one carries no hints.
        if let ReadResourceResponse::Complete(result) = &mut response {
            self.cache.put(result, has_hints, false);
        }
        Ok(response)
    }

    pub(super) async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: Context,
    ) -> Result<(), ErrorData> {
        match &self.resources {
            Some(resources) => resources.subscribe(request, context).await,
            None => Err(ErrorData::method_not_found::<SubscribeRequestMethod>()),
        }
    }

    pub(super) async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: Context,
    ) -> Result<(), ErrorData> {
        match &self.resources {
            Some(resources) => resources.unsubscribe(request, context).await,
            None => Err(ErrorData::method_not_found::<UnsubscribeRequestMethod>()),
        }
    }

    pub(super) async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: Context,
    ) -> Result<ListPromptsResult, ErrorData> {
        let Some(prompts) = &self.prompts else {
            return Err(ErrorData::method_not_found::<ListPromptsRequestMethod>());
        };
        let has_hints = self.cache.applies(&context);
        let mut result = prompts.list(request, context).await?;
        self.cache.put(&mut result, has_hints, false);
        Ok(result)
    }

    pub(super) async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: Context,
    ) -> Result<GetPromptResponse, ErrorData> {
        match &self.prompts {
            Some(prompts) => prompts.get(request, context).await,
            None => Err(ErrorData::method_not_found::<GetPromptRequestMethod>()),
        }
    }

    pub(super) async fn complete(
        &self,
        request: CompleteRequestParams,
        context: Context,
    ) -> Result<CompleteResult, ErrorData> {
        match &self.completions {
            Some(completions) => completions.complete(request, context).await,
            None => Err(ErrorData::method_not_found::<CompleteRequestMethod>()),
        }
    }
}

/// Serving resources, prompts and completion beside the tools.
impl McpServer {
    /// Serves `resources` beside the tools: `resources/list`, `resources/templates/list`,
    /// `resources/read`, and `resources/subscribe`/`unsubscribe` when it implements them; the
    /// server declares the `resources` capability with its
    /// [`capabilities`](McpResources::capabilities). See [`McpResources`].
    #[must_use]
    pub fn with_resources(mut self, resources: impl McpResources) -> Self {
        self.extras.set_resources(resources);
        self
    }

    /// Serves `prompts` beside the tools: `prompts/list` and `prompts/get`; the server
    /// declares the `prompts` capability. See [`McpPrompts`].
    #[must_use]
    pub fn with_prompts(mut self, prompts: impl McpPrompts) -> Self {
        self.extras.set_prompts(prompts);
        self
    }

    /// Completes the arguments of prompts and resource templates with `completions`
    /// (`completion/complete`); the server declares the `completions` capability. See
    /// [`McpCompletions`].
    #[must_use]
    pub fn with_completions(mut self, completions: impl McpCompletions) -> Self {
        self.extras.set_completions(completions);
        self
    }

    /// Puts `hints` on the cacheable results that carry none (`tools/list`, and the lists and
    /// reads of the handlers above), for clients of the 2026-07-28 revision. By default
    /// [`CacheHints::NONE`]: no caching (see [`CacheHints`] for why).
    #[must_use]
    pub fn with_cache_hints(mut self, hints: CacheHints) -> Self {
        self.extras.cache = hints;
        self
    }
}
