//! OpenAI Responses (`POST /v1/responses`).
//!
//! - Declarations: `{"type": "function", "name", "description", "parameters", "strict"}`
//!   (flat, unlike Chat Completions), for the request's `tools`. `strict` is always written,
//!   so that the mode never depends on the API's default for a missing field. Constraints
//!   are declared as for [Chat Completions](super::openai_chat): as keywords, but a string's
//!   length in words in strict mode, which has no `minLength` or `maxLength`.
//! - Calls: the response's `output` items of type `function_call`, each `{"call_id", "name",
//!   "arguments"}`; `arguments` is a JSON *string*, passed on unparsed. The item's own `id`
//!   (`fc_...`) is not the call id: `call_id` is what the result must name.
//! - Results: one `{"type": "function_call_output", "call_id", "output"}` item per call, in
//!   the next request's `input` (after the response's output items, or with
//!   `previous_response_id`).
//!
//! ```
//! use agentkit_core::provider::openai_responses;
//! use serde_json::json;
//!
//! let response = json!({"id": "resp_1", "object": "response", "output": [
//!     {"type": "reasoning", "id": "rs_1", "summary": []},
//!     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_time",
//!      "arguments": "{}", "status": "completed"},
//! ]});
//! let calls = openai_responses::calls(&response)?;
//! assert_eq!(calls.len(), 1);
//! assert_eq!(calls[0].id(), "call_1");
//! # Ok::<(), agentkit_core::provider::ParseError>(())
//! ```

use serde_json::{Map, Value, json};

use super::parse::{At, ParseError, text_arguments};
use super::{declare, describe};
use crate::call::ToolCall;
use crate::result::ToolResult;
use crate::schema::json_schema::Style;
use crate::tool::ToolSpec;

const API: &str = "OpenAI Responses";

/// The request's `tools`, with `"strict": false`: each tool's parameters as JSON Schema, with
/// defaults and without integer bounds (see [the module docs](super)).
///
/// ```
/// use agentkit_core::provider::openai_responses;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("forecast")
///     .description("Weather forecast.")
///     .input(ToolSchema::new([Param::required("city", ParamType::String)])?)
///     .build()?;
/// assert_eq!(openai_responses::tools([&spec]), json!([{
///     "type": "function",
///     "name": "forecast",
///     "description": "Weather forecast.",
///     "parameters": {
///         "type": "object",
///         "properties": {"city": {"type": "string"}},
///         "required": ["city"],
///         "additionalProperties": false,
///     },
///     "strict": false,
/// }]));
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
/// use agentkit_core::provider::openai_responses;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("forecast")
///     .input(ToolSchema::new([Param::optional("units", ParamType::String).with_default("metric")])?)
///     .build()?;
/// let declared = openai_responses::strict_tools([&spec]);
/// assert_eq!(declared[0]["strict"], true);
/// assert_eq!(declared[0]["parameters"]["required"], json!(["units"]));
/// assert_eq!(
///     declared[0]["parameters"]["properties"]["units"]["description"],
///     "Defaults to \"metric\".",
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
    let mut tool = Map::new();
    tool.insert("type".into(), Value::from("function"));
    tool.insert("name".into(), Value::from(spec.name()));
    describe(&mut tool, spec);
    tool.insert("parameters".into(), spec.input_schema_in(style));
    tool.insert("strict".into(), Value::from(strict));
    Value::Object(tool)
}

/// The tool calls of a response: its `output` items of type `function_call`, in order. Takes
/// the whole response or its `output` array.
///
/// Other items (messages, reasoning, built-in tool calls) are skipped. The call id is the
/// item's `call_id`.
///
/// # Errors
///
/// A [`ParseError`] when the response does not have the documented shape: no `output`
/// array, an item without a string `type`, a `function_call` without a string `call_id`,
/// `name` or `arguments`.
///
/// ```
/// use agentkit_core::provider::openai_responses;
/// use serde_json::json;
///
/// let output = json!([
///     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "fetch_weather",
///      "arguments": "{\"city\":\"Paris\"}"},
/// ]);
/// let calls = openai_responses::calls(&output)?;
/// assert_eq!(calls[0].name(), "fetch_weather");
/// assert_eq!(calls[0].arguments().as_text(), Some("{\"city\":\"Paris\"}"));
///
/// let err = openai_responses::calls(&json!({"output": [{"type": "function_call"}]})).unwrap_err();
/// assert_eq!(err.path(), "output[0].call_id");
/// # Ok::<(), agentkit_core::provider::ParseError>(())
/// ```
pub fn calls(response: &Value) -> Result<Vec<ToolCall>, ParseError> {
    let root = At::root(API, response);
    let output = match response {
        Value::Array(_) => root,
        _ => root.object()?.get("output"),
    };
    let mut calls = Vec::new();
    for item in output.items()? {
        let item = item.object()?;
        if item.get("type").str()? != "function_call" {
            continue;
        }
        let id = item.get("call_id").str()?;
        let name = item.get("name").str()?;
        let arguments = text_arguments(&item.get("arguments"))?;
        calls.push(ToolCall::new(id, name, arguments));
    }
    Ok(calls)
}

/// The `function_call_output` item answering one call: its `call_id` and the
/// [model text](ToolResult::to_model_content) as `output`.
///
/// ```
/// use agentkit_core::provider::openai_responses;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("call_1", "nope", "{}")));
/// let item = openai_responses::result(&result);
/// assert_eq!(item["type"], "function_call_output");
/// assert_eq!(item["call_id"], "call_1");
/// assert_eq!(item["output"], result.to_model_content());
/// ```
pub fn result(result: &ToolResult) -> Value {
    json!({
        "type": "function_call_output",
        "call_id": result.call_id(),
        "output": result.to_model_content(),
    })
}

/// The `function_call_output` items answering a turn's calls, one per result, in order: add
/// them to the next request's `input`.
///
/// ```
/// use agentkit_core::provider::openai_responses;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let calls = [ToolCall::new("a", "x", "{}"), ToolCall::new("b", "y", "{}")];
/// let items = openai_responses::results(&block_on(executor.dispatch_all(&calls)));
/// assert_eq!(items[0]["call_id"], "a");
/// assert_eq!(items[1]["call_id"], "b");
/// ```
pub fn results(results: &[ToolResult]) -> Vec<Value> {
    results.iter().map(result).collect()
}
