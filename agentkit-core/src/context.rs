//! [`ToolContext`]: what a tool's run sees besides its inputs.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};

use crate::credentials::{Credentials, Secret, UndeclaredCredential};
use crate::model_text::cut_scrubbed;
use crate::principal::Principal;
use crate::session::{
    ClientCapabilities, ClientError, ClientSession, Elicitation, ElicitationRequest, LogLevel,
    LogMessage, Root, Sampled, SamplingRequest,
};

/// What one call of a tool can see besides its validated inputs: the call id and tool name,
/// the credentials the executor resolved for it, the shared dependencies registered on the
/// executor, and a cancellation signal.
///
/// The executor builds one per call and hands it to [`Tool::execute`](crate::Tool::execute)
/// and [`ToolHandler::run`](crate::ToolHandler::run). It never gives a tool the executor or the
/// registry: tools do not call tools; composing them is the agent's job.
///
/// ```
/// use agentkit_core::{
///     BoxError, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput, ToolRegistry,
///     ToolSpec, block_on,
/// };
///
/// /// A connection pool the application shares with its tools.
/// struct Pool { url: &'static str }
///
/// struct Lookup(ToolSpec);
///
/// impl Tool for Lookup {
///     fn spec(&self) -> &ToolSpec { &self.0 }
///
///     async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
///         let pool = ctx.dependency::<Pool>()?; // a clear error if it was never registered
///         let mut out = JsonObject::new();
///         out.insert("db".into(), pool.url.into());
///         out.insert("call".into(), ctx.call_id().into());
///         Ok(out.into())
///     }
/// }
///
/// let mut registry = ToolRegistry::new();
/// registry.register(Lookup(ToolSpec::builder("lookup").build()?))?;
/// let executor = ToolExecutor::builder(registry)
///     .dependency(Pool { url: "postgres://localhost/app" })
///     .build();
/// let result = block_on(executor.dispatch(&ToolCall::new("call_7", "lookup", "{}")));
/// assert_eq!(result.output().unwrap()["db"], "postgres://localhost/app");
/// assert_eq!(result.output().unwrap()["call"], "call_7");
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
pub struct ToolContext<'a> {
    call_id: &'a str,
    tool_name: &'a str,
    credentials: &'a Credentials,
    dependencies: &'a Dependencies,
    cancellation: &'a OnceLock<Cancellation>,
    reports: Option<ReportSink<'a>>,
    client: Option<&'a dyn ClientSession>,
}

