//! Conversions between agentkit's values and rmcp's model types, in both directions.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{
    CallToolResult, ContentBlock, ResourceContents as McpResourceContents, Role,
    Tool as McpToolInfo,
};
use serde_json::{Map, Value};

use crate::content::{Content, EmbeddedResource, ResourceContents, ResourceLink, ToolOutput};
use crate::model_text::{escape_json_text, truncate_content};

use crate::provider::mcp::is_error;
use crate::result::{ToolResult, ToolStatus};
use crate::schema::json_schema::Style;
use crate::schema::{JsonObject, ToolSchema};
use crate::tool::ToolSpec;

/// The `_meta` key under which a tool's tags travel (an object of strings).
pub(crate) const TAGS_META_KEY: &str = "agentkit/tags";

/// A tool's spec as MCP's `tools/list` declares it: name, description, `inputSchema`,
/// `outputSchema` (when the tool declares an output schema), and the tags as an object of
/// strings under `_meta["agentkit/tags"]` (MCP has no field for them).
///
/// ```
/// use agentkit_core::mcp::to_mcp_tool;
/// use agentkit_core::{Param, ParamType, ToolSchema, ToolSpec};
///
/// let spec = ToolSpec::builder("fetch_weather")
///     .description("Look up the current weather for a city.")
///     .input(ToolSchema::new([Param::required("city", ParamType::String)])?)
///     .tag("category", "weather")
///     .build()?;
/// let tool = to_mcp_tool(&spec);
/// assert_eq!(tool.name, "fetch_weather");
/// assert_eq!(tool.input_schema["required"], serde_json::json!(["city"]));
/// assert!(tool.output_schema.is_none());
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub fn to_mcp_tool(spec: &ToolSpec) -> McpToolInfo {
    let mut tool = McpToolInfo::new(
        spec.name().to_owned(),
        // MCP has no field for input examples: they follow the description.
        crate::provider::description_with_examples(spec).into_owned(),
        into_object(spec.input_schema_in(Style::Declaration)),
    );
    if let Some(output) = spec.output_schema_in(Style::Declaration) {
        tool = tool.with_raw_output_schema(Arc::new(into_object(output)));
    }
    let annotations = spec.annotations();
    if !annotations.is_empty() {
        let mut hints = rmcp::model::ToolAnnotations::new();
        hints.title = annotations.title().map(str::to_owned);
        hints.read_only_hint = annotations.read_only();
        hints.destructive_hint = annotations.destructive();
        hints.idempotent_hint = annotations.idempotent();
        hints.open_world_hint = annotations.open_world();
        tool.title = annotations.title().map(str::to_owned);
        tool.annotations = Some(hints);
    }
    if spec.tags().len() > 0 {
        let tags: Map<String, Value> = spec
            .tags()
            .map(|(k, v)| (k.to_owned(), Value::from(v)))
            .collect();
        let mut meta = rmcp::model::MetaObject::new();
        meta.insert(TAGS_META_KEY.to_owned(), Value::Object(tags));
        tool = tool.with_meta(meta);
    }
    tool
}

