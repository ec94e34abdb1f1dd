//! Tasks of MCP 2025-11-25 (SEP-1686), client side, for the servers of that revision that run
//! a tool only as a task (`execution.taskSupport: "required"` in `tools/list`), such as the
//! reference server's `simulate-research-query`.
//!
//! rmcp 3.11 models the tasks of 2026-07-28 (SEP-2663) only: its `Tool` has no `execution`,
//! its server capabilities no `tasks`, and its requests no `task` parameter. So the client
//! reads those off the server's stream itself ([`LegacyTasks::read`], before rmcp parses
//! it): over stdio each line of the server's stdout (`child`), over streamable HTTP the data
//! of each SSE event, of the responses to its POSTs and of its GET stream, and the
//! `initialize` and `tools/list` answers a server sends as JSON bodies (a server's choice, such
//! as the TypeScript SDK's `enableJsonResponse`), which rmcp's HTTP client parses before
//! anything can read them, by asking again (`http_reader`). It calls such a tool with raw
//! requests (rmcp's custom requests, sent over the same connection, with its session and
//! headers): `tools/call` with `task: {}`, `tasks/get` polled at the server's `pollInterval` until the task needs input
//! or ends, then `tasks/result`, which waits for the end while the server sends what the task
//! asks (an elicitation) as requests of its own, answered by the client's handlers; a call
//! dropped before the end sends `tasks/cancel`.
//!
//! What the client cannot read, it cannot act on, and such a tool is then imported as any
//! other (its calls fail on the server): over a transport of the application's own
//! (`connect_transport`, `from_connection`).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, CustomRequest, ServerResult,
};
use rmcp::service::ServiceError;
use serde::Deserialize;
use serde_json::{Value, json};

use super::connection::{Abandoned, Connection, forwarding};
use super::task_call::{CancelOnDrop, TaskEnded, poll_interval};
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::tool::TaskSupport;

/// How many tools' task support are kept: a server listing more is read no further.
const MAX_TOOLS: usize = 4_096;

/// What a 2025-11-25 server said of tasks, read off its stream.
#[derive(Debug, Default)]
pub(super) struct LegacyTasks {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The server declared tasks for `tools/call` (`capabilities.tasks.requests.tools.call`).
    tools_call: bool,
    /// Each tool's `execution.taskSupport`, as last listed.
    support: HashMap<String, TaskSupport>,
}

/// The parts of a server's message this reads; everything else is skipped.
#[derive(Deserialize)]
struct Message {
    result: Option<Answer>,
}

#[derive(Deserialize)]
struct Answer {
    tools: Option<Vec<Listed>>,
    capabilities: Option<Capabilities>,
}

#[derive(Deserialize)]
struct Listed {
    name: String,
    execution: Option<Execution>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Execution {
    task_support: Option<String>,
}

#[derive(Deserialize)]
struct Capabilities {
    tasks: Option<Value>,
}

impl LegacyTasks {
    /// Reads `line`, one message of the server's (a line of its stdout, an SSE event's data):
    /// a `tools/list` result's task support, an `initialize` result's tasks capability.
    pub(super) fn read(&self, line: &[u8]) {
        // Most lines are neither (a call's result can be megabytes): not parsed twice.
        let mentions = |key: &[u8]| line.windows(key.len()).any(|window| window == key);
        if !mentions(b"\"tools\"") && !mentions(b"\"capabilities\"") {
            return;
        }
        let Ok(Message {
            result: Some(answer),
        }) = serde_json::from_slice::<Message>(line)
        else {
            return;
        };
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(capabilities) = answer.capabilities {
            let call = capabilities
                .tasks
                .as_ref()
                .and_then(|tasks| tasks.pointer("/requests/tools/call"));
            state.tools_call = call.is_some_and(Value::is_object);
        }
        for tool in answer.tools.into_iter().flatten() {
            let support = tool
                .execution
                .and_then(|execution| execution.task_support)
                .and_then(|support| TaskSupport::parse(&support))
                .unwrap_or_default();
            if state.support.len() < MAX_TOOLS || state.support.contains_key(&tool.name) {
                state.support.insert(tool.name, support);
            }
        }
    }

    /// The task support the server listed for tool `name` (forbidden when it listed none).
    pub(super) fn support(&self, name: &str) -> TaskSupport {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.support.get(name).copied().unwrap_or_default()
    }