/// What a running tool reports for whoever watches the call.
#[derive(Clone, Copy)]
pub(crate) enum Report<'r> {
    /// How far it has got.
    Progress(&'r Progress),
    /// A log message.
    Log(&'r LogMessage),
}

/// Where a call's reports go: the executor's observers, and the client (over MCP).
pub(crate) type ReportSink<'a> = &'a (dyn Fn(Report<'_>) + Send + Sync);

/// How many characters of a tool's progress or log message are kept.
const REPORT_CHARS: usize = 1_000;

impl<'a> ToolContext<'a> {
    pub(crate) fn new(
        call_id: &'a str,
        tool_name: &'a str,
        credentials: &'a Credentials,
        dependencies: &'a Dependencies,
        cancellation: &'a OnceLock<Cancellation>,
    ) -> Self {
        ToolContext {
            call_id,
            tool_name,
            credentials,
            dependencies,
            cancellation,
            reports: None,
            client: None,
        }
    }

    pub(crate) fn with_reports(mut self, sink: ReportSink<'a>) -> Self {
        self.reports = Some(sink);
        self
    }

    pub(crate) fn with_client(mut self, client: Option<&'a dyn ClientSession>) -> Self {
        self.client = client;
        self
    }

    /// A context for running a tool outside an executor (in a unit test of its logic): call
    /// id `""`, no dependencies, never cancelled.
    ///
    /// ```
    /// use agentkit_core::{Credentials, ToolContext};
    ///
    /// let credentials = Credentials::new();
    /// let ctx = ToolContext::detached("my_tool", &credentials);
    /// assert_eq!(ctx.tool_name(), "my_tool");
    /// assert!(!ctx.is_cancelled());
    /// ```
    pub fn detached(tool_name: &'a str, credentials: &'a Credentials) -> Self {
        static NO_DEPENDENCIES: OnceLock<Dependencies> = OnceLock::new();
        static NEVER: OnceLock<Cancellation> = OnceLock::new();
        ToolContext::new(
            "",
            tool_name,
            credentials,
            NO_DEPENDENCIES.get_or_init(Dependencies::default),
            &NEVER,
        )
    }

    /// The provider's id of this call (empty for calls made without one).
    pub fn call_id(&self) -> &'a str {
        self.call_id
    }

    /// The name of the tool called.
    pub fn tool_name(&self) -> &'a str {
        self.tool_name
    }

    /// Every credential the tool declared, resolved by the executor before the run.
    pub fn credentials(&self) -> &'a Credentials {
        self.credentials
    }

    /// The credential called `name`, or an error naming it, for use with `?`.
    ///
    /// The executor resolves every credential a tool declares before running it (and does
    /// not run the tool when one is missing), so this fails only for a name the tool did not
    /// declare.
    pub fn credential(&self, name: &str) -> Result<&'a Secret, UndeclaredCredential> {
        self.credentials.require(name)
    }

    /// The dependency of type `T` registered on the executor with
    /// [`ToolExecutorBuilder::dependency`](crate::ToolExecutorBuilder::dependency), or an
    /// error naming the type, for use with `?`: the call then fails with a
    /// [`ToolExecutionError`](crate::ToolExecutionError) caused by a [`MissingDependency`].
    pub fn dependency<T: Any + Send + Sync>(&self) -> Result<&'a T, MissingDependency> {
        self.dependencies.get::<T>().ok_or(MissingDependency {
            type_name: type_name::<T>(),
        })
    }

    /// Whether the call was cancelled: its deadline passed, or its future was dropped.
    ///
    /// The executor drops an async tool's future right after cancelling it, so this matters
    /// to work that outlives a poll: a task the tool spawned (give it a clone of
    /// [`cancellation`](Self::cancellation)), or blocking work polling the flag.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation
            .get()
            .is_some_and(Cancellation::is_cancelled)
    }

    /// The call's cancellation signal, to await or to clone into spawned work.
    pub fn cancellation(&self) -> &'a Cancellation {
        self.cancellation.get_or_init(Cancellation::new)
    }

    /// Reports how far the call has got: a `tool.execution.progress` event for the
    /// executor's observers and, when the tool is served over MCP to a client that asked for
    /// progress, a progress notification to it.
    ///
    /// The message is for people watching, not the model: it is cut to 1 000 characters, and
    /// every value of the call's credentials in it is replaced by `[redacted]`. A report whose
    /// numbers are not finite is dropped.
    ///
    /// ```
    /// use agentkit_core::{Credentials, Progress, ToolContext};
    ///
    /// let credentials = Credentials::new();
    /// let ctx = ToolContext::detached("crawl", &credentials);
    /// // Outside an executor, reports go nowhere.
    /// ctx.report_progress(Progress::new(3.0).with_total(10.0).with_message("page 3 of 10"));
    /// ```
    pub fn report_progress(&self, progress: Progress) {
        let Some(sink) = self.reports else {
            return;
        };
        let finite = progress.progress.is_finite() && progress.total.is_none_or(f64::is_finite);
        if !finite {
            return;
        }
        let progress = Progress {
            message: progress
                .message
                .map(|message| self.clean(message, REPORT_CHARS)),
            ..progress
        };
        sink(Report::Progress(&progress));
    }

    /// Logs a message: a `tool.execution.log` event for the executor's observers and, when
    /// the tool is served over MCP, a `notifications/message` to the client, if it asked for
    /// messages of that level or above (`logging/setLevel`).
    ///
    /// Like a progress message, it is for people watching: cut to 1 000 characters, every
    /// value of the call's credentials in it replaced by `[redacted]`.
    ///
    /// ```
    /// use agentkit_core::{Credentials, LogLevel, ToolContext};
    ///
    /// let credentials = Credentials::new();
    /// let ctx = ToolContext::detached("crawl", &credentials);
    /// // Outside an executor, messages go nowhere.
    /// ctx.log(LogLevel::Info, "fetched 3 pages");
    /// ```
    pub fn log(&self, level: LogLevel, text: impl Into<String>) {
        let Some(sink) = self.reports else {
            return;
        };
        let message = LogMessage::new(level, self.clean(text.into(), REPORT_CHARS));
        sink(Report::Log(&message));
    }

    /// Who the call is made for, when it came through a server that authenticated its
    /// client (an MCP server with bearer authentication, feature `mcp`): `None` otherwise.
    pub fn principal(&self) -> Option<&Principal> {
        self.client.and_then(ClientSession::principal)
    }

    /// What the client of this call can be asked: `None` when the tool is not being served
    /// to a client (over MCP).
    pub fn client_capabilities(&self) -> Option<ClientCapabilities> {
        self.client.map(ClientSession::capabilities)
    }

    /// Asks the client's user a question (MCP's `elicitation/create`, form mode) and waits
    /// for the answer: the user accepts (with an answer that fits the request's schema),
    /// declines or cancels.
    ///
    /// The message is free of the call's secrets. It fails, without asking, when the tool is
    /// not being served to a client or the client cannot ask its user
    /// ([`ClientError::is_unavailable`]).
    ///
    /// The same code serves both ways MCP has of asking. A client of MCP 2025-11-25 is sent
    /// the request while the call runs, and the tool waits for the answer. For a client of
    /// 2026-07-28, the server answers the call with the questions (an `InputRequiredResult`:
    /// every question the tool asked at once, such as two joined futures, in one result),
    /// and the client calls again with the answers: the tool runs again from its start, and
    /// each question it asks is answered from what the client gave (so a tool must ask the
    /// same questions in the same order for the same arguments, and do nothing before its
    /// last question that must not be done twice). See `McpServer`'s "Asking the client"
    /// (feature `mcp`).
    pub fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> impl Future<Output = Result<Elicitation, ClientError>> + Send + 'a {
        let answer = match self.client {
            None => Err(ClientError::NotServed("ask its user")),
            Some(client) if !client.capabilities().elicitation => {
                client.refused("elicitation");
                Err(ClientError::Unsupported("elicitation"))
            }
            Some(client) => {
                let message = self.clean(request.message().to_owned(), usize::MAX);
                let mut clean = ElicitationRequest::new(
                    message,
                    serde_json::Value::Object(request.schema().clone()),
                );
                if let Some(key) = request.key() {
                    clean = clean.with_key(key);
                }
                Ok(client.elicit(clean))
            }
        };
        async move { answer?.await }
    }

    /// Asks the client for its roots (MCP's `roots/list`): the directories and files it lets
    /// servers work in. Answered as [`elicit`](Self::elicit) is, by either revision of MCP.
    ///
    /// It fails, without asking, when the tool is not being served to a client or the client
    /// did not declare roots ([`ClientError::is_unavailable`]).
    pub fn list_roots(&self) -> impl Future<Output = Result<Vec<Root>, ClientError>> + Send + 'a {
        let answer = match self.client {
            None => Err(ClientError::NotServed("list its roots")),
            Some(client) if !client.capabilities().roots => {
                client.refused("roots");
                Err(ClientError::Unsupported("roots"))
            }
            Some(client) => Ok(client.list_roots()),
        };
        async move { answer?.await }
    }

    /// Asks the client's model (MCP's `sampling/createMessage`) and waits for its answer.
    /// Answered as [`elicit`](Self::elicit) is, by either revision of MCP.
    ///
    /// The prompts are free of the call's secrets. It fails, without asking, when the tool is
    /// not being served to a client or the client cannot ask its model
    /// ([`ClientError::is_unavailable`]).
    pub fn sample(
        &self,
        request: SamplingRequest,
    ) -> impl Future<Output = Result<Sampled, ClientError>> + Send + 'a {
        let answer = match self.client {
            None => Err(ClientError::NotServed("ask its model")),
            Some(client) if !client.capabilities().sampling => {
                client.refused("sampling");
                Err(ClientError::Unsupported("sampling"))
            }
            Some(client) => {
                let mut clean =
                    SamplingRequest::new(self.clean(request.prompt().to_owned(), usize::MAX))
                        .with_max_tokens(request.max_tokens());
                if let Some(system) = request.system_prompt() {
                    clean = clean.with_system_prompt(self.clean(system.to_owned(), usize::MAX));
                }
                if let Some(key) = request.key() {
                    clean = clean.with_key(key);
                }
                Ok(client.sample(clean))
            }
        };
        async move { answer?.await }
    }

    /// `text` cut to `max_chars` and free of the call's secrets.
    fn clean(&self, text: String, max_chars: usize) -> String {
        let secrets: Vec<&str> = self.credentials.secrets().collect();
        cut_scrubbed(text, max_chars, &secrets)
    }
}