/// A [`ToolResult`] as MCP's `tools/call` answers it.
///
/// On success: the structured output as a text block of JSON, plus the output as
/// `structuredContent` when the tool declares an output schema (MCP asks for it then, and for
/// the text block beside it): any JSON value, as MCP's 2026-07-28 revision allows (rmcp's
/// server moves a value that is not an object into a text block for a client on an older
/// revision, whose `structuredContent` must be an object); then each content part as its own block (text, image, audio,
/// resource link, embedded resource). A result of text parts alone is its text blocks. On
/// failure of any kind (invalid arguments, a tool error, a retry asked for, a denial, a
/// timeout): `isError: true` with the model-facing text, so that the model reads what went
/// wrong and can correct its call. A call [awaiting approval](crate::ToolStatus::Deferred)
/// has not failed, and the text says that its result will follow: `isError: false`, unless
/// the tool declares an output schema (`structured`). MCP asks a result that is not an error
/// to carry `structuredContent` matching that schema, which a call that has not run cannot;
/// the official clients refuse such a result, so it is answered with `isError: true`.
///
/// ```
/// use agentkit_core::mcp::to_call_tool_result;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("1", "nope", "{}")));
/// let answer = to_call_tool_result(&result, false);
/// assert_eq!(answer.is_error, Some(true));
/// assert_eq!(answer.content[0].as_text().unwrap().text, "Error: unknown tool 'nope'");
/// ```
pub fn to_call_tool_result(result: &ToolResult, structured: bool) -> CallToolResult {
    match result.status() {
        ToolStatus::Success => {}
        // A failure, or a call awaiting approval: its text alone (no output to give as
        // structured content), `isError` by the rule `provider::mcp` answers by too.
        status => {
            let text = vec![ContentBlock::text(result.to_model_content())];
            return if is_error(status, structured) {
                CallToolResult::error(text)
            } else {
                CallToolResult::success(text)
            };
        }
    }
    let parts = result.content();
    let mut blocks = Vec::with_capacity(parts.len() + 1);
    match result.output() {
        Some(output) if parts.is_empty() => {
            blocks.push(ContentBlock::text(result.to_model_content()));
            let mut answer = CallToolResult::success(blocks);
            if structured {
                answer.structured_content = Some(output.clone());
            }
            return answer;
        }
        Some(output) => {
            // Bounded as in the model text; `structuredContent` carries the whole.
            let json = serde_json::to_string(output).unwrap_or_else(|_| "null".to_owned());
            let max = result.text_limits().max_content_bytes();
            blocks.push(ContentBlock::text(truncate_content(
                escape_json_text(json),
                max,
            )));
        }
        None => {}
    }
    blocks.extend(parts.iter().map(to_content_block));
    let mut answer = CallToolResult::success(blocks);
    if let (true, Some(output)) = (structured, result.output()) {
        answer.structured_content = Some(output.clone());
    }
    answer
}

/// [`to_call_tool_result`], taking the result: on the common success (structured output, no
/// content parts), the output goes into `structuredContent` as it is, not copied (a served
/// call's output is otherwise copied key by key, string by string, for nothing). The same
/// answer in every case.
pub(crate) fn into_call_tool_result(result: ToolResult, structured: bool) -> CallToolResult {
    if !structured || result.status() != ToolStatus::Success || !result.content().is_empty() {
        return to_call_tool_result(&result, structured);
    }
    // A `#[tool]` output's text is written from its fields, and only then are they moved
    // into the object.
    let text = result.to_model_content();
    match result
        .into_result()
        .ok()
        .and_then(ToolOutput::into_structured)
    {
        Some(output) => {
            let mut answer = CallToolResult::success(vec![ContentBlock::text(text)]);
            answer.structured_content = Some(output);
            answer
        }
        // No output and no parts: no blocks, as `to_call_tool_result` answers it.
        None => CallToolResult::success(Vec::new()),
    }
}

/// A content part as an MCP content block.
pub fn to_content_block(part: &Content) -> ContentBlock {
    match part {
        Content::Text(text) => ContentBlock::text(text.clone()),
        Content::Image(media) => ContentBlock::image(media.to_base64(), media.mime_type()),
        Content::Audio(media) => ContentBlock::audio(media.to_base64(), media.mime_type()),
        Content::ResourceLink(link) => {
            let mut resource = rmcp::model::Resource::new(link.uri(), link.name());
            resource.mime_type = link.mime_type().map(str::to_owned);
            resource.description = link.description().map(str::to_owned);
            ContentBlock::resource_link(resource)
        }
        Content::Resource(resource) => {
            let contents = match resource.contents() {
                ResourceContents::Text(text) => {
                    McpResourceContents::text(text.clone(), resource.uri())
                }
                ResourceContents::Blob(data) => {
                    McpResourceContents::blob(STANDARD.encode(data), resource.uri())
                }
            };
            let contents = match resource.mime_type() {
                Some(mime_type) => contents.with_mime_type(mime_type),
                None => contents,
            };
            ContentBlock::resource(contents)
        }
    }
}

