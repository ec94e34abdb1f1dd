//! Tools run as tasks: the `io.modelcontextprotocol/tasks` extension of MCP 2026-07-28
//! (SEP-2663), server side. A `tools/call` of a tool that supports tasks, from a client that
//! declared the extension, is answered at once with a task (`resultType: "task"`); the call
//! runs through the executor in the background, and the client polls `tasks/get` for its
//! status and, once it ends, its result, or ends it early with `tasks/cancel`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities,
    CreateTaskResult, DetailedTask, ErrorCode, GetTaskParams, GetTaskResult, InputRequest,
    JsonObject, ServerCapabilities, TASKS_EXTENSION_ID, Task, TaskPayload, TaskStatus,
    UpdateTaskParams,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::current_timestamp;
use serde_json::{Map, Value};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::convert::into_call_tool_result;
use super::deferred::{DEFERRED_META, RESUME_META, new_id};
use super::raw::RawArguments;
use super::server::McpServer;
use super::task_input::TaskClient;
use crate::call::{ToolArguments, ToolCall};
use crate::error::ErrorKind;
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::tool::ToolSpec;

/// Whether a tool runs as a task when a client that supports tasks calls it (MCP's
/// `io.modelcontextprotocol/tasks` extension); set per tool with
/// [`McpServer::with_task_support`].
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

/// How many tasks a server runs at once, by default.
pub const DEFAULT_MAX_TASKS: usize = 100;

/// How long a task is kept once it ends, by default: 5 minutes.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(300);

/// How often a client is asked to poll a task, at most.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// The tasks of a server: which tools may run as tasks, the limits, and the tasks themselves,
/// shared by every session of the server.
#[derive(Clone)]
pub(super) struct Tasks {
    support: HashMap<String, TaskSupport>,
    max_live: usize,
    ttl: Duration,
    store: Arc<Mutex<Store>>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            support: HashMap::new(),
            max_live: DEFAULT_MAX_TASKS,
            ttl: DEFAULT_TASK_TTL,
            store: Arc::default(),
        }
    }
}

/// The tasks a server holds, by id: those running, and those ended, until their time is up.
#[derive(Default)]
struct Store {
    tasks: HashMap<String, Entry>,
    /// How many tasks have ended: the order they ended in.
    ends: u64,
}

/// One task.
struct Entry {
    /// Who created it (the subject of its principal, none for an unauthenticated client):
    /// only they can see it.
    owner: Option<String>,
    task: Task,
    /// The result or error, once the task has ended: when, and how many had ended before.
    ended: Option<(TaskPayload, Instant, u64)>,
    /// Ends the call (its deadline), on `tasks/cancel`.
    cancel: CancellationToken,
    /// What the tool asks the client and waits for, by key: the task is `input_required`
    /// while one waits.
    asked: BTreeMap<String, (InputRequest, oneshot::Sender<Value>)>,
    /// How many questions the task has asked: the next one's key.
    questions: u64,
}

impl Tasks {
    /// Whether any tool may run as a task: the server then declares the extension.
    pub(super) fn enabled(&self) -> bool {
        self.support
            .values()
            .any(|support| *support != TaskSupport::Forbidden)
    }

