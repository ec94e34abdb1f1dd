//! Anthropic Messages (`POST /v1/messages`).
//!
//! - Declarations: `{"name", "description", "input_schema"}`, for the request's `tools`;
//!   with strict tool use, `"strict": true` beside them. Strict tool use takes optional
//!   properties, `default` and `enum`, so the schema is the same in both, except for the
//!   bounds strict mode does not take: `minimum`, `maximum`, `min_length`, `max_length`,
//!   `max_items`, and `min_items` above 1 are stated in the parameter's description instead
//!   ("Between 1 and 50.", "At least 2 items."), and the executor still enforces them. What
//!   strict mode adds is the guarantee that Claude's input matches the schema. It wants every
//!   object closed and no recursion: a tool whose schema has a free-form `dictionary`, a map
//!   or a recursive `$ref` is declared without `strict` ([`provider::lower`](super::lower)
//!   says why). A tool with a JSON Schema of its own is lowered to the strict subset (see
//!   [the table](super#the-schemas-models-are-sent)).
//! - Calls: the assistant message's `content` blocks of type `tool_use`, each `{"id", "name",
//!   "input"}`; `input` is already a JSON object and is dispatched as is, without a round trip
//!   through text.
//! - Results: one `user` message whose `content` is a `tool_result` block per call, each
//!   `{"tool_use_id", "content", "is_error"}`. All of a turn's results go in that one message,
//!   as the API requires. `content` is the [model text](ToolResult::to_model_content) (a
//!   failure's message, a text result's bare text), or, for a result with other
//!   [content parts](crate::Content), the blocks a `tool_result` takes (see [`result`]):
//!   `text`, `image` and `document`.
//!
//! ```
//! use agentkit_core::provider::anthropic;
//! use serde_json::json;
//!
//! let message = json!({"id": "msg_1", "type": "message", "role": "assistant",
//!     "stop_reason": "tool_use", "content": [
//!         {"type": "text", "text": "Let me check."},
//!         {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}},
//!     ]});
//! let calls = anthropic::calls(&message)?;
//! assert_eq!(calls.len(), 1);
//! assert_eq!(calls[0].id(), "toolu_1");
//! # Ok::<(), agentkit_core::provider::ParseError>(())
//! ```

use serde_json::{Map, Value, json};

use super::parse::{At, ParseError, value_arguments};
use super::parts::{self, Kind};
use super::{Declare, Lowered, Target, declare};
use crate::call::ToolCall;
use crate::content::{Content, ResourceContents};
use crate::result::{ToolResult, ToolStatus};

const API: &str = "Anthropic Messages";

/// The request's `tools`: each tool's `input_schema` as JSON Schema, with defaults and
/// without integer bounds (see [the module docs](super)).
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("forecast")
///     .description("Weather forecast.")
///     .input(ToolSchema::new([
///         Param::required("city", ParamType::String),
///         Param::optional("days", ParamType::Integer).with_default(5),
///     ])?)
///     .build()?;
/// assert_eq!(anthropic::tools([&spec]), json!([{
///     "name": "forecast",
///     "description": "Weather forecast.",
///     "input_schema": {
///         "type": "object",
///         "properties": {
///             "city": {"type": "string"},
///             "days": {"type": "integer", "default": 5},
///         },
///         "required": ["city"],
///         "additionalProperties": false,
///     },
/// }]));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    with_search(declare(tools, true, |item| {
        let lowered = super::lower(item.declared_spec(), Target::Anthropic);
        tool(&item, lowered)
    }))
}

/// The request's `tools` for strict tool use: as [`tools`], with `"strict": true` and each
/// schema in strict tool use's subset; a tool whose schema the subset cannot take at all is
/// declared without `"strict"` ([`provider::lower`](super::lower) says why). A tool without
/// an input schema takes no arguments here (strict tool use wants every object closed).
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::ToolSpec;
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("get_time").build()?;
/// let declared = anthropic::strict_tools([&spec]);
/// assert_eq!(declared[0]["strict"], true);
/// assert_eq!(declared[0]["input_schema"], json!({
///     "type": "object", "properties": {}, "required": [], "additionalProperties": false,
/// }));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn strict_tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    let mut budget = StrictBudget::default();
    with_search(declare(tools, true, |item| {
        let lowered = budget.lower(item.declared_spec());
        tool(&item, lowered)
    }))
}

