//! OpenAI Chat Completions (`POST /v1/chat/completions`).
//!
//! - Declarations: `{"type": "function", "function": {"name", "description", "parameters",
//!   "strict"}}`, for the request's `tools`. Constraints go out as JSON Schema keywords
//!   (`enum`, `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`), except
//!   that strict mode has no `minLength` or `maxLength`: there a string's length is stated in
//!   its description ("Between 1 and 85 characters long."). The executor enforces every
//!   constraint either way.
//! - Calls: the assistant message's `tool_calls`, each `{"id", "type": "function",
//!   "function": {"name", "arguments"}}`, whose `arguments` is a JSON *string*, passed on
//!   unparsed for the executor to parse and validate.
//! - Results: one `{"role": "tool", "tool_call_id", "content"}` message per call, appended
//!   after the assistant message that made the calls; then, when some results have images,
//!   audio or PDFs, one `user` message carrying them (see [below](self#content-parts)).
//!
//! # Content parts
//!
//! A `tool` message's content is text only, so it carries the
//! [model text](ToolResult::to_model_content) of the result: the structured output's JSON,
//! then each [content part](crate::Content) on a line of its own, a text part as its text,
//! another part described (`[image: image/png, 2048 bytes]`, `[resource: q3.pdf
//! <https://...>]`, an embedded text resource's URI then its text). A text result is its
//! bare text.
//!
//! The parts that the API takes in a `user` message follow in one extra `user` message,
//! after all the `tool` messages of the turn (the API wants every call answered by a `tool`
//! message first). [`results`] adds it when some result has such a part, and [`attachments`]
//! builds it alone. For each result with such parts, in call order, a text part names the
//! call, then the parts follow in their order:
//!
//! | part | content part of the `user` message |
//! |---|---|
//! | image (`image/jpeg`, `image/png`, `image/gif`, `image/webp`; embedded or not) | `{"type": "image_url", "image_url": {"url": <data: URL>}}` |
//! | audio (`audio/wav` or `audio/mpeg`; embedded or not) | `{"type": "input_audio", "input_audio": {"data": <base64>, "format": "wav" or "mp3"}}` |
//! | embedded PDF (`application/pdf`) | `{"type": "file", "file": {"filename": <the URI's last segment>, "file_data": <data: URL>}}` |
//!
//! Any other part (text, links, embedded text, other media and file types; Chat Completions
//! takes no file but a PDF) reaches the model as its description in the `tool` message alone.
//!
//! ```
//! use agentkit_core::provider::openai_chat;
//! use agentkit_core::{
//!     BoxError, Content, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput,
//!     ToolRegistry, ToolSpec, block_on,
//! };
//! use serde_json::json;
//!
//! struct Screenshot(ToolSpec);
//! impl Tool for Screenshot {
//!     fn spec(&self) -> &ToolSpec { &self.0 }
//!     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
//!         Ok(ToolOutput::from(Content::image(vec![1, 2, 3], "image/png")))
//!     }
//! }
//!
//! let mut registry = ToolRegistry::new();
//! registry.register(Screenshot(ToolSpec::builder("screenshot").build()?))?;
//! let executor = ToolExecutor::new(registry);
//! let results = block_on(executor.dispatch_all(&[ToolCall::new("call_1", "screenshot", "{}")]));
//! assert_eq!(openai_chat::results(&results), [
//!     json!({"role": "tool", "tool_call_id": "call_1", "content": "[image: image/png, 3 bytes]"}),
//!     json!({"role": "user", "content": [
//!         {"type": "text", "text": "Content of tool call 'call_1' (screenshot):"},
//!         {"type": "image_url", "image_url": {"url": "data:image/png;base64,AQID"}},
//!     ]}),
//! ]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use agentkit_core::provider::openai_chat;
//! use agentkit_core::{ToolArguments, ToolSpec};
//! use serde_json::json;
//!
//! let spec = ToolSpec::builder("get_time").description("The time now.").build()?;
//! assert_eq!(openai_chat::strict_tools([&spec]), json!([{
//!     "type": "function",
//!     "function": {
//!         "name": "get_time",
//!         "description": "The time now.",
//!         "parameters": {"type": "object", "properties": {}, "required": [],
//!                        "additionalProperties": false},
//!         "strict": true,
//!     },
//! }]));
//!
//! let response = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
//!     "role": "assistant", "content": null,
//!     "tool_calls": [{"id": "call_9", "type": "function",
//!                     "function": {"name": "get_time", "arguments": "{}"}}],
//! }}]});
//! let calls = openai_chat::calls(&response)?;
//! assert_eq!(calls[0].id(), "call_9");
//! assert_eq!(calls[0].arguments(), &ToolArguments::Text("{}".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{Map, Value, json};

