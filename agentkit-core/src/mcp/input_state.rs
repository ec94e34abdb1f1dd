//! The `requestState` of a call that waits for its client's input (MCP 2026-07-28): what
//! it carries from round to round, sealed so that the client can neither read a forged one
//! into the server nor reuse one for another call.
//!
//! A state carries the answers the call has had so far, each with a digest of the question
//! it answers, and the questions its last round asked. It is sealed with HMAC-SHA256 (rmcp's
//! [`RequestStateCodec`]) over the tool's name, a digest of the call's arguments and the
//! principal's subject (none there, when the client is not authenticated), and expires
//! after a time to live. Any replica holding the key opens it: the server keeps nothing
//! between rounds.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::server::McpServer;
use crate::schema::JsonObject;

/// How long a state is good for, unless set: long enough for a person to answer a form.
const DEFAULT_TTL: Duration = Duration::from_secs(15 * 60);

/// The key states are sealed with, and how long they are good for.
#[derive(Clone)]
pub(super) struct StateKey {
    codec: Arc<RequestStateCodec>,
    ttl: Duration,
}

impl StateKey {
    /// The process's own key, random, made at its first use.
    pub(super) fn per_process() -> Self {
        static CODEC: OnceLock<Arc<RequestStateCodec>> = OnceLock::new();
        let codec = CODEC.get_or_init(|| {
            // Two version 4 UUIDs, 244 random bits from the system's generator (the one
            // rmcp's session ids come from), as 72 bytes of key: past the codec's minimum of
            // 32.
            let key = format!("{}{}", random_text(), random_text());
            Arc::new(RequestStateCodec::new_unchecked(key.into_bytes()))
        });
        StateKey {
            codec: Arc::clone(codec),
            ttl: DEFAULT_TTL,
        }
    }

    /// Seals `state` for the call `binding` describes.
    pub(super) fn seal(
        &self,
        state: &Carried,
        binding: &[u8],
    ) -> Result<String, RequestStateError> {
        let options = SealOptions::new().associated_data(binding).ttl(self.ttl);
        self.codec.seal_json_with(state, &options)
    }

    /// Opens `sealed` for the call `binding` describes: refused when it was forged, changed,
    /// sealed for another call or has expired.
    pub(super) fn open(&self, sealed: &str, binding: &[u8]) -> Result<Carried, RequestStateError> {
        self.codec.open_json_with(sealed, binding)
    }
}

/// Random text from the system's generator.
fn random_text() -> String {
    rmcp::transport::common::server_side_http::session_id().to_string()
}

/// What a state carries from one round of a call to the next.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Carried {
    /// The answers the call has had, in the order it asked.
    #[serde(rename = "a", default)]
    pub(super) answers: Vec<Answered>,
    /// The questions the last round asked, which the retry's `inputResponses` answer.
    #[serde(rename = "q", default)]
    pub(super) asked: Vec<Question>,
}

/// An answer the client gave, to the question of that digest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Answered {
    #[serde(rename = "k")]
    pub(super) key: String,
    #[serde(rename = "d")]
    pub(super) digest: String,
    #[serde(rename = "r")]
    pub(super) response: Value,
}

/// A question asked, by its key and the digest of the request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Question {
    #[serde(rename = "k")]
    pub(super) key: String,
    #[serde(rename = "d")]
    pub(super) digest: String,
}

/// A digest of a request (`{"method": ..., "params": ...}`), to tell on a later round that
/// a question is the one answered.
pub(super) fn digest(request: &Value) -> String {
    let text = serde_json::to_vec(request).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(Sha256::digest(&text))
}

/// What a state is bound to: the tool, a digest of its arguments, and who calls (each
/// field length-prefixed, so that no two calls run together into the same bytes).
pub(super) fn binding(tool: &str, arguments: &JsonObject, subject: Option<&str>) -> Vec<u8> {
    let arguments = serde_json::to_vec(arguments).unwrap_or_default();
    let mut bound = b"agentkit/input-state/1".to_vec();
    for field in [
        tool.as_bytes(),
        &Sha256::digest(&arguments)[..],
        subject.map_or(&b"-"[..], str::as_bytes),
    ] {
        bound.extend_from_slice(&(field.len() as u64).to_be_bytes());
        bound.extend_from_slice(field);
    }
    bound.push(u8::from(subject.is_some()));
    bound
}

impl McpServer {
    /// Seals the `requestState` of calls waiting for their client's input (MCP 2026-07-28)
    /// with `key` (HMAC-SHA256; at least 32 bytes, high in entropy): give every replica of a
    /// server the same key, and the retry of a call may reach any of them. Unset, each
    /// process makes a random key of its own, and a call's retries must reach the process
    /// that answered its first round. See [Asking the client](McpServer#asking-the-client).
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use agentkit_core::mcp::McpServer;
    /// # use agentkit_core::{ToolExecutor, ToolRegistry};
    /// # let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
    /// // From the deployment's secrets, the same on every replica.
    /// let key = b"0123456789abcdef0123456789abcdef-replicas";
    /// let server = McpServer::new(executor).with_request_state_key(key)?;
    /// # Ok::<(), agentkit_core::mcp::rmcp::model::RequestStateError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`RequestStateError::KeyTooShort`] for a key of fewer than 32 bytes.
    pub fn with_request_state_key(self, key: impl AsRef<[u8]>) -> Result<Self, RequestStateError> {
        let codec = RequestStateCodec::try_new(key.as_ref().to_vec())?;
        Ok(self.with_request_state_codec(codec))
    }

    /// Seals the `requestState` of calls waiting for their client's input with `codec`:
    /// rmcp's, for a keyring (keys rotated without refusing the states already out); see
    /// [`with_request_state_key`](Self::with_request_state_key).
    #[must_use]
    pub fn with_request_state_codec(mut self, codec: RequestStateCodec) -> Self {
        self.input_state.codec = Arc::new(codec);
        self
    }

    /// Sets how long a call waiting for its client's input may wait between two rounds (15
    /// minutes unless set): a retry with an older `requestState` is refused.
    #[must_use]
    pub fn with_request_state_ttl(mut self, ttl: Duration) -> Self {
        self.input_state.ttl = ttl;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn a_state_opens_for_its_own_call_only() {
        let key = StateKey::per_process();
        let state = Carried {
            answers: vec![Answered {
                key: "user_name".into(),
                digest: digest(&json!({"method": "elicitation/create"})),
                response: json!({"action": "accept", "content": {"name": "Ada"}}),
            }],
            asked: Vec::new(),
        };
        let args = object(json!({"city": "Paris"}));
        let bound = binding("weather", &args, Some("alice"));
        let sealed = key.seal(&state, &bound).unwrap();
        let opened = key.open(&sealed, &bound).unwrap();
        assert_eq!(opened.answers[0].response, state.answers[0].response);

        for other in [
            binding("forecast", &args, Some("alice")),
            binding("weather", &object(json!({"city": "Rome"})), Some("alice")),
            binding("weather", &args, Some("bob")),
            binding("weather", &args, None),
        ] {
            assert!(key.open(&sealed, &other).is_err());
        }
        let mut tampered = sealed.clone();
        tampered.push('x');
        assert!(key.open(&tampered, &bound).is_err());
    }

    #[test]
    fn a_state_expires() {
        let key = StateKey {
            ttl: Duration::ZERO,
            ..StateKey::per_process()
        };
        let bound = binding("weather", &JsonObject::new(), None);
        let sealed = key.seal(&Carried::default(), &bound).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert!(matches!(
            key.open(&sealed, &bound),
            Err(RequestStateError::Expired)
        ));
    }
}
