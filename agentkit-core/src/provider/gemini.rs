//! Google Gemini (`models.generateContent`, REST JSON, camelCase).
//!
//! - Declarations: one tool holding every `functionDeclarations` entry, each `{"name",
//!   "description", "parametersJsonSchema"}`, for the request's `tools`. Gemini has no strict
//!   mode. Constraints are sent as JSON Schema keywords (`enum`, `minimum`, `maximum`,
//!   `minLength`, `maxLength`, `minItems`, `maxItems`), each of which Gemini's schema
//!   knows; the executor enforces them whatever the model makes of them.
//! - Calls: the `functionCall` parts of the reply (`candidates[0].content.parts`), each
//!   `{"name", "args", "id"}`; `args` is already a JSON object and is dispatched as is.
//! - Results: one `user` content whose `parts` are a `functionResponse` per call, each
//!   `{"id", "name", "response"}` with `response` either `{"output": <the tool's output
//!   object, or a text result's bare text>}` or `{"error": <the model text of the
//!   failure>}`, the two keys Gemini reads. Images and PDFs a tool returns go in the
//!   `functionResponse`'s own `parts` (see [below](self#content-parts)). The model's own
//!   content goes into the conversation before it unchanged: its parts may carry thought
//!   signatures that the next request must return.
//!
//! # Content parts
//!
//! A `functionResponse`'s `response` is a JSON object; since the Gemini 3 models, its
//! `parts` carry media beside it, as `{"inlineData": {"mimeType", "data"}}` ("multimodal
//! function responses", which take `image/png`, `image/jpeg`, `image/webp`,
//! `application/pdf` and `text/plain`). [`result`] renders a successful result thus:
//!
//! | the result | `response` | `parts` |
//! |---|---|---|
//! | structured output alone | `{"output": <its JSON value>}` | none |
//! | text alone | `{"output": "<the text>"}` | none |
//! | structured output and parts | `{"output": <its JSON value>, "content": "<the parts' text>"}` | the media |
//! | parts alone | `{"output": "<the parts' text>"}` | the media |
//!
//! The parts' text has a line per part: a text part's text, an embedded text resource's
//! URI then its text, and a description of every other part (`[image: image/png, 2048
//! bytes]`), those sent in `parts` included, so that the model can tell which media is
//! which. Images of those types and embedded PDFs and plain texts are sent in `parts`;
//! audio (which function responses do not take), links and other types are described
//! only. Models before Gemini 3 refuse a `functionResponse` with `parts`: with them, use
//! tools that return no media, or leave `parts` out and keep the descriptions.
//!
//! # Why `parametersJsonSchema`
//!
//! A function declaration takes its parameters either as `parameters`, a Schema object from
//! an OpenAPI 3.0 subset, or as `parametersJsonSchema`, plain JSON Schema (the two are
//! mutually exclusive). agentkit uses `parametersJsonSchema`: it is the same JSON Schema every
//! other API here is sent, so all five declare one schema the same way, and it expresses what
//! the OpenAPI subset cannot: `additionalProperties: false` (undeclared arguments are refused
//! by the executor, and the model should know), and a free-form `dictionary` or untyped
//! `list` (the subset refuses an `OBJECT` without `properties`). The cost: older Gemini
//! models that predate the field reject it: for those, [`openapi_tools`] declares
//! `parameters` instead, lowered to the subset (see [the table](super#the-schemas-models-are-sent)).
//!
//! # Call ids
//!
//! Gemini may give a call an `id`; the response then names it, and agentkit keeps it. When it
//! does not, each call gets a generated id, [`GENERATED_ID_PREFIX`] followed by the call's
//! position among the reply's function calls (`agentkit-gemini-0`, `agentkit-gemini-1`,
//! ...): stable for a given reply, unique within it, and never sent back to Gemini (a
//! `functionResponse` has an `id` only when its call had one).
//!
//! ```
//! use agentkit_core::provider::gemini;
//! use serde_json::json;
//!
//! let response = json!({"candidates": [{"content": {"role": "model", "parts": [
//!     {"functionCall": {"name": "get_time", "args": {}}},
//!     {"functionCall": {"id": "fc-7", "name": "get_time", "args": {}}},
//! ]}, "finishReason": "STOP"}]});
//! let calls = gemini::calls(&response)?;
//! assert_eq!(calls[0].id(), "agentkit-gemini-0");
//! assert_eq!(calls[1].id(), "fc-7");
//! # Ok::<(), agentkit_core::provider::ParseError>(())
//! ```

use serde_json::{Map, Value, json};

use super::parse::{At, ParseError, value_arguments};
use super::parts::{self, Kind};
use super::{Declare, Target, declare, description_with_examples};
use crate::call::ToolCall;
use crate::result::{ToolResult, ToolStatus};

const API: &str = "Gemini";

/// The prefix of the ids [`calls`] gives calls that came without one; see
/// [the module docs](self#call-ids).
pub const GENERATED_ID_PREFIX: &str = "agentkit-gemini-";

