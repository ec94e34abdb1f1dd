//! Approval: a policy that decides whether a call of a tool marked
//! [`requires_approval`](crate::ToolSpecBuilder::requires_approval) may run.

use crate::model_text::{Escaped, EscapedText};
use crate::principal::Principal;
use crate::schema::JsonObject;
use crate::session::ClientCapabilities;
use crate::tool::{ToolAnnotations, ToolSpec};

/// The decision on a call that needs approval.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Approval {
    /// Run the call.
    Allow,
    /// Do not run it; the message tells the model why.
    Deny(String),
    /// Decide later: the result is [`Deferred`](crate::ToolStatus::Deferred), and
    /// [`ToolExecutor::resume`](crate::ToolExecutor::resume) runs or denies the call once a
    /// decision is made.
    Defer,
    /// Ask the person at the call's client, now, with this message: over MCP, through
    /// elicitation, when the client can ask its user (they allow the call, or it is denied).
    /// Where the client cannot be asked (no client, or one without elicitation), the call is
    /// deferred, as with [`Defer`](Approval::Defer).
    Ask(String),
}

impl Approval {
    /// Denies the call, telling the model why.
    pub fn deny(message: impl Into<String>) -> Self {
        Approval::Deny(message.into())
    }

    /// Asks the person at the call's client, with `message` (see [`Approval::Ask`]).
    pub fn ask(message: impl Into<String>) -> Self {
        Approval::Ask(message.into())
    }
}

/// A call waiting for a decision: what an [`ApprovalPolicy`] looks at.
#[derive(Debug, Clone, Copy)]
pub struct ApprovalRequest<'a> {
    spec: &'a ToolSpec,
    call_id: &'a str,
    inputs: &'a JsonObject,
    client: Option<ClientCapabilities>,
    principal: Option<&'a Principal>,
}

impl<'a> ApprovalRequest<'a> {
    pub(crate) fn new(spec: &'a ToolSpec, call_id: &'a str, inputs: &'a JsonObject) -> Self {
        ApprovalRequest {
            spec,
            call_id,
            inputs,
            client: None,
            principal: None,
        }
    }

    pub(crate) fn with_client(
        mut self,
        client: Option<ClientCapabilities>,
        principal: Option<&'a Principal>,
    ) -> Self {
        self.client = client;
        self.principal = principal;
        self
    }

    /// Who the call is made for, when it came through a server that authenticated its
    /// client (see [`Principal`]): a policy may let some people run what others may not.
    pub fn principal(&self) -> Option<&'a Principal> {
        self.principal
    }

    /// Whether the person at the call's client can be asked ([`Approval::Ask`]): the call
    /// is served to a client (over MCP) that can ask its user.
    pub fn can_ask_user(&self) -> bool {
        self.client.is_some_and(|client| client.elicitation())
    }

    /// The tool called.
    pub fn tool_name(&self) -> &'a str {
        self.spec.name()
    }

    /// The tool's spec (its tags, say, to decide by category).
    pub fn spec(&self) -> &'a ToolSpec {
        self.spec
    }

    /// The call id the model sent.
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// The validated inputs, defaults filled.
    pub fn inputs(&self) -> &'a JsonObject {
        self.inputs
    }

    /// What the tool says of its effects (a hint: see [`ToolAnnotations`]), so that a policy
    /// can say "destructive tools need a person".
    ///
    /// ```
    /// use agentkit_core::{Approval, ApprovalRequest, ToolExecutor, ToolRegistry};
    ///
    /// let executor = ToolExecutor::builder(ToolRegistry::new())
    ///     .approval(|request: &ApprovalRequest<'_>| {
    ///         if request.annotations().may_destroy() {
    ///             Approval::Defer // a person decides
    ///         } else {
    ///             Approval::Allow
    ///         }
    ///     })
    ///     .build();
    /// # let _ = executor;
    /// ```
    pub fn annotations(&self) -> &'a ToolAnnotations {
        self.spec.annotations()
    }
}

/// Decides the calls of tools that require approval. It is consulted after the inputs are
/// validated and before credentials are resolved, so a denied or deferred call never
/// touches a secret.
///
/// Closures are policies. Without a policy, every call that needs approval is deferred.
///
/// ```
/// use agentkit_core::{Approval, ApprovalRequest, ToolExecutor, ToolRegistry};
///
/// let executor = ToolExecutor::builder(ToolRegistry::new())
///     .approval(|request: &ApprovalRequest<'_>| {
///         match request.inputs().get("amount").and_then(|a| a.as_f64()) {
///             Some(amount) if amount <= 100.0 => Approval::Allow,
///             Some(_) => Approval::Defer, // a person decides
///             None => Approval::deny("transfers need an amount"),
///         }
///     })
///     .build();
/// # let _ = executor;
/// ```
///
/// A policy that panics denies nothing and allows nothing: the call fails, and the tool does
/// not run.
pub trait ApprovalPolicy: Send + Sync + 'static {
    /// The decision on `request`.
    fn decide(&self, request: &ApprovalRequest<'_>) -> Approval;
}

impl<F> ApprovalPolicy for F
where
    F: Fn(&ApprovalRequest<'_>) -> Approval + Send + Sync + 'static,
{
    fn decide(&self, request: &ApprovalRequest<'_>) -> Approval {
        self(request)
    }
}

/// The policy that asks the person at the call's client (over MCP, through elicitation)
/// about every call that needs approval, naming the tool and its arguments; where the client
/// cannot be asked, the call is deferred, as without a policy. So a tool that requires
/// approval, served to a host that can ask its user, is decided by a person at the host.
///
/// ```
/// use agentkit_core::{AskUser, ToolExecutor, ToolRegistry};
///
/// let executor = ToolExecutor::builder(ToolRegistry::new()).approval(AskUser).build();
/// # let _ = executor;
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct AskUser;

/// How many characters of a call's arguments the question shows.
const ASK_ARGUMENTS_CHARS: usize = 400;

impl ApprovalPolicy for AskUser {
    fn decide(&self, request: &ApprovalRequest<'_>) -> Approval {
        if !request.can_ask_user() {
            return Approval::Defer;
        }
        let arguments = serde_json::to_string(request.inputs()).unwrap_or_default();
        let arguments = EscapedText(&arguments, ASK_ARGUMENTS_CHARS);
        let tool = Escaped(request.tool_name(), ASK_ARGUMENTS_CHARS);
        Approval::ask(format!("Allow the tool '{tool}' to run with {arguments}?"))
    }
}
