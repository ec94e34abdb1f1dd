//! A tool call the server runs as a task (MCP 2026-07-28's `io.modelcontextprotocol/tasks`
//! extension, SEP-2663), client side: the server answers `tools/call` at once with a task
//! (`resultType: "task"`); the client polls `tasks/get` at the interval the server asks
//! (`pollIntervalMs`) until the task ends, answers what it asks meanwhile with `tasks/update`,
//! and reads the call's result from the ended task. A call dropped before its task ends (the
//! executor's deadline, a cancelled turn) cancels the task with `tasks/cancel`.

use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    CallToolResult, CancelTaskParams, ClientRequest, CustomRequest, GetTaskParams, InputRequests,
    JsonObject, Task, TaskPayload, UpdateTaskParams,
};
use rmcp::service::Peer;
use serde_json::Value;

use super::connection::Connection;
use super::elicit::fulfill;
use crate::error::BoxError;

/// How long the client waits between two `tasks/get` when the server names no interval.
const DEFAULT_POLL: Duration = Duration::from_millis(500);

/// The longest wait between two `tasks/get`, whatever the server asks: a task that ends is
/// seen within this.
const MAX_POLL: Duration = Duration::from_secs(30);

/// The shortest wait between two `tasks/get`, whatever the server asks: a server asking for
/// `0` is not polled in a busy loop.
const MIN_POLL: Duration = Duration::from_millis(10);

/// The longest status message or error text of a server kept in a [`TaskEnded`].
const MAX_TEXT: usize = 500;

/// A task that ended without a result: failed (with the server's JSON-RPC error) or cancelled
/// (by the server: a call cancelled by the client does not wait for its task). The source of
/// the call's [`McpError`](super::McpError).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TaskEnded {
    id: String,
    how: &'static str,
    /// The server's message, cut to [`MAX_TEXT`] bytes.
    message: Option<String>,
}