/// The tools [`strict_tools`] declares without strict, by the names they are declared by,
/// each with the reason: a schema strict tool use cannot take (see
/// [`provider::lower`](super::lower)), or a request past strict tool use's limits
/// ([`STRICT_LIMITS`]: the tools past them go without strict, in order).
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::ToolSpec;
/// use serde_json::json;
///
/// let tree = ToolSpec::builder("tree")
///     .input_json_schema(json!({
///         "type": "object",
///         "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}},
///     }))
///     .build()?;
/// let plain = ToolSpec::builder("get_time").build()?;
/// let fallbacks = anthropic::not_strict([&tree, &plain]);
/// assert_eq!(fallbacks.len(), 1);
/// assert_eq!(fallbacks[0].0, "tree");
/// assert!(fallbacks[0].1.contains("recursive"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn not_strict<D: Declare>(tools: impl IntoIterator<Item = D>) -> Vec<(String, String)> {
    let mut budget = StrictBudget::default();
    tools
        .into_iter()
        .filter_map(|item| {
            let lowered = budget.lower(item.declared_spec());
            let reason = lowered.not_strict_because()?.to_owned();
            Some((item.declared_name().into_owned(), reason))
        })
        .collect()
}

/// Strict tool use's limits on one request, as documented: at most 20 strict tools, 24
/// optional parameters in all their schemas, and 16 parameters that are unions (`anyOf` or
/// a type list). [`strict_tools`] declares the tools past them without strict.
pub const STRICT_LIMITS: StrictLimits = StrictLimits {
    tools: 20,
    optional_parameters: 24,
    union_parameters: 16,
};

/// Limits on the strict tools of one request (see [`STRICT_LIMITS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrictLimits {
    /// The most strict tools.
    pub tools: usize,
    /// The most optional properties, over every object of every strict schema.
    pub optional_parameters: usize,
    /// The most schemas that are unions (`anyOf` or a type list), over every strict schema.
    pub union_parameters: usize,
}

/// What a request's strict tools have used of [`STRICT_LIMITS`].
#[derive(Debug, Default)]
struct StrictBudget {
    tools: usize,
    optional: usize,
    unions: usize,
}

impl StrictBudget {
    /// `spec` lowered for strict tool use if the schema and the request's limits allow it,
    /// else without strict, with the reason.
    fn lower(&mut self, spec: &crate::tool::ToolSpec) -> Lowered {
        let lowered = super::lower(spec, Target::AnthropicStrict);
        if !lowered.is_strict() {
            return lowered;
        }
        let (optional, unions) = complexity(lowered.schema());
        let limits = STRICT_LIMITS;
        let past = if self.tools + 1 > limits.tools {
            Some(format!("{} strict tools", limits.tools))
        } else if self.optional + optional > limits.optional_parameters {
            Some(format!(
                "{} optional parameters in all",
                limits.optional_parameters
            ))
        } else if self.unions + unions > limits.union_parameters {
            Some(format!(
                "{} union parameters in all",
                limits.union_parameters
            ))
        } else {
            None
        };
        match past {
            Some(limit) => super::lower(spec, Target::Anthropic).refused(format!(
                "Anthropic's strict tool use takes at most {limit} in one request; \
                 the tools before this one took them"
            )),
            None => {
                self.tools += 1;
                self.optional += optional;
                self.unions += unions;
                lowered
            }
        }
    }
}

/// The optional properties and the unions (`anyOf`, type lists) of a lowered schema, each
/// `$defs` entry counted once.
fn complexity(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    let mut pending = vec![schema];
    while let Some(value) = pending.pop() {
        let Value::Object(map) = value else { continue };
        if let Some(Value::Object(properties)) = map.get("properties") {
            let required = map.get("required").and_then(Value::as_array);
            optional += properties
                .keys()
                .filter(|name| !required.is_some_and(|r| r.iter().any(|n| n == name.as_str())))
                .count();
            pending.extend(properties.values());
        }
        if map.contains_key("anyOf") || map.get("type").is_some_and(Value::is_array) {
            unions += 1;
        }
        for key in ["anyOf", "prefixItems"] {
            if let Some(Value::Array(items)) = map.get(key) {
                pending.extend(items);
            }
        }
        for key in ["items", "additionalProperties"] {
            if let Some(child) = map.get(key) {
                pending.push(child);
            }
        }
        if let Some(Value::Object(defs)) = map.get("$defs") {
            pending.extend(defs.values());
        }
    }
    (optional, unions)
}

/// Anthropic's tool search tool (BM25 over the deferred tools' names, descriptions and
/// arguments), which [`tools`] declares after the others when any tool is deferred: the API
/// refuses deferred tools without one. (At the time of writing the feature needs the
/// `anthropic-beta: advanced-tool-use-2025-11-20` header.)
pub const TOOL_SEARCH: &str = "tool_search_tool_bm25_20251119";

