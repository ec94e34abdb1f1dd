//! The Model Context Protocol's tool messages, as JSON: `tools/list` entries, `tools/call`
//! requests and `CallToolResult`s.
//!
//! Only the shapes: no JSON-RPC session, no transport. They serve a host that relays MCP
//! messages itself, and tests.
//!
//! - Declarations: `{"name", "description", "inputSchema", "outputSchema"}`, the entries of
//!   a `tools/list` result's `tools`. MCP has no strict mode; the output schema is declared
//!   when the tool has one (any JSON Schema, for a tool declared with
//!   [`output_json_schema`](crate::ToolSpecBuilder::output_json_schema)). Constraints are JSON Schema keywords (`enum`, `minimum`,
//!   `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`), all of them.
//! - Calls: a `tools/call` request's `params`, `{"name", "arguments"}`; `arguments` is
//!   already a JSON object and is dispatched as is. The call id is the JSON-RPC request's
//!   `id`, as text.
//! - Results: a `CallToolResult`: `content` with one text block (the
//!   [model text](ToolResult::to_model_content)), `isError`, and, when the call succeeded
//!   and the tool declares an output schema, the output as `structuredContent`, any JSON
//!   value as MCP's 2026-07-28 revision allows (the text then holds the same JSON, as MCP
//!   asks for older clients). A result with
//!   [content parts](crate::Content) has a content block per part instead, after the text
//!   block of the structured output if there is one (see [`result`]).
//!
//! ```
//! use agentkit_core::provider::mcp;
//! use serde_json::json;
//!
//! let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
//!     "params": {"name": "get_time", "arguments": {}}});
//! let call = mcp::call(&request)?;
//! assert_eq!((call.id(), call.name()), ("7", "get_time"));
//! # Ok::<(), agentkit_core::provider::ParseError>(())
//! ```

use serde_json::{Map, Value, json};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::parse::{At, ParseError, value_arguments};
use super::parts;
use super::{Declare, declare};
use crate::call::ToolCall;
use crate::content::{Content, ResourceContents};
use crate::registry::ToolRegistry;
use crate::result::{ToolResult, ToolStatus};
use crate::schema::json_schema::Style;
use crate::tool::ToolSpec;

const API: &str = "MCP";

/// The `tools` of a `tools/list` result, one [`tool`] per spec, in order.
///
/// ```
/// use agentkit_core::provider::mcp;
/// use agentkit_core::ToolSpec;
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("get_time").description("The time now.").build()?;
/// let list_result = json!({"tools": mcp::tools([&spec])});
/// assert_eq!(list_result["tools"][0]["name"], "get_time");
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn tools<D: Declare>(tools: impl IntoIterator<Item = D>) -> Value {
    declare(tools, true, |item| {
        named(item.declared_spec(), &item.declared_name())
    })
}

/// One tool as `tools/list` describes it: `name`, `description` (when there is one),
/// `inputSchema` and, when the tool declares an output, `outputSchema`. The schemas carry
/// defaults and leave integer bounds out (see [the module docs](super)).
///
/// ```
/// use agentkit_core::provider::mcp;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("add")
///     .description("Add two integers.")
///     .input(ToolSchema::new([
///         Param::required("a", ParamType::Integer),
///         Param::required("b", ParamType::Integer),
///     ])?)
///     .output(ToolSchema::new([Param::required("sum", ParamType::Integer)])?)
///     .build()?;
/// assert_eq!(mcp::tool(&spec), json!({
///     "name": "add",
///     "description": "Add two integers.",
///     "inputSchema": {
///         "type": "object",
///         "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
///         "required": ["a", "b"],
///         "additionalProperties": false,
///     },
///     "outputSchema": {
///         "type": "object",
///         "properties": {"sum": {"type": "integer"}},
///         "required": ["sum"],
///         "additionalProperties": false,
///     },
/// }));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn tool(spec: &ToolSpec) -> Value {
    named(spec, spec.name())
}