/// The request's `tools`: one tool whose `functionDeclarations` declare every tool given, its
/// parameters as `parametersJsonSchema` (with defaults, without integer bounds; see
/// [why](self#why-parametersjsonschema)). No tools give `[]`.
///
/// ```
/// use agentkit_core::provider::gemini;
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
/// assert_eq!(gemini::tools([&spec]), json!([{"functionDeclarations": [{
///     "name": "forecast",
///     "description": "Weather forecast.",
///     "parametersJsonSchema": {
///         "type": "object",
///         "properties": {
///             "city": {"type": "string"},
///             "days": {"type": "integer", "default": 5},
///         },
///         "required": ["city"],
///         "additionalProperties": false,
///     },
/// }]}]));
/// assert_eq!(gemini::tools(Vec::<&ToolSpec>::new()), json!([]));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    declarations(tools, Target::GeminiJsonSchema)
}

/// The request's `tools` with each function's parameters as `parameters`, the Schema object
/// of an OpenAPI 3.0 subset: for the Gemini APIs and models that do not take
/// `parametersJsonSchema`. Types are in capitals, "or null" is `nullable`, local `$ref`s are
/// written out (a recursive one two levels deep), and what the subset cannot say
/// (`additionalProperties`, `const` of a number, tuples, ...) is stated in descriptions; the
/// executor still checks the whole schema (see [the table](super#the-schemas-models-are-sent)).
///
/// ```
/// use agentkit_core::provider::gemini;
/// use agentkit_core::ToolSpec;
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("find")
///     .description("Find a person.")
///     .input_json_schema(json!({
///         "type": "object",
///         "properties": {"person": {"$ref": "#/$defs/Person"}},
///         "required": ["person"],
///         "$defs": {"Person": {"type": "object", "properties": {
///             "name": {"type": "string"},
///             "age": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
///         }}},
///     }))
///     .build()?;
/// assert_eq!(gemini::openapi_tools([&spec])[0]["functionDeclarations"][0]["parameters"], json!({
///     "type": "OBJECT",
///     "properties": {"person": {"type": "OBJECT", "properties": {
///         "name": {"type": "STRING"},
///         "age": {"type": "INTEGER", "minimum": 0, "nullable": true},
///     }}},
///     "required": ["person"],
/// }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn openapi_tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    declarations(tools, Target::GeminiOpenApi)
}

fn declarations<D: Declare>(tools: impl IntoIterator<Item = D>, target: Target) -> Value {
    let field = match target {
        Target::GeminiOpenApi => "parameters",
        _ => "parametersJsonSchema",
    };
    let declarations = declare(tools, false, |item| {
        let spec = item.declared_spec();
        let mut function = Map::new();
        function.insert("name".into(), Value::from(item.declared_name()));
        // Gemini documents the description as required.
        function.insert(
            "description".into(),
            Value::from(description_with_examples(spec)),
        );
        function.insert(field.into(), super::lower(spec, target).into_schema());
        Value::Object(function)
    });
    match declarations.as_array() {
        Some(list) if !list.is_empty() => json!([{"functionDeclarations": declarations}]),
        _ => json!([]),
    }
}

/// The tool calls of a reply: the `functionCall` parts of `candidates[0].content`, in order.
/// Takes the whole `GenerateContentResponse` or one `Content` (`{"role", "parts"}`).
///
/// A reply without candidates (a blocked prompt), a candidate without content, or content
/// without parts has no calls; other parts (text, thoughts) are skipped. `args` is passed on
/// as it is (absent means `{}`). A call without an `id` gets a
/// [generated one](self#call-ids).
///
/// # Errors
///
/// A [`ParseError`] when the reply does not have the documented shape: neither
/// `candidates` nor `parts`, `parts` not an array, a `functionCall` without a string `name`.
///
/// ```
/// use agentkit_core::provider::gemini;
/// use agentkit_core::ToolArguments;
/// use serde_json::json;
///
/// let content = json!({"role": "model", "parts": [
///     {"functionCall": {"name": "fetch_weather", "args": {"city": "Paris"}}},
/// ]});
/// let calls = gemini::calls(&content)?;
/// assert_eq!(calls[0].arguments(), &ToolArguments::Value(json!({"city": "Paris"})));
///
/// let err = gemini::calls(&json!({"parts": [{"functionCall": {"args": {}}}]})).unwrap_err();
/// assert_eq!(err.path(), "parts[0].functionCall.name");
/// # Ok::<(), agentkit_core::provider::ParseError>(())
/// ```
pub fn calls(reply: &Value) -> Result<Vec<ToolCall>, ParseError> {
    let root = At::root(API, reply).object()?;
    let parts = if root.get("candidates").is_present() {
        let candidates = root.get("candidates");
        let Some(first) = candidates.items()?.next() else {
            return Ok(Vec::new());
        };
        let content = first.object()?.get("content");
        if !content.is_present() {
            return Ok(Vec::new());
        }
        content.object()?.get("parts")
    } else if root.get("parts").is_present() || root.get("role").is_present() {
        root.get("parts")
    } else if root.get("promptFeedback").is_present() {
        return Ok(Vec::new());
    } else {
        return Err(root.error("a response with `candidates` or a content with `parts`"));
    };
    if !parts.is_present() {
        return Ok(Vec::new());
    }
    let mut calls = Vec::new();
    for part in parts.items()? {
        let call = part.object()?.get("functionCall");
        if !call.is_present() {
            continue;
        }
        let call = call.object()?;
        let name = call.get("name").str()?;
        let id = match call.get("id").opt_str()? {
            Some(id) => id.to_owned(),
            None => format!("{GENERATED_ID_PREFIX}{}", calls.len()),
        };
        calls.push(ToolCall::new(id, name, value_arguments(&call.get("args"))));
    }
    Ok(calls)
}

