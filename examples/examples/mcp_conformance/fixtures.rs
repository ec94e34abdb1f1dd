//! What the conformance suite asks of a server beside tools: resources (static, binary, from a
//! template, subscribable), prompts (simple, with arguments, with an embedded resource, with
//! an image, and one that first asks the user for input) and argument completion. Served by
//! the same `McpServer` as the tools, through its seam for the other MCP methods
//! ([`McpResources`], [`McpPrompts`], [`McpCompletions`]), written in rmcp's types.

use std::collections::BTreeSet;
use std::sync::{Mutex, PoisonError};

use agentkit_core::Media;
use agentkit_core::mcp::rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ContentBlock, ElicitRequest,
    ElicitRequestParams, GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequest,
    InputRequests, InputRequiredResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, Resource, ResourceContents, ResourceTemplate, ResourcesCapability, Role,
    SubscribeRequestParams, UnsubscribeRequestParams,
};
use agentkit_core::mcp::rmcp::service::RequestContext;
use agentkit_core::mcp::rmcp::{ErrorData, RoleServer};
use agentkit_core::mcp::{McpCompletions, McpPrompts, McpResources};
use agentkit_core::serde_json::{Value, json};

use super::RED_PIXEL_PNG;

/// The resources, prompts and completions of the suite, and the URIs clients subscribed to
/// (a server that changes a resource sends `notifications/resources/updated` to them).
#[derive(Default)]
pub(crate) struct Fixtures {
    subscribed: Mutex<BTreeSet<String>>,
}

type Context = RequestContext<RoleServer>;

// ---------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------

const STATIC_TEXT: &str = "test://static-text";
const STATIC_BINARY: &str = "test://static-binary";
const WATCHED: &str = "test://watched-resource";
/// The template's URI, around the `{id}` it substitutes.
const TEMPLATE: (&str, &str) = ("test://template/", "/data");

impl Fixtures {
    /// Whether `uri` names a resource: a listed one, or one the template describes.
    fn exists(uri: &str) -> bool {
        [STATIC_TEXT, STATIC_BINARY, WATCHED].contains(&uri) || template_id(uri).is_some()
    }
}

/// The `{id}` of a URI of the template `test://template/{id}/data`: one path segment.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix(TEMPLATE.0)?.strip_suffix(TEMPLATE.1)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// "Resource not found", with the URI, as SEP-2164 asks (rmcp sends the code each revision
/// wants: -32602 from 2026-07-28, -32002 before).
fn not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found("Resource not found", Some(json!({ "uri": uri })))
}

impl McpResources for Fixtures {
    fn capabilities(&self) -> ResourcesCapability {
        let mut capabilities = ResourcesCapability::default();
        capabilities.subscribe = Some(true);
        capabilities
    }