    fn support(&self, name: &str) -> TaskSupport {
        self.support.get(name).copied().unwrap_or_default()
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // A panic while the lock is held leaves the map whole (every change is one insert,
        // remove or assignment), so a poisoned lock is still usable.
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Makes a task for `owner`, when there is room for one.
    fn create(&self, owner: Option<String>) -> Result<(Task, CancellationToken), ErrorData> {
        let mut store = self.lock();
        store.sweep(self.ttl, self.max_live);
        let live = store.tasks.values().filter(|e| e.ended.is_none()).count();
        if live >= self.max_live {
            return Err(ErrorData::new(
                ErrorCode(-32000),
                format!(
                    "the server runs its maximum of {} tasks; try again later",
                    self.max_live
                ),
                None,
            ));
        }
        let now = current_timestamp();
        let task = Task::new(new_id(), TaskStatus::Working, now.clone(), now)
            .with_ttl_ms(millis(self.ttl))
            .with_poll_interval_ms(millis(POLL_INTERVAL));
        let cancel = CancellationToken::new();
        store.tasks.insert(
            task.task_id.clone(),
            Entry {
                owner,
                task: task.clone(),
                ended: None,
                cancel: cancel.clone(),
                asked: BTreeMap::new(),
                questions: 0,
            },
        );
        Ok((task, cancel))
    }

    /// Records how task `id` ended.
    fn end(&self, id: &str, payload: TaskPayload) {
        let mut store = self.lock();
        let order = store.ends;
        store.ends += 1;
        if let Some(entry) = store.tasks.get_mut(id) {
            entry.task.status = payload.status();
            entry.task.last_updated_at = current_timestamp();
            entry.ended = Some((payload, Instant::now(), order));
            entry.asked.clear();
        }
    }

    /// Asks the client `request` for task `id`, which is `input_required` until the client
    /// answers it with `tasks/update`: the answer, or `None` when the task has ended or been
    /// cancelled before it came.
    pub(super) fn ask(&self, id: &str, request: InputRequest) -> Option<oneshot::Receiver<Value>> {
        let mut store = self.lock();
        let entry = store.tasks.get_mut(id)?;
        if entry.ended.is_some() || entry.cancel.is_cancelled() {
            return None;
        }
        entry.questions += 1;
        let key = format!("input-{}", entry.questions);
        let (answer, answered) = oneshot::channel();
        entry.asked.insert(key, (request, answer));
        entry.task.last_updated_at = current_timestamp();
        Some(answered)
    }

    /// Task `id` as `owner` may see it: another principal's task is one that does not exist.
    fn with_entry<T>(
        &self,
        id: &str,
        owner: Option<&str>,
        then: impl FnOnce(&mut Entry) -> T,
    ) -> Result<T, ErrorData> {
        let mut store = self.lock();
        store.sweep(self.ttl, self.max_live);
        match store.tasks.get_mut(id) {
            Some(entry) if entry.owner.as_deref() == owner => Ok(then(entry)),
            _ => Err(ErrorData::invalid_params("no task with that id", None)),
        }
    }
}

impl Store {
    /// Drops the ended tasks whose time is up, and the oldest ended ones past `max`.
    fn sweep(&mut self, ttl: Duration, max: usize) {
        self.tasks.retain(|_, entry| {
            entry
                .ended
                .as_ref()
                .is_none_or(|(_, at, _)| at.elapsed() < ttl)
        });
        let mut ended: Vec<(u64, String)> = self
            .tasks
            .iter()
            .filter_map(|(id, entry)| Some((entry.ended.as_ref()?.2, id.clone())))
            .collect();
        if ended.len() > max {
            ended.sort_unstable();
            for (_, id) in &ended[..ended.len() - max] {
                self.tasks.remove(id);
            }
        }
    }
}

impl Entry {
    fn detailed(&self) -> DetailedTask {
        let payload = match &self.ended {
            Some((payload, _, _)) => payload.clone(),
            None if !self.asked.is_empty() => TaskPayload::InputRequired {
                input_requests: self
                    .asked
                    .iter()
                    .map(|(key, (request, _))| (key.clone(), request.clone()))
                    .collect(),
            },
            None => TaskPayload::Working,
        };
        DetailedTask::new(self.task.clone(), payload)
    }
}

/// A duration in whole milliseconds, at least 1.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis())
        .unwrap_or(u64::MAX)
        .max(1)
}

impl McpServer {
    /// Sets whether the tool called `name` runs as a task (MCP 2026-07-28's
    /// `io.modelcontextprotocol/tasks` extension, SEP-2663); tools are
    /// [`Forbidden`](TaskSupport::Forbidden) until set. With one tool set
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
    /// use agentkit_core::mcp::{McpServer, TaskSupport};
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

