//! [`Toolset`]: a view over a registry, for one turn: some of its tools, under names of its
//! own. An agent with hundreds of tools declares a few each turn, and a call made through the
//! view reaches only those.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::error::UnknownToolError;
use crate::registry::{Candidates, ToolRegistry, nearest_names};
use crate::tool::{DynTool, ToolSpec};

/// A view over a [`ToolRegistry`]: the tools it keeps (by name, tag or predicate; every
/// condition must hold), under the names it gives them (a prefix, renames). Cheap to make
/// and to copy: it borrows the registry, and holds conditions, never a spec.
///
/// Declarations come from its [`tools`](Self::tools) (see [`provider`](crate::provider));
/// calls go through the executor with it ([`ToolExecutor::dispatch_in`](crate::ToolExecutor::dispatch_in),
/// [`Turn::with_toolset`](crate::Turn::with_toolset)), which reaches only its tools: a name
/// outside it is an unknown tool, with suggestions from the view alone.
///
/// ```
/// use agentkit_core::{ToolRegistry, ToolSpec};
/// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput};
/// # struct Echo(ToolSpec);
/// # impl Tool for Echo {
/// #     fn spec(&self) -> &ToolSpec { &self.0 }
/// #     async fn execute(&self, i: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> { Ok(i.clone().into()) }
/// # }
/// # fn tool(name: &'static str, team: &'static str) -> Echo {
/// #     Echo(ToolSpec::builder(name).tag("team", team).build().unwrap())
/// # }
/// let mut registry = ToolRegistry::new();
/// registry.register(tool("read_file", "fs"))?;
/// registry.register(tool("write_file", "fs"))?;
/// registry.register(tool("search", "web"))?;
///
/// let files = registry.toolset().tagged("team", "fs").prefix("fs_");
/// let names: Vec<_> = files.tools().map(|tool| tool.name()).collect();
/// assert_eq!(names, ["fs_read_file", "fs_write_file"]);
///
/// let read_only = files.clone().named(["read_file"]).rename("read_file", "read");
/// assert_eq!(read_only.tools().map(|t| t.name()).collect::<Vec<_>>(), ["fs_read"]);
/// assert_eq!(read_only.lookup("fs_read").map(ToolSpec::name), Some("read_file"));
/// assert!(read_only.lookup("fs_write_file").is_none());
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Clone)]
pub struct Toolset<'r> {
    registry: &'r ToolRegistry,
    keep: Vec<Keep<'r>>,
    prefix: Option<Cow<'r, str>>,
    renames: Vec<(Cow<'r, str>, Cow<'r, str>)>,
    deferred: Option<Predicate<'r>>,
    loaded: Vec<Cow<'r, str>>,
}

/// A condition on a spec.
type Predicate<'r> = Arc<dyn Fn(&ToolSpec) -> bool + Send + Sync + 'r>;

/// What a tool must be to be in the view.
#[derive(Clone)]
enum Keep<'r> {
    Named(Vec<Cow<'r, str>>),
    Without(Vec<Cow<'r, str>>),
    Tagged(Cow<'r, str>, Cow<'r, str>),
    Matching(Predicate<'r>),
}

impl Keep<'_> {
    fn holds(&self, spec: &ToolSpec) -> bool {
        match self {
            Keep::Named(names) => names.iter().any(|name| name == spec.name()),
            Keep::Without(names) => !names.iter().any(|name| name == spec.name()),
            Keep::Tagged(key, value) => spec.tag(key) == Some(value.as_ref()),
            Keep::Matching(predicate) => predicate(spec),
        }
    }
}

/// One tool of a view: its spec, under the name the view gives it.
#[derive(Debug, Clone, Copy)]
pub struct ToolsetEntry<'t> {
    name: &'t str,
    prefix: &'t str,
    spec: &'t ToolSpec,
    deferred: bool,
}