/// An MCP content block as a content part; `None` for one that does not decode (binary data
/// that is not base64).
pub fn from_content_block(block: &ContentBlock) -> Option<Content> {
    let decode = |data: &str| STANDARD.decode(data).ok();
    Some(match block {
        ContentBlock::Text(text) => Content::text(text.text.clone()),
        ContentBlock::Image(image) => Content::image(decode(&image.data)?, image.mime_type.clone()),
        ContentBlock::Audio(audio) => Content::audio(decode(&audio.data)?, audio.mime_type.clone()),
        ContentBlock::ResourceLink(link) => {
            let mut ours = ResourceLink::new(link.uri.clone(), link.name.clone());
            if let Some(mime_type) = &link.mime_type {
                ours = ours.with_mime_type(mime_type.clone());
            }
            if let Some(description) = &link.description {
                ours = ours.with_description(description.clone());
            }
            Content::ResourceLink(ours)
        }
        ContentBlock::Resource(embedded) => {
            let (resource, mime_type) = match &embedded.resource {
                McpResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    ..
                } => (EmbeddedResource::text(uri.clone(), text.clone()), mime_type),
                McpResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    ..
                } => (
                    EmbeddedResource::blob(uri.clone(), decode(blob)?),
                    mime_type,
                ),
                _ => return None,
            };
            Content::Resource(match mime_type {
                Some(mime_type) => resource.with_mime_type(mime_type.clone()),
                None => resource,
            })
        }
        _ => return None,
    })
}

/// The text of an MCP tool result's text blocks for the model, one per line (a block whose
/// `audience` leaves out the assistant is not the model's: see [`result_output`]).
pub(crate) fn result_text(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter(|block| for_the_model(block))
        .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
        .collect();
    texts.join("\n")
}

/// What an MCP tool result gives an agentkit tool as output.
///
/// `structuredContent` (any JSON value, as MCP's 2026-07-28 revision allows) is the structured
/// output, and the content blocks are content parts, the model's or the application's
/// ([`ToolOutput::with_app_part`]): the model sees each piece of data once, the application
/// keeps everything the server sent.
///
/// - A block whose `annotations.audience` does not include `"assistant"` (`["user"]`) is
///   the application's: MCP says it is not meant for the model.
/// - A text block that only [repeats](repeats_structured) the structured output is the
///   application's: the model reads that output already (MCP asks servers to send the JSON of
///   `structuredContent` as a text block too, for older clients, and most do).
///
/// A block that does not decode is described in text.
pub(crate) fn result_output(result: CallToolResult) -> ToolOutput {
    let structured = result.structured_content;
    let mut output = ToolOutput::content_only([]);
    for block in &result.content {
        let part = from_content_block(block)
            .unwrap_or_else(|| Content::text("[a content block that could not be read]"));
        let repeats = structured
            .as_ref()
            .is_some_and(|structured| repeats_structured(block, structured));
        output = if repeats || !for_the_model(block) {
            output.with_app_part(part)
        } else {
            output.with(part)
        };
    }
    match structured {
        Some(structured) => output.with_structured(structured),
        None => output,
    }
}

/// Whether `block` is meant for the model: it has no `audience`, or one that includes the
/// assistant.
fn for_the_model(block: &ContentBlock) -> bool {
    let annotations = match block {
        ContentBlock::Text(text) => &text.annotations,
        ContentBlock::Image(image) => &image.annotations,
        ContentBlock::Audio(audio) => &audio.annotations,
        ContentBlock::Resource(resource) => &resource.annotations,
        ContentBlock::ResourceLink(link) => &link.annotations,
        // A kind of block from a later revision: the model's, as any block is by default.
        _ => return true,
    };
    let audience = annotations.as_ref().and_then(|a| a.audience.as_ref());
    audience.is_none_or(|audience| audience.contains(&Role::Assistant))
}

