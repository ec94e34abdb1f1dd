//! What [`McpClient`](super::McpClient) imports of a server's tools, and what it refuses:
//! [`McpToolList`], [`McpImport`], [`RefusedTool`].

use std::fmt;

use super::tool::McpTool;
use crate::schema::SemanticError;

/// Why a server's tool was not imported; see [`RefusedTool`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Refusal {
    /// The tool cannot be declared as an agentkit tool: its name (with the prefix) is not a
    /// valid agentkit tool name, or its input or output schema is one the validator cannot
    /// take (a `$ref` to another document, which is never fetched; a `pattern` it cannot
    /// compile). The problems, each with where it is.
    Invalid(SemanticError),
    /// The tool runs only as a task (the server lists it with `execution.taskSupport:
    /// "required"`, MCP 2025-11-25), and the server does not declare tasks for `tools/call`
    /// (`capabilities.tasks.requests.tools.call`): the client has no way to call it. (A tool
    /// that needs a task of a server that declares them is imported, and called as one.)
    TaskRequired,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Invalid(error) => error.fmt(f),
            Refusal::TaskRequired => f.write_str(
                "the tool runs only as a task (execution.taskSupport \"required\"), and the \
                 server does not declare tasks for tools/call",
            ),
        }
    }
}

/// A tool a server lists that the client did not import, with the [`Refusal`] saying why:
/// the other tools are imported all the same, as MCP asks (one malformed tool must not keep
/// the others from being used).
#[derive(Debug, Clone, PartialEq)]
pub struct RefusedTool {
    name: String,
    reason: Refusal,
}

impl RefusedTool {
    pub(crate) fn new(name: impl Into<String>, reason: Refusal) -> Self {
        RefusedTool {
            name: name.into(),
            reason,
        }
    }

    /// The tool's name on the server (without the prefix).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Why it was refused.
    pub fn reason(&self) -> &Refusal {
        &self.reason
    }
}

impl fmt::Display for RefusedTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool '{}' refused: {}", self.name, self.reason)
    }
}

impl std::error::Error for RefusedTool {}

/// The tools of a server, as [`McpClient::tools`](super::McpClient::tools) reads them: those
/// it imports, and those it refuses, each in the server's order.
#[derive(Debug, Clone)]
pub struct McpToolList {
    pub(crate) tools: Vec<McpTool>,
    pub(crate) refused: Vec<RefusedTool>,
}

impl McpToolList {
    /// The imported tools.
    pub fn tools(&self) -> &[McpTool] {
        &self.tools
    }

    /// The imported tools, taking them.
    pub fn into_tools(self) -> Vec<McpTool> {
        self.tools
    }

    /// The refused tools, with why.
    pub fn refused(&self) -> &[RefusedTool] {
        &self.refused
    }
}

/// What [`McpClient::register_tools`](super::McpClient::register_tools) did: the names it
/// registered, and the tools it refused.
///
/// ```no_run
/// use agentkit_core::ToolRegistry;
/// use agentkit_core::mcp::McpClient;
///
/// # async fn run() -> Result<(), agentkit_core::mcp::McpError> {
/// let client = McpClient::connect_http("http://127.0.0.1:8080/mcp").await?;
/// let mut registry = ToolRegistry::new();
/// let import = client.register_tools(&mut registry, Some("weather_")).await?;
/// for refused in import.refused() {
///     eprintln!("not offered to the model: {refused}");
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
#[must_use = "the import says which tools were refused"]
pub struct McpImport {
    pub(crate) registered: Vec<String>,
    pub(crate) refused: Vec<RefusedTool>,
}

impl McpImport {
    /// The names registered, in the server's order.
    pub fn registered(&self) -> &[String] {
        &self.registered
    }

    /// The tools refused, with why, in the server's order.
    pub fn refused(&self) -> &[RefusedTool] {
        &self.refused
    }
}