/// [`tool`], declared as `name`.
fn named(spec: &ToolSpec, name: &str) -> Value {
    let mut tool = Map::new();
    tool.insert("name".into(), Value::from(name));
    super::describe(&mut tool, spec);
    tool.insert(
        "inputSchema".into(),
        spec.input_schema_in(Style::Declaration),
    );
    if let Some(output) = spec.output_schema_in(Style::Declaration) {
        tool.insert("outputSchema".into(), output);
    }
    let annotations = spec.annotations();
    if !annotations.is_empty() {
        let mut hints = Map::new();
        if let Some(title) = annotations.title() {
            tool.insert("title".into(), Value::from(title));
            hints.insert("title".into(), Value::from(title));
        }
        for (key, hint) in [
            ("readOnlyHint", annotations.read_only()),
            ("destructiveHint", annotations.destructive()),
            ("idempotentHint", annotations.idempotent()),
            ("openWorldHint", annotations.open_world()),
        ] {
            if let Some(hint) = hint {
                hints.insert(key.into(), Value::Bool(hint));
            }
        }
        tool.insert("annotations".into(), Value::Object(hints));
    }
    Value::Object(tool)
}

/// The call a `tools/call` request makes. Takes the whole JSON-RPC request (whose `id`, a
/// string or a number, becomes the call id, as text) or its `params` alone (the call id is
/// then empty).
///
/// `arguments` is passed on as it is (absent means `{}`): the executor validates it.
///
/// # Errors
///
/// A [`ParseError`] when the message is not a `tools/call` request: another `method`, no
/// `params` object, no string `name`, an `id` that is neither a string nor a number.
///
/// ```
/// use agentkit_core::provider::mcp;
/// use agentkit_core::ToolArguments;
/// use serde_json::json;
///
/// let call = mcp::call(&json!({"name": "fetch_weather", "arguments": {"city": "Paris"}}))?;
/// assert_eq!(call.id(), "");
/// assert_eq!(call.arguments(), &ToolArguments::Value(json!({"city": "Paris"})));
///
/// let err = mcp::call(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).unwrap_err();
/// assert_eq!(err.path(), "method");
/// # Ok::<(), agentkit_core::provider::ParseError>(())
/// ```
pub fn call(message: &Value) -> Result<ToolCall, ParseError> {
    let root = At::root(API, message).object()?;
    let (id, params) = if root.get("method").is_present() {
        let method = root.get("method");
        if method.str()? != "tools/call" {
            return Err(method.error("\"tools/call\""));
        }
        let id = root.get("id");
        let id = match id.value() {
            Some(Value::String(id)) => id.clone(),
            Some(Value::Number(id)) => id.to_string(),
            _ => return Err(id.error("a string or a number")),
        };
        (id, root.get("params").object()?)
    } else {
        (String::new(), root)
    };
    let name = params.get("name").str()?;
    Ok(ToolCall::new(
        id,
        name,
        value_arguments(&params.get("arguments")),
    ))
}

