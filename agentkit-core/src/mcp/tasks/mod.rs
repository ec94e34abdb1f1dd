//! Tools run as tasks: the `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28
//! (SEP-2663), server side. A `tools/call` of a tool that supports tasks, from a client that
//! declared the extension, is answered at once with a task (`resultType: "task"`); the call
//! runs through the executor in the background, and the client polls `tasks/get` for its
//! status and, once it ends, its result, answers what the tool asks with `tasks/update`, or
//! ends it early with `tasks/cancel`.

mod compose;
mod input;
mod store;

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, GetTaskParams, GetTaskResult, JsonObject, ProtocolVersion,
    ServerCapabilities, TASKS_EXTENSION_ID, TaskPayload, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::current_timestamp;
use serde_json::{Map, Value};

pub(crate) use input::TaskClient;
pub(crate) use store::Tasks;
pub use store::{DEFAULT_MAX_TASKS, DEFAULT_TASK_TTL};

use super::convert::into_call_tool_result;
use super::deferred::{DEFERRED_META, RESUME_META, new_id};
use super::request_stream::RequestStream;
use super::server::McpServer;
use crate::call::ToolCall;
use crate::error::ErrorKind;
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::tool::{TaskSupport, ToolSpec};

impl McpServer {
    /// Sets whether the tool called `name` runs as a task (MCP 2026-07-28's
    /// `io.modelcontextprotocol/tasks` extension, SEP-2663), over what its spec declares
    /// ([`ToolSpec::task_support`], `#[tool(task_support = "optional")]`;
    /// [`Forbidden`](TaskSupport::Forbidden) unless declared). With one tool
    /// [`Optional`](TaskSupport::Optional) or [`Required`](TaskSupport::Required), the server
    /// declares the extension, and:
    ///
    /// - a `tools/call` of such a tool from a client that declared the extension (at
    ///   `initialize`, or in the request's `_meta`) is answered at once with a task
    ///   (`resultType: "task"`, its `taskId`, `ttlMs` and `pollIntervalMs`); the call runs
    ///   through the executor in the background as any other call (validation, deadlines,
    ///   observers and their events);
    /// - `tasks/get` tells its status: `working`, then `completed` with the call's result
    ///   (a failed call too: its result says `isError`), `failed` with a JSON-RPC error when
    ///   the tool panicked, or `cancelled`;
    /// - `tasks/cancel` ends the call as the client's cancellation does (the call ends with
    ///   its terminal event) and the task is `cancelled`;
    /// - what the tool asks the client's user or model ([`elicit`](crate::ToolContext::elicit),
    ///   [`sample`](crate::ToolContext::sample)) waits in the task, `input_required` with its
    ///   `inputRequests`, until the client answers with `tasks/update`;
    /// - a call the approval policy defers completes its task with the deferred result; with
    ///   a [deferred store](Self::with_deferred_store) its id is in the result's `_meta`, to
    ///   resume with a plain `tools/call`, as any deferred call;
    /// - a `Required` tool called by a client that did not declare the extension is refused
    ///   with -32021 (missing required client capability), before it runs; an `Optional` one
    ///   is then called plainly.
    ///
    /// Tasks are bounded: at most [`DEFAULT_MAX_TASKS`] run at once
    /// ([`with_max_tasks`](Self::with_max_tasks); one more is refused with -32000), and a task
    /// is kept [`DEFAULT_TASK_TTL`] after it ends ([`with_task_ttl`](Self::with_task_ttl)), then
    /// dropped. A task is its principal's: for another, its id is unknown (-32602), as an id
    /// that never was.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use agentkit_core::TaskSupport;
    /// use agentkit_core::mcp::McpServer;
    /// # use agentkit_core::{ToolExecutor, ToolRegistry};
    /// # let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
    /// let server = McpServer::new(executor).with_task_support("render_video", TaskSupport::Optional);
    /// ```
    #[must_use]
    pub fn with_task_support(mut self, name: impl Into<String>, support: TaskSupport) -> Self {
        let mut tasks = (*self.tasks).clone();
        tasks.support.insert(name.into(), support);
        self.tasks = Arc::new(tasks);
        self
    }