    /// Answers `request` with a task, when its tool runs as one for this client; `None` when
    /// it is to be called plainly.
    pub(super) fn call_as_task(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<CallToolResponse>, ErrorData> {
        let support = self.tasks.support(&request.name);
        if support == TaskSupport::Forbidden {
            return Ok(None);
        }
        if self.deferred.is_some() && context.meta.get(RESUME_META).is_some() {
            // Resuming a deferred call, decided already: a plain call.
            return Ok(None);
        }
        let principal = principal(context);
        if self.executor.registry().lookup(&request.name).is_none()
            || !self.may_use(principal.as_ref(), &request.name)
        {
            // The plain call answers that the tool is unknown.
            return Ok(None);
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
            (false, _) => return Ok(None),
        }
        let owner = principal.as_ref().map(|p| p.subject().to_owned());
        let (task, cancel) = self.tasks.create(owner.clone())?;
        let call = ToolCall::new(
            context.id.to_string(),
            request.name.clone(),
            self.arguments(request, context),
        );
        // The call outlives the request: its deadline is the task's own cancellation.
        let mut context = context.clone();
        context.ct = cancel.clone();
        let id = task.task_id.clone();
        // What the tool asks the client waits in the task for `tasks/update`.
        let client = TaskClient::new(Arc::clone(&self.tasks), id.clone(), &context);
        context.extensions.insert(client);
        let server = self.clone();
        tokio::spawn(async move {
            let result = server.run(&call, &context, principal).await;
            let cancelled = cancel.is_cancelled();
            let payload = server.payload(call.name(), result, cancelled, owner.as_deref());
            server.tasks.end(&id, payload);
        });
        Ok(Some(CallToolResponse::Task(CreateTaskResult::new(task))))
    }

    /// The arguments of `request` as the client wrote them, where the transport kept them
    /// (as a plain call takes them).
    fn arguments(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> ToolArguments {
        let written = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<RawArguments>().cloned())
            .or_else(|| self.raw.as_ref()?.take(&context.id));
        match written {
            Some(RawArguments(text)) => ToolArguments::Text(text.as_ref().into()),
            None => {
                ToolArguments::Value(Value::Object(request.arguments.clone().unwrap_or_default()))
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks(max: usize, ttl: Duration) -> Tasks {
        Tasks {
            max_live: max,
            ttl,
            ..Tasks::default()
        }
    }

    fn create(tasks: &Tasks) -> String {
        tasks.create(None).expect("room for a task").0.task_id
    }

    fn kept(tasks: &Tasks, id: &str) -> bool {
        tasks.with_entry(id, None, |_| ()).is_ok()
    }

    #[test]
    fn an_ended_task_is_dropped_when_its_time_is_up_and_a_running_one_is_kept() {
        let tasks = tasks(10, Duration::ZERO);
        let (running, ended) = (create(&tasks), create(&tasks));
        tasks.end(&ended, TaskPayload::Cancelled);
        assert!(!kept(&tasks, &ended));
        assert!(kept(&tasks, &running));
    }

    #[test]
    fn ended_tasks_past_the_cap_are_dropped_oldest_first_and_running_ones_are_capped() {
        let tasks = tasks(2, Duration::from_secs(3600));
        let ids: Vec<String> = (0..3)
            .map(|_| {
                let id = create(&tasks);
                tasks.end(&id, TaskPayload::Cancelled);
                id
            })
            .collect();
        let _ = create(&tasks); // Sweeps.
        assert!(!kept(&tasks, &ids[0]));
        assert!(kept(&tasks, &ids[1]) && kept(&tasks, &ids[2]));
        // One runs; one more may, then no more.
        let _ = create(&tasks);
        let refused = tasks.create(None).unwrap_err();
        assert_eq!(refused.code, ErrorCode(-32000));
    }

    #[test]
    fn a_task_is_only_its_owners() {
        let tasks = tasks(10, Duration::from_secs(3600));
        let (task, _) = tasks.create(Some("alice".into())).unwrap();
        let id = task.task_id;
        assert!(tasks.with_entry(&id, Some("alice"), |_| ()).is_ok());
        assert!(tasks.with_entry(&id, Some("bob"), |_| ()).is_err());
        assert!(tasks.with_entry(&id, None, |_| ()).is_err());
    }
}