/// Whether `block` is a text block with the same data as `structured`, the result's
/// `structuredContent`:
///
/// - its text, read as JSON, is the same value: whatever the spacing, indentation and key
///   order (`JSON.stringify(value, null, 2)`, as the reference servers write it), and numbers
///   compared as numbers (`1.0` is `1`);
/// - or `structured` is an object of one string, and the text is that string: a server that
///   wraps its text result to fit an output schema (`{"content": text}`, as the reference
///   filesystem server does).
///
/// Text that differs in any other way (cut, rephrased, a summary) is kept for the model: it
/// may say what the structured output does not.
pub(crate) fn repeats_structured(block: &ContentBlock, structured: &Value) -> bool {
    let ContentBlock::Text(text) = block else {
        return false;
    };
    let wrapped = match structured {
        Value::Object(object) if object.len() == 1 => {
            object.values().next().and_then(Value::as_str)
        }
        _ => None,
    };
    wrapped == Some(text.text.as_str())
        || serde_json::from_str::<Value>(&text.text).is_ok_and(|json| same_json(&json, structured))
}

/// JSON equality with numbers compared by value: `1.0` and `1` are the same number (JSON
/// does not tell them apart; serde_json's `Value` does).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same_json(x, y)))
        }
        _ => a == b,
    }
}

/// The part of a JSON Schema that a [`ToolSchema`] can check, or `None` when the schema does
/// not fit the six types and their nesting: [`ToolSchema::from_json_schema`], which says what
/// fits.
pub fn schema_from_json_schema(schema: &Value) -> Option<ToolSchema> {
    ToolSchema::from_json_schema(schema)
}

