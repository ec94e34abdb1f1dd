//! How [`McpClient`](super::McpClient) answers a server that asks for input during a call:
//! an elicitation (a form for the person using the agent), over a 2025-11-25 session as a
//! request of the server's, and at 2026-07-28 as an `input_required` result (SEP-2322, MRTR)
//! that the client answers by sending the call again.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::ClientHandler;
use rmcp::RoleClient;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult, ElicitationAction,
    ElicitationCapability, InputRequest, InputRequests, InputResponses,
};
use rmcp::service::RequestContext;
use serde_json::Value;

/// The application's answer to an elicitation, as given to
/// [`McpClientBuilder::on_elicitation`](super::McpClientBuilder::on_elicitation).
pub(crate) type Elicit = Arc<
    dyn Fn(ElicitRequestParams) -> Pin<Box<dyn Future<Output = ElicitResult> + Send>> + Send + Sync,
>;

/// What the client says of itself, and how it answers the server's requests over a session.
#[derive(Clone)]
pub(crate) struct Handler {
    config: ClientConfig,
    elicit: Option<Elicit>,
}

impl Handler {
    /// The client `config` describes, declaring elicitation when `elicit` answers it.
    pub(crate) fn new(mut config: ClientConfig, elicit: Option<Elicit>) -> Self {
        if elicit.is_some() {
            let mut capabilities: ClientCapabilities = config.capabilities.clone();
            // `{}`: form elicitation, understood by every revision that has elicitation.
            capabilities.elicitation = Some(ElicitationCapability::default());
            config.capabilities = capabilities;
        }
        Handler { config, elicit }
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
    ) -> Result<ElicitResult, rmcp::ErrorData> {
        Ok(answer(self.elicit.as_ref(), request).await)
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

/// A server asked for input the client cannot give.
#[derive(Debug)]
pub(crate) struct UnansweredInput(&'static str);

impl std::fmt::Display for UnansweredInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the server asked for {}, which this client does not offer",
            self.0
        )
    }
}

impl std::error::Error for UnansweredInput {}

/// The answers to the input requests of an `input_required` result, by their keys: each
/// elicitation answered as over a session ([`answer`]), a roots request with no roots (the
/// client offers none); a sampling request cannot be answered (the client samples no model).
pub(crate) async fn fulfill(
    elicit: Option<&Elicit>,
    requests: InputRequests,
) -> Result<InputResponses, UnansweredInput> {
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let response = match request {
            InputRequest::Elicitation(request) => {
                let result = answer(elicit, request.params).await;
                serde_json::to_value(result).map_err(|_| UnansweredInput("an elicitation"))?
            }
            // MCP's roots (deprecated at 2026-07-28): the client offers none.
            InputRequest::ListRoots(_) => serde_json::json!({"roots": []}),
            InputRequest::CreateMessage(_) => return Err(UnansweredInput("sampling")),
            _ => return Err(UnansweredInput("a kind of input it does not know")),
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
