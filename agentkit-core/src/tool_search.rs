//! [`ToolSearch`]: the `search_tools` tool, a ranked search over a set of tools for APIs
//! that have no tool search of their own.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde_json::{Value, json};

use crate::content::ToolOutput;
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::result::ToolResult;
use crate::rules::ParamType;
use crate::schema::json_schema::Style;
use crate::schema::{JsonObject, Param, SemanticError, ToolSchema};
use crate::tool::{Tool, ToolSpec};
use crate::toolset::ToolsetEntry;

/// How many tools a search returns when the model does not say.
const DEFAULT_RESULTS: usize = 5;

/// The most tools one search returns, whatever the model asks for.
const MAX_RESULTS: usize = 20;

/// The longest query read, in bytes: a model's query past it is cut (at a character).
const MAX_QUERY_BYTES: usize = 1_024;

/// BM25's saturation of a term's frequency in one tool.
const K1: f64 = 1.2;

/// BM25's normalisation by the length of a tool's text.
const B: f64 = 0.75;

/// How many times a word of a tool's name counts, against once for a word of its
/// description or tags: a query naming what a tool is called should find it first.
const NAME_WEIGHT: u32 = 3;

/// A ranked search over a set of tools (BM25 over the words of their names, descriptions and
/// tags), and the `search_tools` tool that runs it for a model.
///
/// An agent with more tools than it can declare each turn marks most of them
/// [deferred](crate::Toolset::defer). Where the model API has a tool search of its own
/// (Anthropic's), the declarations say so and the API searches. Elsewhere, register a
/// `ToolSearch` over the deferred tools: the model calls `search_tools` with a few words, the
/// result lists the best matches with their declarations (name, description, JSON Schema of
/// the arguments), and the agent loop [loads](crate::Toolset::load) the tools
/// [found](Self::found) into the next request's declarations.
///
/// The index is built once, from the tools given (by the names their view gives them); a
/// tool registered later is not in it. Searching costs the postings of the query's words,
/// not the number of tools.
///
/// ```
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, ToolSearch, ToolSpec, block_on};
/// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput};
/// # struct Stub(ToolSpec);
/// # impl Tool for Stub {
/// #     fn spec(&self) -> &ToolSpec { &self.0 }
/// #     async fn execute(&self, i: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> { Ok(i.clone().into()) }
/// # }
/// # fn tool(name: &'static str, description: &'static str) -> Stub {
/// #     Stub(ToolSpec::builder(name).description(description).build().unwrap())
/// # }
/// let mut registry = ToolRegistry::new();
/// registry.register(tool("get_forecast", "Weather forecast for a city, by day."))?;
/// registry.register(tool("convert_currency", "Convert an amount between currencies."))?;
/// registry.register(tool("send_email", "Send an email to a contact."))?;
///
/// let search = ToolSearch::new(registry.toolset().tools());
/// let hits = search.search("weather forecasts", 3);
/// assert_eq!(hits[0].name(), "get_forecast");
///
/// // As a tool the model calls:
/// registry.register(search)?;
/// let executor = ToolExecutor::new(registry);
/// let call = ToolCall::new("call_1", "search_tools", r#"{"query": "currency"}"#);
/// let result = block_on(executor.dispatch(&call));
/// assert_eq!(ToolSearch::found(&result), ["convert_currency"]);
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub struct ToolSearch {
    spec: ToolSpec,
    tools: Vec<Indexed>,
    /// For each word, the tools it is in and how often.
    postings: HashMap<String, Vec<(u32, u32)>>,
    average_len: f64,
}

/// One tool of the index: what a search returns of it, and its length in words.
struct Indexed {
    name: String,
    spec: ToolSpec,
    len: u32,
}

/// One tool a [`ToolSearch`] found.
#[derive(Debug, Clone, Copy)]
pub struct SearchHit<'s> {
    name: &'s str,
    spec: &'s ToolSpec,
    score: f64,
}

impl<'s> SearchHit<'s> {
    /// The tool's name, as the view it was indexed from gives it.
    pub fn name(&self) -> &'s str {
        self.name
    }

    /// The tool's spec.
    pub fn spec(&self) -> &'s ToolSpec {
        self.spec
    }

    /// Its BM25 score for the query: higher is better; only the order means anything.
    pub fn score(&self) -> f64 {
        self.score
    }
}

