//! Execution events: `tool.execution.started`, `tool.execution.completed`,
//! `tool.execution.failed`, and those of the executor's policies (deferral, progress, a late
//! finish discarded), delivered to the [`ToolObserver`]s of an executor.

use std::time::Duration;

use serde_json::Value;

use crate::content::Content;
use crate::context::Progress;
use crate::error::{Error, ErrorKind};
use crate::schema::JsonObject;
use crate::session::LogMessage;

/// One event of a tool call.
///
/// Events borrow what they describe, so an observer that ignores a field pays nothing for
/// it. Credentials are never part of an event.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum ToolEvent<'a> {
    /// `tool.execution.started`: a call was received, before validation.
    Started {
        /// The tool name as called.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
    },
    /// `tool.execution.completed`: the tool ran and its output is valid.
    Completed {
        /// The tool name.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// The validated inputs, defaults filled.
        inputs: &'a JsonObject,
        /// The validated structured output (any JSON value; see
        /// [`ToolResult::output`](crate::ToolResult::output)); `None` for content parts alone.
        output: Option<&'a Value>,
        /// The content parts (none for structured output alone), as the result holds them.
        content: &'a [Content],
        /// How long the call took, as [`ToolResult::duration`](crate::ToolResult::duration).
        duration: Duration,
    },
    /// `tool.execution.failed`: validation, credentials, the tool or dispatch failed.
    Failed {
        /// The tool name as called.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// The inputs as far as they got: `None` when the arguments were not a JSON object.
        inputs: Option<&'a JsonObject>,
        /// What went wrong: a timeout, a cancellation, a denial or a retry request too.
        error: &'a Error,
        /// How long the call took, as [`ToolResult::duration`](crate::ToolResult::duration).
        duration: Duration,
    },
    /// `tool.execution.deferred`: the approval policy deferred the call; the tool has not
    /// run. This ends the call; [`ToolExecutor::resume`](crate::ToolExecutor::resume) starts
    /// a new one.
    Deferred {
        /// The tool name.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// The validated inputs, defaults filled.
        inputs: &'a JsonObject,
        /// How long the call took, as [`ToolResult::duration`](crate::ToolResult::duration).
        duration: Duration,
    },
    /// `tool.execution.progress`: a running tool reported progress through its
    /// [`ToolContext`](crate::ToolContext::report_progress).
    Progress {
        /// The tool name.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// The progress reported; its message is bounded and free of the call's secrets.
        progress: &'a Progress,
    },
    /// `tool.execution.log`: a running tool logged a message through its
    /// [`ToolContext`](crate::ToolContext::log).
    Log {
        /// The tool name.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// The message; bounded and free of the call's secrets.
        message: &'a LogMessage,
    },
    /// `tool.execution.discarded`: a tool finished after its call had already ended (with a
    /// timeout, or because the call was dropped); what it returned was thrown away. Comes
    /// after the call's `failed` event, from the thread that ran a blocking tool, or at once
    /// for a tool that ran past its deadline without yielding.
    Discarded {
        /// The tool name.
        tool_name: &'a str,
        /// The call id.
        call_id: &'a str,
        /// Whether what was discarded was a success (an output), rather than an error.
        succeeded: bool,
        /// How long after the call's arguments were found valid the tool finished.
        duration: Duration,
    },
}

impl<'a> ToolEvent<'a> {
    /// The event's name: `tool.execution.started`, `tool.execution.completed` or
    /// `tool.execution.failed`.
    pub fn name(&self) -> &'static str {
        match self {
            ToolEvent::Started { .. } => "tool.execution.started",
            ToolEvent::Completed { .. } => "tool.execution.completed",
            ToolEvent::Failed { .. } => "tool.execution.failed",
            ToolEvent::Deferred { .. } => "tool.execution.deferred",
            ToolEvent::Progress { .. } => "tool.execution.progress",
            ToolEvent::Log { .. } => "tool.execution.log",
            ToolEvent::Discarded { .. } => "tool.execution.discarded",
        }
    }

    /// The tool name.
    pub fn tool_name(&self) -> &'a str {
        match *self {
            ToolEvent::Started { tool_name, .. }
            | ToolEvent::Completed { tool_name, .. }
            | ToolEvent::Failed { tool_name, .. }
            | ToolEvent::Deferred { tool_name, .. }
            | ToolEvent::Progress { tool_name, .. }
            | ToolEvent::Log { tool_name, .. }
            | ToolEvent::Discarded { tool_name, .. } => tool_name,
        }
    }

    /// The call id.
    pub fn call_id(&self) -> &'a str {
        match *self {
            ToolEvent::Started { call_id, .. }
            | ToolEvent::Completed { call_id, .. }
            | ToolEvent::Failed { call_id, .. }
            | ToolEvent::Deferred { call_id, .. }
            | ToolEvent::Progress { call_id, .. }
            | ToolEvent::Log { call_id, .. }
            | ToolEvent::Discarded { call_id, .. } => call_id,
        }
    }

    /// How long the call took (for `discarded`, until the tool finished); `None` for
    /// `started`, `progress` and `log`.
    pub fn duration(&self) -> Option<Duration> {
        match *self {
            ToolEvent::Started { .. } | ToolEvent::Progress { .. } | ToolEvent::Log { .. } => None,
            ToolEvent::Completed { duration, .. }
            | ToolEvent::Failed { duration, .. }
            | ToolEvent::Deferred { duration, .. }
            | ToolEvent::Discarded { duration, .. } => Some(duration),
        }
    }

    /// The kind of error, for `failed`.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self {
            ToolEvent::Failed { error, .. } => Some(error.kind()),
            _ => None,
        }
    }
}

/// Receives the events of every call an executor makes.
///
/// Closures taking a `&ToolEvent` are observers:
///
/// ```
/// use agentkit_core::{ToolEvent, ToolExecutor, ToolRegistry};
///
/// let executor = ToolExecutor::builder(ToolRegistry::new())
///     .observer(|event: &ToolEvent<'_>| eprintln!("{} {}", event.name(), event.tool_name()))
///     .build();
/// # let _ = executor;
/// ```
///
/// Observers run inline, on the task that makes the call: keep them quick.
pub trait ToolObserver: Send + Sync + 'static {
    /// Called for each event, in order: `started`, any `progress`, then one of `completed`,
    /// `failed` or `deferred`; for a tool that finishes after its call ended, `discarded`
    /// last.
    fn on_event(&self, event: &ToolEvent<'_>);
}

impl<F> ToolObserver for F
where
    F: Fn(&ToolEvent<'_>) + Send + Sync + 'static,
{
    fn on_event(&self, event: &ToolEvent<'_>) {
        self(event);
    }
}
