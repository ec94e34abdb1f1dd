//! [`McpTool`]: one tool of an MCP server, as an agentkit tool, and [`McpToolError`], the
//! text of its `isError` results.

use std::fmt;
use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, Tool as McpToolInfo};
use serde_json::Value;

use super::connection::Connection;
use super::convert::{TAGS_META_KEY, result_output, result_text};
use super::elicit::UnansweredInput;
use super::error::{McpError, McpErrorKind};
use crate::content::ToolOutput;
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::error::ToolError;
use crate::schema::JsonObject;
use crate::schema::SemanticError;
use crate::tool::{Tool, ToolSpec, ToolSpecBuilder};

/// The tag naming the server a tool comes from.
const SERVER_TAG: &str = "mcp_server";

/// One tool of an MCP server, as an agentkit [`Tool`]; see
/// [`McpClient::register_tools`](super::McpClient::register_tools).
///
/// Its spec has the server's name (prefixed if asked), description and input schema, the tags
/// an agentkit server sent (under `_meta["agentkit/tags"]`), and the tag `mcp_server` = the
/// server's name. The model is shown the server's `inputSchema` as declared, in every
/// [`provider`](crate::provider) declaration (without a strict mode) and when served again
/// over MCP; the executor validates the arguments against it in full
/// ([`ToolSpec::input_json`](crate::ToolSpec::input_json), a [`JsonSchema`](crate::JsonSchema)):
/// every JSON Schema keyword, pydantic's `anyOf` with `null`, `$ref`s into `$defs`, zod's type
/// arrays, with the policies for models (`null` for an optional parameter reads as absent,
/// defaults filled, and, by the executor's [`UnknownArguments`](crate::UnknownArguments)
/// policy, undeclared arguments refused). A tool whose schema the validator cannot take (a
/// `$ref` to another document, which is never fetched, a `pattern` it cannot compile) is
/// refused when the tools are registered, with the reason, never registered unvalidated (the
/// server's other tools are registered all the same: see
/// [`McpClient::tools`](super::McpClient::tools)).
///
/// A server tool's `outputSchema`, any JSON Schema (MCP's 2026-07-28 revision allows any),
/// is compiled too, checked exactly as JSON Schema says, none of the policies for models
/// ([`ToolSpec::output_json`](crate::ToolSpec::output_json)); one the validator cannot take
/// refuses the tool the same way.
///
/// `execute` sends `tools/call` with the validated arguments. The result's
/// `structuredContent`, any JSON value (an object, a list, a string, a number, a boolean,
/// `null`), is the tool's structured output ([`ToolResult::output`](crate::ToolResult::output)),
/// and its content blocks are the content parts. The model reads each piece of data once, and
/// nothing meant for the user alone; the application keeps every block:
///
/// - a text block that repeats the structured output (MCP asks servers to send its JSON as
///   text too, and the reference servers do: server-memory pretty-printed, server-filesystem
///   as the text it wraps in `{"content": text}`) is the same data: it goes to the
///   application's parts ([`ToolResult::app_content`](crate::ToolResult::app_content)), not
///   the model's. "The same" is decided on the data, not the characters: the text read as
///   JSON is the same value as `structuredContent` (whatever the spacing and key order,
///   numbers compared as numbers), or `structuredContent` is an object of one string and the
///   text is that string. A text that differs otherwise (cut, a summary) stays the model's.
/// - a block whose `annotations.audience` leaves out `"assistant"` (`["user"]`) is for the
///   application too, as MCP means it; it is not in the model text of an `isError` result
///   either.
///
/// The executor validates the structured output against the
/// `outputSchema`: a result that does not match it, or that has none when the tool declares
/// one, is an output validation failure ([`ToolValidationError`](crate::ToolValidationError),
/// every problem with its path).
///
/// A result with `isError: true` is a failed call whose text reaches the model: the tool
/// returns [`ToolError::failed`](crate::ToolError::failed) with an [`McpToolError`] as cause
/// and the server's text as [model message](crate::ToolError::with_model_message). That
/// breaks agentkit's default of not telling the model a tool's error text, on purpose: in
/// MCP, an `isError` result's content is written *for the model*, so that it can correct its
/// call (agentkit's own server sends exactly that), and hiding it would leave the model
/// guessing. The executor handles it as any model message: cut, escaped, and scrubbed of the
/// call's secrets. A request that fails (the connection, a protocol error) is an error for
/// operators only: the model is told that the tool failed.
///
/// A call the server runs as a task (MCP 2026-07-28's `io.modelcontextprotocol/tasks`
/// extension, SEP-2663, which the client declares) is one call to the executor all the same:
/// the server answers at once with a task, and the client polls `tasks/get` at the interval
/// the server asks (`pollIntervalMs`, kept between 10 ms and 30 s; 500 ms when it names none)
/// until the task ends, answering what the task asks meanwhile with the builder's handlers
/// (`tasks/update`). A completed task's result is read as above; a task that fails, or that
/// the server cancels, fails the call (for operators, with the server's message). When the
/// executor gives up on the call (its deadline, a cancelled turn), the client cancels the
/// task (`tasks/cancel`), which ends the server's work too. Progress and log messages sent
/// while a task runs, after its first answer, do not reach the call's observers (MCP does
/// not tie them to the task's polls).
///
/// A tool a 2025-11-25 server lists as running only as a task (`execution.taskSupport:
/// "required"`, SEP-1686; see [`McpClient::tools`](super::McpClient::tools)) is called as
/// one: `tools/call` with a `task`, `tasks/get` polled at the server's `pollInterval` until
/// the task needs input or ends, then `tasks/result`, while which the server sends what the
/// task asks (an elicitation) as requests of its own, answered by the builder's handlers; a
/// call the executor gives up on sends `tasks/cancel`. The reference server's
/// `simulate-research-query` is such a tool. Its progress (for the progress token of the
/// `tools/call` request, which SEP-1686 keeps for the task's whole life) and its log messages
/// reach the call's observers until the task's result, as below.
///
/// The server's progress notifications for a call (`notifications/progress` for its request's
/// progress token) and its log messages while the call runs (`notifications/message`) reach
/// the call's [`ToolContext`], as if the tool had reported them: the executor's observers see
/// them as `tool.execution.progress` and `tool.execution.log` events, in the order they
/// arrive, and a client that the executor serves over MCP gets them in turn. MCP does not say
/// which request a log message concerns: one that arrives while several calls to the same
/// server run reaches each of them, and one that arrives while none runs goes nowhere. Over
/// streamable HTTP, a server may send its log messages on the session's stream rather than
/// the call's (rmcp's server does), so one sent just before the result can arrive after it;
/// progress notifications come on the call's stream, before its result. (Not for a client
/// made with [`McpClient::from_connection`](super::McpClient::from_connection), whose
/// notifications go to its own handler.)
#[derive(Clone)]
pub struct McpTool {
    spec: ToolSpec,
    remote_name: String,
    connection: Arc<Connection>,
    /// Called as a task of 2025-11-25 (the server lists it as needing one): see
    /// `legacy_tasks`.
    legacy_task: bool,
}

