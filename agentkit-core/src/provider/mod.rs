//! Model APIs' tool formats: declarations out, tool calls in, tool results out.
//!
//! One module per API, each with the same three steps, over plain [`serde_json::Value`]s (no
//! HTTP client: send them with the client you already use):
//!
//! | API | declare | read the reply's calls | send back the results |
//! |---|---|---|---|
//! | [OpenAI Chat Completions](openai_chat) | `tools`, `strict_tools` | `calls(&message or response)` | `results` → `role: "tool"` messages (and a `user` message with their images, audio, PDFs) |
//! | [OpenAI Responses](openai_responses) | `tools`, `strict_tools` | `calls(&response or output)` | `results` → `function_call_output` items |
//! | [Anthropic Messages](anthropic) | `tools`, `strict_tools` (`not_strict` lists the tools it declares without strict, and why) | `calls(&message or content)` | `results` → one `user` message of `tool_result` blocks |
//! | [Google Gemini](gemini) | `tools` (`parametersJsonSchema`), `openapi_tools` (`parameters`) | `calls(&response or content)` | `results` → one `user` content of `functionResponse` parts |
//! | [MCP](mcp) | `tools` (`tools/list`) | `call(&tools/call request)` | `result` → `CallToolResult` |
//!
//! Declarations take any iterator of [`ToolSpec`]s, all of a registry's
//! ([`ToolRegistry::specs`]) or a tag-filtered subset ([`ToolRegistry::lookup_by_tags`]), or
//! a [`Toolset`](crate::Toolset)'s [`tools`](crate::Toolset::tools): the tools of a view, by
//! the names it gives them (see [`Declare`]).
//! Calls come out as [`ToolCall`]s with the API's call id, and their arguments as the API
//! delivered them (OpenAI's JSON text, or the others' already-parsed objects), ready for
//! [`ToolExecutor::dispatch_all`]; a reply without the documented shape is a
//! [`ParseError`]. Results are rendered from each [`ToolResult`]'s
//! [model text](crate::ToolResult::to_model_content), its output where the API takes
//! structured data, and its [content parts](crate::Content) where the API takes them.
//!
//! # Streamed replies
//!
//! With `"stream": true`, each API sends a call in fragments. Each module's `CallStream`
//! ([`openai_chat::CallStream`], [`openai_responses::CallStream`],
//! [`anthropic::CallStream`], [`gemini::CallStream`]) takes the events as they arrive and
//! hands out each call the moment its arguments are complete, equal to what `calls` reads
//! from the finished reply; [`Turn::dispatch_stream`](crate::Turn::dispatch_stream)
//! runs them as they come.
//!
//! A stream that is not the whole reply is a [`StreamError`], never a quiet success: a
//! malformed event is a [`ParseError`] naming it; an error the provider sends in the stream
//! (Anthropic's `error` event, OpenAI Responses' `error` and `response.failed`, a Gemini
//! `{"error": ..}` chunk, an OpenAI `{"error": ..}` object) is a [`ProviderError`] with the
//! provider's code and message; a stream that ends before the API's terminal event
//! (`[DONE]` or a `finish_reason`, `message_stop`, `response.completed`, a `finishReason`)
//! is a [`CutStream`], which keeps the calls that had completed.
//!
//! # Reading an HTTP body
//!
//! Each `CallStream`'s `push_bytes` takes the response body's bytes in whatever pieces the
//! HTTP client yields them (`reqwest`'s `bytes_stream()`, hyper's body frames; `&[u8]`, so
//! `bytes::Bytes` passes as it is) and frames them into events itself:
//!
//! - server-sent events by the WHATWG rules: lines end at LF, CR or CRLF (also split between
//!   pieces), a blank line ends an event, `:` comments and the `event`, `id` and `retry`
//!   fields are skipped, `data` lines are joined with `\n`, one space after a field's colon
//!   and a leading byte-order mark are dropped, an event without its blank line at the end of
//!   the body is not dispatched;
//! - a character split between pieces is joined, never replaced; bytes that are not UTF-8
//!   are a [`BodyError`] (where a browser would write U+FFFD, which would change a call's
//!   arguments);
//! - a line, event or JSON chunk longer than [`DEFAULT_MAX_EVENT_BYTES`] (or the
//!   `with_max_event_bytes` given) is a [`BodyError`], so a server cannot make it hold
//!   unbounded memory;
//! - a body that starts with `[` is Gemini's JSON array of chunks (`streamGenerateContent`
//!   without `alt=sse`), each chunk read when its closing brace arrives; one that starts with
//!   `{` is one JSON object, the error body a provider sends with an error status.
//!
//! # Content parts
//!
//! A tool may return text, images, audio, links and embedded resources beside or instead of
//! its structured output (see [`ToolOutput`](crate::ToolOutput)). A result of text alone
//! reaches every model as the bare text; a failure stays its error text. Other parts go
//! where each API takes them, and what an API cannot take is described in text
//! (`[audio: audio/wav, 48000 bytes]`, `[resource: q3.pdf <https://...>]`):
//!
//! | API | images | PDFs and other files | audio | links, embedded text |
//! |---|---|---|---|---|
//! | [Anthropic](anthropic::result) | `image` blocks in the `tool_result` | PDFs: `document` blocks | described | links described; embedded text: a text `document` |
//! | [OpenAI Responses](openai_responses::result) | `input_image` in the `output` list | `input_file` | described | described, as `input_text` |
//! | [OpenAI Chat](openai_chat#content-parts) | in one `user` message after the `tool` messages | PDFs: likewise | `wav`, `mp3`: likewise | described in the `tool` message |
//! | [Gemini](gemini#content-parts) | `inlineData` in the `functionResponse`'s `parts` (Gemini 3) | PDFs: likewise | described | described in `response` |
//! | [MCP](mcp::result) | `image` blocks | `resource` blocks | `audio` blocks | `resource_link`, `resource` blocks |
//!
//! The parts' text was bounded, escaped and scrubbed of the call's secrets by the executor,
//! and their bytes are within [`TextLimits::max_binary_bytes`](crate::TextLimits::max_binary_bytes);
//! what a renderer writes of its own (a description, a title, a file name) is short.
//!
//! # Deferred loading
//!
//! An agent with more tools than a request should carry [defers](crate::Toolset::defer)
//! most of them. Where the API searches deferred tools itself, they are declared with
//! `"defer_loading": true` and the API's search tool is declared after them: Anthropic's
//! [`TOOL_SEARCH`](anthropic::TOOL_SEARCH) (BM25), OpenAI Responses' hosted `tool_search`.
//! OpenAI Chat and Gemini have no such field: there a deferred tool is left out of the
//! declarations, and a [`ToolSearch`](crate::ToolSearch) registered as a tool lets the model
//! find it; the loop then [loads](crate::Toolset::load) what it found into the next
//! request. MCP's `tools/list` lists every tool: a host defers as it sees fit.
//!
//! # The schemas models are sent
//!
//! [`ToolSchema::to_json_schema`] accepts exactly what the executor accepts; the declarations
//! are shaped for a model instead:
//!
//! - integer bounds (`minimum`/`maximum` of `i64`) are left out: they cost prompt tokens and
//!   tell the model nothing (the executor still refuses what does not fit);
//! - an optional parameter is simply not `required` (the validation schema also allows it to
//!   be `null`), and its `default` is given;
//! - OpenAI's strict mode ([`ToolSchema::to_strict_json_schema`]) requires every property and
//!   has no `default`: optional parameters are nullable, and a default is stated in the
//!   parameter's description ("Defaults to 5."), so the model still knows what leaving it out
//!   (sending `null`) means;
//! - Anthropic's strict tool use takes optional properties and `default`, so its schema is
//!   the ordinary declaration with `"strict": true` beside it;
//! - constraints (`enum`, `minimum`/`maximum`, `min_length`/`max_length`,
//!   `min_items`/`max_items`) are JSON Schema keywords (`enum`, `minimum`, `maximum`,
//!   `minLength`, `maxLength`, `minItems`, `maxItems`) wherever the API takes them. Where a
//!   strict mode does not, the constraint is stated in the parameter's description instead
//!   ("Between 1 and 50.", "At least 1 character long.", "At most 5 items."), and the
//!   executor still refuses a value that breaks it:
//!
//! | constraint | OpenAI strict | Anthropic strict | others |
//! |---|---|---|---|
//! | `enum` | keyword (with `null` for an optional parameter) | keyword | keyword |
//! | `minimum`, `maximum` | keyword | description | keyword |
//! | `min_length`, `max_length` | description | description | keyword |
//! | `min_items` | keyword | keyword if 0 or 1, else description | keyword |
//! | `max_items` | keyword | description | keyword |
//!
//! Strict modes want every object closed and every array typed: give list parameters their
//! [`items`](crate::Param::with_items) and dictionaries their
//! [`fields`](crate::Param::with_fields). A tool with a free-form `dictionary` or an untyped
//! `list` is declared without strict (its schema whole), and [`lower`] says why; a tool
//! without an input schema is declared with an empty closed object in both strict modes.
//!
//! ## Tools with a JSON Schema of their own
//!
//! A tool declared with a JSON Schema ([`input_json_schema`](crate::ToolSpecBuilder::input_json_schema),
//! an MCP server's tools; 2020-12 or draft-07) has that one schema *lowered* for each target
//! ([`lower`], [`lower_json_schema`]). Lowering reads the schema, changes only what the model
//! is shown, and never removes a declared property; the executor still validates every call
//! against the whole schema. What a target cannot express is loosened, keyword by keyword,
//! and stated in the description ("At least 3 characters long.", "Matches the regular
//! expression `^[a-z]+$`.", "Format: idn-hostname."), each listed in
//! [`Lowered::loosened`]. A schema a strict mode cannot take *at all* is declared without
//! strict, whole, never with its parameters removed; [`Lowered::not_strict_because`] names
//! the place and the reason ("OpenAI's strict mode cannot declare this schema:
//! '/properties/labels' takes keys it does not name (a map)").
//!
//! | | OpenAI strict | Anthropic strict | OpenAI, Anthropic (not strict) | Gemini `parametersJsonSchema` | Gemini `parameters` (OpenAPI) | MCP `inputSchema` |
//! |---|---|---|---|---|---|---|
//! | the root | one object; a union there: not strict | one object; a union is merged into one object (every variant's properties, none required, the forms stated) | one object; a union merged likewise | one object; a union merged likewise | one object; a union merged likewise | as written |
//! | optional properties | required, made nullable (`null` reads as absent) | optional | as written | optional | optional | as written |
//! | objects | closed (`additionalProperties: false`); a map (`additionalProperties` other than `false`, `patternProperties`) or an object of any keys: not strict | closed; a map or an object of any keys: not strict | as written | closed where they list properties (as the executor treats them); maps kept; `patternProperties` stated | no `additionalProperties`: maps and `patternProperties` stated | as written |
//! | `$ref`, `$defs`/`definitions` | local refs gathered into the root's `$defs` (`#` kept), recursion kept | gathered likewise; recursion: not strict | as written | gathered likewise, recursion kept | written out where they stand; a recursive one two levels deep, the next level its type alone ("The same shape as above, nested further") | as written |
//! | `allOf`, a `$ref` beside constraints | merged into one object (a clash stated) | merged | as written | merged | merged | as written |
//! | `anyOf`, `oneOf` | `anyOf` (`oneOf` declared as `anyOf`); beside `properties`: stated | likewise | as written | likewise, kept beside `properties` | likewise, `null` variant as `nullable` | as written |
//! | type lists | `["T", "null"]` kept; more types split into an `anyOf` | split into an `anyOf`, `["T", "null"]` too | as written | kept | one type in capitals, `nullable`; more types split into an `anyOf` | as written |
//! | `const` | a one-value `enum` | kept | as written | a one-value `enum` | a one-value `enum` of a string, else stated | as written |
//! | `enum` | kept | plain values kept, others stated | as written | plain values kept | strings kept, others stated | as written |
//! | `default` | stated ("Defaults to 5.") | kept | as written | kept | kept; `null` stated (the SDK drops a null) | as written |
//! | `pattern` | kept | kept | as written | kept | kept | as written |
//! | `format` | date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid kept; others stated | the same and uri kept; others stated | as written | kept | kept | as written |
//! | `minimum`, `maximum` | kept | stated | as written | kept | kept | as written |
//! | `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` | kept | stated | as written | stated | stated | as written |
//! | `minLength`, `maxLength` | stated | stated | as written | kept | kept | as written |
//! | `minItems`, `maxItems` | kept | `minItems` of 0 or 1 kept; others stated | as written | kept | kept | as written |
//! | tuples (`prefixItems`, draft-07 `items` arrays) | `items` as the union of the positions, the order stated | likewise | as written | kept (a closed one bounded by `maxItems`) | as OpenAI strict | as written |
//! | `uniqueItems`, `contains`, `minProperties`/`maxProperties`, `propertyNames`, `dependentRequired`, `dependentSchemas`, `not`, `if`/`then`/`else`, `unevaluated*` | stated | stated | as written | stated | stated (`minProperties`, `maxProperties` kept) | as written |
//! | a schema of any value (`{}`, `true`), a list of any values | not strict | not strict | as written | kept | kept, without a type | as written |
//! | limits | 10 levels of objects, 5,000 properties, 1,000 `enum` values: beyond, not strict | per request (20 strict tools, 24 optional parameters, 16 unions): the tools past them go without strict ([`anthropic::not_strict`] names them) | | | | |
//!
//! Annotations other than `description` and `title` (`examples`, `$comment`, `deprecated`,
//! ...) are left out where a schema is rewritten. A reference to another document is
//! never resolved (the executor refused it when the tool was built, unless the document was
//! given): where a target rewrites, it is stated, and a strict mode is not used.
//!
//! # Example: one turn with OpenAI Chat Completions
//!
//! ```
//! use agentkit_core::provider::openai_chat;
//! use agentkit_core::{
//!     BoxError, JsonObject, Param, ParamType, Tool, ToolContext, ToolExecutor, ToolRegistry,
//!     ToolOutput, ToolSchema, ToolSpec, block_on,
//! };
//! use serde_json::json;
//!
//! struct Echo(ToolSpec);
//! impl Tool for Echo {
//!     fn spec(&self) -> &ToolSpec { &self.0 }
//!     async fn execute(&self, inputs: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
//!         Ok(inputs.clone().into())
//!     }
//! }
//!
//! let mut registry = ToolRegistry::new();
//! registry.register(Echo(
//!     ToolSpec::builder("echo")
//!         .input(ToolSchema::new([Param::required("text", ParamType::String)])?)
//!         .build()?,
//! ))?;
//! let executor = ToolExecutor::new(registry);
//!
//! // 1. Declare: the request's `tools`.
//! let tools = openai_chat::strict_tools(executor.registry().specs());
//! assert_eq!(tools[0]["function"]["name"], "echo");
//!
//! // 2. The model's reply (here scripted) carries tool calls: dispatch them all.
//! let reply = json!({"role": "assistant", "content": null, "tool_calls": [
//!     {"id": "call_1", "type": "function",
//!      "function": {"name": "echo", "arguments": "{\"text\": \"hi\"}"}},
//! ]});
//! let calls = openai_chat::calls(&reply)?;
//! let results = block_on(executor.dispatch_all(&calls));
//!
//! // 3. Send back one `tool` message per call, after the assistant's message.
//! assert_eq!(openai_chat::results(&results), [json!({
//!     "role": "tool", "tool_call_id": "call_1", "content": "{\"text\":\"hi\"}",
//! })]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`ToolSpec`]: crate::ToolSpec
//! [`ToolRegistry::specs`]: crate::ToolRegistry::specs
//! [`ToolRegistry::lookup_by_tags`]: crate::ToolRegistry::lookup_by_tags
//! [`ToolCall`]: crate::ToolCall
//! [`ToolExecutor::dispatch_all`]: crate::ToolExecutor::dispatch_all
//! [`ToolResult`]: crate::ToolResult
//! [`ToolSchema::to_json_schema`]: crate::ToolSchema::to_json_schema
//! [`ToolSchema::to_strict_json_schema`]: crate::ToolSchema::to_strict_json_schema

