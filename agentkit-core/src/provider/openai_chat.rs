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
//!   after the assistant message that made the calls.
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
use super::{declare, describe};
use crate::call::ToolCall;
use crate::result::ToolResult;
use crate::schema::json_schema::Style;
use crate::tool::ToolSpec;

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
pub fn tools<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    declare(specs, |spec| tool(spec, false))
}

/// The request's `tools` in strict mode (`"strict": true`): every parameter required,
/// optional ones nullable, defaults stated in their descriptions
/// ([`ToolSchema::to_strict_json_schema`](crate::ToolSchema::to_strict_json_schema)).
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
pub fn strict_tools<'a>(specs: impl IntoIterator<Item = &'a ToolSpec>) -> Value {
    declare(specs, |spec| tool(spec, true))
}

fn tool(spec: &ToolSpec, strict: bool) -> Value {
    let style = if strict {
        Style::OpenAiStrict
    } else {
        Style::Declaration
    };
    let mut function = Map::new();
    function.insert("name".into(), Value::from(spec.name()));
    describe(&mut function, spec);
    function.insert("parameters".into(), spec.input_schema_in(style));
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
/// [model text](ToolResult::to_model_content) as `content` (the output as JSON, or the
/// error worded for the model to correct itself).
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

/// The `tool` messages answering a turn's calls, one per result, in order: append them to
/// the conversation after the assistant message.
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
    results.iter().map(result).collect()
}
