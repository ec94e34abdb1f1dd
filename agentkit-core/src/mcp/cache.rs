//! Caching hints (SEP-2549, MCP 2026-07-28): how long, and by whom, a client may keep the
//! results of `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list` and
//! `resources/read`.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    CacheScope, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, ProtocolVersion, ReadResourceResult,
};
use rmcp::service::RequestContext;

/// The caching hints an [`McpServer`](super::McpServer) puts on its cacheable results (`ttlMs`
/// and `cacheScope`, SEP-2549) where the handler left them unset; set with
/// [`McpServer::with_cache_hints`](super::McpServer::with_cache_hints).
///
/// The results are those of `tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list` and `resources/read`, sent to clients of the 2026-07-28
/// revision. Older revisions have no caching hints: their results keep their shape, without
/// the server's hints or a handler's.
///
/// The default, [`CacheHints::NONE`], is a time to live of zero and the private scope: the
/// result is stale at once and only the requesting user's client may keep it, so a client
/// asks again each time, as it did before the hints existed. It is the one choice that is
/// never wrong: a longer time would keep serving a tool list after a deployment changed it,
/// and the public scope lets an intermediary serve one user's result to another, which is a
/// leak when the result depends on who asks. Raise them when you know better, e.g. for a
/// fixed set of tools:
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use agentkit_core::mcp::{CacheHints, McpServer};
/// use agentkit_core::mcp::rmcp::model::CacheScope;
/// # use agentkit_core::{ToolExecutor, ToolRegistry};
/// # let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
/// let hints = CacheHints::new(Duration::from_secs(300), CacheScope::Public);
/// let server = McpServer::new(executor).with_cache_hints(hints);
/// ```
///
/// Whatever the hints, `tools/list` is private when an
/// [access policy](super::McpServer::with_access) decides which tools each principal sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheHints {
    ttl: Duration,
    scope: CacheScope,
}

impl CacheHints {
    /// Stale at once, for the requesting user's client only: no caching. The default.
    pub const NONE: CacheHints = CacheHints {
        ttl: Duration::ZERO,
        scope: CacheScope::Private,
    };

    /// Results fresh for `ttl` (sent in whole milliseconds), cacheable within `scope`.
    pub fn new(ttl: Duration, scope: CacheScope) -> Self {
        CacheHints { ttl, scope }
    }

    /// How long a result stays fresh.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Who may cache a result.
    pub fn scope(&self) -> CacheScope {
        self.scope
    }

    /// The time to live in whole milliseconds, as `ttlMs` carries it (a time past `u64::MAX`
    /// milliseconds is that).
    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether the request's client has caching hints: one of 2026-07-28 or later.
    pub(super) fn applies(&self, context: &RequestContext<RoleServer>) -> bool {
        // ISO dates compare lexically as they do in time.
        context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
    }

    /// Puts the hints on `result` for a client that has them (`has_hints`, from
    /// [`applies`](Self::applies)): fills those the result left unset (private whatever the
    /// hints say when `private`: the result depends on who asks). For a client that has none,
    /// takes them off.
    pub(super) fn put(&self, result: &mut impl Cacheable, has_hints: bool, private: bool) {
        let (ttl_ms, scope) = result.hints();
        if has_hints {
            self.fill(ttl_ms, scope, private);
        } else {
            (*ttl_ms, *scope) = (None, None);
        }
    }

    /// Fills the hints a result left unset; `private`: the result depends on who asks, so it
    /// is private whatever the hints say.
    fn fill(&self, ttl_ms: &mut Option<u64>, scope: &mut Option<CacheScope>, private: bool) {
        ttl_ms.get_or_insert(self.ttl_ms());
        scope.get_or_insert(if private {
            CacheScope::Private
        } else {
            self.scope
        });
    }
}

/// A result that may carry caching hints.
pub(super) trait Cacheable {
    /// Its `ttlMs` and `cacheScope`.
    fn hints(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>);
}

macro_rules! cacheable {
    ($($result:ty),*) => {$(
        impl Cacheable for $result {
            fn hints(&mut self) -> (&mut Option<u64>, &mut Option<CacheScope>) {
                (&mut self.ttl_ms, &mut self.cache_scope)
            }
        }
    )*};
}

cacheable!(
    ListToolsResult,
    ListPromptsResult,
    ListResourcesResult,
    ListResourceTemplatesResult,
    ReadResourceResult
);

impl Default for CacheHints {
    fn default() -> Self {
        CacheHints::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_no_caching() {
        let (mut ttl, mut scope) = (None, None);
        CacheHints::default().fill(&mut ttl, &mut scope, false);
        assert_eq!((ttl, scope), (Some(0), Some(CacheScope::Private)));
    }

    #[test]
    fn hints_fill_only_what_the_result_left_unset() {
        let hints = CacheHints::new(Duration::from_millis(1_500), CacheScope::Public);
        let (mut ttl, mut scope) = (None, None);
        hints.fill(&mut ttl, &mut scope, false);
        assert_eq!((ttl, scope), (Some(1_500), Some(CacheScope::Public)));

        let (mut ttl, mut scope) = (Some(7), Some(CacheScope::Private));
        hints.fill(&mut ttl, &mut scope, false);
        assert_eq!((ttl, scope), (Some(7), Some(CacheScope::Private)));
    }

    #[test]
    fn a_result_that_depends_on_who_asks_is_private() {
        let hints = CacheHints::new(Duration::from_secs(60), CacheScope::Public);
        let (mut ttl, mut scope) = (None, None);
        hints.fill(&mut ttl, &mut scope, true);
        assert_eq!((ttl, scope), (Some(60_000), Some(CacheScope::Private)));
    }

    #[test]
    fn a_client_without_hints_gets_a_result_without_them() {
        let hints = CacheHints::new(Duration::from_secs(60), CacheScope::Public);
        let own = || ReadResourceResult::new(Vec::new()).with_ttl_ms(5);
        let mut older = own();
        hints.put(&mut older, false, false);
        assert_eq!((older.ttl_ms, older.cache_scope), (None, None));
        let mut newer = own();
        hints.put(&mut newer, true, false);
        assert_eq!(
            (newer.ttl_ms, newer.cache_scope),
            (Some(5), Some(CacheScope::Public))
        );
    }

    #[test]
    fn a_time_to_live_past_u64_milliseconds_saturates() {
        let hints = CacheHints::new(Duration::MAX, CacheScope::Private);
        assert_eq!(hints.ttl_ms(), u64::MAX);
    }
}