    /// Has the tool called `name`, which runs as a task ([`with_task_support`](Self::with_task_support)
    /// or its spec), gather what it asks the client in input-required rounds first, and
    /// become a task only once it has the answers: the composition of MCP 2026-07-28's
    /// input-required results (SEP-2322) with the tasks extension (SEP-2663).
    ///
    /// A call of it from a client of 2026-07-28 that declared the extension is answered
    /// with an `InputRequiredResult` while the tool asks what the client has not answered
    /// (each round as for a plain call, with its sealed `requestState`); on the round where
    /// the tool first waits on anything else, or ends, the answer is its task (`resultType:
    /// "task"`, no `requestState`), and the call goes on in the background, the answers
    /// gathered so far in hand. A question the tool asks after that waits in the task, for
    /// `tasks/update`. A tool that ends on that round completes its task at once.
    ///
    /// Without this, a task's tool asks through the task from the start, and a client of
    /// 2025-11-25 gets its task at once either way (it has no rounds). A
    /// [`blocking`](crate::ToolSpecBuilder::blocking) tool runs on a thread of its own, apart
    /// from the round, which cannot tell its work from its waiting for an answer: it may
    /// become a task before it asks, and then asks through the task.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// use agentkit_core::TaskSupport;
    /// use agentkit_core::mcp::McpServer;
    /// # use agentkit_core::{ToolExecutor, ToolRegistry};
    /// # let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
    /// let server = McpServer::new(executor)
    ///     .with_task_support("render_video", TaskSupport::Optional)
    ///     .with_input_before_task("render_video");
    /// ```
    #[must_use]
    pub fn with_input_before_task(mut self, name: impl Into<String>) -> Self {
        let mut tasks = (*self.tasks).clone();
        tasks.input_first.insert(name.into());
        self.tasks = Arc::new(tasks);
        self
    }

    /// Sets how many tasks may run at once (default [`DEFAULT_MAX_TASKS`]); a call that would
    /// make one more is refused with -32000. As many ended tasks are kept, the oldest dropped
    /// first.
    #[must_use]
    pub fn with_max_tasks(mut self, max: usize) -> Self {
        let mut tasks = (*self.tasks).clone();
        tasks.max_live = max;
        self.tasks = Arc::new(tasks);
        self
    }

    /// Sets how long a task is kept once it ends (default [`DEFAULT_TASK_TTL`]): the `ttlMs`
    /// clients are told. A task still running is kept until it ends.
    #[must_use]
    pub fn with_task_ttl(mut self, ttl: Duration) -> Self {
        let mut tasks = (*self.tasks).clone();
        tasks.ttl = ttl;
        self.tasks = Arc::new(tasks);
        self
    }

    /// Declares the tasks extension in `capabilities`, when a tool may run as a task.
    pub(super) fn declare_tasks(&self, capabilities: &mut ServerCapabilities) {
        if self.tasks.enabled() {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(TASKS_EXTENSION_ID.to_owned(), JsonObject::new());
        }
    }

