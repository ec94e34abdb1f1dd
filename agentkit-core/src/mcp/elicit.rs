//! How [`McpClient`](super::McpClient) answers a server that asks for input during a call:
//! an elicitation (a form for the person using the agent) or a sampling request (a message
//! from the application's model), over a 2025-11-25 session as a request of the server's, at
//! 2026-07-28 as an `input_required` result (SEP-2322, MRTR) that the client answers by
//! sending the call again, and in a task waiting for input (SEP-2663) with `tasks/update`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, InputRequest, InputRequests, InputResponses,
};
#[allow(deprecated)] // MCP's sampling, which 2026-07-28 deprecates (SEP-2577), still served.
use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, SamplingCapability};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, ErrorData, RoleClient};
use serde_json::Value;

/// The application's answer to an elicitation, as given to
/// [`McpClientBuilder::on_elicitation`](super::McpClientBuilder::on_elicitation).
pub(crate) type Elicit = Arc<
    dyn Fn(ElicitRequestParams) -> Pin<Box<dyn Future<Output = ElicitResult> + Send>> + Send + Sync,
>;

/// The application's answer to a sampling request, as given to
/// [`McpClientBuilder::on_sampling`](super::McpClientBuilder::on_sampling).
#[allow(deprecated)] // MCP's sampling (SEP-2577).
pub(crate) type Sample = Arc<
    dyn Fn(
            CreateMessageRequestParams,
        ) -> Pin<Box<dyn Future<Output = Result<CreateMessageResult, ErrorData>> + Send>>
        + Send
        + Sync,
>;

/// How the application answers what a server asks during a call: an elicitation, a sampling
/// request; `None` for what it does not answer.
#[derive(Clone, Default)]
pub(crate) struct Answers {
    pub(crate) elicit: Option<Elicit>,
    pub(crate) sample: Option<Sample>,
}

/// What the client says of itself, and how it answers the server's requests over a session.
#[derive(Clone)]
pub(crate) struct Handler {
    config: ClientConfig,
    answers: Answers,
}

impl Handler {
    /// The client `config` describes, declaring elicitation and sampling where `answers`
    /// answers them.
    pub(crate) fn new(mut config: ClientConfig, answers: Answers) -> Self {
        let mut capabilities: ClientCapabilities = config.capabilities.clone();
        if answers.elicit.is_some() {
            // `{}`: form elicitation, understood by every revision that has elicitation.
            capabilities.elicitation = Some(ElicitationCapability::default());
        }
        if answers.sample.is_some() {
            #[allow(deprecated)] // MCP's sampling (SEP-2577).
            let sampling = SamplingCapability::default();
            capabilities.sampling = Some(sampling);
        }
        config.capabilities = capabilities;
        Handler { config, answers }
    }
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(answer(self.answers.elicit.as_ref(), request).await)
    }

    #[allow(deprecated)] // MCP's sampling (SEP-2577).
    async fn create_message(
        &self,
        request: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match &self.answers.sample {
            Some(sample) => sample(request).await,
            // Not declared, so not asked by a server that follows MCP.
            None => Err(ErrorData::method_not_found::<
                rmcp::model::CreateMessageRequestMethod,
            >()),
        }
    }
}

/// The answer to an elicitation: the application's, with the form's defaults filled in
/// where an accepted answer leaves a field out (SEP-1034); `decline` when the application
/// answers none.
pub(crate) async fn answer(elicit: Option<&Elicit>, request: ElicitRequestParams) -> ElicitResult {
    let Some(elicit) = elicit else {
        return ElicitResult::new(ElicitationAction::Decline);
    };
    let defaults = match &request {
        ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } => serde_json::to_value(requested_schema).ok(),
        _ => None,
    };
    let mut result = elicit(request).await;
    if let (ElicitationAction::Accept, Some(schema)) = (&result.action, defaults) {
        let mut content = result
            .content
            .take()
            .unwrap_or_else(|| Value::Object(Default::default()));
        fill_defaults(&schema, &mut content);
        result.content = Some(content);
    }
    result
}

/// Fills in `content`, an accepted form, each field of `schema` it leaves out that has a
/// `default`. A field given, even `null`, is the person's answer and stays.
pub(crate) fn fill_defaults(schema: &Value, content: &mut Value) {
    let (Some(properties), Value::Object(content)) =
        (schema.get("properties").and_then(Value::as_object), content)
    else {
        return;
    };
    for (name, property) in properties {
        if let Some(default) = property.get("default")
            && !content.contains_key(name)
        {
            content.insert(name.clone(), default.clone());
        }
    }
}

/// A server asked, during a call, for input the client could not give: the source of the
/// call's [`McpError`](super::McpError) of kind [`Input`](super::McpErrorKind::Input).
#[derive(Debug)]
pub(crate) enum UnansweredInput {
    /// Input of a kind the client does not offer (sampling without a sampling handler).
    NotOffered(&'static str),
    /// The application's sampling handler failed, with its error.
    Sampling(ErrorData),
}

impl std::fmt::Display for UnansweredInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnansweredInput::NotOffered(what) => write!(
                f,
                "the server asked for {what}, which this client does not offer"
            ),
            UnansweredInput::Sampling(error) => write!(
                f,
                "the server asked for sampling, and the sampling handler failed: {}",
                error.message
            ),
        }
    }
}

impl std::error::Error for UnansweredInput {}

/// The answers to the input requests of an `input_required` result or a task waiting for
/// input, by their keys: each elicitation answered as over a session ([`answer`]), each
/// sampling request by the application's handler (none: the call fails), a roots request
/// with no roots (the client offers none).
pub(crate) async fn fulfill(
    answers: &Answers,
    requests: InputRequests,
) -> Result<InputResponses, UnansweredInput> {
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let response = match request {
            InputRequest::Elicitation(request) => {
                let result = answer(answers.elicit.as_ref(), request.params).await;
                serde_json::to_value(result)
                    .map_err(|_| UnansweredInput::NotOffered("an elicitation"))?
            }
            // MCP's roots (deprecated at 2026-07-28): the client offers none.
            InputRequest::ListRoots(_) => serde_json::json!({"roots": []}),
            InputRequest::CreateMessage(request) => {
                let Some(sample) = &answers.sample else {
                    return Err(UnansweredInput::NotOffered("sampling"));
                };
                let result = sample(request.params)
                    .await
                    .map_err(UnansweredInput::Sampling)?;
                serde_json::to_value(result).map_err(|_| UnansweredInput::NotOffered("sampling"))?
            }
            _ => {
                return Err(UnansweredInput::NotOffered(
                    "a kind of input it does not know",
                ));
            }
        };
        responses.insert(key, response);
    }
    Ok(responses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_fill_the_fields_an_answer_leaves_out() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "note": {"type": "string"},
            "verified": {"type": "boolean", "default": true},
        }});
        let mut content = json!({"name": "Ada", "verified": null});
        fill_defaults(&schema, &mut content);
        assert_eq!(content, json!({"name": "Ada", "age": 30, "verified": null}));
        // Not a form: nothing to fill.
        let mut text = json!("yes");
        fill_defaults(&schema, &mut text);
        assert_eq!(text, json!("yes"));
    }
}