impl ToolSearch {
    /// The name of the tool, unless [`with_name`](Self::with_name) sets another.
    pub const DEFAULT_NAME: &'static str = "search_tools";

    /// Indexes `tools` (a view's [`tools`](crate::Toolset::tools), or some of them), under the
    /// names their view gives them.
    pub fn new<'t>(tools: impl IntoIterator<Item = ToolsetEntry<'t>>) -> Self {
        let mut indexed = Vec::new();
        let mut postings: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut total_len = 0u64;
        for (id, entry) in (0u32..).zip(tools) {
            let spec = entry.spec();
            let mut counts: HashMap<String, u32> = HashMap::new();
            let mut count = |text: &str, weight: u32| {
                for word in words(text) {
                    *counts.entry(word).or_default() += weight;
                }
            };
            count(&entry.name(), NAME_WEIGHT);
            count(spec.description(), 1);
            for (key, value) in spec.tags() {
                count(key, 1);
                count(value, 1);
            }
            let len: u32 = counts.values().sum();
            total_len += u64::from(len);
            for (word, frequency) in counts {
                postings.entry(word).or_default().push((id, frequency));
            }
            indexed.push(Indexed {
                name: entry.name().into_owned(),
                // A spec is cheap to clone: its schemas are shared, its strings mostly static.
                spec: spec.clone(),
                len,
            });
        }
        let average_len = if indexed.is_empty() {
            1.0
        } else {
            total_len as f64 / indexed.len() as f64
        };
        ToolSearch {
            spec: search_spec(Self::DEFAULT_NAME).expect("`search_tools` is a valid tool name"),
            tools: indexed,
            postings,
            average_len,
        }
    }

    /// Names the tool `name` instead of `search_tools` (say, when another tool has that
    /// name); an invalid tool name is refused, as by [`ToolSpec::builder`].
    pub fn with_name(mut self, name: impl Into<Cow<'static, str>>) -> Result<Self, SemanticError> {
        self.spec = search_spec(name)?;
        Ok(self)
    }

    /// How many tools are indexed.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The `limit` tools that match `query` best, best first: those sharing at least one
    /// word with it (case, plurals and word boundaries in names such as `getForecast` or
    /// `get_forecast` aside). Ties keep the order the tools were indexed in.
    pub fn search(&self, query: &str, limit: usize) -> Vec<SearchHit<'_>> {
        let query = cut(query, MAX_QUERY_BYTES);
        let mut terms: Vec<String> = words(query).collect();
        terms.sort_unstable();
        terms.dedup();
        let count = self.tools.len() as f64;
        // Dense scores and the tools touched: the cost is the query's postings, plus one
        // zeroed allocation the size of the index.
        let mut scores = vec![0.0f64; self.tools.len()];
        let mut touched: Vec<u32> = Vec::new();
        for term in &terms {
            let Some(postings) = self.postings.get(term) else {
                continue;
            };
            let containing = postings.len() as f64;
            let idf = ((count - containing + 0.5) / (containing + 0.5) + 1.0).ln();
            for &(id, frequency) in postings {
                let frequency = f64::from(frequency);
                let len = f64::from(self.tools[id as usize].len);
                let norm = K1 * (1.0 - B + B * len / self.average_len);
                let score = &mut scores[id as usize];
                if *score == 0.0 {
                    touched.push(id);
                }
                *score += idf * frequency * (K1 + 1.0) / (frequency + norm);
            }
        }
        let mut ranked: Vec<(u32, f64)> = touched
            .into_iter()
            .map(|id| (id, scores[id as usize]))
            .collect();
        let better = |a: &(u32, f64), b: &(u32, f64)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        // The best `limit` first, then only those sorted.
        if limit < ranked.len() {
            if limit == 0 {
                return Vec::new();
            }
            ranked.select_nth_unstable_by(limit - 1, better);
            ranked.truncate(limit);
        }
        ranked.sort_by(better);
        ranked
            .into_iter()
            .map(|(id, score)| {
                let tool = &self.tools[id as usize];
                SearchHit {
                    name: &tool.name,
                    spec: &tool.spec,
                    score,
                }
            })
            .collect()
    }

    /// The names of the tools a `search_tools` call found, best first: what an agent loop
    /// [loads](crate::Toolset::load) into its next request. Empty for any other result.
    pub fn found(result: &ToolResult) -> Vec<String> {
        let Some(Value::Array(tools)) = result.output().and_then(|output| output.get("tools"))
        else {
            return Vec::new();
        };
        tools
            .iter()
            .filter_map(|tool| tool.get("name")?.as_str().map(str::to_owned))
            .collect()
    }
}

