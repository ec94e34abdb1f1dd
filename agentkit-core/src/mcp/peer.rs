//! The client of a served call, as a tool sees it through its context: what the client
//! declared, and its user and model to ask (`elicitation/create`, `sampling/createMessage`),
//! over rmcp's [`Peer`].
//!
//! rmcp marks sampling deprecated (the 2026-07-28 revision of MCP replaces server-to-client
//! requests); clients of the revisions before it use it, and it is served for them.
#![allow(deprecated)]

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities as McpClientCapabilities, CreateMessageResult, ElicitResult,
    ElicitationAction, ListRootsResult,
};
use rmcp::service::Peer;
use serde_json::{Value, json};
use tokio::runtime::Handle;

use crate::principal::Principal;
use crate::session::{
    Answer, ClientCapabilities, ClientError, ClientSession, Elicitation, ElicitationRequest, Root,
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
        our_capabilities(declared.as_ref())
    }

    fn elicit(&self, request: ElicitationRequest) -> Answer<Elicitation> {
        let peer = self.peer.clone();
        let runtime = self.runtime.clone();
        Box::pin(async move {
            // The form rmcp reads and checks: its schema of primitive fields.
            let params = serde_json::from_value(elicit_params(&request))
                .map_err(|e| ClientError::Invalid(e.to_string()))?;
            let asked = runtime.spawn(async move { peer.create_elicitation(params).await });
            let result = asked
                .await
                .map_err(|e| ClientError::Failed(Box::new(e)))?
                .map_err(|e| ClientError::Failed(Box::new(e)))?;
            Ok(elicitation(result))
        })
    }

    fn sample(&self, request: SamplingRequest) -> Answer<Sampled> {
        let peer = self.peer.clone();
        let runtime = self.runtime.clone();
        Box::pin(async move {
            let params = serde_json::from_value(sample_params(&request))
                .map_err(|e| ClientError::Invalid(e.to_string()))?;
            let asked = runtime.spawn(async move { peer.create_message(params).await });
            let result = asked
                .await
                .map_err(|e| ClientError::Failed(Box::new(e)))?
                .map_err(|e| ClientError::Failed(Box::new(e)))?;
            Ok(sampled(result))
        })
    }

    fn list_roots(&self) -> Answer<Vec<Root>> {
        let peer = self.peer.clone();
        let runtime = self.runtime.clone();
        Box::pin(async move {
            let asked = runtime.spawn(async move { peer.list_roots().await });
            let result = asked
                .await
                .map_err(|e| ClientError::Failed(Box::new(e)))?
                .map_err(|e| ClientError::Failed(Box::new(e)))?;
            Ok(roots(result))
        })
    }
}

/// What a client declared, as a tool sees it.
pub(super) fn our_capabilities(declared: Option<&McpClientCapabilities>) -> ClientCapabilities {
    ClientCapabilities {
        elicitation: declared.is_some_and(|c| c.elicitation.is_some()),
        sampling: declared.is_some_and(|c| c.sampling.is_some()),
        roots: declared.is_some_and(|c| c.roots.is_some()),
    }
}

/// The `params` of an `elicitation/create` (form mode) for `request`.
pub(super) fn elicit_params(request: &ElicitationRequest) -> Value {
    json!({
        "message": request.message(),
        "requestedSchema": request.schema(),
    })
}

/// The `params` of a `sampling/createMessage` for `request`.
pub(super) fn sample_params(request: &SamplingRequest) -> Value {
    let mut params = json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": request.prompt()}}],
        "maxTokens": request.max_tokens(),
    });
    if let Some(system) = request.system_prompt() {
        params["systemPrompt"] = Value::from(system);
    }
    params
}

/// The user's answer, as a tool gets it.
pub(super) fn elicitation(result: ElicitResult) -> Elicitation {
    match result.action {
        ElicitationAction::Accept => Elicitation::Accept(match result.content {
            Some(Value::Object(content)) => content,
            _ => serde_json::Map::new(),
        }),
        ElicitationAction::Decline => Elicitation::Decline,
        _ => Elicitation::Cancel,
    }
}

/// The model's answer, as a tool gets it: its text parts, joined by lines.
pub(super) fn sampled(result: CreateMessageResult) -> Sampled {
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
    Sampled {
        text,
        model: result.model,
        stop_reason: result.stop_reason,
    }
}

/// The client's roots, as a tool gets them.
pub(super) fn roots(result: ListRootsResult) -> Vec<Root> {
    result
        .roots
        .into_iter()
        .map(|root| Root {
            uri: root.uri,
            name: root.name,
        })
        .collect()
}
