//! [`ToolExecutor`]: the only path to a tool, and the calls that enter it.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use async_lock::{RwLock, Semaphore};
use serde_json::Value;

use super::budget::TurnBudget;
use crate::approval::{Approval, ApprovalPolicy};
use crate::call::{ToolArguments, ToolCall};
use crate::context::{Dependencies, Report};
use crate::credentials::CredentialProvider;
use crate::error::Error;
use crate::events::ToolObserver;
use crate::model_text::TextLimits;
use crate::registry::ToolRegistry;
use crate::result::{DeferredCall, ToolResult};
use crate::runtime::Runtime;
use crate::schema::{JsonObject, UnknownArguments};
use crate::session::ClientSession;
use crate::toolset::Toolset;

/// Runs tool calls: the Python original's `ToolExecutor`, and the only path to a tool.
///
/// Each call goes through the Python original's five steps, in order, with the executor's
/// policies in between:
///
/// 1. validate the inputs against the tool's input schema, filling defaults
///    (a failure is a [`ToolValidationError`](crate::ToolValidationError) with [`Direction::Input`](crate::Direction::Input));
/// 2. for a tool that [requires approval](crate::ToolSpec::requires_approval), ask the
///    [`ApprovalPolicy`]: the call may be denied, or deferred until
///    [`resume`](Self::resume);
/// 3. wait for room, under the [in-flight limit](crate::ToolExecutorBuilder::max_in_flight) and
///    while a [sequential](crate::ToolSpec::is_sequential) tool runs;
/// 4. resolve the credentials the tool names (a failure is a [`ToolExecutionError`](crate::ToolExecutionError) caused by
///    a [`CredentialError`](crate::CredentialError), and the tool is not run);
/// 5. run the tool within its timeout (an error, a panic or a timeout is a
///    [`ToolExecutionError`](crate::ToolExecutionError); a [`ToolError`](crate::ToolError) says whether the model may
///    retry);
/// 6. validate the output against the output schema ([`Direction::Output`](crate::Direction::Output));
/// 7. return a [`ToolResult`] with the status, output or error, and duration.
///
/// Two calls per entry point: the result mode ([`dispatch`](Self::dispatch),
/// [`execute`](Self::execute)) always returns a [`ToolResult`], failed or not, ready to hand
/// back to the model; the strict mode ([`try_dispatch`](Self::try_dispatch),
/// [`try_execute`](Self::try_execute)) returns the typed [`Error`] instead of a failed result.
///
/// The executor is runtime-agnostic: its calls are plain futures. Await them on any runtime,
/// or use [`block_on`](crate::block_on) from synchronous code. Timers and the threads of
/// blocking tools come from its [`Runtime`].
///
/// # Deadlines
///
/// A call's deadline is the earliest of: the tool's timeout
/// ([`ToolSpec::timeout`](crate::ToolSpec::timeout), else [`default_timeout`](crate::ToolExecutorBuilder::default_timeout)),
/// counted once the call has room to run; its [`Turn`](crate::Turn)'s deadline; and the future given to
/// [`dispatch_until`](Self::dispatch_until). When it passes, the call ends at once with a
/// [`ToolExecutionError`](crate::ToolExecutionError) caused by a [`ToolTimeout`](crate::ToolTimeout), whatever the tool is doing, with one
/// exception below. What happens to the tool depends on how it runs:
///
/// - **cooperative** (async, awaiting I/O or timers): its future is dropped at its next
///   `.await`, which cancels it; its cancellation signal is set first;
/// - **blocking** ([`ToolSpec::is_blocking`](crate::ToolSpec::is_blocking)): it runs on a thread of its own, so the call
///   ends on time and the async runtime is never stalled. The thread runs on until the tool
///   returns (Rust cannot stop a thread); the tool can poll
///   [`ToolContext::is_cancelled`](crate::ToolContext::is_cancelled). What it returns then is discarded, and observers get a
///   `discarded` event;
/// - **CPU-bound without yielding, not marked blocking**: the exception. Nothing can
///   interrupt it on the task, so the call ends when the tool returns, still as a timeout
///   (never a success), with a `discarded` event. Mark such tools blocking.
///
/// Whatever a model or a callback does, a call ends with a result: arguments of any size or
/// shape, an unknown tool, a panicking tool, observer, approval policy or credential
/// provider, a tool future that panics when dropped: none of it unwinds out of `dispatch`.
/// What the result tells the model is bounded by [`TextLimits`] and escaped, and no text the
/// executor produces, stores or hands to observers carries the call's secrets (see
/// [Guarantees](crate#guarantees)).
///
/// ```
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let result = block_on(executor.dispatch(&ToolCall::new("call_1", "fetch_wether", "{}")));
/// assert!(!result.is_success());
/// assert_eq!(result.to_model_content(), "Error: unknown tool 'fetch_wether'");
/// ```
pub struct ToolExecutor {
    pub(super) registry: ToolRegistry,
    pub(super) credentials: Arc<dyn CredentialProvider>,
    // Shared with the threads of blocking tools, which report a late finish.
    pub(super) observers: Arc<Vec<Arc<dyn ToolObserver>>>,
    pub(super) unknown_arguments: UnknownArguments,
    pub(super) limits: TextLimits,
    pub(super) dependencies: Arc<Dependencies>,
    pub(super) runtime: Arc<dyn Runtime>,
    pub(super) default_timeout: Option<Duration>,
    pub(super) turn_timeout: Option<Duration>,
    pub(super) default_retries: u32,
    pub(super) approval: Option<Arc<dyn ApprovalPolicy>>,
    pub(super) max_in_flight: Option<usize>,
    pub(super) in_flight: Option<Semaphore>,
    // Present when a registered tool is sequential: such a tool takes it for writing, every
    // other call for reading.
    pub(super) exclusive: Option<RwLock<()>>,
}