pub mod anthropic;
pub mod gemini;
pub mod mcp;
pub mod openai_chat;
pub mod openai_responses;
mod parse;
mod parts;
mod stream;

pub use crate::schema::lower::{Loosened, Lowered, Target, lower as lower_json_schema};
pub use parse::ParseError;
pub use stream::body::DEFAULT_MAX_EVENT_BYTES;
pub use stream::error::{
    BodyError, BodyErrorKind, CutStream, MAX_CODE_CHARS, MAX_MESSAGE_CHARS, ProviderError,
    StreamError,
};

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::schema::json_schema::Style;
use crate::tool::ToolSpec;
use crate::toolset::ToolsetEntry;

/// The schema of `spec`'s arguments as `target` is sent it, with whether it is strict and
/// why not (see [the table](self#the-schemas-models-are-sent)). Every module's declarations
/// use it; call it to see what a model is shown, and why a tool went without strict.
///
/// A tool with a [`ToolSchema`](crate::ToolSchema) gets the six-type export for its target,
/// declared without strict when it holds what the strict mode cannot take (a free-form
/// `dictionary`, a `list` without `items`); a tool with a JSON Schema of its own
/// ([`input_json_schema`](crate::ToolSpecBuilder::input_json_schema), an MCP server's) gets
/// that schema [lowered](lower_json_schema).
///
/// ```
/// use agentkit_core::provider::{self, Target};
/// use agentkit_core::ToolSpec;
/// use serde_json::json;
///
/// let spec = ToolSpec::builder("tag")
///     .input_json_schema(json!({"type": "object", "properties": {
///         "labels": {"type": "object", "additionalProperties": {"type": "string"}},
///     }}))
///     .build()?;
/// let lowered = provider::lower(&spec, Target::OpenAiStrict);
/// assert!(!lowered.is_strict());
/// assert_eq!(
///     lowered.not_strict_because(),
///     Some("OpenAI's strict mode cannot declare this schema: \
///           '/properties/labels' takes keys it does not name (a map)"),
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lower(spec: &ToolSpec, target: Target) -> Lowered {
    if let Some(schema) = spec.input_json() {
        return lower_json_schema(schema.as_value(), target);
    }
    let style = match target {
        Target::OpenAiStrict => Style::OpenAiStrict,
        Target::AnthropicStrict => Style::AnthropicStrict,
        _ => Style::Declaration,
    };
    let export = spec.input_schema_in(style);
    match target {
        Target::OpenAiStrict | Target::AnthropicStrict => {
            // The export is already in the strict form; the lowering only checks it.
            match lower_json_schema(&export, target).not_strict_because() {
                Some(reason) => {
                    let fallback = if target == Target::OpenAiStrict {
                        Target::OpenAi
                    } else {
                        Target::Anthropic
                    };
                    Lowered::exact(spec.input_schema_in(Style::Declaration), fallback)
                        .refused(reason.to_owned())
                }
                None => Lowered::exact(export, target),
            }
        }
        Target::GeminiOpenApi => lower_json_schema(&export, target),
        _ => Lowered::exact(export, target),
    }
}