    /// How `request` is served for this client: answered with a task at once, when its
    /// tool runs as one; in rounds that end in a task; or plainly.
    pub(super) fn call_as_task(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<Dispatch, ErrorData> {
        let support = self.tasks.support(&request.name);
        if support == TaskSupport::Forbidden {
            return Ok(Dispatch::Plain);
        }
        if self.deferred.is_some() && context.meta.get(RESUME_META).is_some() {
            // Resuming a deferred call, decided already: a plain call.
            return Ok(Dispatch::Plain);
        }
        let principal = principal(context);
        if self.executor.registry().lookup(&request.name).is_none()
            || !self.may_use(principal.as_ref(), &request.name)
        {
            // The plain call answers that the tool is unknown.
            return Ok(Dispatch::Plain);
        }
        let declared = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        match (declared, support) {
            (true, _) => {}
            (false, TaskSupport::Required) => {
                return Err(ErrorData::missing_required_client_capability(
                    ClientCapabilities::builder().enable_tasks().build(),
                ));
            }
            (false, _) => return Ok(Dispatch::Plain),
        }
        let by_rounds = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        if by_rounds && self.tasks.input_first(&request.name) {
            return Ok(Dispatch::RoundsThenTask);
        }
        let owner = principal.as_ref().map(|p| p.subject().to_owned());
        let (task, cancel) = self.tasks.create(owner.clone())?;
        let call = ToolCall::new(
            context.id.to_string(),
            request.name.clone(),
            self.arguments_as_written(context, request.arguments.clone()),
        );
        // The call outlives the request: its deadline is the task's own cancellation, and its
        // reports go to the session (the request's stream ends with the task's creation).
        let mut context = context.clone();
        context.ct = cancel.clone();
        context.extensions.remove::<RequestStream>();
        let id = task.task_id.clone();
        // What the tool asks the client waits in the task for `tasks/update`.
        let client = TaskClient::new(Arc::clone(&self.tasks), id.clone(), &context);
        context.extensions.insert(client);
        let server = self.clone();
        tokio::spawn(async move {
            let result = server.run_to_end(&call, &context, principal).await;
            let cancelled = cancel.is_cancelled();
            let payload = server.payload(call.name(), result, cancelled, owner.as_deref());
            server.tasks.end(&id, payload);
        });
        Ok(Dispatch::Task(CallToolResponse::Task(
            CreateTaskResult::new(task),
        )))
    }

    /// How a task whose call ended with `result` ends: cancelled when the client cancelled
    /// it and the call ended so, failed when the tool panicked (a failure of the server, not
    /// an answer), completed with the result otherwise, a failed call included. A call the
    /// approval policy defers is kept in the server's deferred store, when it has one, for
    /// `owner` to resume as a plain call's (its id in the result's `_meta`).
    fn payload(
        &self,
        name: &str,
        result: ToolResult,
        cancelled: bool,
        owner: Option<&str>,
    ) -> TaskPayload {
        let failed = |message: String| TaskPayload::Failed {
            error: to_object(&ErrorData::internal_error(message, None)),
        };
        match result.error_kind() {
            // Ended by its deadline, which the cancellation is.
            Some(ErrorKind::Cancelled | ErrorKind::Timeout) if cancelled => {
                return TaskPayload::Cancelled;
            }
            Some(ErrorKind::Panic) => {
                let error = result.error().map(|error| error.to_model_message());
                return failed(error.unwrap_or_default());
            }
            _ => {}
        }
        let deferred_id = match (&self.deferred, result.deferred()) {
            (Some(store), Some(deferred)) => {
                let id = new_id();
                if store.keep(&id, deferred, owner).is_err() {
                    return failed("the deferred call could not be kept".to_owned());
                }
                Some(id)
            }
            _ => None,
        };
        let structured = self
            .executor
            .registry()
            .lookup(name)
            .is_some_and(ToolSpec::has_output_schema);
        let mut result = to_object(&into_call_tool_result(result, structured));
        if let Some(id) = deferred_id {
            let meta = result
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(DEFERRED_META.to_owned(), Value::String(id));
            }
        }
        TaskPayload::Completed { result }
    }

    /// `tasks/get`: the task's status, and its result or error once it has ended.
    pub(super) fn get_task_of(
        &self,
        request: &GetTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let owner = principal(context);
        let owner = owner.as_ref().map(Principal::subject);
        let detailed = self
            .tasks
            .with_entry(&request.task_id, owner, |entry| entry.detailed())?;
        Ok(GetTaskResult::new(detailed))
    }

    /// `tasks/update`: the client's answers to what the task asked, each by its key; a key
    /// the task does not wait on (answered already, or never asked) is ignored, and answering
    /// some of the questions leaves the task waiting for the others.
    pub(super) fn update_task_of(
        &self,
        request: &UpdateTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = principal(context);
        let owner = owner.as_ref().map(Principal::subject);
        self.tasks.with_entry(&request.task_id, owner, |entry| {
            for (key, answer) in &request.input_responses {
                if let Some((_, waiting)) = entry.asked.remove(key) {
                    // The tool may have stopped waiting (cancelled): nothing to deliver then.
                    let _ = waiting.send(answer.clone());
                    entry.task.last_updated_at = current_timestamp();
                }
            }
        })
    }

    /// `tasks/cancel`: ends the task's call (it ends with its terminal event, and the task is
    /// `cancelled`); a task that has ended stays as it is.
    pub(super) fn cancel_task_of(
        &self,
        request: &CancelTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let owner = principal(context);
        let owner = owner.as_ref().map(Principal::subject);
        self.tasks.with_entry(&request.task_id, owner, |entry| {
            if entry.ended.is_none() {
                entry.cancel.cancel();
                // Its questions will not be answered.
                entry.asked.clear();
            }
        })
    }
}

/// How a `tools/call` is served.
pub(super) enum Dispatch {
    /// Answered with its task, the call running in the background.
    Task(CallToolResponse),
    /// In input-required rounds, then as a task (see `compose`).
    RoundsThenTask,
    /// As a plain call.
    Plain,
}

/// Who a request was made for, when the server authenticated it.
fn principal(context: &RequestContext<RoleServer>) -> Option<Principal> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Principal>().cloned())
}

/// A value as the JSON object it serializes to.
fn to_object(value: &impl serde::Serialize) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(Value::Object(object)) => object,
        _ => Map::new(),
    }
}
