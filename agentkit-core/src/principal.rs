//! [`Principal`]: who a call is made for, as the server that received it authenticated them.

use std::fmt;

use crate::schema::JsonObject;

/// Who a call is made for: the subject an authenticated request was made by (over MCP, the
/// bearer token's owner, as the server's authenticator decided), with the scopes it was
/// granted and any claims the authenticator keeps.
///
/// A tool reads it through [`ToolContext::principal`](crate::ToolContext::principal), and an
/// approval policy through [`ApprovalRequest::principal`](crate::ApprovalRequest::principal).
/// It never holds the token itself.
///
/// ```
/// use agentkit_core::Principal;
///
/// let alice = Principal::new("alice").with_scopes(["tools:read", "tools:write"]);
/// assert_eq!(alice.subject(), "alice");
/// assert!(alice.has_scope("tools:write"));
/// assert!(!alice.has_scope("admin"));
/// ```
#[derive(Clone, PartialEq)]
pub struct Principal {
    subject: String,
    scopes: Vec<String>,
    claims: JsonObject,
}

impl Principal {
    /// The principal called `subject` (a user id, a client id), with no scope.
    pub fn new(subject: impl Into<String>) -> Self {
        Principal {
            subject: subject.into(),
            scopes: Vec::new(),
            claims: JsonObject::new(),
        }
    }

    /// Adds the scopes the principal was granted.
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Keeps a claim of the principal's (a tenant, a role), for tools and policies to read.
    /// Claims are shown in `Debug` by key only.
    #[must_use]
    pub fn with_claim(
        mut self,
        key: impl Into<String>,
        value: impl Into<serde_json::Value>,
    ) -> Self {
        self.claims.insert(key.into(), value.into());
        self
    }

    /// The subject.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes granted, in the order given.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether `scope` was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// The claims kept.
    pub fn claims(&self) -> &JsonObject {
        &self.claims
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A claim's value may be personal data: its key says what it is.
        f.debug_struct("Principal")
            .field("subject", &self.subject)
            .field("scopes", &self.scopes)
            .field("claims", &self.claims.keys().collect::<Vec<_>>())
            .finish()
    }
}