impl<'t> ToolsetEntry<'t> {
    /// The name the view gives the tool (its prefix included): what a model is declared and
    /// calls.
    pub fn name(&self) -> Cow<'t, str> {
        if self.prefix.is_empty() {
            Cow::Borrowed(self.name)
        } else {
            Cow::Owned(format!("{}{}", self.prefix, self.name))
        }
    }

    /// The name before the view's prefix: the tool's own, or its rename.
    pub fn unprefixed_name(&self) -> &'t str {
        self.name
    }

    /// The prefix the view puts before every name (empty for none).
    pub fn prefix(&self) -> &'t str {
        self.prefix
    }

    /// The tool's spec (its own name, schemas, tags, annotations).
    pub fn spec(&self) -> &'t ToolSpec {
        self.spec
    }

    /// Whether the view marks the tool for deferred loading (see
    /// [`Toolset::defer`]).
    pub fn is_deferred(&self) -> bool {
        self.deferred
    }
}

impl ToolRegistry {
    /// A view of every tool of the registry, to narrow and rename (see [`Toolset`]).
    pub fn toolset(&self) -> Toolset<'_> {
        Toolset {
            registry: self,
            keep: Vec::new(),
            prefix: None,
            renames: Vec::new(),
            deferred: None,
            loaded: Vec::new(),
        }
    }
}

