//! What a call passes before its tool runs: the approval policy's decision, room under the
//! in-flight limit and beside sequential tools, and its credentials, resolved by name.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use async_lock::{RwLockReadGuard, RwLockWriteGuard, SemaphoreGuard};
use futures_util::future::Either;
use serde_json::{Value, json};

use super::dispatch::ToolExecutor;
use crate::approval::{Approval, ApprovalRequest};
use crate::credentials::Credentials;
use crate::error::{CredentialError, ToolExecutionError, discard};
use crate::session::{ClientSession, Elicitation, ElicitationRequest};
use crate::tool::ToolSpec;

impl ToolExecutor {
    /// The approval policy's decision; without a policy, every call is deferred.
    pub(super) fn decide(&self, request: &ApprovalRequest<'_>) -> Result<Approval, PolicyPanicked> {
        let Some(policy) = &self.approval else {
            return Ok(Approval::Defer);
        };
        catch_unwind(AssertUnwindSafe(|| policy.decide(request))).map_err(|panic| {
            discard(panic);
            PolicyPanicked
        })
    }

    /// Asks the person at the call's client whether the call may run (an
    /// [`Approval::Ask`]): through elicitation, where the client can ask its user; otherwise
    /// the call is deferred, as it is without a policy.
    pub(super) async fn ask(
        &self,
        client: Option<&Arc<dyn ClientSession>>,
        spec: &ToolSpec,
        message: String,
    ) -> Approval {
        let Some(client) = client.filter(|client| client.capabilities().elicitation) else {
            return Approval::Defer;
        };
        let request = ElicitationRequest::new(
            message,
            json!({
                "type": "object",
                "properties": {"approve": {
                    "type": "boolean",
                    "title": format!("Allow {}", spec.name()),
                    "default": false,
                }},
                "required": ["approve"],
            }),
        );
        match client.elicit(request).await {
            Ok(Elicitation::Accept(answer))
                if answer.get("approve") == Some(&Value::Bool(true)) =>
            {
                Approval::Allow
            }
            Ok(Elicitation::Accept(_) | Elicitation::Decline) => {
                Approval::deny("the person at the client declined the call")
            }
            Ok(Elicitation::Cancel) => {
                Approval::deny("the person at the client dismissed the request to approve the call")
            }
            // The question could not be asked or answered: a person decides later.
            Err(_) => Approval::Defer,
        }
    }

    /// Waits for room to run: the in-flight limit, and the lock sequential tools hold alone.
    /// Every call takes the lock before a permit, so that no two calls wait on each other.
    pub(super) async fn admit(&self, sequential: bool) -> Room<'_> {
        let lock = match &self.exclusive {
            Some(lock) if sequential => Some(Either::Right(lock.write().await)),
            Some(lock) => Some(Either::Left(lock.read().await)),
            None => None,
        };
        let permit = match &self.in_flight {
            Some(limit) => Some(limit.acquire().await),
            None => None,
        };
        Room {
            _lock: lock,
            _permit: permit,
        }
    }

    pub(super) fn resolve_credentials(
        &self,
        spec: &ToolSpec,
    ) -> Result<Credentials, ToolExecutionError> {
        let mut credentials = Credentials::new();
        for name in spec.credential_names() {
            // The provider is the application's code: a panic in it is a failed lookup.
            let resolved = catch_unwind(AssertUnwindSafe(|| self.credentials.resolve(name)))
                .unwrap_or_else(|panic| {
                    discard(panic);
                    Err("the credential provider panicked".into())
                });
            let secret = match resolved {
                Ok(Some(secret)) => secret,
                Ok(None) => {
                    return Err(ToolExecutionError::new(
                        spec.name_cow().clone(),
                        CredentialError::missing(name),
                    ));
                }
                Err(cause) => {
                    // The provider's error may quote a secret it resolved before this one.
                    let secrets: Vec<&str> = credentials.secrets().collect();
                    return Err(ToolExecutionError::scrubbed(
                        spec.name_cow().clone(),
                        Box::new(CredentialError::failed(name, cause)),
                        &secrets,
                    ));
                }
            };
            credentials.push(Cow::Owned(name.to_owned()), secret);
        }
        Ok(credentials)
    }
}

/// Room to run, held until the call ends.
pub(super) struct Room<'a> {
    _lock: Option<Either<RwLockReadGuard<'a, ()>, RwLockWriteGuard<'a, ()>>>,
    _permit: Option<SemaphoreGuard<'a>>,
}

/// The approval policy's denial; the cause of a [`ToolExecutionError`] of kind
/// [`ErrorKind::Denied`], whose model message is the policy's.
#[derive(Debug, thiserror::Error)]
#[error("the approval policy denied the call")]
pub(super) struct Denied;

/// An approval policy that panicked: the call fails, and the tool does not run.
#[derive(Debug, thiserror::Error)]
#[error("the approval policy panicked, so the tool was not run")]
pub(super) struct PolicyPanicked;