/// What a declaration is made from: a [`ToolSpec`], declared by its own name, or a
/// [`ToolsetEntry`], declared by the name its [`Toolset`](crate::Toolset) gives it and, where
/// the view [defers](crate::Toolset::defer) it, for deferred loading.
///
/// Every module's `tools` takes either: `tools(registry.specs())`, `tools([&spec])`,
/// `tools(view.tools())`.
pub trait Declare: sealed::Sealed {
    /// The name the model is declared the tool by.
    fn declared_name(&self) -> Cow<'_, str>;

    /// The tool's spec.
    fn declared_spec(&self) -> &ToolSpec;

    /// Whether the tool is declared for deferred loading: with `defer_loading` where the API
    /// has it (Anthropic, OpenAI Responses), left out of the declarations where it has not
    /// (OpenAI Chat, Gemini: a [`ToolSearch`](crate::ToolSearch) finds it instead).
    fn is_deferred(&self) -> bool;
}

impl Declare for &ToolSpec {
    fn declared_name(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.name())
    }

    fn declared_spec(&self) -> &ToolSpec {
        self
    }

    fn is_deferred(&self) -> bool {
        false
    }
}

impl Declare for ToolsetEntry<'_> {
    fn declared_name(&self) -> Cow<'_, str> {
        self.name()
    }

    fn declared_spec(&self) -> &ToolSpec {
        self.spec()
    }

    fn is_deferred(&self) -> bool {
        ToolsetEntry::is_deferred(self)
    }
}