impl fmt::Debug for ToolExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolExecutor")
            .field("registry", &self.registry)
            .field("observers", &self.observers.len())
            .field("unknown_arguments", &self.unknown_arguments)
            .field("limits", &self.limits)
            .field("dependencies", &self.dependencies.len())
            .field("default_timeout", &self.default_timeout)
            .field("turn_timeout", &self.turn_timeout)
            .field("default_retries", &self.default_retries)
            .field("approval", &self.approval.is_some())
            .field("max_in_flight", &self.max_in_flight)
            .finish_non_exhaustive()
    }
}

/// Hands a call's reports (progress, log messages) somewhere beyond the observers (to an MCP
/// client).
pub(crate) type CallReporter = Arc<dyn Fn(Report<'_>) + Send + Sync>;

/// What one call brings beyond its tool name and arguments.
#[derive(Default)]
pub(super) struct CallOptions<'a> {
    /// The caller's deadline ([`ToolExecutor::dispatch_until`]).
    pub(super) until: Option<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>,
    /// What the call shares with the other calls of its turn: a deadline and retry budgets.
    pub(super) turn: Option<&'a TurnBudget>,
    /// Where reports go beyond the observers.
    pub(super) reporter: Option<CallReporter>,
    /// The client the call came from (over MCP), which a tool may ask.
    pub(super) client: Option<Arc<dyn ClientSession>>,
    /// A decision already made on the call ([`ToolExecutor::resume`]).
    pub(super) decision: Option<Approval>,
    /// The view the call goes through: it reaches that view's tools only, by the names the
    /// view gives them.
    pub(super) view: Option<&'a Toolset<'a>>,
}

impl ToolExecutor {
    /// The tools this executor runs.
    pub fn registry(&self) -> &ToolRegistry {
        &self.registry
    }