impl Tool for ToolSearch {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        // Validated by the executor: a string, and an integer from 1 to MAX_RESULTS.
        let query = inputs.get("query").and_then(Value::as_str).unwrap_or("");
        let limit = inputs
            .get("limit")
            .and_then(Value::as_u64)
            .map_or(DEFAULT_RESULTS, |limit| limit as usize);
        let tools: Vec<Value> = self
            .search(query, limit.min(MAX_RESULTS))
            .into_iter()
            .map(|hit| {
                let mut declaration = json!({"name": hit.name});
                if !hit.spec.description().is_empty() {
                    declaration["description"] = hit.spec.description().into();
                }
                declaration["input_schema"] = hit.spec.input_schema_in(Style::Declaration);
                declaration
            })
            .collect();
        let mut output = JsonObject::new();
        output.insert("tools".into(), Value::Array(tools));
        Ok(output.into())
    }
}

impl fmt::Debug for ToolSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolSearch")
            .field("name", &self.spec.name())
            .field("tools", &self.tools.len())
            .field("words", &self.postings.len())
            .finish()
    }
}

/// The spec of the search tool, called `name`.
fn search_spec(name: impl Into<Cow<'static, str>>) -> Result<ToolSpec, SemanticError> {
    let input = ToolSchema::new([
        Param::required("query", ParamType::String).with_description(
            "A few words on what the tool should do, such as `weather forecast`.",
        ),
        Param::optional("limit", ParamType::Integer)
            .with_description("How many tools to return, best first.")
            .with_default(DEFAULT_RESULTS as i64)
            .with_minimum(1)
            .with_maximum(MAX_RESULTS as i64),
    ])
    .expect("the search tool's input schema is valid");
    let output = ToolSchema::new([Param::required("tools", ParamType::List)
        .with_items(ParamType::Dictionary)
        .with_description("The tools found, best first: name, description, input_schema.")])
    .expect("the search tool's output schema is valid");
    ToolSpec::builder(name)
        .description(
            "Search the tools that are not loaded yet, by what they do. Returns the best \
             matches with their arguments; they can be called from the next turn on.",
        )
        .input(input)
        .output(output)
        .read_only(true)
        .idempotent(true)
        .build()
}

/// `text` cut to at most `max` bytes, at a character boundary.
fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The words of `text` a search compares: lowercase, split at anything not a letter or a
/// digit and where a lowercase letter meets an uppercase one (`getForecast`), common English
/// words left out, a plural's ending dropped.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut split = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            split.push(std::mem::take(&mut current));
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower {
            split.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_numeric();
        current.extend(c.to_lowercase());
    }
    split.push(current);
    split
        .into_iter()
        .filter(|word| !word.is_empty() && !STOP_WORDS.contains(&word.as_str()))
        .map(stem)
}

/// Words too common to tell tools apart.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
    "or", "that", "the", "this", "to", "with",
];

/// The word without a plural's ending: `cities` is `city`, `forecasts` is `forecast`
/// (`address` keeps its `s`).
fn stem(word: String) -> String {
    let chars = word.chars().count();
    if chars > 4 && word.ends_with("ies") {
        format!("{}y", &word[..word.len() - 3])
    } else if chars > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        word[..word.len() - 1].to_owned()
    } else {
        word
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_names_and_drop_plurals() {
        let split: Vec<String> =
            words("getForecast for the CITIES, send_emails; HTTPServer").collect();
        assert_eq!(
            split,
            ["get", "forecast", "city", "send", "email", "httpserver"]
        );
        assert_eq!(stem("address".into()), "address");
        assert_eq!(stem("status".into()), "status");
    }

    #[test]
    fn a_query_is_cut_at_a_character() {
        let query = "é".repeat(MAX_QUERY_BYTES);
        let cut = cut(&query, MAX_QUERY_BYTES + 1);
        assert_eq!(cut.len(), MAX_QUERY_BYTES);
    }
}