use super::parse::{At, ParseError, text_arguments};
use super::parts::{self, Kind};
use super::{Declare, Target, declare, describe};
use crate::call::ToolCall;
use crate::content::Content;
use crate::model_text::{Escaped, EscapedText};
use crate::result::ToolResult;

const API: &str = "OpenAI Chat Completions";

/// The request's `tools`, without strict mode: each tool's parameters as JSON Schema, with
/// defaults and without integer bounds (see [the module docs](super)).
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("forecast")
///     .input(ToolSchema::new([Param::optional("days", ParamType::Integer).with_default(5)])?)
///     .build()?;
/// assert_eq!(openai_chat::tools([&spec])[0]["function"], json!({
///     "name": "forecast",
///     "parameters": {
///         "type": "object",
///         "properties": {"days": {"type": "integer", "default": 5}},
///         "required": [],
///         "additionalProperties": false,
///     },
///     "strict": false,
/// }));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    declare(tools, false, |item| tool(&item, false))
}

/// The request's `tools` in strict mode (`"strict": true`): every parameter required,
/// optional ones nullable, defaults stated in their descriptions
/// ([`ToolSchema::to_strict_json_schema`](crate::ToolSchema::to_strict_json_schema); a tool
/// with a JSON Schema of its own is lowered to strict mode's subset, see [the
/// table](super#the-schemas-models-are-sent)). A tool whose schema strict mode cannot take
/// at all (a map, a free-form object, a union at the root) is declared with `"strict":
/// false` and its schema whole; [`provider::lower`](super::lower) says why.
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("forecast")
///     .input(ToolSchema::new([Param::optional("days", ParamType::Integer).with_default(5)])?)
///     .build()?;
/// let declared = openai_chat::strict_tools([&spec]);
/// assert_eq!(declared[0]["function"]["strict"], true);
/// assert_eq!(
///     declared[0]["function"]["parameters"]["properties"]["days"],
///     json!({"type": ["integer", "null"], "description": "Defaults to 5."}),
/// );
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn strict_tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    declare(tools, false, |item| tool(&item, true))
}

fn tool(item: &impl Declare, strict: bool) -> Value {
    let spec = item.declared_spec();
    let lowered = super::lower(
        spec,
        if strict {
            Target::OpenAiStrict
        } else {
            Target::OpenAi
        },
    );
    let mut function = Map::new();
    function.insert("name".into(), Value::from(item.declared_name()));
    describe(&mut function, spec);
    let strict = lowered.is_strict();
    function.insert("parameters".into(), lowered.into_schema());
    function.insert("strict".into(), Value::from(strict));
    json!({"type": "function", "function": function})
}

/// The tool calls of a reply: the assistant `message`, or the whole response (its
/// `choices[0].message`), in the order the model made them.
///
/// A message without `tool_calls` (or with `null`) has none. Calls of another `type` than
/// `function` (custom tools you declared yourself) are left out, for you to handle. The
/// `arguments` text is kept as is; an object there (as some OpenAI-compatible servers send)
/// is taken too.
///
/// # Errors
///
/// A [`ParseError`] when the reply does not have the documented shape: no `choices[0]`,
/// a call without a string `id`, a `function` without a string `name`, and so on.
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use serde_json::json;
///
/// let message = json!({"role": "assistant", "content": null, "tool_calls": [
///     {"id": "call_1", "type": "function",
///      "function": {"name": "fetch_weather", "arguments": "{\"city\":\"Paris\"}"}},
///     {"id": "call_2", "type": "function",
///      "function": {"name": "fetch_weather", "arguments": "{\"city\":\"Oslo\"}"}},
/// ]});
/// let calls = openai_chat::calls(&message)?;
/// let ids: Vec<&str> = calls.iter().map(|c| c.id()).collect();
/// assert_eq!(ids, ["call_1", "call_2"]);
///
/// assert!(openai_chat::calls(&json!({"role": "assistant", "content": "Hello"}))?.is_empty());
/// assert!(openai_chat::calls(&json!({"choices": []})).is_err());
/// # Ok::<(), agentkit_core::provider::ParseError>(())
/// ```
pub fn calls(reply: &Value) -> Result<Vec<ToolCall>, ParseError> {
    let root = At::root(API, reply).object()?;
    let message = if root.get("choices").is_present() {
        let choices = root.get("choices");
        let first = choices.items()?.next();
        first
            .ok_or_else(|| choices.error("a non-empty array"))?
            .get("message")
            .object()?
    } else {
        root
    };
    let tool_calls = message.get("tool_calls");
    if !tool_calls.is_present() {
        return Ok(Vec::new());
    }
    let mut calls = Vec::new();
    for item in tool_calls.items()? {
        let item = item.object()?;
        if !matches!(item.get("type").opt_str()?, None | Some("function")) {
            continue;
        }
        let id = item.get("id").str()?;
        let function = item.get("function").object()?;
        let name = function.get("name").str()?;
        let arguments = text_arguments(&function.get("arguments"))?;
        calls.push(ToolCall::new(id, name, arguments));
    }
    Ok(calls)
}

