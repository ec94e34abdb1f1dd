//! The client of a served call, as a tool sees it through its context: what the client
//! declared, and its user and model to ask (`elicitation/create`, `sampling/createMessage`),
//! over rmcp's [`Peer`].
//!
//! rmcp marks sampling deprecated (the 2026-07-28 revision of MCP replaces server-to-client
//! requests); clients of the revisions before it use it, and it is served for them.
#![allow(deprecated)]

use rmcp::RoleServer;
use rmcp::model::{ElicitRequestParams, ElicitationAction};
use rmcp::service::Peer;
use serde_json::{Value, json};
use tokio::runtime::Handle;

use crate::principal::Principal;
use crate::session::{
    Answer, ClientCapabilities, ClientError, ClientSession, Elicitation, ElicitationRequest,
    Sampled, SamplingRequest,
};

/// A served call's client.
pub(super) struct PeerSession {
    peer: Peer<RoleServer>,
    /// The server's runtime: a blocking tool asks from a thread of its own, and the request
    /// runs here.
    runtime: Handle,
    /// Who the client's request was made for, when the server authenticated it.
    principal: Option<Principal>,
}

impl PeerSession {
    /// The client of `peer`, whose request was made for `principal`; made on the server's
    /// tokio runtime.
    pub(super) fn new(peer: Peer<RoleServer>, principal: Option<Principal>) -> Self {
        PeerSession {
            peer,
            runtime: Handle::current(),
            principal,
        }
    }
}

impl ClientSession for PeerSession {
    fn principal(&self) -> Option<&Principal> {
        self.principal.as_ref()
    }

    fn capabilities(&self) -> ClientCapabilities {
        let declared = self.peer.peer_info().map(|info| info.capabilities.clone());
        ClientCapabilities {
            elicitation: declared.as_ref().is_some_and(|c| c.elicitation.is_some()),
            sampling: declared.as_ref().is_some_and(|c| c.sampling.is_some()),
        }
    }

    fn elicit(&self, request: ElicitationRequest) -> Answer<Elicitation> {
        let peer = self.peer.clone();
        let runtime = self.runtime.clone();
        Box::pin(async move {
            // The form rmcp reads and checks: its schema of primitive fields.
            let params: ElicitRequestParams = serde_json::from_value(json!({
                "message": request.message(),
                "requestedSchema": request.schema(),
            }))
            .map_err(|e| ClientError::Invalid(e.to_string()))?;
            let asked = runtime.spawn(async move { peer.create_elicitation(params).await });
            let result = asked
                .await
                .map_err(|e| ClientError::Failed(Box::new(e)))?
                .map_err(|e| ClientError::Failed(Box::new(e)))?;
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

    fn sample(&self, request: SamplingRequest) -> Answer<Sampled> {
        let peer = self.peer.clone();
        let runtime = self.runtime.clone();
        Box::pin(async move {
            let mut params = json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": request.prompt()}}],
                "maxTokens": request.max_tokens(),
            });
            if let Some(system) = request.system_prompt() {
                params["systemPrompt"] = Value::from(system);
            }
            let params =
                serde_json::from_value(params).map_err(|e| ClientError::Invalid(e.to_string()))?;
            #[allow(deprecated)] // Sampling, which the 2026-07-28 revision deprecates.
            let asked = runtime.spawn(async move { peer.create_message(params).await });
            let result = asked
                .await
                .map_err(|e| ClientError::Failed(Box::new(e)))?
                .map_err(|e| ClientError::Failed(Box::new(e)))?;
            let text = result
                .message
                .content
                .into_vec()
                .into_iter()
                .filter_map(|block| match serde_json::to_value(&block) {
                    Ok(Value::Object(block)) if block.get("type") == Some(&json!("text")) => {
                        block.get("text").and_then(Value::as_str).map(str::to_owned)
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n");
            Ok(Sampled {
                text,
                model: result.model,
                stop_reason: result.stop_reason,
            })
        })
    }
}
