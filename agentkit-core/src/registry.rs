//! [`ToolRegistry`]: the tools one agent can call.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::error::UnknownToolError;
use crate::rules::{self, Problem};
use crate::schema::SemanticError;
use crate::tool::{DynTool, Tool, ToolSpec};

/// The tools one agent can call, by name, in registration order.
///
/// One registry per agent: different agents in one process have independent tool sets.
/// Registration order is kept, so the tool list sent to a provider is the same from call to
/// call (which keeps the provider's prompt cache warm).
///
/// The registry hands out specs, never the tools: calls go through a
/// [`ToolExecutor`](crate::ToolExecutor). The specs (all of them, or those
/// [with some tags](Self::lookup_by_tags)) become a model API's tool declarations through
/// [`provider`](crate::provider).
///
/// ```
/// use agentkit_core::{ToolRegistry, ToolSpec};
/// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput};
/// # struct Echo(ToolSpec);
/// # impl Tool for Echo {
/// #     fn spec(&self) -> &ToolSpec { &self.0 }
/// #     async fn execute(&self, i: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> { Ok(i.clone().into()) }
/// # }
/// # fn echo(name: &'static str, tag: &'static str) -> Echo {
/// #     Echo(ToolSpec::builder(name).tag("team", tag).build().unwrap())
/// # }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(echo("search", "web"))?;
/// registry.register(echo("fetch", "web"))?;
/// registry.register(echo("sum", "math"))?;
///
/// assert!(registry.register(echo("search", "web")).is_err()); // duplicates are refused
/// assert_eq!(registry.lookup("fetch").map(ToolSpec::name), Some("fetch"));
/// let web: Vec<&str> = registry.lookup_by_tags(&[("team", "web")]).map(ToolSpec::name).collect();
/// assert_eq!(web, ["search", "fetch"]);
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Default, Clone)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn DynTool>>,
    by_name: HashMap<String, usize, BuildHasherDefault<Fnv1a>>,
    /// For each tag key and value, the tools that have it, in registration order: finding
    /// a team's 20 tools among 10 000 costs 20, not 10 000.
    by_tag: HashMap<String, HashMap<String, Vec<usize>>>,
}

/// FNV-1a: tool names are short, and every dispatch hashes one, where SipHash's per-call
/// setup costs more than the lookup. The keys are fixed at registration, so a hostile name
/// from a model can only make its own lookup slower, not the map.
#[derive(Default)]
struct Fnv1a(u64);

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        ToolRegistry::default()
    }

    /// Adds a tool; refuses a second tool with a name already registered.
    ///
    /// It also refuses a tool declared with `#[tool(input = Args, examples = [...])]` whose
    /// examples `Args`' parameters do not accept: the macro checks examples against the
    /// parameters it declares itself, but cannot see those of a type, so they are checked
    /// here, in the words it would use.
    pub fn register<T: Tool>(&mut self, tool: T) -> Result<(), SemanticError> {
        self.register_dyn(Arc::new(tool))
    }

    /// Adds a tool shared with other registries (`Arc<T>` works wherever `T` does).
    pub fn register_arc<T: Tool>(&mut self, tool: Arc<T>) -> Result<(), SemanticError> {
        self.register_dyn(tool)
    }

    fn register_dyn(&mut self, tool: Arc<dyn DynTool>) -> Result<(), SemanticError> {
        let name = tool.spec().name();
        if self.by_name.contains_key(name) {
            return Err(SemanticError::single(Problem::DuplicateTool {
                name: name.to_owned(),
            }));
        }
        if let Some(error) = tool.spec().json_schema_problem() {
            return Err(error);
        }
        if let Some(error) = tool.spec().unchecked_example_problems() {
            return Err(error);
        }
        let index = self.tools.len();
        self.by_name.insert(name.to_owned(), index);
        for (key, value) in tool.spec().tags() {
            self.by_tag
                .entry(key.to_owned())
                .or_default()
                .entry(value.to_owned())
                .or_default()
                .push(index);
        }
        self.tools.push(tool);
        Ok(())
    }

    /// The spec of the tool called `name`.
    pub fn lookup(&self, name: &str) -> Option<&ToolSpec> {
        self.get(name).map(|tool| tool.spec())
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Arc<dyn DynTool>> {
        self.by_name.get(name).map(|&index| &self.tools[index])
    }

    /// The tool called `name`, or an error naming the registered tools nearest to it.
    pub(crate) fn resolve(&self, name: &str) -> Result<&Arc<dyn DynTool>, UnknownToolError> {
        self.get(name)
            .ok_or_else(|| UnknownToolError::new(name, self.nearest(name)))
    }

    fn nearest(&self, name: &str) -> Vec<String> {
        nearest_names(name, self.specs().map(ToolSpec::name))
    }

    /// The tools whose tags include every given `(key, value)` pair, in registration order.
    pub fn lookup_by_tags<'a>(
        &'a self,
        tags: &'a [(&'a str, &'a str)],
    ) -> impl Iterator<Item = &'a ToolSpec> + 'a {
        let candidates = match tags.first() {
            Some((key, value)) => Candidates::Listed(self.tagged(key, value).iter()),
            None => Candidates::All(0..self.tools.len()),
        };
        candidates
            .map(|index| self.tools[index].spec())
            .filter(move |spec| tags.iter().all(|(k, v)| spec.tag(k) == Some(*v)))
    }

    /// The position of the tool called `name`, in registration order.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The positions of the tools with the tag `key` set to `value`, in registration order.
    pub(crate) fn tagged(&self, key: &str, value: &str) -> &[usize] {
        self.by_tag
            .get(key)
            .and_then(|values| values.get(value))
            .map_or(&[], Vec::as_slice)
    }

    /// The tool at `index`, in registration order.
    pub(crate) fn at(&self, index: usize) -> &Arc<dyn DynTool> {
        &self.tools[index]
    }

    /// Every tool's spec, in registration order.
    pub fn specs(&self) -> impl ExactSizeIterator<Item = &ToolSpec> {
        self.tools.iter().map(|tool| tool.spec())
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry")
            .field(
                "tools",
                &self.specs().map(ToolSpec::name).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The positions of some of a registry's tools, in registration order.
pub(crate) enum Candidates<'a> {
    /// Every tool.
    All(std::ops::Range<usize>),
    /// The tools an index lists.
    Listed(std::slice::Iter<'a, usize>),
    /// The tools found by name.
    Found(std::vec::IntoIter<usize>),
}

impl Iterator for Candidates<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        match self {
            Candidates::All(range) => range.next(),
            Candidates::Listed(listed) => listed.next().copied(),
            Candidates::Found(found) => found.next(),
        }
    }
}

/// The names among `candidates` nearest to `name` (at most three, nearest first): within an
/// edit distance of a third of its length (at least 2), or containing it, or contained in it.
pub(crate) fn nearest_names<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    // The name is the model's: one far longer than any valid name is no typo of one, and
    // the edit distance would cost its length times each tool's.
    if name.len() > 2 * rules::MAX_NAME_LEN {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|candidate| (rules::edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| {
            *distance <= (name.len() / 3).max(2)
                || candidate.contains(name)
                || name.contains(candidate)
        })
        .collect();
    scored.sort_by_key(|(distance, _)| *distance);
    scored
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_owned())
        .collect()
}