/// A schema as the object rmcp's `Tool` holds: JSON Schema's boolean schemas (an output may
/// be declared `true`, anything, or `false`, nothing) as the objects that say the same.
pub(crate) fn into_object(schema: Value) -> JsonObject {
    match schema {
        Value::Object(object) => object,
        Value::Bool(false) => {
            let mut nothing = JsonObject::new();
            nothing.insert("not".to_owned(), Value::Object(JsonObject::new()));
            nothing
        }
        // `true`, and (never built) any other value: anything.
        _ => JsonObject::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoxError, ParamType, ToolCall, ToolContext, ToolExecutor, ToolRegistry, block_on};
    use crate::{Param, Tool};

    /// Answers as its `kind` argument says: structured output, output and a part, nothing,
    /// or a failure.
    struct Shapes(ToolSpec);

    impl Tool for Shapes {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }

        async fn execute(
            &self,
            arguments: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let structured: JsonObject = serde_json::from_str(r#"{"n":1,"s":"x"}"#)?;
            match arguments["kind"].as_str() {
                Some("json") => Ok(ToolOutput::structured_only(structured)),
                Some("parts") => {
                    Ok(ToolOutput::from(Content::text("a part")).with_structured(structured))
                }
                Some("none") => Ok(ToolOutput::content_only([])),
                _ => Err("it failed".into()),
            }
        }
    }

    /// A tool declared with an output JSON Schema, returning what `kind` says.
    struct Values(ToolSpec);

    impl Tool for Values {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }

        async fn execute(
            &self,
            arguments: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            Ok(match arguments["kind"].as_str() {
                Some("list") => ToolOutput::from(serde_json::json!(["a", "b"])),
                Some("number") => ToolOutput::from(serde_json::json!(7)),
                Some("parts") => ToolOutput::from(Content::text("a part"))
                    .with_structured(serde_json::json!([1])),
                _ => ToolOutput::from(serde_json::json!({"not": "allowed"})),
            })
        }
    }

    fn values_executor() -> ToolExecutor {
        let spec = ToolSpec::builder("values")
            .input(ToolSchema::new([Param::required("kind", ParamType::String)]).expect("schema"))
            .output_json_schema(serde_json::json!({"type": ["array", "number"]}))
            .build()
            .expect("spec");
        let mut registry = ToolRegistry::new();
        registry.register(Values(spec)).expect("registers");
        ToolExecutor::new(registry)
    }

    #[test]
    fn a_value_that_is_not_an_object_is_structured_content_beside_its_text() {
        let executor = values_executor();
        let tool = to_mcp_tool(executor.registry().lookup("values").expect("registered"));
        assert_eq!(
            tool.output_schema.as_deref().cloned().map(Value::Object),
            Some(serde_json::json!({"type": ["array", "number"]}))
        );
        for (kind, value, text) in [
            ("list", serde_json::json!(["a", "b"]), r#"["a","b"]"#),
            ("number", serde_json::json!(7), "7"),
        ] {
            let arguments = format!(r#"{{"kind":"{kind}"}}"#);
            let result = block_on(executor.dispatch(&ToolCall::new("1", "values", arguments)));
            let answer = to_call_tool_result(&result, true);
            assert_eq!(answer.structured_content.as_ref(), Some(&value), "{kind}");
            assert_eq!(answer.is_error, Some(false));
            assert_eq!(
                answer.content[0].as_text().map(|t| t.text.as_str()),
                Some(text)
            );
            // Read back by a client: the value, without the text block that repeats it.
            let output = result_output(answer);
            assert_eq!(output.structured(), Some(&value), "{kind}");
            assert!(output.content().is_empty(), "{kind}");
        }
        // An object the schema refuses never reaches `structuredContent`.
        let result = block_on(executor.dispatch(&ToolCall::new("1", "values", r#"{"kind":"x"}"#)));
        let answer = to_call_tool_result(&result, true);
        assert_eq!(answer.is_error, Some(true));
        assert_eq!(answer.structured_content, None);
    }

    #[test]
    fn a_client_keeps_the_blocks_that_do_not_repeat_the_value() {
        let mut answer = CallToolResult::success(vec![
            ContentBlock::text("[1, 2]"),
            ContentBlock::text("two"),
        ]);
        answer.structured_content = Some(serde_json::json!([1, 2]));
        let output = result_output(answer);
        assert_eq!(output.structured(), Some(&serde_json::json!([1, 2])));
        assert_eq!(output.content(), [Content::text("two")]);
        // The application keeps the text the model does not need.
        assert_eq!(output.app_content(), [Content::text("[1, 2]")]);
        // `null` is a value too.
        let mut answer = CallToolResult::success(vec![ContentBlock::text("null")]);
        answer.structured_content = Some(Value::Null);
        let output = result_output(answer);
        assert_eq!(output.structured(), Some(&Value::Null));
        assert!(output.content().is_empty());
    }

    #[test]
    fn the_same_data_is_told_apart_from_other_text() {
        let structured = serde_json::json!({"entities": [{"name": "Ada", "age": 36.0}], "n": 1});
        let text = |text: &str| ContentBlock::text(text.to_owned());
        // Pretty-printed, keys in another order, `36` for `36.0`: the same data.
        let pretty =
            "{\n  \"n\": 1.0,\n  \"entities\": [\n    {\"age\": 36, \"name\": \"Ada\"}\n  ]\n}";
        assert!(repeats_structured(&text(pretty), &structured));
        // Another value, a cut one, or prose: not the same.
        for other in [
            r#"{"entities": [{"name": "Ada", "age": 37}], "n": 1}"#,
            r#"{"entities": [{"name": "Ada", "age": 36}]}"#,
            r#"{"entities": [{"name": "Ada", "age": 36}], "n": 1, "more": true}"#,
            r#"{"entities": [{"name": "Ada"#,
            "1 entity: Ada",
        ] {
            assert!(!repeats_structured(&text(other), &structured), "{other}");
        }
        // A text wrapped in an object to fit an output schema, as the reference filesystem
        // server sends it.
        let wrapped = serde_json::json!({"content": "[FILE] a.txt"});
        assert!(repeats_structured(&text("[FILE] a.txt"), &wrapped));
        assert!(!repeats_structured(&text("[FILE] b.txt"), &wrapped));
        let two = serde_json::json!({"content": "[FILE] a.txt", "total": 1});
        assert!(!repeats_structured(&text("[FILE] a.txt"), &two));
        // Only text repeats.
        let image = ContentBlock::image(STANDARD.encode([1, 2]), "image/png");
        assert!(!repeats_structured(&image, &serde_json::json!({})));
    }

    #[test]
    fn blocks_for_the_user_alone_are_the_applications() {
        let audience = |text: &str, roles: Vec<Role>| {
            let mut annotations = rmcp::model::Annotations::default();
            annotations.audience = Some(roles);
            let mut block = rmcp::model::TextContent::new(text.to_owned());
            block.annotations = Some(annotations);
            ContentBlock::Text(block)
        };
        let answer = CallToolResult::success(vec![
            audience("for the person", vec![Role::User]),
            audience("for both", vec![Role::User, Role::Assistant]),
            audience("for the model", vec![Role::Assistant]),
            ContentBlock::text("unannotated"),
        ]);
        assert_eq!(result_text(&answer), "for both\nfor the model\nunannotated");
        let output = result_output(answer);
        assert_eq!(
            output.content(),
            [
                Content::text("for both"),
                Content::text("for the model"),
                Content::text("unannotated")
            ]
        );
        assert_eq!(output.app_content(), [Content::text("for the person")]);
        assert_eq!(output.structured(), None);
    }

    #[test]
    fn boolean_schemas_are_declared_as_the_objects_that_say_the_same() {
        assert_eq!(into_object(Value::Bool(true)), JsonObject::new());
        let nothing = Value::Object(into_object(Value::Bool(false)));
        assert_eq!(nothing, serde_json::json!({"not": {}}));
        let refuses_all = crate::JsonSchema::new(nothing).expect("compiles");
        assert!(!refuses_all.is_valid(&serde_json::json!(1)));
    }

    #[test]
    fn taking_the_result_answers_as_borrowing_it() {
        let output = ToolSchema::new([
            Param::optional("n", ParamType::Integer),
            Param::optional("s", ParamType::String),
        ])
        .expect("schema");
        let spec = ToolSpec::builder("shapes")
            .input(ToolSchema::new([Param::required("kind", ParamType::String)]).expect("schema"))
            .output(output)
            .build()
            .expect("spec");
        let mut registry = ToolRegistry::new();
        registry.register(Shapes(spec)).expect("registers");
        let executor = ToolExecutor::new(registry);
        for kind in ["json", "parts", "none", "fail"] {
            for structured in [true, false] {
                let arguments = format!(r#"{{"kind":"{kind}"}}"#);
                let result = block_on(executor.dispatch(&ToolCall::new("1", "shapes", arguments)));
                let borrowed = serde_json::to_value(to_call_tool_result(&result, structured));
                let taken = serde_json::to_value(into_call_tool_result(result, structured));
                assert_eq!(
                    taken.expect("json"),
                    borrowed.expect("json"),
                    "{kind}, {structured}"
                );
            }
        }
        // Values that are not objects, alone and with parts.
        let executor = values_executor();
        for kind in ["list", "number", "parts", "refused"] {
            let arguments = format!(r#"{{"kind":"{kind}"}}"#);
            let result = block_on(executor.dispatch(&ToolCall::new("1", "values", arguments)));
            let borrowed = serde_json::to_value(to_call_tool_result(&result, true));
            let taken = serde_json::to_value(into_call_tool_result(result, true));
            assert_eq!(taken.expect("json"), borrowed.expect("json"), "{kind}");
        }
    }
}
