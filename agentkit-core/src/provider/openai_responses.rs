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
//!   `previous_response_id`). `output` is the [model text](ToolResult::to_model_content) (a
//!   failure's message, a text result's bare text), or, for a result with other
//!   [content parts](crate::Content), a list of `input_text`, `input_image` and `input_file`
//!   items (see [`result`]).
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
use super::parts::{self, Kind};
use super::{Declare, Target, declare, describe};
use crate::call::ToolCall;
use crate::content::Content;
use crate::result::ToolResult;

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
pub fn tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    with_search(declare(tools, true, |item| tool(&item, false)))
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
pub fn strict_tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    with_search(declare(tools, true, |item| tool(&item, true)))
}

/// The declarations, and OpenAI's hosted `tool_search` tool after them when a function is
/// deferred (`defer_loading`): the API searches the deferred functions and loads the ones it
/// finds. (At the time of writing, for gpt-5.4 and later models.)
fn with_search(mut declared: Value) -> Value {
    if let Value::Array(tools) = &mut declared
        && tools.iter().any(|tool| tool.get("defer_loading").is_some())
    {
        tools.push(json!({"type": "tool_search"}));
    }
    declared
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
    let mut tool = Map::new();
    tool.insert("type".into(), Value::from("function"));
    tool.insert("name".into(), Value::from(item.declared_name()));
    describe(&mut tool, spec);
    let strict = lowered.is_strict();
    tool.insert("parameters".into(), lowered.into_schema());
    tool.insert("strict".into(), Value::from(strict));
    if item.is_deferred() {
        tool.insert("defer_loading".into(), Value::from(true));
    }
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

/// The `function_call_output` item answering one call: its `call_id` and the result as
/// `output`.
///
/// `output` is the [model text](ToolResult::to_model_content), a string, for a failure, a
/// call awaiting approval, structured output alone, and a result of text parts alone (the
/// bare text). A result with other [content parts](crate::Content) has a list of input
/// items instead, in order:
///
/// | part | item |
/// |---|---|
/// | the structured output, if any | `{"type": "input_text", "text": <its JSON>}` |
/// | text | `{"type": "input_text", "text"}` (an empty text is left out) |
/// | image (`image/jpeg`, `image/png`, `image/gif`, `image/webp`) | `{"type": "input_image", "image_url": <data: URL>, "detail": "auto"}` |
/// | embedded file (any type but an image's: PDF, CSV, ...) | `{"type": "input_file", "filename": <the URI's last segment>, "file_data": <data: URL>}` |
/// | embedded text | `{"type": "input_text", "text": "[resource: <URI>]\n" + the text}` |
/// | audio, a link, an image of another type | `{"type": "input_text"}` describing it ([`Content::describe`](crate::Content::describe)) |
///
/// A function call's output takes text, images and files (the API reference's
/// `function_call_output.output`: a string, or a list of `input_text`, `input_image` and
/// `input_file`), and no audio. Which file types the model reads is OpenAI's to say
/// (PDF, text, documents, spreadsheets): an embedded file goes as it is, named after its
/// URI (a PDF's name ends in `.pdf`).
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
///
/// A report tool's PDF:
///
/// ```
/// use agentkit_core::provider::openai_responses;
/// use agentkit_core::{
///     BoxError, Content, EmbeddedResource, JsonObject, Tool, ToolCall, ToolContext,
///     ToolExecutor, ToolOutput, ToolRegistry, ToolSpec, block_on,
/// };
/// use serde_json::json;
///
/// struct Report(ToolSpec);
/// impl Tool for Report {
///     fn spec(&self) -> &ToolSpec { &self.0 }
///     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
///         let pdf = EmbeddedResource::blob("file:///reports/q3.pdf", b"%PDF".to_vec())
///             .with_mime_type("application/pdf");
///         Ok(ToolOutput::from(Content::from(pdf)))
///     }
/// }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(Report(ToolSpec::builder("report").build()?))?;
/// let executor = ToolExecutor::new(registry);
/// let result = block_on(executor.dispatch(&ToolCall::new("call_2", "report", "{}")));
/// assert_eq!(openai_responses::result(&result)["output"], json!([{
///     "type": "input_file",
///     "filename": "q3.pdf",
///     "file_data": "data:application/pdf;base64,JVBERg==",
/// }]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn result(result: &ToolResult) -> Value {
    let output = match parts::rich(result) {
        Some(parts) => Value::Array(items(result, parts)),
        None => Value::from(result.to_model_content()),
    };
    json!({
        "type": "function_call_output",
        "call_id": result.call_id(),
        "output": output,
    })
}

/// The input items of a successful result with content parts.
fn items(result: &ToolResult, parts: &[Content]) -> Vec<Value> {
    let mut items = Vec::with_capacity(parts.len() + 1);
    if let Some(json) = parts::structured_text(result) {
        items.push(input_text(json));
    }
    for part in parts {
        let item = match (part, parts::binary(part)) {
            (Content::Text(text), _) if text.is_empty() => continue,
            (_, Some(binary)) if binary.kind == Kind::Image => {
                match binary.type_in(parts::IMAGE_TYPES) {
                    Some(media_type) => json!({
                        "type": "input_image",
                        "image_url": binary.data_url(media_type),
                        "detail": "auto",
                    }),
                    None => input_text(parts::describe(part).into_owned()),
                }
            }
            (_, Some(binary)) if binary.kind == Kind::File => json!({
                "type": "input_file",
                "filename": binary.filename(),
                "file_data": binary.data_url(parts::media_type(binary.mime_type)),
            }),
            _ => input_text(parts::describe(part).into_owned()),
        };
        items.push(item);
    }
    items
}

fn input_text(text: String) -> Value {
    json!({"type": "input_text", "text": text})
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

pub use super::stream::openai_responses::CallStream;
