//! [`McpError`]: what can go wrong connecting to, serving or registering over MCP.

use std::fmt;

use crate::error::BoxError;
use crate::schema::SemanticError;

/// What failed, for an [`McpError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpErrorKind {
    /// Starting the server process, reaching the server, or the MCP handshake.
    Connect,
    /// A request to the server (such as `tools/list`) failed or was refused.
    Request,
    /// The transport failed while serving or connected.
    Transport,
    /// During a tool call, the server asked for input the client could not give: sampling
    /// without a [sampling handler](super::McpClientBuilder::on_sampling), or with one that
    /// failed (its error is in the source's text). The call fails rather than go on without
    /// the answer.
    Input,
    /// The server's tools could not be registered: a name the registry already holds. The
    /// source is the [`SemanticError`] listing every such name. (A tool agentkit cannot take
    /// is refused alone, not failing the others: see [`RefusedTool`](super::RefusedTool).)
    Registration,
}

/// An error connecting to an MCP server, serving one, or registering its tools: its
/// [`kind`](Self::kind), and the underlying error as [`source`](std::error::Error::source).
#[derive(Debug)]
pub struct McpError {
    kind: McpErrorKind,
    source: BoxError,
}

impl McpError {
    pub(crate) fn new(kind: McpErrorKind, source: impl Into<BoxError>) -> Self {
        McpError {
            kind,
            source: source.into(),
        }
    }

    /// What failed.
    pub fn kind(&self) -> McpErrorKind {
        self.kind
    }

    /// The problems with the server's tools, for a [`McpErrorKind::Registration`] error.
    pub fn registration_problems(&self) -> Option<&SemanticError> {
        self.source.downcast_ref()
    }
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            McpErrorKind::Connect => "could not connect to the MCP server",
            McpErrorKind::Request => "the MCP request failed",
            McpErrorKind::Transport => "the MCP transport failed",
            McpErrorKind::Input => "the MCP server asked for input the client could not give",
            McpErrorKind::Registration => "could not register the MCP server's tools",
        };
        write!(f, "{what}: {}", self.source)
    }
}

impl std::error::Error for McpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

impl From<SemanticError> for McpError {
    fn from(error: SemanticError) -> Self {
        McpError::new(McpErrorKind::Registration, error)
    }
}