    async fn list_resources(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(STATIC_TEXT, "static-text")
                .with_description("A static text resource for testing")
                .with_mime_type("text/plain"),
            Resource::new(STATIC_BINARY, "static-binary")
                .with_description("A static binary resource (a PNG image) for testing")
                .with_mime_type("image/png"),
            Resource::new(WATCHED, "watched-resource")
                .with_description("A resource to subscribe to")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new("test://template/{id}/data", "template")
            .with_description("A resource template with an id to substitute")
            .with_mime_type("application/json");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _: Context,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let contents = match uri.as_str() {
            STATIC_TEXT => {
                ResourceContents::text("This is the content of the static text resource.", &uri)
                    .with_mime_type("text/plain")
            }
            STATIC_BINARY => {
                let png = Media::new(RED_PIXEL_PNG, "image/png");
                ResourceContents::blob(png.to_base64(), &uri).with_mime_type("image/png")
            }
            WATCHED => ResourceContents::text("The watched resource's content.", &uri)
                .with_mime_type("text/plain"),
            _ => {
                let Some(id) = template_id(&uri) else {
                    return Err(not_found(&uri));
                };
                let data =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                ResourceContents::text(data.to_string(), &uri).with_mime_type("application/json")
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _: Context,
    ) -> Result<(), ErrorData> {
        if !Fixtures::exists(&request.uri) {
            return Err(not_found(&request.uri));
        }
        let mut subscribed = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        subscribed.insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _: Context,
    ) -> Result<(), ErrorData> {
        let mut subscribed = self
            .subscribed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        subscribed.remove(&request.uri);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------------

/// The key of the one input the input-requiring prompt asks for.
const USER_CONTEXT: &str = "user_context";

impl McpPrompts for Fixtures {
    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: Context,
    ) -> Result<ListPromptsResult, ErrorData> {
        let required = |name: &str, description: &str| {
            PromptArgument::new(name)
                .with_description(description)
                .with_required(true)
        };
        Ok(ListPromptsResult::with_all_items(vec![
            Prompt::new(
                "test_simple_prompt",
                Some("A simple prompt without arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("A prompt with two arguments"),
                Some(vec![
                    required("arg1", "First test argument"),
                    required("arg2", "Second test argument"),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("A prompt that embeds a resource"),
                Some(vec![required(
                    "resourceUri",
                    "URI of the resource to embed",
                )]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("A prompt with an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("A prompt that first asks the user for its context (2026-07-28 clients)"),
                None,
            ),
        ]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: Context,
    ) -> Result<GetPromptResponse, ErrorData> {
        let argument = |name: &str| -> Result<String, ErrorData> {
            let value = request.arguments.as_ref().and_then(|a| a.get(name));
            value
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| {
                    ErrorData::invalid_params(format!("missing string argument '{name}'"), None)
                })
        };
        let user = |content: ContentBlock| PromptMessage::new(Role::User, content);
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![user(ContentBlock::text(
                "This is a simple prompt for testing.",
            ))],
            "test_prompt_with_arguments" => {
                let (arg1, arg2) = (argument("arg1")?, argument("arg2")?);
                vec![user(ContentBlock::text(format!(
                    "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
                )))]
            }
            "test_prompt_with_embedded_resource" => {
                let resource = ResourceContents::text(
                    "Embedded resource content for testing.",
                    argument("resourceUri")?,
                )
                .with_mime_type("text/plain");
                vec![
                    user(ContentBlock::resource(resource)),
                    user(ContentBlock::text(
                        "Please process the embedded resource above.",
                    )),
                ]
            }
            "test_prompt_with_image" => {
                let png = Media::new(RED_PIXEL_PNG, "image/png");
                vec![
                    user(ContentBlock::image(png.to_base64(), png.mime_type())),
                    user(ContentBlock::text("Please analyze the image above.")),
                ]
            }
            "test_input_required_result_prompt" => {
                return input_required_prompt(&request, &context);
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown prompt '{}'", bounded(other)),
                    None,
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }
}

/// The prompt that needs the user's context first (SEP-2322, multi round-trip requests):
/// without it, an `InputRequiredResult` asking for it (an elicitation the client runs, then
/// retries with the answer in `inputResponses`); with it, the prompt. Only clients of
/// 2026-07-28 take such a result; an older one would be asked during the request instead.
fn input_required_prompt(
    request: &GetPromptRequestParams,
    context: &Context,
) -> Result<GetPromptResponse, ErrorData> {
    let answered = request
        .input_responses
        .as_ref()
        .and_then(|responses| responses.get(USER_CONTEXT))
        .filter(|answer| answer["action"] == "accept")
        .and_then(|answer| answer["content"]["context"].as_str());
    if let Some(user_context) = answered {
        let text = format!(
            "Answer with this context in mind: {}",
            bounded(user_context)
        );
        let message = PromptMessage::new_text(Role::User, text);
        return Ok(GetPromptResult::new(vec![message]).into());
    }
    let revision = context.protocol_version();
    if revision.is_none_or(|v| v.as_str() < ProtocolVersion::V_2026_07_28.as_str()) {
        return Err(ErrorData::invalid_params(
            "this prompt asks the client for input first, which takes a client of the \
             2026-07-28 revision",
            None,
        ));
    }
    let schema = json!({
        "type": "object",
        "properties": {"context": {"type": "string"}},
        "required": ["context"],
    });
    let ask = ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: "What context should the prompt use?".to_owned(),
        requested_schema: agentkit_core::serde_json::from_value(schema)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
    };
    let mut requests = InputRequests::new();
    requests.insert(
        USER_CONTEXT.to_owned(),
        InputRequest::Elicitation(ElicitRequest::new(ask)),
    );
    Ok(InputRequiredResult::from_input_requests(requests).into())
}

/// At most 200 characters of text a client sent, for a message back to it.
fn bounded(text: &str) -> String {
    text.chars().take(200).collect()
}

// ---------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------

/// The values `arg1` of `test_prompt_with_arguments` completes to.
const ARG1_VALUES: [&str; 3] = ["paris", "park", "party"];

impl McpCompletions for Fixtures {
    async fn complete(
        &self,
        request: CompleteRequestParams,
        _: Context,
    ) -> Result<CompleteResult, ErrorData> {
        let known = match &request.r#ref {
            Reference::Prompt(prompt) => {
                prompt.name == "test_prompt_with_arguments" && request.argument.name == "arg1"
            }
            _ => false,
        };
        let typed = request.argument.value.as_str();
        let values = if known {
            let matching = ARG1_VALUES.iter().filter(|value| value.starts_with(typed));
            matching.map(|value| (*value).to_owned()).collect()
        } else {
            Vec::new()
        };
        let completion = CompletionInfo::with_all_values(values)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(completion))
    }
}
