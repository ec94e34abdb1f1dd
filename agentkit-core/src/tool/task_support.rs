//! [`TaskSupport`]: whether a tool's calls may run in the background, as tasks, when it is
//! served over MCP.

/// Whether a tool runs as a task when a client that supports tasks calls it: MCP 2026-07-28's
/// `io.modelcontextprotocol/tasks` extension (SEP-2663), served by
/// `McpServer` (feature `mcp`), which answers such a call at once with a task and runs it in
/// the background. The executor itself runs every call the same way, whatever this says.
///
/// Declared with [`ToolSpecBuilder::task_support`](crate::ToolSpecBuilder::task_support), or
/// `#[tool(task_support = "optional")]`; a server can set it per tool too
/// (`McpServer::with_task_support`).
///
/// ```
/// use agentkit_core::{TaskSupport, ToolSpec};
///
/// let spec = ToolSpec::builder("render_video")
///     .task_support(TaskSupport::Optional)
///     .build()?;
/// assert_eq!(spec.task_support(), TaskSupport::Optional);
/// assert_eq!(TaskSupport::parse("required"), Some(TaskSupport::Required));
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never a task: every call is answered when it ends. The default.
    #[default]
    Forbidden,
    /// A task for a client that declared the tasks extension; a plain call for one that did
    /// not.
    Optional,
    /// Only as a task: a client that did not declare the tasks extension is refused with
    /// -32021 (missing required client capability), before the tool runs.
    Required,
}

impl TaskSupport {
    /// The value as MCP and a JSON declaration write it: `"forbidden"`, `"optional"` or
    /// `"required"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Forbidden => "forbidden",
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }

    /// The value written `text` (as [`as_str`](Self::as_str) writes it), if it is one.
    pub fn parse(text: &str) -> Option<TaskSupport> {
        [
            TaskSupport::Forbidden,
            TaskSupport::Optional,
            TaskSupport::Required,
        ]
        .into_iter()
        .find(|support| support.as_str() == text)
    }
}