    /// Whether the server declared tasks for `tools/call`.
    pub(super) fn tools_call(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .tools_call
    }
}

impl Connection {
    /// Sends `method` with `params` as a raw request, and waits for its result.
    pub(super) async fn raw_request(
        &self,
        method: &str,
        params: Value,
    ) -> Result<ServerResult, ServiceError> {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        self.peer.send_request(request).await
    }

    /// Calls a tool as a task of 2025-11-25 (see the module docs), handing what the server
    /// reports meanwhile to `ctx`: progress for the token of the `tools/call` request, which
    /// SEP-1686 keeps for the task's whole life, and log messages.
    pub(super) async fn call_legacy_task(
        &self,
        params: CallToolRequestParams,
        ctx: &ToolContext<'_>,
    ) -> Result<CallToolResult, BoxError> {
        let mut body = serde_json::to_value(&params)?;
        body["task"] = json!({});
        let request = ClientRequest::CustomRequest(CustomRequest::new("tools/call", Some(body)));
        // The route stays open for the task's life: its reports carry this request's token.
        let (route, handle) = self.send_routed(request).await?;
        let mut abandoned = Abandoned::new(&self.peer, &handle);
        let task = async {
            let answered = handle.await_response().await;
            // Answered: from here a dropped call cancels the task, not the request.
            abandoned.id = None;
            match answered? {
                // Answered at once after all.
                ServerResult::CallToolResult(result) => Ok(result),
                other => self.await_legacy_task(serde_json::to_value(other)?).await,
            }
        };
        forwarding(route, ctx, task).await
    }

    /// Waits for the end of `task`, the server's answer to a `tools/call` made a task.
    async fn await_legacy_task(&self, task: Value) -> Result<CallToolResult, BoxError> {
        let Some(id) = task.pointer("/task/taskId").and_then(Value::as_str) else {
            return Err(ServiceError::UnexpectedResponse.into());
        };
        let id = id.to_owned();
        let mut cancel = CancelOnDrop::new(&self.peer, id.clone(), true);
        let mut millis = task.pointer("/task/pollInterval").and_then(Value::as_u64);
        loop {
            tokio::time::sleep(poll_interval(millis)).await;
            let got = self.raw_request("tasks/get", json!({"taskId": id})).await?;
            let got = serde_json::to_value(got)?;
            millis = got.get("pollInterval").and_then(Value::as_u64).or(millis);
            match got.get("status").and_then(Value::as_str) {
                // `tasks/result` waits for the end, and carries what the task asks.
                Some("input_required" | "completed" | "failed") => break,
                Some("cancelled") => {
                    cancel.clear();
                    let message = got.get("statusMessage").and_then(Value::as_str);
                    return Err(TaskEnded::new(&id, "was cancelled by the server", message).into());
                }
                Some(_) => {}
                None => return Err(ServiceError::UnexpectedResponse.into()),
            }
        }
        let result = self
            .raw_request("tasks/result", json!({"taskId": id}))
            .await;
        // Ended, whatever the answer: nothing to cancel.
        cancel.clear();
        let result = result?;
        match result {
            ServerResult::CallToolResult(result) => Ok(result),
            other => Ok(serde_json::from_value(serde_json::to_value(other)?)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_support_and_the_tasks_capability_are_read_off_the_stream() {
        let tasks = LegacyTasks::default();
        tasks.read(br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"tasks":{"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}}"#);
        assert!(tasks.tools_call());
        tasks.read(br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}},{"name":"echo","inputSchema":{"type":"object"}},{"name":"odd","inputSchema":{},"execution":{"taskSupport":"sometimes"}}]}}"#);
        assert_eq!(tasks.support("research"), TaskSupport::Required);
        assert_eq!(tasks.support("echo"), TaskSupport::Forbidden);
        assert_eq!(tasks.support("odd"), TaskSupport::Forbidden);
        assert_eq!(tasks.support("unlisted"), TaskSupport::Forbidden);
        // A request of the server's, a notification, or not JSON: nothing read.
        tasks.read(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"tools":[]}}"#);
        tasks.read(b"not json");
        assert_eq!(tasks.support("research"), TaskSupport::Required);

        let without = LegacyTasks::default();
        without.read(br#"{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"tools":{},"tasks":{"list":{}}}}}"#);
        assert!(!without.tools_call());
    }
}