/// The declarations, and the tool search tool after them when one is deferred.
fn with_search(mut declared: Value) -> Value {
    if let Value::Array(tools) = &mut declared
        && tools.iter().any(|tool| tool.get("defer_loading").is_some())
    {
        tools.push(json!({"type": TOOL_SEARCH, "name": "tool_search_tool_bm25"}));
    }
    declared
}

fn tool(item: &impl Declare, lowered: Lowered) -> Value {
    let spec = item.declared_spec();
    let mut tool = Map::new();
    tool.insert("name".into(), Value::from(item.declared_name()));
    // Anthropic takes examples in a field of their own.
    if !spec.description().is_empty() {
        tool.insert("description".into(), Value::from(spec.description()));
    }
    let strict = lowered.is_strict();
    tool.insert("input_schema".into(), lowered.into_schema());
    if strict {
        tool.insert("strict".into(), Value::from(true));
    }
    if !spec.examples().is_empty() {
        let examples = spec.examples().iter().cloned().map(Value::Object).collect();
        tool.insert("input_examples".into(), Value::Array(examples));
    }
    if item.is_deferred() {
        tool.insert("defer_loading".into(), Value::from(true));
    }
    Value::Object(tool)
}

/// The tool calls of a reply: its `content` blocks of type `tool_use`, in order. Takes the
/// whole message or its `content` array.
///
/// Other blocks (text, thinking, server tools) are skipped; a `content` that is a string has
/// no tool calls. The `input` is passed on as it is (absent means `{}`): the executor
/// validates it, and refuses what is not an object under the call's id.
///
/// # Errors
///
/// A [`ParseError`] when the message does not have the documented shape: no `content`, a
/// block without a string `type`, a `tool_use` block without a string `id` or `name`.
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::ToolArguments;
/// use serde_json::json;
///
/// let content = json!([
///     {"type": "tool_use", "id": "toolu_1", "name": "fetch_weather",
///      "input": {"city": "Paris"}},
/// ]);
/// let calls = anthropic::calls(&content)?;
/// assert_eq!(calls[0].arguments(), &ToolArguments::Value(json!({"city": "Paris"})));
///
/// let err = anthropic::calls(&json!({"content": [{"type": "tool_use", "id": 7}]})).unwrap_err();
/// assert_eq!(err.path(), "content[0].id");
/// # Ok::<(), agentkit_core::provider::ParseError>(())
/// ```
pub fn calls(message: &Value) -> Result<Vec<ToolCall>, ParseError> {
    let root = At::root(API, message);
    let content = match message {
        Value::Array(_) => root,
        _ => root.object()?.get("content"),
    };
    if let Some(Value::String(_)) = content.value() {
        return Ok(Vec::new());
    }
    let mut calls = Vec::new();
    for block in content.items()? {
        let block = block.object()?;
        if block.get("type").str()? != "tool_use" {
            continue;
        }
        let id = block.get("id").str()?;
        let name = block.get("name").str()?;
        calls.push(ToolCall::new(
            id,
            name,
            value_arguments(&block.get("input")),
        ));
    }
    Ok(calls)
}