impl fmt::Debug for McpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTool")
            .field("spec", &self.spec)
            .field("remote_name", &self.remote_name)
            .finish_non_exhaustive()
    }
}

impl McpTool {
    /// The server's tool `info`, on `connection`, named with `prefix`, tagged with `server`;
    /// called as a task of 2025-11-25 when `legacy_task` (see `legacy_tasks`).
    pub(super) fn new(
        connection: &Arc<Connection>,
        info: McpToolInfo,
        prefix: Option<&str>,
        server: Option<&str>,
        legacy_task: bool,
    ) -> Result<Self, SemanticError> {
        let declared = Value::Object(info.input_schema.as_ref().clone());
        // The server's schema, validated in full; one the validator cannot take makes the
        // tool fail to build, saying why, rather than go unvalidated.
        let mut builder = ToolSpec::builder(format!("{}{}", prefix.unwrap_or(""), info.name))
            .description(info.description.clone().unwrap_or_default())
            .input_json_schema(declared);
        // Its output schema, any schema, checked as JSON Schema says (no policies for
        // models): the server's `structuredContent`, any JSON value, is validated against it.
        if let Some(output) = &info.output_schema {
            builder = builder.output_json_schema(Value::Object(output.as_ref().clone()));
        }
        // The server's annotations are what it says of its tool: kept, for policies to show a
        // person, never to rely on. Hints that contradict each other are dropped, rather than
        // the tool.
        if let Some(hints) = &info.annotations {
            if let Some(title) = hints.title.clone().or_else(|| info.title.clone()) {
                builder = builder.title(title);
            }
            let contradict =
                hints.read_only_hint == Some(true) && hints.destructive_hint == Some(true);
            if !contradict {
                for (set, hint) in [
                    (
                        ToolSpecBuilder::read_only as fn(_, _) -> _,
                        hints.read_only_hint,
                    ),
                    (ToolSpecBuilder::destructive, hints.destructive_hint),
                    (ToolSpecBuilder::idempotent, hints.idempotent_hint),
                    (ToolSpecBuilder::open_world, hints.open_world_hint),
                ] {
                    if let Some(hint) = hint {
                        builder = set(builder, hint);
                    }
                }
            }
        } else if let Some(title) = info.title.clone() {
            builder = builder.title(title);
        }
        // Tags served by agentkit travel in `_meta`; they come back as tags.
        let tags = info.meta.as_ref().and_then(|meta| meta.get(TAGS_META_KEY));
        if let Some(Value::Object(tags)) = tags {
            for (key, value) in tags {
                if let (Some(value), true) = (value.as_str(), key != SERVER_TAG) {
                    builder = builder.tag(key.clone(), value.to_owned());
                }
            }
        }
        if let Some(server) = server {
            builder = builder.tag(SERVER_TAG, server.to_owned());
        }
        let spec = builder.build()?;
        Ok(McpTool {
            spec,
            remote_name: info.name.into_owned(),
            connection: Arc::clone(connection),
            legacy_task,
        })
    }

    /// The tool's name on the server (without the prefix).
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }
}

/// The text of an MCP tool result with `isError: true`; the cause of the tool's
/// [`ToolExecutionError`](crate::ToolExecutionError), whose
/// [model message](crate::ToolExecutionError::model_message) is the same text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpToolError {
    text: String,
}

impl McpToolError {
    /// The server's text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for McpToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for McpToolError {}

impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let request =
            CallToolRequestParams::new(self.remote_name.clone()).with_arguments(inputs.clone());
        let called = if self.legacy_task {
            self.connection.call_legacy_task(request, ctx).await
        } else {
            self.connection.call_tool(request, ctx).await
        };
        let result = called.map_err(|e| {
            // Input the server asked for and the client could not give is its own kind.
            let kind = if e.is::<UnansweredInput>() {
                McpErrorKind::Input
            } else {
                McpErrorKind::Request
            };
            McpError::new(kind, e)
        })?;
        if result.is_error == Some(true) {
            let text = result_text(&result);
            // Written for the model by the server (see the type's docs).
            return Err(ToolError::failed(McpToolError { text: text.clone() })
                .with_model_message(text)
                .into());
        }
        Ok(result_output(result))
    }
}