mod sealed {
    /// Only agentkit's types are declared: the trait may grow.
    pub trait Sealed {}
    impl Sealed for &crate::tool::ToolSpec {}
    impl Sealed for crate::toolset::ToolsetEntry<'_> {}
}

/// The declarations of `tools`, one per tool, in the order given; a deferred tool where the
/// API cannot defer (`keep_deferred` false) is left out.
fn declare<D: Declare>(
    tools: impl IntoIterator<Item = D>,
    keep_deferred: bool,
    declaration: impl FnMut(D) -> Value,
) -> Value {
    Value::Array(
        tools
            .into_iter()
            .filter(|tool| keep_deferred || !tool.is_deferred())
            .map(declaration)
            .collect(),
    )
}

/// Adds the tool's description under `description`, unless it has none: OpenAI, Anthropic
/// and MCP take the field as optional, and an empty one costs tokens for nothing.
fn describe(object: &mut Map<String, Value>, spec: &ToolSpec) {
    let description = description_with_examples(spec);
    if !description.is_empty() {
        object.insert("description".into(), Value::from(description));
    }
}

/// The most bytes of a description that the examples add, where an API has no field for
/// them: the examples that fit, in order.
const EXAMPLES_IN_DESCRIPTION: usize = 1_024;

/// The tool's description, followed, where the API has no field for [input
/// examples](ToolSpec::examples), by the examples that fit in
/// [`EXAMPLES_IN_DESCRIPTION`] bytes, one JSON object a line.
pub(crate) fn description_with_examples(spec: &ToolSpec) -> Cow<'_, str> {
    let examples = spec.examples();
    if examples.is_empty() {
        return Cow::Borrowed(spec.description());
    }
    let mut lines = String::new();
    for example in examples {
        let line = serde_json::to_string(example).unwrap_or_default();
        if lines.len() + line.len() + 1 > EXAMPLES_IN_DESCRIPTION {
            break;
        }
        lines.push('\n');
        lines.push_str(&line);
    }
    if lines.is_empty() {
        return Cow::Borrowed(spec.description());
    }
    let mut description = spec.description().to_owned();
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str("Examples of arguments:");
    description.push_str(&lines);
    Cow::Owned(description)
}
