//! The client of a call run as a task, as its tool sees it: what the tool asks the client's
//! user or model (`elicitation/create`, `sampling/createMessage`, `roots/list`) is not sent to the client
//! but waits in the task, which is `input_required` (its `inputRequests`) until the client
//! answers with `tasks/update` (SEP-2663); the tool gets the answer as from a plain call.

use std::sync::Arc;

use rmcp::RoleServer;
#[allow(deprecated)] // MCP's roots, which SEP-2577 deprecates, are still served.
use rmcp::model::ListRootsResult;
use rmcp::model::{ElicitResult, ElicitationAction, InputRequest};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use super::super::peer::{our_capabilities, roots};
use super::store::Tasks;
use crate::principal::Principal;
use crate::session::{
    Answer, ClientCapabilities, ClientError, ClientSession, Elicitation, ElicitationRequest, Root,
    Sampled, SamplingRequest,
};

/// Marks a call as task `id`'s (in its context's extensions): its client is asked through the
/// task.
#[derive(Clone)]
pub(crate) struct TaskClient {
    tasks: Arc<Tasks>,
    id: String,
    capabilities: ClientCapabilities,
}

impl TaskClient {
    /// The client of task `id`, made for the request of `context`: it can be asked what it
    /// declared (at `initialize`, or in the request's `_meta`).
    pub(crate) fn new(tasks: Arc<Tasks>, id: String, context: &RequestContext<RoleServer>) -> Self {
        let declared = context.client_capabilities();
        let capabilities = our_capabilities(declared.as_ref());
        TaskClient {
            tasks,
            id,
            capabilities,
        }
    }

    /// The session a tool of the task asks, for `principal`.
    pub(crate) fn session(&self, principal: Option<Principal>) -> Arc<dyn ClientSession> {
        Arc::new(TaskSession {
            client: self.clone(),
            principal,
        })
    }

    /// Asks `request` through the task and waits for the client's answer.
    async fn ask(&self, request: Value) -> Result<Value, ClientError> {
        let request: InputRequest =
            serde_json::from_value(request).map_err(|e| ClientError::Invalid(e.to_string()))?;
        let answered = self
            .tasks
            .ask(&self.id, request)
            .ok_or_else(|| ClientError::Failed("the task has ended".into()))?;
        answered
            .await
            .map_err(|_| ClientError::Failed("the task ended before the client answered".into()))
    }
}

/// A task's client, for one call.
struct TaskSession {
    client: TaskClient,
    principal: Option<Principal>,
}

impl ClientSession for TaskSession {
    fn capabilities(&self) -> ClientCapabilities {
        self.client.capabilities
    }

    fn principal(&self) -> Option<&Principal> {
        self.principal.as_ref()
    }

    fn elicit(&self, request: ElicitationRequest) -> Answer<Elicitation> {
        let client = self.client.clone();
        Box::pin(async move {
            let asked = json!({
                "method": "elicitation/create",
                "params": {
                    "message": request.message(),
                    "requestedSchema": request.schema(),
                },
            });
            let answer = client.ask(asked).await?;
            let result: ElicitResult = serde_json::from_value(answer).map_err(|e| {
                ClientError::Failed(format!("an answer that is not one: {e}").into())
            })?;
            Ok(match result.action {
                ElicitationAction::Accept => Elicitation::Accept(match result.content {
                    Some(Value::Object(content)) => content,
                    _ => serde_json::Map::new(),
                }),
                ElicitationAction::Decline => Elicitation::Decline,
                _ => Elicitation::Cancel,
            })
        })
    }

    #[allow(deprecated)] // MCP's roots, which SEP-2577 deprecates, are still served.
    fn list_roots(&self) -> Answer<Vec<Root>> {
        let client = self.client.clone();
        Box::pin(async move {
            let answer = client
                .ask(json!({ "method": "roots/list", "params": {} }))
                .await?;
            let result: ListRootsResult = serde_json::from_value(answer).map_err(|e| {
                ClientError::Failed(format!("an answer that is not one: {e}").into())
            })?;
            Ok(roots(result))
        })
    }

    fn sample(&self, request: SamplingRequest) -> Answer<Sampled> {
        let client = self.client.clone();
        Box::pin(async move {
            let mut params = json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": request.prompt()}}],
                "maxTokens": request.max_tokens(),
            });
            if let Some(system) = request.system_prompt() {
                params["systemPrompt"] = Value::from(system);
            }
            let asked = json!({"method": "sampling/createMessage", "params": params});
            let answer = client.ask(asked).await?;
            let model = answer["model"].as_str().map(str::to_owned).ok_or_else(|| {
                ClientError::Failed("an answer without the model that wrote it".into())
            })?;
            // One content block or several; the text of those that are text.
            let blocks = match &answer["content"] {
                Value::Array(blocks) => blocks.iter().collect(),
                block => vec![block],
            };
            let text = blocks
                .into_iter()
                .filter(|block| block["type"] == "text")
                .filter_map(|block| block["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n");
            Ok(Sampled {
                text,
                model,
                stop_reason: answer["stopReason"].as_str().map(str::to_owned),
            })
        })
    }
}