impl<'r> Toolset<'r> {
    /// Keeps only the tools with these names (their own, before any rename).
    #[must_use]
    pub fn named<N: Into<Cow<'r, str>>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.keep
            .push(Keep::Named(names.into_iter().map(Into::into).collect()));
        self
    }

    /// Leaves out the tools with these names (their own, before any rename).
    #[must_use]
    pub fn without<N: Into<Cow<'r, str>>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.keep
            .push(Keep::Without(names.into_iter().map(Into::into).collect()));
        self
    }

    /// Keeps only the tools with the tag `key` set to `value`.
    #[must_use]
    pub fn tagged(mut self, key: impl Into<Cow<'r, str>>, value: impl Into<Cow<'r, str>>) -> Self {
        self.keep.push(Keep::Tagged(key.into(), value.into()));
        self
    }

    /// Keeps only the tools whose spec `predicate` accepts (by annotations, say:
    /// `|spec| spec.annotations().read_only() == Some(true)`).
    #[must_use]
    pub fn filter(mut self, predicate: impl Fn(&ToolSpec) -> bool + Send + Sync + 'r) -> Self {
        self.keep.push(Keep::Matching(Arc::new(predicate)));
        self
    }

    /// Puts `prefix` before every name the view gives (`fs_` makes `read_file`
    /// `fs_read_file`), so that the tools of two sources cannot clash. A second prefix
    /// replaces the first.
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<Cow<'r, str>>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Gives the tool called `name` (its own name) the name `to` in the view (before the
    /// prefix).
    #[must_use]
    pub fn rename(mut self, name: impl Into<Cow<'r, str>>, to: impl Into<Cow<'r, str>>) -> Self {
        self.renames.push((name.into(), to.into()));
        self
    }

    /// Marks the tools `predicate` accepts for deferred loading: the declarations of an API
    /// that has it (Anthropic's `defer_loading`) leave them out of the model's context until
    /// its tool search finds them (see [`provider`](crate::provider) and
    /// [`ToolSearch`](crate::ToolSearch)).
    #[must_use]
    pub fn defer(mut self, predicate: impl Fn(&ToolSpec) -> bool + Send + Sync + 'r) -> Self {
        self.deferred = Some(Arc::new(predicate));
        self
    }

    /// Takes the tools the view calls `names` (their prefix included) out of deferred
    /// loading: the tools a search found ([`ToolSearch::found`](crate::ToolSearch::found)),
    /// which the next request declares in full.
    #[must_use]
    pub fn load<N: Into<Cow<'r, str>>>(mut self, names: impl IntoIterator<Item = N>) -> Self {
        self.loaded.extend(names.into_iter().map(Into::into));
        self
    }

    /// The registry the view is over.
    pub fn registry(&self) -> &'r ToolRegistry {
        self.registry
    }

    /// The view's tools, in registration order.
    ///
    /// A rename onto the name of another tool of the view hides that tool: a view never
    /// declares two tools by one name.
    pub fn tools(&self) -> impl Iterator<Item = ToolsetEntry<'_>> + '_ {
        self.candidates().filter_map(|index| {
            let spec = self.registry.at(index).spec();
            let exposed = self.exposed(spec.name());
            let shown = self.keeps(spec) && self.own_name(exposed) == Some(spec.name());
            shown.then(|| {
                let mut entry = ToolsetEntry {
                    name: exposed,
                    prefix: self.prefix.as_deref().unwrap_or(""),
                    spec,
                    deferred: false,
                };
                entry.deferred = self.deferred.as_ref().is_some_and(|defer| defer(spec))
                    && !self.loaded.iter().any(|name| *name == entry.name());
                entry
            })
        })
    }

    /// How many tools the view has.
    pub fn len(&self) -> usize {
        self.tools().count()
    }

    /// Whether the view has no tool.
    pub fn is_empty(&self) -> bool {
        self.tools().next().is_none()
    }

    /// The spec of the tool the view calls `name` (its prefix included).
    pub fn lookup(&self, name: &str) -> Option<&'r ToolSpec> {
        self.get(name).map(|tool| tool.spec())
    }

    /// The registry's tools that may be in the view, in registration order: those a name or
    /// tag condition lists, found through the registry's indexes, else every tool.
    fn candidates(&self) -> Candidates<'_> {
        let indexed = self.keep.iter().find_map(|keep| match keep {
            Keep::Named(names) => {
                let mut found: Vec<usize> = names
                    .iter()
                    .filter_map(|name| self.registry.index_of(name))
                    .collect();
                found.sort_unstable();
                found.dedup();
                Some(Candidates::Found(found.into_iter()))
            }
            Keep::Tagged(key, value) => {
                Some(Candidates::Listed(self.registry.tagged(key, value).iter()))
            }
            Keep::Without(_) | Keep::Matching(_) => None,
        });
        indexed.unwrap_or(Candidates::All(0..self.registry.len()))
    }

    fn keeps(&self, spec: &ToolSpec) -> bool {
        self.keep.iter().all(|keep| keep.holds(spec))
    }

    /// The name the view gives the tool called `own` (before the prefix): its last rename.
    fn exposed<'a>(&'a self, own: &'a str) -> &'a str {
        self.renames
            .iter()
            .rev()
            .find(|(from, _)| from == own)
            .map_or(own, |(_, to)| to.as_ref())
    }

    /// The own name of the tool the view calls `name` (before the prefix): the last rename
    /// onto it, else the name itself, unless that tool was renamed away.
    fn own_name<'a>(&'a self, name: &'a str) -> Option<&'a str> {
        match self.renames.iter().rev().find(|(_, to)| to == name) {
            Some((from, _)) => Some(from),
            None if self.renames.iter().any(|(from, _)| from == name) => None,
            None => Some(name),
        }
    }

    /// The tool the view calls `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&'r Arc<dyn DynTool>> {
        let name = match &self.prefix {
            Some(prefix) => name.strip_prefix(prefix.as_ref())?,
            None => name,
        };
        let own = self.own_name(name)?;
        let tool = self.registry.get(own)?;
        // A tool renamed twice answers to its last name only.
        (self.exposed(own) == name && self.keeps(tool.spec())).then_some(tool)
    }

    /// The tool the view calls `name`, among the tools of `registry`, or an error naming
    /// the view's tools nearest to it. A view of another registry reaches none of its tools.
    pub(crate) fn resolve_in(
        &self,
        registry: &ToolRegistry,
        name: &str,
    ) -> Result<&'r Arc<dyn DynTool>, UnknownToolError> {
        if !std::ptr::eq(self.registry, registry) {
            return Err(UnknownToolError::new(name, Vec::new()));
        }
        self.get(name)
            .ok_or_else(|| UnknownToolError::new(name, self.nearest(name)))
    }

    fn nearest(&self, name: &str) -> Vec<String> {
        let names: Vec<Cow<'_, str>> = self.tools().map(|tool| tool.name()).collect();
        nearest_names(name, names.iter().map(AsRef::as_ref))
    }
}

impl fmt::Debug for Toolset<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolset")
            .field(
                "tools",
                &self.tools().map(|tool| tool.name()).collect::<Vec<_>>(),
            )
            .finish()
    }
}