    /// Runs a call as a model sent it (name, call id, JSON argument string); result mode.
    ///
    /// Arguments that are not JSON, or not a JSON object, fail input validation; an empty
    /// argument string counts as `{}` (some providers send one for tools without parameters).
    /// An unknown tool name fails with an [`UnknownToolError`](crate::UnknownToolError)
    /// naming the nearest registered tools.
    ///
    /// The call is a turn of its own: a tool with a retry budget of 0 cannot ask for a
    /// retry. Use a [`Turn`](crate::Turn) to count retries across the model's replies.
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        self.dispatch_with(call, CallOptions::default()).await
    }

    /// Like [`dispatch`](Self::dispatch), but the call also ends when `deadline` completes
    /// first: the call then fails with a [`ToolExecutionError`](crate::ToolExecutionError) caused by a
    /// [`ToolTimeout`](crate::ToolTimeout),
    /// and the tool is cancelled (see "Deadlines" above).
    ///
    /// The deadline is any future: a cancellation signal, or a runtime's sleep.
    ///
    /// ```
    /// use agentkit_core::{ErrorKind, ToolCall, ToolExecutor, ToolRegistry, block_on};
    /// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput, ToolSpec};
    /// # struct Hang(ToolSpec);
    /// # impl Tool for Hang {
    /// #     fn spec(&self) -> &ToolSpec { &self.0 }
    /// #     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
    /// #         std::future::pending().await
    /// #     }
    /// # }
    /// # let mut registry = ToolRegistry::new();
    /// # registry.register(Hang(ToolSpec::builder("hang").build()?))?;
    /// let executor = ToolExecutor::new(registry);
    /// let call = ToolCall::new("call_1", "hang", "{}");
    /// // A deadline that has already passed.
    /// let result = block_on(executor.dispatch_until(&call, std::future::ready(())));
    /// assert_eq!(result.error().map(|e| e.kind()), Some(ErrorKind::Timeout));
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub async fn dispatch_until(
        &self,
        call: &ToolCall,
        deadline: impl Future<Output = ()> + Send,
    ) -> ToolResult {
        let options = CallOptions {
            until: Some(Box::pin(deadline)),
            ..CallOptions::default()
        };
        self.dispatch_with(call, options).await
    }

    /// Like [`dispatch_until`](Self::dispatch_until), for a call served to `client`: its
    /// reports also go to `reporter`, and its tool may ask the client.
    ///
    /// Not an `async fn`: its options are made before the call's future, so that future
    /// does not keep its arguments beside the run's own copy of them (a served call's
    /// future is allocated for every call; see `benches/mcp-serving`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn dispatch_served<'a>(
        &'a self,
        call: &'a ToolCall,
        deadline: impl Future<Output = ()> + Send + 'a,
        reporter: Option<CallReporter>,
        client: Option<Arc<dyn ClientSession>>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let options = CallOptions {
            until: Some(Box::pin(deadline)),
            reporter,
            client,
            ..CallOptions::default()
        };
        self.dispatch_with(call, options)
    }

    /// Runs `call` with `options`: the future of [`run`](Self::run) itself, with nothing of
    /// its own around it.
    pub(super) fn dispatch_with<'a>(
        &'a self,
        call: &'a ToolCall,
        options: CallOptions<'a>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let arguments = Cow::Borrowed(call.arguments());
        self.run(call.name(), call.shared_id(), arguments, options)
    }

    /// A view of the executor's tools, to narrow and rename for a turn (see [`Toolset`]):
    /// what [`dispatch_in`](Self::dispatch_in) and [`Turn::with_toolset`](crate::Turn::with_toolset)
    /// take.
    pub fn toolset(&self) -> Toolset<'_> {
        self.registry.toolset()
    }

    /// Runs a call through `view`, as [`dispatch`](Self::dispatch) does: the call reaches
    /// the view's tools only, by the names the view gives them. Any other name is an
    /// [`UnknownToolError`](crate::UnknownToolError) whose suggestions come from the view
    /// alone (a view of another registry than this executor's reaches nothing).
    ///
    /// The result, its errors and the call's events name the tool as the model called it
    /// (`fs_read_file`); the approval policy sees the tool's own spec, and a deferred call
    /// resumes by the tool's own name.
    ///
    /// ```
    /// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
    /// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput, ToolSpec};
    /// # struct Echo(ToolSpec);
    /// # impl Tool for Echo {
    /// #     fn spec(&self) -> &ToolSpec { &self.0 }
    /// #     async fn execute(&self, i: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> { Ok(i.clone().into()) }
    /// # }
    /// let mut registry = ToolRegistry::new();
    /// registry.register(Echo(ToolSpec::builder("read_file").build()?))?;
    /// registry.register(Echo(ToolSpec::builder("delete_file").build()?))?;
    /// let executor = ToolExecutor::new(registry);
    ///
    /// let view = executor.toolset().named(["read_file"]).prefix("fs_");
    /// let read = block_on(executor.dispatch_in(&view, &ToolCall::new("c1", "fs_read_file", "{}")));
    /// assert!(read.is_success());
    /// assert_eq!(read.tool_name(), "fs_read_file");
    ///
    /// let delete = block_on(executor.dispatch_in(&view, &ToolCall::new("c2", "delete_file", "{}")));
    /// assert_eq!(delete.to_model_content(), "Error: unknown tool 'delete_file'");
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub async fn dispatch_in(&self, view: &Toolset<'_>, call: &ToolCall) -> ToolResult {
        let options = CallOptions {
            view: Some(view),
            ..CallOptions::default()
        };
        self.dispatch_with(call, options).await
    }

    /// Like [`dispatch`](Self::dispatch), in strict mode: a failure is returned as the typed
    /// error.
    pub async fn try_dispatch(&self, call: &ToolCall) -> Result<ToolResult, Error> {
        strict(self.dispatch(call).await)
    }

    /// Runs every call of one model reply as a [`Turn`](crate::Turn) of its own (see
    /// [`Turn::dispatch_all`](crate::Turn::dispatch_all)): concurrently, within the limits, results in call order.
    pub async fn dispatch_all(&self, calls: &[ToolCall]) -> Vec<ToolResult> {
        self.turn().dispatch_all(calls).await
    }

    /// Runs `tool_name` on already-parsed `inputs`; result mode.
    pub async fn execute(&self, tool_name: &str, inputs: JsonObject) -> ToolResult {
        let arguments = Cow::Owned(ToolArguments::Value(Value::Object(inputs)));
        self.run(tool_name, no_call_id(), arguments, CallOptions::default())
            .await
    }

    /// Like [`execute`](Self::execute), in strict mode.
    pub async fn try_execute(
        &self,
        tool_name: &str,
        inputs: JsonObject,
    ) -> Result<ToolResult, Error> {
        strict(self.execute(tool_name, inputs).await)
    }

    /// Decides a call the approval policy deferred: [`Approval::Allow`] runs it (its inputs
    /// validated again, then credentials, the tool and its output as for any call),
    /// [`Approval::Deny`] ends it denied, [`Approval::Defer`] leaves it deferred.
    ///
    /// ```
    /// use agentkit_core::{Approval, ToolCall, ToolExecutor, ToolRegistry, ToolStatus, block_on};
    /// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolOutput, ToolSpec};
    /// # struct Delete(ToolSpec);
    /// # impl Tool for Delete {
    /// #     fn spec(&self) -> &ToolSpec { &self.0 }
    /// #     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
    /// #         Ok(JsonObject::new().into())
    /// #     }
    /// # }
    /// # let mut registry = ToolRegistry::new();
    /// # registry.register(Delete(ToolSpec::builder("delete_file").requires_approval().build()?))?;
    /// // No approval policy: every call that needs approval is deferred.
    /// let executor = ToolExecutor::new(registry);
    /// let result = block_on(executor.dispatch(&ToolCall::new("call_1", "delete_file", "{}")));
    /// assert_eq!(result.status(), ToolStatus::Deferred);
    ///
    /// // Later, once a person has decided:
    /// let deferred = result.into_deferred().expect("deferred");
    /// let result = block_on(executor.resume(deferred, Approval::deny("the user said no")));
    /// assert_eq!(
    ///     result.to_model_content(),
    ///     "Error: the call to tool 'delete_file' was denied: the user said no"
    /// );
    /// # Ok::<(), agentkit_core::SemanticError>(())
    /// ```
    pub async fn resume(&self, deferred: DeferredCall, decision: Approval) -> ToolResult {
        let (tool_name, call_id, inputs) = deferred.into_parts();
        let options = CallOptions {
            decision: Some(decision),
            ..CallOptions::default()
        };
        let arguments = Cow::Owned(ToolArguments::Value(Value::Object(inputs)));
        self.run(&tool_name, &call_id, arguments, options).await
    }
}

/// The id of a call made without one ([`ToolExecutor::execute`]): the empty string, made once.
fn no_call_id() -> &'static Arc<str> {
    static NO_CALL_ID: OnceLock<Arc<str>> = OnceLock::new();
    NO_CALL_ID.get_or_init(|| Arc::from(""))
}

fn strict(result: ToolResult) -> Result<ToolResult, Error> {
    result.into_strict()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A served call's future is allocated for every call (boxed by the MCP server): it holds
    /// the call's arguments once, and the rare paths' futures (an approval's question, a
    /// blocking tool) are boxed out of it. It was 2 128 bytes before that; past the bound,
    /// something large is held across an `.await` again.
    #[test]
    fn a_served_calls_future_stays_small() {
        let executor = ToolExecutor::new(ToolRegistry::new());
        let call = ToolCall::new("call_1", "tool", "{}");
        let future = executor.dispatch_served(&call, std::future::pending(), None, None);
        let size = std::mem::size_of_val(&future);
        assert!(size <= 1_400, "a served call's future is {size} bytes");
    }
}