/// The `tool` message answering one call: its `tool_call_id` and the
/// [model text](ToolResult::to_model_content) as `content` (the output as JSON and each
/// content part described, a text result's bare text, or the error worded for the model to
/// correct itself). Images, audio and PDFs follow in the [`attachments`] message.
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
/// use serde_json::json;
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("call_1", "nope", "{}")));
/// let message = openai_chat::result(&result);
/// assert_eq!(message["role"], "tool");
/// assert_eq!(message["tool_call_id"], "call_1");
/// assert_eq!(message["content"], result.to_model_content());
/// ```
pub fn result(result: &ToolResult) -> Value {
    json!({
        "role": "tool",
        "tool_call_id": result.call_id(),
        "content": result.to_model_content(),
    })
}

/// The messages answering a turn's calls: one `tool` message per result, in order, then,
/// when some result has an image, audio or a PDF, the [`attachments`] message carrying them.
/// Append them to the conversation after the assistant message.
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let calls = [ToolCall::new("a", "x", "{}"), ToolCall::new("b", "y", "{}")];
/// let messages = openai_chat::results(&block_on(executor.dispatch_all(&calls)));
/// assert_eq!(messages.len(), 2);
/// assert_eq!(messages[1]["tool_call_id"], "b");
/// ```
pub fn results(results: &[ToolResult]) -> Vec<Value> {
    let mut messages: Vec<Value> = results.iter().map(result).collect();
    messages.extend(attachments(results));
    messages
}

/// The `user` message carrying the parts of `results` that a `tool` message cannot: images,
/// audio and PDFs (see [the module docs](self#content-parts)); `None` when there are none.
///
/// Each result's parts are introduced by a text part naming its call: `Content of tool call
/// '<call id>' (<tool name>):`. [`results`] appends this message after the `tool` messages;
/// use it alone when you build those yourself.
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let results = block_on(executor.dispatch_all(&[ToolCall::new("a", "x", "{}")]));
/// assert_eq!(openai_chat::attachments(&results), None);
/// ```
pub fn attachments(results: &[ToolResult]) -> Option<Value> {
    let mut content = Vec::new();
    for result in results {
        let mut parts = result.content().iter().filter_map(attachment).peekable();
        if parts.peek().is_none() {
            continue;
        }
        let echo = result.text_limits().max_echo_chars();
        content.push(json!({
            "type": "text",
            "text": format!(
                "Content of tool call '{}' ({}):",
                Escaped(result.call_id(), echo),
                EscapedText(result.tool_name(), echo),
            ),
        }));
        content.extend(parts);
    }
    (!content.is_empty()).then(|| json!({"role": "user", "content": content}))
}

/// The content part of a `user` message that carries `part`, if the API takes one.
fn attachment(part: &Content) -> Option<Value> {
    let binary = parts::binary(part)?;
    Some(match binary.kind {
        Kind::Image => json!({
            "type": "image_url",
            "image_url": {"url": binary.data_url(binary.type_in(parts::IMAGE_TYPES)?)},
        }),
        Kind::Audio => {
            let format = match binary.type_in(&[
                "audio/wav",
                "audio/x-wav",
                "audio/wave",
                "audio/mpeg",
                "audio/mp3",
            ])? {
                "audio/mpeg" | "audio/mp3" => "mp3",
                _ => "wav",
            };
            json!({
                "type": "input_audio",
                "input_audio": {"data": binary.base64(), "format": format},
            })
        }
        Kind::File => json!({
            "type": "file",
            "file": {
                "filename": binary.filename(),
                "file_data": binary.data_url(binary.type_in(&["application/pdf"])?),
            },
        }),
    })
}

pub use super::stream::openai_chat::CallStream;
