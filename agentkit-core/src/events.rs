//! Execution events: `tool.execution.started`, `tool.execution.completed` and
//! `tool.execution.failed`, delivered to the [`ToolObserver`]s of an executor.

use std::time::Duration;

use crate::error::{Error, ErrorKind};
use crate::schema::JsonObject;

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
        /// The validated output.
        output: &'a JsonObject,
        /// How long the call took.
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
        /// What went wrong.
        error: &'a Error,
        /// How long the call took.
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
        }
    }

    /// The tool name.
    pub fn tool_name(&self) -> &'a str {
        match *self {
            ToolEvent::Started { tool_name, .. }
            | ToolEvent::Completed { tool_name, .. }
            | ToolEvent::Failed { tool_name, .. } => tool_name,
        }
    }

    /// The call id.
    pub fn call_id(&self) -> &'a str {
        match *self {
            ToolEvent::Started { call_id, .. }
            | ToolEvent::Completed { call_id, .. }
            | ToolEvent::Failed { call_id, .. } => call_id,
        }
    }

    /// How long the call took; `None` for `started`.
    pub fn duration(&self) -> Option<Duration> {
        match *self {
            ToolEvent::Started { .. } => None,
            ToolEvent::Completed { duration, .. } | ToolEvent::Failed { duration, .. } => {
                Some(duration)
            }
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
    /// Called for each event, in order: `started`, then `completed` or `failed`.
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