impl fmt::Display for TaskEnded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the server's task '{}' {}", self.id, self.how)?;
        match &self.message {
            Some(message) => write!(f, ": {message}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for TaskEnded {}

impl TaskEnded {
    /// Task `id` ended `how`, with the server's `message` (cut to [`MAX_TEXT`] bytes).
    pub(super) fn new(id: &str, how: &'static str, message: Option<&str>) -> Self {
        TaskEnded {
            id: id.to_owned(),
            how,
            message: message.map(bounded),
        }
    }
}

/// `text` cut to at most [`MAX_TEXT`] bytes, on a character boundary.
fn bounded(text: &str) -> String {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// The wait before the next `tasks/get`: the server's `pollIntervalMs` (the latest it gave),
/// within [`MIN_POLL`] and [`MAX_POLL`].
pub(super) fn poll_interval(millis: Option<u64>) -> Duration {
    millis
        .map_or(DEFAULT_POLL, Duration::from_millis)
        .clamp(MIN_POLL, MAX_POLL)
}

impl Connection {
    /// Waits for `task`, made by the server for a `tools/call`, to end, and returns the call's
    /// result (see the module docs).
    pub(super) async fn await_task(&self, task: Task) -> Result<CallToolResult, BoxError> {
        let id = task.task_id;
        let mut cancel = CancelOnDrop::new(&self.peer, id.clone(), false);
        let mut millis = task.poll_interval_ms;
        // The keys of the questions answered: a server may list them until it has read the
        // answers (`tasks/update` is acknowledged before it takes effect).
        let mut answered = BTreeSet::new();
        loop {
            tokio::time::sleep(poll_interval(millis)).await;
            let got = self.peer.get_task(GetTaskParams::new(id.clone())).await?;
            let detailed = got.task;
            millis = detailed.task.poll_interval_ms.or(millis);
            let status = detailed.task.status_message.as_deref();
            match detailed.payload {
                TaskPayload::Completed { result } => {
                    cancel.clear();
                    return Ok(read_result(result)?);
                }
                TaskPayload::Failed { error } => {
                    cancel.clear();
                    // The JSON-RPC error's message, else the task's status message.
                    let message = error.get("message").and_then(Value::as_str);
                    return Err(TaskEnded::new(&id, "failed", message.or(status)).into());
                }
                TaskPayload::Cancelled => {
                    cancel.clear();
                    return Err(TaskEnded::new(&id, "was cancelled by the server", status).into());
                }
                TaskPayload::InputRequired { input_requests } => {
                    self.answer(&id, input_requests, &mut answered).await?;
                }
                // Working, or a status of a later revision: polled again.
                _ => {}
            }
        }
    }

    /// Answers the questions of `asked` not answered yet, with `tasks/update`.
    async fn answer(
        &self,
        id: &str,
        mut asked: InputRequests,
        answered: &mut BTreeSet<String>,
    ) -> Result<(), BoxError> {
        asked.retain(|key, _| !answered.contains(key));
        if asked.is_empty() {
            return Ok(());
        }
        let keys: Vec<String> = asked.keys().cloned().collect();
        let answers = fulfill(&self.answers, asked).await?;
        self.peer
            .update_task(UpdateTaskParams::new(id, answers))
            .await?;
        answered.extend(keys);
        Ok(())
    }
}

/// Cancels task `id` on the server when dropped before it is cleared: the call was dropped
/// before its task ended. With `tasks/cancel` as rmcp sends it (SEP-2663), or as a raw
/// request for a task of 2025-11-25 (`legacy`, see `legacy_tasks`).
pub(super) struct CancelOnDrop<'a> {
    peer: &'a Peer<RoleClient>,
    id: Option<String>,
    legacy: bool,
}

impl<'a> CancelOnDrop<'a> {
    pub(super) fn new(peer: &'a Peer<RoleClient>, id: String, legacy: bool) -> Self {
        CancelOnDrop {
            peer,
            id: Some(id),
            legacy,
        }
    }

    /// The task ended: nothing to cancel.
    pub(super) fn clear(&mut self) {
        self.id = None;
    }
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let peer = self.peer.clone();
        let legacy = self.legacy;
        runtime.spawn(async move {
            if legacy {
                let params = serde_json::json!({ "taskId": id });
                let request = CustomRequest::new("tasks/cancel", Some(params));
                let _ = peer
                    .send_request(ClientRequest::CustomRequest(request))
                    .await;
            } else {
                let _ = peer.cancel_task(CancelTaskParams::new(id)).await;
            }
        });
    }
}

/// The result of a completed task, read as a `tools/call` result.
fn read_result(result: JsonObject) -> Result<CallToolResult, serde_json::Error> {
    serde_json::from_value(Value::Object(result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_poll_interval_is_the_servers_within_bounds() {
        assert_eq!(poll_interval(Some(250)), Duration::from_millis(250));
        assert_eq!(poll_interval(None), DEFAULT_POLL);
        assert_eq!(poll_interval(Some(0)), MIN_POLL);
        assert_eq!(poll_interval(Some(u64::MAX)), MAX_POLL);
    }

    #[test]
    fn a_servers_text_is_cut_on_a_character_boundary() {
        let long = "é".repeat(MAX_TEXT);
        let cut = bounded(&long);
        assert!(cut.len() <= MAX_TEXT && cut.chars().all(|c| c == 'é'));
        let ended = TaskEnded::new("t1", "failed", Some("boom"));
        assert_eq!(ended.to_string(), "the server's task 't1' failed: boom");
    }

    #[test]
    fn a_completed_tasks_result_reads_as_a_call_result() {
        let Value::Object(result) =
            json!({"content": [{"type": "text", "text": "ok"}], "isError": true})
        else {
            unreachable!()
        };
        let result = read_result(result).unwrap();
        assert_eq!(result.is_error, Some(true));
    }
}