/// The `CallToolResult` of one call: its `content` blocks, `isError`, and the output as
/// `structuredContent` when the call succeeded and the tool, looked up in `registry`,
/// declares an output schema.
///
/// `content` is one text block with the [model text](ToolResult::to_model_content) for a
/// failure, a call awaiting approval, or structured output alone. A successful result with
/// [content parts](crate::Content) has a block per part, in order, after a text block with
/// the structured output's JSON if there is one (MCP asks for it, for clients that read no
/// `structuredContent`); these are the blocks the MCP server of the `mcp` feature sends
/// (`agentkit_core::mcp::to_call_tool_result`):
///
/// | part | block |
/// |---|---|
/// | text | `{"type": "text", "text"}` |
/// | image | `{"type": "image", "data": <base64>, "mimeType"}` |
/// | audio | `{"type": "audio", "data": <base64>, "mimeType"}` |
/// | link | `{"type": "resource_link", "uri", "name", "mimeType"?, "description"?}` |
/// | embedded resource | `{"type": "resource", "resource": {"uri", "mimeType"?, "text" or "blob": <base64>}}` |
///
/// `isError` is true for a failure of any kind: a call
/// [awaiting approval](crate::ToolStatus::Deferred) has not failed, and its text says that its
/// result will follow; but when its tool declares an output schema it has `isError: true`
/// too, since MCP asks a result that is not an error to carry `structuredContent` matching
/// the schema, which a call that has not run cannot (and the official clients refuse one
/// without). A validation failure is a result with `isError: true` whose text lists
/// every problem, so that the model can correct its call. (An MCP server answers a call of an unknown tool
/// with a protocol error instead; the result here, `isError` with the text naming the
/// nearest tools, suits a host relaying calls.)
///
/// ```
/// use agentkit_core::provider::mcp;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
/// use serde_json::json;
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("1", "nope", "{}")));
/// assert_eq!(mcp::result(&result, executor.registry()), json!({
///     "content": [{"type": "text", "text": result.to_model_content()}],
///     "isError": true,
/// }));
/// ```
///
/// A screenshot tool's image:
///
/// ```
/// use agentkit_core::provider::mcp;
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
///         Ok(ToolOutput::from(Content::image(vec![1, 2, 3], "image/png")))
///     }
/// }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(Screenshot(ToolSpec::builder("screenshot").build()?))?;
/// let executor = ToolExecutor::new(registry);
/// let result = block_on(executor.dispatch(&ToolCall::new("7", "screenshot", "{}")));
/// assert_eq!(mcp::result(&result, executor.registry()), json!({
///     "content": [{"type": "image", "data": "AQID", "mimeType": "image/png"}],
///     "isError": false,
/// }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn result(result: &ToolResult, registry: &ToolRegistry) -> Value {
    let mut object = Map::new();
    let blocks = match result.content() {
        [] => vec![json!({"type": "text", "text": result.to_model_content()})],
        parts => {
            let mut blocks = Vec::with_capacity(parts.len() + 1);
            if let Some(json) = parts::structured_text(result) {
                blocks.push(json!({"type": "text", "text": json}));
            }
            blocks.extend(parts.iter().map(block));
            blocks
        }
    };
    object.insert("content".into(), Value::Array(blocks));
    let declares_output = registry
        .lookup(result.tool_name())
        .is_some_and(crate::ToolSpec::has_output_schema);
    object.insert(
        "isError".into(),
        Value::from(is_error(result.status(), declares_output)),
    );
    if let (Some(output), true) = (result.output(), declares_output) {
        object.insert("structuredContent".into(), output.clone());
    }
    Value::Object(object)
}

/// Whether the MCP answer of a call in `status` has `isError`, for a tool that declares an
/// output schema or not: a failure, and a call awaiting approval of a tool with an output
/// schema (see [`result`]). The one rule of both answers, this module's and the `mcp`
/// feature's server's.
pub(crate) fn is_error(status: ToolStatus, declares_output: bool) -> bool {
    match status {
        ToolStatus::Success => false,
        ToolStatus::Failure => true,
        // Deferred: a success would have to carry structured content it does not have.
        _ => declares_output,
    }
}

/// The MCP content block of a part.
fn block(part: &Content) -> Value {
    let mut block = Map::new();
    let mut set = |key: &str, value: Value| {
        block.insert(key.into(), value);
    };
    match part {
        Content::Text(text) => {
            set("type", "text".into());
            set("text", text.as_str().into());
        }
        Content::Image(media) | Content::Audio(media) => {
            let kind = if matches!(part, Content::Image(_)) {
                "image"
            } else {
                "audio"
            };
            set("type", kind.into());
            set("data", media.to_base64().into());
            set("mimeType", media.mime_type().into());
        }
        Content::ResourceLink(link) => {
            set("type", "resource_link".into());
            set("uri", link.uri().into());
            set("name", link.name().into());
            if let Some(mime_type) = link.mime_type() {
                set("mimeType", mime_type.into());
            }
            if let Some(description) = link.description() {
                set("description", description.into());
            }
        }
        Content::Resource(resource) => {
            let mut contents = Map::new();
            contents.insert("uri".into(), resource.uri().into());
            if let Some(mime_type) = resource.mime_type() {
                contents.insert("mimeType".into(), mime_type.into());
            }
            match resource.contents() {
                ResourceContents::Text(text) => {
                    contents.insert("text".into(), text.as_str().into());
                }
                ResourceContents::Blob(data) => {
                    contents.insert("blob".into(), STANDARD.encode(data).into());
                }
            }
            set("type", "resource".into());
            set("resource", Value::Object(contents));
        }
    }
    Value::Object(block)
}