/// The `functionResponse` part answering one call: the tool's `name`, the call's `id` when
/// Gemini gave one, and `response`: `{"output": <output object or text>}` on success,
/// `{"error": <model text>}` on failure, and `{"output": <model text>}` for a call awaiting
/// approval (not a failure: its text says the result will follow). A result with images or
/// PDFs has them in `parts` (see [content parts](self#content-parts)).
///
/// ```
/// use agentkit_core::provider::gemini;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
/// use serde_json::json;
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("fc-1", "nope", "{}")));
/// assert_eq!(gemini::result(&result), json!({"functionResponse": {
///     "id": "fc-1",
///     "name": "nope",
///     "response": {"error": result.to_model_content()},
/// }}));
/// ```
///
/// A screenshot tool's image:
///
/// ```
/// use agentkit_core::provider::gemini;
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
/// let result = block_on(executor.dispatch(&ToolCall::new("fc-2", "screenshot", "{}")));
/// assert_eq!(gemini::result(&result), json!({"functionResponse": {
///     "id": "fc-2",
///     "name": "screenshot",
///     "response": {"output": "The login page:\n[image: image/png, 3 bytes]"},
///     "parts": [{"inlineData": {"mimeType": "image/png", "data": "AQID"}}],
/// }}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn result(result: &ToolResult) -> Value {
    let mut response = Map::new();
    let id = result.call_id();
    if !id.is_empty() && !id.starts_with(GENERATED_ID_PREFIX) {
        response.insert("id".into(), Value::from(id));
    }
    response.insert("name".into(), Value::from(result.tool_name()));
    let (body, media) = match result.status() {
        ToolStatus::Success => success(result),
        ToolStatus::Deferred => (json!({"output": result.to_model_content()}), Vec::new()),
        _ => (json!({"error": result.to_model_content()}), Vec::new()),
    };
    response.insert("response".into(), body);
    if !media.is_empty() {
        response.insert("parts".into(), Value::Array(media));
    }
    json!({"functionResponse": response})
}

/// The media types a function response's `parts` take.
const INLINE_TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];

/// The `response` of a successful result, and the media for its `parts`.
fn success(result: &ToolResult) -> (Value, Vec<Value>) {
    let Some(parts) = parts::rich(result) else {
        let body = match result.output() {
            Some(output) => json!({"output": output}),
            // Text alone (or nothing): the bare text.
            None => json!({"output": result.to_model_content()}),
        };
        return (body, Vec::new());
    };
    let mut text = String::new();
    let mut media = Vec::new();
    for part in parts {
        let inline = parts::binary(part)
            .filter(|binary| binary.kind != Kind::Audio)
            .and_then(|binary| Some((binary.type_in(INLINE_TYPES)?, binary)));
        if let Some((mime_type, binary)) = inline {
            media.push(json!({"inlineData": {"mimeType": mime_type, "data": binary.base64()}}));
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&parts::describe(part));
    }
    let body = match result.output() {
        Some(output) if text.is_empty() => json!({"output": output}),
        Some(output) => json!({"output": output, "content": text}),
        None => json!({"output": text}),
    };
    (body, media)
}

/// The content answering a turn's calls: one `user` content holding a `functionResponse`
/// part per result, in order (none for no results). Append it after the model's content.
///
/// ```
/// use agentkit_core::provider::gemini;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let calls = [ToolCall::new("agentkit-gemini-0", "x", "{}")];
/// let contents = gemini::results(&block_on(executor.dispatch_all(&calls)));
/// assert_eq!(contents[0]["role"], "user");
/// // A generated id is not sent back.
/// assert!(contents[0]["parts"][0]["functionResponse"].get("id").is_none());
/// ```
pub fn results(results: &[ToolResult]) -> Vec<Value> {
    if results.is_empty() {
        return Vec::new();
    }
    let parts: Vec<Value> = results.iter().map(result).collect();
    vec![json!({"role": "user", "parts": parts})]
}

pub use super::stream::gemini::CallStream;
