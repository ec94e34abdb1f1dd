//! Large tool sets: what a turn's toolset costs among 100, 1 000 and 10 000 registered tools,
//! with the plain registry's ways as baselines in the same run:
//!
//! - `declare_view`: the Anthropic declarations of a toolset of 20 tools (a tag, a prefix),
//!   against `declare_tagged`, the same 20 found with `ToolRegistry::lookup_by_tags`;
//! - `declare_all`: the declarations of every tool, by the view of all of them;
//! - `lookup_view`: a name looked up through a view (a prefix, a tag), against
//!   `lookup_registry`, the registry's own lookup;
//! - `search`: a three-word query to `ToolSearch` (BM25), against `scan`, a linear scan for
//!   the query's words in every name and description; `index`: building the search's index.
//!
//! Run with `cargo bench -p agentkit-core --bench toolsets`.

use std::collections::HashMap;
use std::sync::OnceLock;

use agentkit_core::provider::anthropic;
use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolOutput, ToolRegistry,
    ToolSchema, ToolSearch, ToolSpec,
};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// The tools of a team of the registry: each team has 20, whatever the size.
const TEAM_SIZE: usize = 20;

struct Stub(ToolSpec);

impl Tool for Stub {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    async fn execute(&self, i: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(i.clone().into())
    }
}

const VERBS: [&str; 12] = [
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "fetch",
    "send",
    "read",
    "write",
    "convert",
    "summarize",
];
const NOUNS: [&str; 16] = [
    "file",
    "page",
    "email",
    "invoice",
    "forecast",
    "ticket",
    "user",
    "order",
    "report",
    "calendar",
    "event",
    "repository",
    "issue",
    "contact",
    "payment",
    "document",
];
const WORDS: [&str; 16] = [
    "quickly",
    "for a city",
    "in the workspace",
    "by its id",
    "with filters",
    "as markdown",
    "from the archive",
    "for the current user",
    "across projects",
    "in bulk",
    "with paging",
    "by date",
    "for a team",
    "and its history",
    "with retries",
    "as JSON",
];

/// `n` tools with realistic names, descriptions, a tag and a small schema, in teams of 20.
fn registry(n: usize) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for i in 0..n {
        let verb = VERBS[i % VERBS.len()];
        let noun = NOUNS[(i / VERBS.len()) % NOUNS.len()];
        let spec = ToolSpec::builder(format!("{verb}_{noun}_{i}"))
            .description(format!(
                "{} a {noun} {} {}.",
                capitalize(verb),
                WORDS[i % WORDS.len()],
                WORDS[(i * 7 + 3) % WORDS.len()]
            ))
            .tag("team", format!("team{}", i / TEAM_SIZE))
            .input(
                ToolSchema::new([
                    Param::required("id", ParamType::String).with_description("The id."),
                    Param::optional("limit", ParamType::Integer).with_default(10),
                ])
                .expect("a valid schema"),
            )
            .build()
            .expect("a valid spec");
        registry.register(Stub(spec)).expect("unique names");
    }
    registry
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The registries, built once per size.
fn fixture(n: usize) -> &'static (ToolRegistry, ToolSearch) {
    static FIXTURES: OnceLock<HashMap<usize, (ToolRegistry, ToolSearch)>> = OnceLock::new();
    &FIXTURES.get_or_init(|| {
        SIZES
            .iter()
            .map(|&n| {
                let registry = registry(n);
                let search = ToolSearch::new(registry.toolset().tools());
                (n, (registry, search))
            })
            .collect()
    })[&n]
}

/// A team in the middle of the registry.
fn team(n: usize) -> String {
    format!("team{}", n / TEAM_SIZE / 2)
}

#[divan::bench(args = SIZES)]
fn declare_view(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    let team = team(n);
    bencher.bench(|| {
        let view = registry
            .toolset()
            .tagged("team", team.as_str())
            .prefix("x_");
        black_box(anthropic::tools(view.tools()))
    });
}

#[divan::bench(args = SIZES)]
fn declare_tagged(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    let team = team(n);
    bencher.bench(|| {
        black_box(anthropic::tools(
            registry.lookup_by_tags(&[("team", team.as_str())]),
        ))
    });
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn declare_all(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    bencher.bench(|| black_box(anthropic::tools(registry.toolset().tools())));
}

#[divan::bench(args = SIZES)]
fn lookup_view(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    let view = registry.toolset().tagged("team", team(n)).prefix("x_");
    let name = format!("x_{}", view.tools().nth(7).expect("20 tools").spec().name());
    bencher.bench(|| black_box(view.lookup(black_box(&name))).is_some());
}

#[divan::bench(args = SIZES)]
fn lookup_registry(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    let view = registry.toolset().tagged("team", team(n));
    let name = view
        .tools()
        .nth(7)
        .expect("20 tools")
        .spec()
        .name()
        .to_owned();
    bencher.bench(|| black_box(registry.lookup(black_box(&name))).is_some());
}

const QUERY: &str = "weather forecast for a city";

#[divan::bench(args = SIZES)]
fn search(bencher: Bencher<'_, '_>, n: usize) {
    let (_, search) = fixture(n);
    bencher.bench(|| black_box(search.search(black_box(QUERY), 5)).len());
}

/// The baseline: every tool whose name or description holds a word of the query, counted.
#[divan::bench(args = SIZES)]
fn scan(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    let words: Vec<String> = QUERY.split(' ').map(str::to_lowercase).collect();
    bencher.bench(|| {
        let mut hits: Vec<(usize, &str)> = registry
            .specs()
            .filter_map(|spec| {
                let text = format!("{} {}", spec.name(), spec.description()).to_lowercase();
                let score = words.iter().filter(|w| text.contains(w.as_str())).count();
                (score > 0).then_some((score, spec.name()))
            })
            .collect();
        hits.sort_by_key(|hit| std::cmp::Reverse(hit.0));
        hits.truncate(5);
        black_box(hits).len()
    });
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn index(bencher: Bencher<'_, '_>, n: usize) {
    let (registry, _) = fixture(n);
    bencher.bench(|| black_box(ToolSearch::new(registry.toolset().tools())).len());
}