/// How far a running call has got; see [`ToolContext::report_progress`].
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    progress: f64,
    total: Option<f64>,
    message: Option<String>,
}

impl Progress {
    /// Progress so far, in any unit that increases (items done, bytes, percent).
    pub fn new(progress: f64) -> Self {
        Progress {
            progress,
            total: None,
            message: None,
        }
    }

    /// Sets the total the progress counts towards, when known.
    #[must_use]
    pub fn with_total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// Adds a message for people watching.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// The progress so far.
    pub fn progress(&self) -> f64 {
        self.progress
    }

    /// The total, when known.
    pub fn total(&self) -> Option<f64> {
        self.total
    }

    /// The message, when there is one.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }
}

impl fmt::Debug for ToolContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("call_id", &self.call_id)
            .field("tool_name", &self.tool_name)
            .field("credentials", self.credentials)
            .field("dependencies", &self.dependencies.len())
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// A dependency a tool asked for that was never registered on the executor.
///
/// ```
/// use agentkit_core::{Credentials, ToolContext};
///
/// struct Pool;
/// let credentials = Credentials::new();
/// let Err(err) = ToolContext::detached("t", &credentials).dependency::<Pool>() else {
///     unreachable!("no executor, no dependencies")
/// };
/// assert!(err.to_string().starts_with("no dependency of type `"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no dependency of type `{type_name}` is registered on the executor: add it with `ToolExecutorBuilder::dependency`"
)]
pub struct MissingDependency {
    type_name: &'static str,
}