/// The `tool_result` block answering one call: its `tool_use_id`, the result as `content`,
/// and `is_error` on failure, so that Claude knows the call failed and can correct it. A call
/// awaiting approval is not a failure: its text says the result will follow.
///
/// `content` is the [model text](ToolResult::to_model_content), a string, for a failure, a
/// call awaiting approval, structured output alone, and a result of text parts alone (the
/// bare text). A result with other [content parts](crate::Content) has an array of blocks
/// instead, in order:
///
/// | part | block |
/// |---|---|
/// | the structured output, if any | `{"type": "text", "text": <its JSON>}` |
/// | text | `{"type": "text", "text"}` (an empty text is left out: the API refuses empty text blocks) |
/// | image (`image/jpeg`, `image/png`, `image/gif`, `image/webp`) | `{"type": "image", "source": {"type": "base64", "media_type", "data"}}` |
/// | embedded PDF (`application/pdf`) | `{"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data"}, "title": <URI>}` |
/// | embedded text | `{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data"}, "title": <URI>}` |
/// | embedded image of a type above | as an image |
/// | audio, a link, an image or file of another type | a text block describing it ([`Content::describe`](crate::Content::describe)) |
///
/// The Messages API takes no audio, and only those image and document types. A resource
/// link is described, not sent as a `url` source: Anthropic would fetch whatever URL a tool
/// returned, from its servers, and a link is for the model or the host to follow if it
/// chooses (a `file:` or internal URL, the usual case, could not be fetched anyway).
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
/// use serde_json::json;
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("toolu_1", "nope", "{}")));
/// assert_eq!(anthropic::result(&result), json!({
///     "type": "tool_result",
///     "tool_use_id": "toolu_1",
///     "content": result.to_model_content(),
///     "is_error": true,
/// }));
/// ```
///
/// A screenshot tool's image:
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::{
///     BoxError, Content, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput,
///     ToolRegistry, ToolSpec, block_on,
/// };
/// use serde_json::json;
///
/// struct Screenshot(ToolSpec);
/// impl Tool for Screenshot {
///     fn spec(&self) -> &ToolSpec { &self.0 }
///     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
///         Ok(ToolOutput::from("The login page:").with(Content::image(vec![1, 2, 3], "image/png")))
///     }
/// }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(Screenshot(ToolSpec::builder("screenshot").build()?))?;
/// let executor = ToolExecutor::new(registry);
/// let result = block_on(executor.dispatch(&ToolCall::new("toolu_2", "screenshot", "{}")));
/// assert_eq!(anthropic::result(&result)["content"], json!([
///     {"type": "text", "text": "The login page:"},
///     {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AQID"}},
/// ]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn result(result: &ToolResult) -> Value {
    let content = match parts::rich(result) {
        Some(parts) => Value::Array(blocks(result, parts)),
        None => Value::from(result.to_model_content()),
    };
    json!({
        "type": "tool_result",
        "tool_use_id": result.call_id(),
        "content": content,
        "is_error": result.status() == ToolStatus::Failure,
    })
}

/// The blocks of a successful result with content parts.
fn blocks(result: &ToolResult, parts: &[Content]) -> Vec<Value> {
    let mut blocks = Vec::with_capacity(parts.len() + 1);
    if let Some(json) = parts::structured_text(result) {
        blocks.push(text_block(json));
    }
    for part in parts {
        blocks.push(match part {
            Content::Text(text) if text.is_empty() => continue,
            Content::Text(text) => text_block(text.clone()),
            Content::Resource(resource) => match resource.contents() {
                ResourceContents::Text(text) if !text.is_empty() => json!({
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": text},
                    "title": parts::title(resource.uri()),
                }),
                _ => binary_block(part),
            },
            _ => binary_block(part),
        });
    }
    blocks
}

/// The block of an image or an embedded file the API takes; otherwise a text block
/// describing the part.
fn binary_block(part: &Content) -> Value {
    let Some(binary) = parts::binary(part) else {
        return text_block(parts::describe(part).into_owned());
    };
    match binary.kind {
        Kind::Image => {
            if let Some(media_type) = binary.type_in(parts::IMAGE_TYPES) {
                return json!({
                    "type": "image",
                    "source": {"type": "base64", "media_type": media_type, "data": binary.base64()},
                });
            }
        }
        Kind::File => {
            if let (Some(media_type), Some(uri)) =
                (binary.type_in(&["application/pdf"]), binary.uri)
            {
                return json!({
                    "type": "document",
                    "source": {"type": "base64", "media_type": media_type, "data": binary.base64()},
                    "title": parts::title(uri),
                });
            }
        }
        Kind::Audio => {}
    }
    text_block(parts::describe(part).into_owned())
}

fn text_block(text: String) -> Value {
    json!({"type": "text", "text": text})
}

/// The message answering a turn's calls: one `user` message holding a `tool_result` block
/// per result, in order (none for no results). Append it after the assistant message.
///
/// ```
/// use agentkit_core::provider::anthropic;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let calls = [ToolCall::new("toolu_a", "x", "{}"), ToolCall::new("toolu_b", "y", "{}")];
/// let messages = anthropic::results(&block_on(executor.dispatch_all(&calls)));
/// assert_eq!(messages.len(), 1);
/// assert_eq!(messages[0]["role"], "user");
/// assert_eq!(messages[0]["content"][1]["tool_use_id"], "toolu_b");
/// assert!(anthropic::results(&[]).is_empty());
/// ```
pub fn results(results: &[ToolResult]) -> Vec<Value> {
    if results.is_empty() {
        return Vec::new();
    }
    let blocks: Vec<Value> = results.iter().map(result).collect();
    vec![json!({"role": "user", "content": blocks})]
}

pub use super::stream::anthropic::CallStream;