impl MissingDependency {
    /// The name of the type asked for.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
}

/// Values shared with every tool of an executor, one per type.
#[derive(Default, Clone)]
pub(crate) struct Dependencies {
    by_type: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl Dependencies {
    pub(crate) fn insert<T: Any + Send + Sync>(&mut self, value: T) {
        self.by_type.insert(TypeId::of::<T>(), Arc::new(value));
    }

    fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.by_type.get(&TypeId::of::<T>())?.downcast_ref::<T>()
    }

    pub(crate) fn len(&self) -> usize {
        self.by_type.len()
    }
}

/// A call's cancellation signal: a flag, and a future that completes once it is set.
///
/// Clones share one signal, so a task a tool spawns can hold one and stop when the call is
/// cancelled.
///
/// ```
/// use agentkit_core::{Cancellation, block_on};
///
/// let signal = Cancellation::new();
/// let seen_by_task = signal.clone();
/// assert!(!seen_by_task.is_cancelled());
/// signal.cancel();
/// assert!(seen_by_task.is_cancelled());
/// block_on(seen_by_task.cancelled()); // completes at once
/// ```
#[derive(Clone, Default)]
pub struct Cancellation {
    inner: Arc<Signal>,
}

#[derive(Default)]
struct Signal {
    cancelled: AtomicBool,
    wakers: Mutex<Vec<Waker>>,
}

impl Cancellation {
    /// A signal not yet set.
    pub fn new() -> Self {
        Cancellation::default()
    }

    /// Sets the signal, waking every task awaiting [`cancelled`](Self::cancelled).
    pub fn cancel(&self) {
        self.inner.cancelled.store(true, Ordering::Release);
        let wakers = std::mem::take(
            &mut *self
                .inner
                .wakers
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for waker in wakers {
            waker.wake();
        }
    }

    /// Whether the signal is set.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::Acquire)
    }

    /// Completes once the signal is set.
    pub fn cancelled(&self) -> impl Future<Output = ()> + Send + '_ {
        Cancelled { signal: self }
    }
}

impl fmt::Debug for Cancellation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cancellation")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

struct Cancelled<'a> {
    signal: &'a Cancellation,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.signal.is_cancelled() {
            return Poll::Ready(());
        }
        let mut wakers = self
            .signal
            .inner
            .wakers
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // Checked again under the lock: `cancel` takes the wakers under it after setting the
        // flag, so a waker registered here is either woken or sees the flag.
        if self.signal.is_cancelled() {
            return Poll::Ready(());
        }
        if !wakers.iter().any(|w| w.will_wake(cx.waker())) {
            wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_task_is_woken_by_cancel() {
        let signal = Cancellation::new();
        let waiter = signal.clone();
        let handle = std::thread::spawn(move || crate::block_on(waiter.cancelled()));
        signal.cancel();
        handle.join().expect("the waiter finishes");
        assert!(signal.is_cancelled());
    }

    #[test]
    fn dependencies_are_found_by_type() {
        let mut deps = Dependencies::default();
        deps.insert(5_u32);
        deps.insert(String::from("x"));
        assert_eq!(deps.get::<u32>(), Some(&5));
        assert_eq!(deps.get::<String>().map(String::as_str), Some("x"));
        assert!(deps.get::<i64>().is_none());
    }
}
