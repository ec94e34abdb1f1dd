//! [`ToolExecutor`]: the only path to a tool.

use std::any::Any;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::{Pin, pin};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use async_lock::{RwLock, RwLockReadGuard, RwLockWriteGuard, Semaphore, SemaphoreGuard};
use futures_util::FutureExt as _;
use futures_util::future::{Either, join_all, select};
use serde_json::Value;

use crate::approval::{Approval, ApprovalPolicy, ApprovalRequest};
use crate::arguments::parse_arguments;
use crate::block_on::block_on;
use crate::call::{ToolArguments, ToolCall};
use crate::context::{Cancellation, Dependencies, Progress, ProgressSink, ToolContext};
use crate::credentials::{CredentialProvider, Credentials, NoCredentials};
use crate::error::{
    AwaitingApproval, BoxError, CredentialError, Direction, Error, ErrorKind, ToolCancelled,
    ToolExecutionError, ToolPanic, ToolTimeout, ToolValidationError, discard,
};
use crate::events::{ToolEvent, ToolObserver};
use crate::inputs::{AnyInput, Inputs, InvalidArguments, Parsed, parse_object};
#[cfg(feature = "tracing")]
use crate::model_text::Escaped;
use crate::model_text::{TextLimits, capture};
use crate::output::Returned;
use crate::panic_hook::ToolMark;
use crate::recorder::ReplayedFailure;
use crate::registry::ToolRegistry;
use crate::result::{DeferredCall, ToolResult};
use crate::runtime::{Runtime, Sleep, default_runtime};
use crate::schema::{Issues, JsonObject, UnknownArguments, ValidationIssue};
use crate::tool::{BoxFuture, DynTool, ToolSpec};

/// Runs tool calls: the Python original's `ToolExecutor`, and the only path to a tool.
///
/// Each call goes through the Python original's five steps, in order, with the executor's
/// policies in between:
///
/// 1. validate the inputs against the tool's input schema, filling defaults
///    (a failure is a [`ToolValidationError`] with [`Direction::Input`]);
/// 2. for a tool that [requires approval](ToolSpec::requires_approval), ask the
///    [`ApprovalPolicy`]: the call may be denied, or deferred until
///    [`resume`](Self::resume);
/// 3. wait for room, under the [in-flight limit](ToolExecutorBuilder::max_in_flight) and
///    while a [sequential](ToolSpec::is_sequential) tool runs;
/// 4. resolve the credentials the tool names (a failure is a [`ToolExecutionError`] caused by
///    a [`CredentialError`], and the tool is not run);
/// 5. run the tool within its timeout (an error, a panic or a timeout is a
///    [`ToolExecutionError`]; a [`ToolError`](crate::ToolError) says whether the model may
///    retry);
/// 6. validate the output against the output schema ([`Direction::Output`]);
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
/// ([`ToolSpec::timeout`], else [`default_timeout`](ToolExecutorBuilder::default_timeout)),
/// counted once the call has room to run; its [`Turn`]'s deadline; and the future given to
/// [`dispatch_until`](Self::dispatch_until). When it passes, the call ends at once with a
/// [`ToolExecutionError`] caused by a [`ToolTimeout`], whatever the tool is doing, with one
/// exception below. What happens to the tool depends on how it runs:
///
/// - **cooperative** (async, awaiting I/O or timers): its future is dropped at its next
///   `.await`, which cancels it; its cancellation signal is set first;
/// - **blocking** ([`ToolSpec::is_blocking`]): it runs on a thread of its own, so the call
///   ends on time and the async runtime is never stalled. The thread runs on until the tool
///   returns (Rust cannot stop a thread); the tool can poll
///   [`ToolContext::is_cancelled`]. What it returns then is discarded, and observers get a
///   `discarded` event;
/// - **CPU-bound without yielding, not marked blocking**: the exception. Nothing can
///   interrupt it on the task, so the call ends when the tool returns, still as a timeout
///   (never a success), with a `discarded` event. Mark such tools blocking.
///
/// Whatever a model or a callback does, a call ends with a result: arguments of any size or
/// shape, an unknown tool, a panicking tool, observer, approval policy or credential
/// provider, a tool future that panics when dropped: none of it unwinds out of `dispatch`.
/// What the result tells the model is bounded by [`TextLimits`] and escaped, and no text the
/// executor produces, stores or hands to observers carries the call's secrets (see the
/// README's "Guarantees").
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
    registry: ToolRegistry,
    credentials: Arc<dyn CredentialProvider>,
    // Shared with the threads of blocking tools, which report a late finish.
    observers: Arc<Vec<Arc<dyn ToolObserver>>>,
    unknown_arguments: UnknownArguments,
    limits: TextLimits,
    dependencies: Arc<Dependencies>,
    runtime: Arc<dyn Runtime>,
    default_timeout: Option<Duration>,
    turn_timeout: Option<Duration>,
    default_retries: u32,
    approval: Option<Arc<dyn ApprovalPolicy>>,
    max_in_flight: Option<usize>,
    in_flight: Option<Semaphore>,
    // Present when a registered tool is sequential: such a tool takes it for writing, every
    // other call for reading.
    exclusive: Option<RwLock<()>>,
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

/// Configures a [`ToolExecutor`]; see [`ToolExecutor::builder`].
#[must_use = "call `build` to get the executor"]
pub struct ToolExecutorBuilder {
    executor: ToolExecutor,
}

impl fmt::Debug for ToolExecutorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ToolExecutorBuilder")
            .field(&self.executor)
            .finish()
    }
}

/// How many times per turn a tool may ask for a retry, unless it or the executor says
/// otherwise: pydantic-ai's default.
pub const DEFAULT_RETRIES: u32 = 1;

impl ToolExecutorBuilder {
    /// Sets where credentials come from (default: [`NoCredentials`], which resolves none).
    pub fn credentials(mut self, provider: impl CredentialProvider) -> Self {
        self.executor.credentials = Arc::new(provider);
        self
    }

    /// Adds an observer of execution events.
    ///
    /// An observer that panics is contained: the call goes on, the other observers still see
    /// the event, and with the `tracing` feature the panic is reported as an error event.
    pub fn observer(mut self, observer: impl ToolObserver) -> Self {
        Arc::make_mut(&mut self.executor.observers).push(Arc::new(observer));
        self
    }

    /// Chooses what input validation does with undeclared arguments (default:
    /// [`UnknownArguments::Reject`]). Outputs are always held to their schema.
    pub fn unknown_arguments(mut self, policy: UnknownArguments) -> Self {
        self.executor.unknown_arguments = policy;
        self
    }

    /// Registers a value every tool can reach through
    /// [`ToolContext::dependency`](crate::ToolContext::dependency), by its type: a database
    /// pool, an HTTP client, configuration. One value per type; a second of the same type
    /// replaces the first.
    pub fn dependency<T: Any + Send + Sync>(mut self, value: T) -> Self {
        Arc::make_mut(&mut self.executor.dependencies).insert(value);
        self
    }

    /// Sets the bounds on the text results render for the model (default:
    /// [`TextLimits::DEFAULT`]).
    pub fn text_limits(mut self, limits: TextLimits) -> Self {
        self.executor.limits = limits;
        self
    }

    /// Sets the timers and blocking threads the executor uses (default: `TokioRuntime` with
    /// the `tokio` feature, else [`StdRuntime`](crate::StdRuntime)).
    pub fn runtime(mut self, runtime: impl Runtime) -> Self {
        self.executor.runtime = Arc::new(runtime);
        self
    }

    /// Sets the timeout of tools that declare none (default: none).
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.executor.default_timeout = Some(timeout);
        self
    }

    /// Sets the deadline of every [`Turn`], counted from when the turn is made (default:
    /// none), and so of [`dispatch_all`](ToolExecutor::dispatch_all).
    pub fn turn_timeout(mut self, timeout: Duration) -> Self {
        self.executor.turn_timeout = Some(timeout);
        self
    }

    /// Sets how many times per [`Turn`] a tool that declares no budget may ask the model to
    /// retry (default: [`DEFAULT_RETRIES`]).
    pub fn default_retries(mut self, retries: u32) -> Self {
        self.executor.default_retries = retries;
        self
    }

    /// Sets the policy that decides calls of tools that require approval (default: none,
    /// which defers every such call).
    pub fn approval(mut self, policy: impl ApprovalPolicy) -> Self {
        self.executor.approval = Some(Arc::new(policy));
        self
    }

    /// Limits how many calls run at once across the whole executor (default: no limit).
    /// A call waits for room after its inputs are validated; its timeout starts once it has
    /// room, and its turn's deadline applies while it waits. A limit of 0 counts as 1.
    pub fn max_in_flight(mut self, limit: usize) -> Self {
        self.executor.max_in_flight = Some(limit.max(1));
        self
    }

    /// Builds the executor.
    pub fn build(mut self) -> ToolExecutor {
        let executor = &mut self.executor;
        executor.in_flight = executor.max_in_flight.map(Semaphore::new);
        if executor.registry.specs().any(ToolSpec::is_sequential) {
            executor.exclusive = Some(RwLock::new(()));
        }
        self.executor
    }
}

/// The arguments of a call, parsed or not.
enum Arguments<'a> {
    Json(&'a str),
    Value(&'a Value),
    Object(JsonObject),
}

/// Reports a call's progress somewhere beyond the observers (to an MCP client).
pub(crate) type ProgressReporter = Arc<dyn Fn(&Progress) + Send + Sync>;

/// What one call brings beyond its tool name and arguments.
#[derive(Default)]
struct CallOptions<'a> {
    /// The caller's deadline ([`ToolExecutor::dispatch_until`]).
    until: Option<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>,
    /// The turn the call belongs to: its deadline and retry budgets.
    turn: Option<&'a Turn<'a>>,
    /// Where progress goes beyond the observers.
    progress: Option<ProgressReporter>,
    /// A decision already made on the call ([`ToolExecutor::resume`]).
    decision: Option<Approval>,
}

impl ToolExecutor {
    /// An executor over `registry`, without credentials or observers.
    pub fn new(registry: ToolRegistry) -> Self {
        ToolExecutor::builder(registry).build()
    }

    /// Starts configuring an executor over `registry`.
    pub fn builder(registry: ToolRegistry) -> ToolExecutorBuilder {
        ToolExecutorBuilder {
            executor: ToolExecutor {
                registry,
                credentials: Arc::new(NoCredentials),
                observers: Arc::default(),
                unknown_arguments: UnknownArguments::default(),
                limits: TextLimits::DEFAULT,
                dependencies: Arc::default(),
                runtime: default_runtime(),
                default_timeout: None,
                turn_timeout: None,
                default_retries: DEFAULT_RETRIES,
                approval: None,
                max_in_flight: None,
                in_flight: None,
                exclusive: None,
            },
        }
    }

    /// The tools this executor runs.
    pub fn registry(&self) -> &ToolRegistry {
        &self.registry
    }

    /// Starts a [`Turn`]: the calls of one model reply, or of several replies the agent
    /// loop counts as one turn, sharing a deadline and the tools' retry budgets.
    pub fn turn(&self) -> Turn<'_> {
        Turn {
            executor: self,
            deadline: self.turn_timeout.map(|timeout| Instant::now() + timeout),
            retries: Mutex::default(),
        }
    }

    /// Runs a call as a model sent it (name, call id, JSON argument string); result mode.
    ///
    /// Arguments that are not JSON, or not a JSON object, fail input validation; an empty
    /// argument string counts as `{}` (some providers send one for tools without parameters).
    /// An unknown tool name fails with an [`UnknownToolError`](crate::UnknownToolError)
    /// naming the nearest registered tools.
    ///
    /// The call is a turn of its own: a tool with a retry budget of 0 cannot ask for a
    /// retry. Use a [`Turn`] to count retries across the model's replies.
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        self.dispatch_with(call, CallOptions::default()).await
    }

    /// Like [`dispatch`](Self::dispatch), but the call also ends when `deadline` completes
    /// first: the call then fails with a [`ToolExecutionError`] caused by a [`ToolTimeout`],
    /// and the tool is cancelled (see "Deadlines" above).
    ///
    /// The deadline is any future: a cancellation signal, or a runtime's sleep.
    ///
    /// ```
    /// use agentkit_core::{ErrorKind, ToolCall, ToolExecutor, ToolRegistry, block_on};
    /// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolSpec};
    /// # struct Hang(ToolSpec);
    /// # impl Tool for Hang {
    /// #     fn spec(&self) -> &ToolSpec { &self.0 }
    /// #     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
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

    /// Like [`dispatch_until`](Self::dispatch_until), with progress also sent to `reporter`
    /// (an MCP client that asked for progress notifications).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) async fn dispatch_reporting(
        &self,
        call: &ToolCall,
        deadline: impl Future<Output = ()> + Send,
        reporter: Option<ProgressReporter>,
    ) -> ToolResult {
        let options = CallOptions {
            until: Some(Box::pin(deadline)),
            progress: reporter,
            ..CallOptions::default()
        };
        self.dispatch_with(call, options).await
    }

    async fn dispatch_with(&self, call: &ToolCall, options: CallOptions<'_>) -> ToolResult {
        let arguments = match call.arguments() {
            ToolArguments::Text(text) => Arguments::Json(text),
            ToolArguments::Value(value) => Arguments::Value(value),
        };
        self.run(call.name(), call.shared_id(), arguments, options)
            .await
    }

    /// Like [`dispatch`](Self::dispatch), in strict mode: a failure is returned as the typed
    /// error.
    pub async fn try_dispatch(&self, call: &ToolCall) -> Result<ToolResult, Error> {
        strict(self.dispatch(call).await)
    }

    /// Runs every call of one model reply as a [`Turn`] of its own (see
    /// [`Turn::dispatch_all`]): concurrently, within the limits, results in call order.
    pub async fn dispatch_all(&self, calls: &[ToolCall]) -> Vec<ToolResult> {
        self.turn().dispatch_all(calls).await
    }

    /// Runs `tool_name` on already-parsed `inputs`; result mode.
    pub async fn execute(&self, tool_name: &str, inputs: JsonObject) -> ToolResult {
        self.run(
            tool_name,
            no_call_id(),
            Arguments::Object(inputs),
            CallOptions::default(),
        )
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
    /// # use agentkit_core::{BoxError, JsonObject, Tool, ToolContext, ToolSpec};
    /// # struct Delete(ToolSpec);
    /// # impl Tool for Delete {
    /// #     fn spec(&self) -> &ToolSpec { &self.0 }
    /// #     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
    /// #         Ok(JsonObject::new())
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
        self.run(&tool_name, &call_id, Arguments::Object(inputs), options)
            .await
    }

    async fn run(
        &self,
        tool_name: &str,
        call_id: &Arc<str>,
        arguments: Arguments<'_>,
        options: CallOptions<'_>,
    ) -> ToolResult {
        #[cfg(feature = "tracing")]
        {
            use tracing::Instrument as _;
            // The name and id are the model's: recorded escaped and cut, like every echo.
            let name = Escaped(tool_name, TRACE_ECHO);
            let span = tracing::info_span!(
                "execute_tool",
                otel.name = %format_args!("execute_tool {name}"),
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = %name,
                gen_ai.tool.call.id = %Escaped(call_id, TRACE_ECHO),
                agentkit.tool.status = tracing::field::Empty,
                error.r#type = tracing::field::Empty,
                otel.status_code = tracing::field::Empty,
            );
            let result = self
                .run_inner(tool_name, call_id, arguments, options)
                .instrument(span.clone())
                .await;
            span.record("agentkit.tool.status", status_name(&result));
            // A deferred call is not an error: tracing backends count `error.type`.
            if let (Some(error), false) = (result.error(), result.deferred().is_some()) {
                span.record("error.type", error.kind().as_str());
                // The span's status, as OpenTelemetry layers read it.
                span.record("otel.status_code", "ERROR");
            }
            // A call refused before its tool ran has no duration to count (it reports zero):
            // a histogram of those zeros would only skew the latencies of the calls that ran.
            if result.was_timed() {
                tracing::info!(
                    parent: &span,
                    histogram.agent.tool.execution.duration = result.duration().as_secs_f64(),
                    gen_ai.tool.name = %name,
                );
            }
            result
        }
        #[cfg(not(feature = "tracing"))]
        self.run_inner(tool_name, call_id, arguments, options).await
    }

    async fn run_inner(
        &self,
        tool_name: &str,
        shared_id: &Arc<str>,
        arguments: Arguments<'_>,
        options: CallOptions<'_>,
    ) -> ToolResult {
        let call_id: &str = shared_id;
        self.emit(&ToolEvent::Started { tool_name, call_id });
        // Made only if the tool asks for it; declared before the guard, which outlives it
        // not, so that a dropped call can still signal it.
        let cancellation = OnceLock::new();
        // From here on the call ends with a terminal event, even if this future is dropped.
        let mut call = CallGuard {
            executor: self,
            tool_name,
            call_id: shared_id,
            start: None,
            cancellation: &cancellation,
            ended: false,
        };
        let tool = match self.registry.resolve(tool_name) {
            Ok(tool) => tool,
            Err(unknown) => {
                return cold(|| {
                    let name = Cow::Owned(capture(tool_name));
                    call.finish(name, None, Outcome::Failed(unknown.into()))
                });
            }
        };
        let spec = tool.spec();
        let name = spec.name_cow().clone();
        let max_issues = self.limits.max_issues();
        // The argument text in one pass, validated on the way: to the tool's own input where
        // nothing needs the arguments as JSON (no observer to show them to, no approval
        // request or deferred call to carry them, no blocking thread to own a copy), else to
        // a JSON object. What it cannot decide, the full path below decides.
        let fast = match &arguments {
            Arguments::Json(text)
                if self.observers.is_empty()
                    && !spec.requires_approval()
                    && !spec.is_blocking() =>
            {
                tool.parse_typed(text, self.unknown_arguments, max_issues)
            }
            Arguments::Json(text) => {
                let observed = !self.observers.is_empty();
                parse_object(
                    spec.input_schema(),
                    text,
                    self.unknown_arguments,
                    max_issues,
                    observed,
                )
            }
            _ => Parsed::Unparsed,
        };
        let none_found = || Issues::with_cap(max_issues);
        // The full path: the arguments as a JSON object (with the issues found parsing them),
        // checked by the validator.
        let validate = |mut inputs: JsonObject, mut found: Issues| {
            if let Some(schema) = spec.input_schema() {
                schema.validate_into(&mut inputs, self.unknown_arguments, &mut found);
            }
            if found.is_empty() {
                Ok((inputs, None))
            } else {
                Err((found, Some(inputs)))
            }
        };
        // The valid arguments as JSON and the tool's own input; or the issues, with the
        // arguments as far as they got where there is an object of them.
        let parsed = match (fast, arguments) {
            // The tool's own input: no JSON object of the arguments is made.
            (Parsed::Input(typed), _) => Ok((JsonObject::new(), Some(typed))),
            (Parsed::Object(inputs), _) => Ok((inputs, None)),
            (Parsed::Invalid(InvalidArguments(issues, inputs)), _) => Err((issues, inputs)),
            (Parsed::Unparsed, Arguments::Object(inputs)) => validate(inputs, none_found()),
            (Parsed::Unparsed, Arguments::Value(Value::Object(object))) => {
                validate(object.clone(), none_found())
            }
            (Parsed::Unparsed, Arguments::Value(other)) => {
                let mut issues = Issues::with_cap(max_issues);
                issues.push(|| ValidationIssue::not_an_object(other));
                Err((issues, None))
            }
            (Parsed::Unparsed, Arguments::Json(text)) => match parse_arguments(text, max_issues) {
                Ok((inputs, found)) => validate(inputs, found),
                Err(issues) => Err((issues, None)),
            },
        };
        let (inputs, typed) = match parsed {
            Ok(parsed) => parsed,
            Err((issues, inputs)) => {
                return cold(|| {
                    let error =
                        ToolValidationError::from_issues(name.clone(), Direction::Input, issues);
                    call.finish(name, inputs.as_ref(), Outcome::Failed(error.into()))
                });
            }
        };
        // The duration starts here: a call refused before this point ran nothing worth timing
        // (see `ToolResult::duration`), and reads no clock.
        let start = Instant::now();
        call.start = Some(start);
        let run = Run {
            tool,
            spec,
            call_id: shared_id,
            start,
            cancellation: &cancellation,
        };
        let outcome = if self.is_plain(spec, &options) {
            let input = match typed {
                Some(typed) => Inputs::Parsed(typed),
                None => Inputs::Json(&inputs),
            };
            self.run_plain(run, input, options).await
        } else {
            self.run_tool(run, &inputs, typed, options).await
        };
        call.finish(name, Some(&inputs), outcome)
    }

    /// Everything after validating the arguments, for the calls [`run_plain`](Self::run_plain)
    /// does not take: approval, blocking, deadlines, room to wait for.
    async fn run_tool(
        &self,
        run: Run<'_>,
        inputs: &JsonObject,
        typed: Option<AnyInput>,
        options: CallOptions<'_>,
    ) -> Outcome {
        let Run {
            tool,
            spec,
            call_id: shared_id,
            start,
            cancellation,
        } = run;
        let call_id: &str = shared_id;
        let name = || spec.name_cow().clone();
        let fail = |error: ToolExecutionError| cold(|| Outcome::Failed(error.into()));
        let CallOptions {
            until,
            turn,
            progress,
            decision,
        } = options;
        if spec.requires_approval() {
            let decision = match decision {
                Some(decision) => Ok(decision),
                None => self.decide(&ApprovalRequest::new(spec, call_id, inputs)),
            };
            match decision {
                Ok(Approval::Allow) => {}
                Ok(Approval::Deny(message)) => {
                    let denied =
                        ToolExecutionError::new(name(), Denied).into_kind(ErrorKind::Denied);
                    return fail(denied.with_model_message(&message));
                }
                Ok(Approval::Defer) => return Outcome::Deferred,
                Err(panicked) => return fail(ToolExecutionError::new(name(), panicked)),
            }
        }

        let mut deadline = Deadline {
            at: turn.and_then(|turn| turn.deadline),
            sleep: None,
            until: until.map(Contained::new),
            runtime: &*self.runtime,
        };
        if deadline.is_past() {
            return fail(ToolExecutionError::new(name(), ToolTimeout));
        }
        // Held until the call ends.
        let _room = if self.in_flight.is_some() || self.exclusive.is_some() {
            let admission = pin!(self.admit(spec.is_sequential()));
            match select(admission, &mut deadline).await {
                Either::Left((room, _)) => Some(room),
                Either::Right(_) => return fail(ToolExecutionError::new(name(), ToolTimeout)),
            }
        } else {
            None
        };
        if let Some(timeout) = spec.timeout().or(self.default_timeout) {
            deadline.tighten(Instant::now() + timeout);
        }

        let credentials = match self.resolve_credentials(spec) {
            Ok(credentials) => credentials,
            Err(error) => return fail(error),
        };
        // Wanted on failures only: a successful call pays nothing for scrubbing.
        let (finished, late, credentials) = if spec.is_blocking() {
            let job = BlockingJob {
                tool: Arc::clone(tool),
                tool_name: spec.name_cow().clone(),
                call_id: Arc::clone(shared_id),
                inputs: inputs.clone(),
                credentials,
                dependencies: Arc::clone(&self.dependencies),
                // Made now: the thread and this call share it.
                cancellation: cancellation.get_or_init(Cancellation::new).clone(),
                observers: Arc::clone(&self.observers),
                progress,
                start,
            };
            // Boxed: blocking tools are the rare case, and their future inline makes every
            // call's state machine larger, its hot code sparser in the instruction cache.
            let blocking: BoxFuture<'_, _> = Box::pin(self.run_blocking(job, &mut deadline));
            match blocking.await {
                Some((finished, late, credentials)) => (finished, late, credentials),
                None => {
                    cancel(cancellation);
                    return fail(ToolExecutionError::new(name(), ToolTimeout));
                }
            }
        } else {
            let sink = self.progress_sink(spec, call_id, progress.as_ref());
            let ctx = self.tool_context(spec, call_id, &credentials, cancellation, &sink);
            let start_tool = || match typed {
                Some(input) => tool.execute_boxed(Inputs::Parsed(input), &ctx),
                None => tool.execute_boxed(Inputs::Json(inputs), &ctx),
            };
            let run = match catch_unwind(AssertUnwindSafe(start_tool)) {
                Ok(future) => Contained::tool(future),
                Err(panic) => return fail(panicked(name(), panic, &credentials)),
            };
            let (finished, late) = if deadline.is_set() {
                match select(run, &mut deadline).await {
                    Either::Left((finished, _)) => (finished, deadline.is_past()),
                    Either::Right((_, run)) => {
                        cancel(cancellation);
                        drop(run);
                        return fail(ToolExecutionError::new(name(), ToolTimeout));
                    }
                }
            } else {
                (run.await, false)
            };
            let finished = match finished {
                Ok(returned) => Finished::Returned(returned),
                Err(panic) => Finished::Panicked(tool_panic(panic, &credentials)),
            };
            (finished, late, Some(credentials))
        };
        if late {
            // A tool that ran past its deadline without yielding: its result comes too late.
            cancel(cancellation);
            let succeeded = finished.succeeded();
            drop_contained(finished);
            return Outcome::Late {
                error: ToolExecutionError::new(name(), ToolTimeout).into(),
                succeeded,
            };
        }
        self.conclude(tool, spec, turn, finished, credentials.as_ref())
    }

    /// The common case, in a state machine of its own, a fraction of [`run_tool`]'s size: no
    /// approval, no deadline, no room to wait for, not blocking. Its guarantees are
    /// [`run_tool`]'s: credentials resolved by name, panics contained (starting the tool and
    /// in every poll), the output checked and errors scrubbed by [`conclude`](Self::conclude).
    /// Fewer branches and a smaller future per call are what it is for: the code every call
    /// runs stays dense in the instruction cache.
    ///
    /// [`run_tool`]: Self::run_tool
    async fn run_plain(
        &self,
        run: Run<'_>,
        input: Inputs<'_>,
        options: CallOptions<'_>,
    ) -> Outcome {
        let Run {
            tool,
            spec,
            call_id: shared_id,
            cancellation,
            ..
        } = run;
        let call_id: &str = shared_id;
        let CallOptions { turn, progress, .. } = options;
        let credentials = match self.resolve_credentials(spec) {
            Ok(credentials) => credentials,
            Err(error) => return cold(|| Outcome::Failed(error.into())),
        };
        let sink = self.progress_sink(spec, call_id, progress.as_ref());
        let ctx = self.tool_context(spec, call_id, &credentials, cancellation, &sink);
        let start_tool = || tool.execute_boxed(input, &ctx);
        let finished = match catch_unwind(AssertUnwindSafe(start_tool)) {
            Ok(future) => match Contained::tool(future).await {
                Ok(returned) => Finished::Returned(returned),
                Err(panic) => Finished::Panicked(tool_panic(panic, &credentials)),
            },
            Err(panic) => Finished::Panicked(tool_panic(panic, &credentials)),
        };
        self.conclude(tool, spec, turn, finished, Some(&credentials))
    }

    /// Where a running tool's progress goes: to the observers, and to the reporter of the
    /// call's caller (an MCP client that asked for it).
    fn progress_sink<'c>(
        &'c self,
        spec: &'c ToolSpec,
        call_id: &'c str,
        reporter: Option<&'c ProgressReporter>,
    ) -> impl Fn(&Progress) + Send + Sync + 'c {
        move |update: &Progress| report(&self.observers, spec.name(), call_id, update, reporter)
    }

    /// What a tool runs with: its call's id, credentials and cancellation, the executor's
    /// dependencies, and `sink` for its progress.
    fn tool_context<'c>(
        &'c self,
        spec: &'c ToolSpec,
        call_id: &'c str,
        credentials: &'c Credentials,
        cancellation: &'c OnceLock<Cancellation>,
        sink: ProgressSink<'c>,
    ) -> ToolContext<'c> {
        ToolContext::new(
            call_id,
            spec.name(),
            credentials,
            &self.dependencies,
            cancellation,
        )
        .with_progress(sink)
    }

    /// Whether a call can take [`run_plain`](Self::run_plain): nothing but the tool to wait
    /// for, and nothing to decide first.
    fn is_plain(&self, spec: &ToolSpec, options: &CallOptions<'_>) -> bool {
        !spec.requires_approval()
            && !spec.is_blocking()
            && options.until.is_none()
            && options.turn.is_none_or(|turn| turn.deadline.is_none())
            && self.in_flight.is_none()
            && self.exclusive.is_none()
            && spec.timeout().or(self.default_timeout).is_none()
    }

    /// What a tool's run comes to: its output, checked unless its types guarantee it, or
    /// its failure, with the call's secrets scrubbed from the error and a retry request
    /// counted against the turn's budget.
    fn conclude(
        &self,
        tool: &Arc<dyn DynTool>,
        spec: &ToolSpec,
        turn: Option<&Turn<'_>>,
        finished: Finished,
        credentials: Option<&Credentials>,
    ) -> Outcome {
        let name = || spec.name_cow().clone();
        let secrets = || {
            credentials
                .map(|c| c.secrets().collect::<Vec<&str>>())
                .unwrap_or_default()
        };
        let returned = match finished {
            Finished::Returned(Ok(returned)) => returned,
            Finished::Returned(Err(cause)) => {
                return cold(|| {
                    let error = match cause.downcast::<ReplayedFailure>() {
                        Ok(replayed) => replayed.into_error(name()),
                        Err(cause) => {
                            ToolExecutionError::scrubbed(name(), cause, &secrets()).into()
                        }
                    };
                    Outcome::Failed(self.spend_retry(error, spec, turn))
                });
            }
            Finished::Panicked(panic) => {
                return cold(|| Outcome::Failed(ToolExecutionError::new(name(), panic).into()));
            }
            Finished::NotStarted => {
                return cold(|| {
                    Outcome::Failed(ToolExecutionError::new(name(), NotStarted).into())
                });
            }
        };
        let mut output = match returned {
            // Fits the schema by its types, and its floats are finite: JSON when asked for.
            Returned::Typed(_) => return Outcome::Output(returned),
            Returned::Json(output) => output,
        };
        // An output built from Rust types that fit the schema needs no validation, unless a
        // non-finite float in it became `null`.
        let fits = tool.output_fits_by_type() && !has_null(&output);
        if let (Some(schema), false) = (spec.output_schema(), fits) {
            let max_issues = self.limits.max_issues();
            let mut issues =
                schema.validate_limited(&mut output, UnknownArguments::Reject, max_issues);
            if !issues.is_empty() {
                issues.scrub(&secrets());
                let error = ToolValidationError::from_issues(name(), Direction::Output, issues);
                return Outcome::Failed(error.into());
            }
        }
        Outcome::Output(Returned::Json(output))
    }

    /// Runs a blocking tool on a thread of the runtime, until it returns or the deadline
    /// passes (`None`). The thread gives back the credentials, for scrubbing the result.
    async fn run_blocking(
        &self,
        job: BlockingJob,
        deadline: &mut Deadline<'_>,
    ) -> Option<(Finished, bool, Option<Credentials>)> {
        let (reply, returned) = futures_channel::oneshot::channel();
        let task: Box<dyn FnOnce() + Send> = Box::new(move || job.run(reply));
        // A runtime that panics here has not started the task: the reply is dropped with it.
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| self.runtime.spawn_blocking(task))) {
            discard(panic);
        }
        let (returned, late) = if deadline.is_set() {
            match select(returned, &mut *deadline).await {
                Either::Left((returned, _)) => (returned, deadline.is_past()),
                // Dropping the receiver tells the thread that the call has ended.
                Either::Right(_) => return None,
            }
        } else {
            (returned.await, false)
        };
        Some(match returned {
            Ok((finished, credentials)) => (finished, late, Some(credentials)),
            Err(_) => (Finished::NotStarted, late, None),
        })
    }

    /// Counts a retry request against the tool's budget for the turn; past it, the request
    /// becomes a failure the model is told it cannot retry.
    fn spend_retry(&self, error: Error, spec: &ToolSpec, turn: Option<&Turn<'_>>) -> Error {
        if error.kind() != ErrorKind::Retry {
            return error;
        }
        let budget = spec.retries().unwrap_or(self.default_retries);
        let used = turn.map_or(1, |turn| turn.spend_retry(spec.name()));
        match error {
            Error::Execution(e) if used > budget => e.into_kind(ErrorKind::RetriesExhausted).into(),
            other => other,
        }
    }

    /// The approval policy's decision; without a policy, every call is deferred.
    fn decide(&self, request: &ApprovalRequest<'_>) -> Result<Approval, PolicyPanicked> {
        let Some(policy) = &self.approval else {
            return Ok(Approval::Defer);
        };
        catch_unwind(AssertUnwindSafe(|| policy.decide(request))).map_err(|panic| {
            discard(panic);
            PolicyPanicked
        })
    }

    /// Waits for room to run: the in-flight limit, and the lock sequential tools hold alone.
    /// Every call takes the lock before a permit, so that no two calls wait on each other.
    async fn admit(&self, sequential: bool) -> Room<'_> {
        let lock = match &self.exclusive {
            Some(lock) if sequential => Some(Either::Right(lock.write().await)),
            Some(lock) => Some(Either::Left(lock.read().await)),
            None => None,
        };
        let permit = match &self.in_flight {
            Some(limit) => Some(limit.acquire().await),
            None => None,
        };
        Room {
            _lock: lock,
            _permit: permit,
        }
    }

    fn resolve_credentials(&self, spec: &ToolSpec) -> Result<Credentials, ToolExecutionError> {
        let mut credentials = Credentials::new();
        for name in spec.credential_names() {
            // The provider is the application's code: a panic in it is a failed lookup.
            let resolved = catch_unwind(AssertUnwindSafe(|| self.credentials.resolve(name)))
                .unwrap_or_else(|panic| {
                    discard(panic);
                    Err("the credential provider panicked".into())
                });
            let secret = match resolved {
                Ok(Some(secret)) => secret,
                Ok(None) => {
                    return Err(ToolExecutionError::new(
                        spec.name_cow().clone(),
                        CredentialError::missing(name),
                    ));
                }
                Err(cause) => {
                    // The provider's error may quote a secret it resolved before this one.
                    let secrets: Vec<&str> = credentials.secrets().collect();
                    return Err(ToolExecutionError::scrubbed(
                        spec.name_cow().clone(),
                        Box::new(CredentialError::failed(name, cause)),
                        &secrets,
                    ));
                }
            };
            credentials.push(Cow::Owned(name.to_owned()), secret);
        }
        Ok(credentials)
    }

    fn emit(&self, event: &ToolEvent<'_>) {
        emit_to(&self.observers, event);
    }
}

/// The calls of one turn of an agent loop: they share a deadline, and each tool's retry
/// budget (see [`ToolError::retry`](crate::ToolError::retry)).
///
/// A turn is what the loop makes of it: the calls of one model reply, or those of every
/// reply until the model answers the user. Make one with [`ToolExecutor::turn`]; its
/// deadline is the executor's [`turn_timeout`](ToolExecutorBuilder::turn_timeout) from now,
/// unless set here.
///
/// ```
/// use std::time::Duration;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let turn = executor.turn().with_timeout(Duration::from_secs(30));
/// let calls = [ToolCall::new("call_1", "search", "{}"), ToolCall::new("call_2", "fetch", "{}")];
/// let results = block_on(turn.dispatch_all(&calls));
/// assert_eq!(results.len(), 2);
/// assert_eq!(results[1].call_id(), "call_2"); // in call order
/// ```
pub struct Turn<'e> {
    executor: &'e ToolExecutor,
    deadline: Option<Instant>,
    retries: Mutex<HashMap<String, u32>>,
}

impl fmt::Debug for Turn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("deadline", &self.deadline)
            .field("retries", &*self.lock_retries())
            .finish_non_exhaustive()
    }
}

impl<'e> Turn<'e> {
    /// Sets the turn's deadline to `timeout` from now.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.deadline = Some(Instant::now() + timeout);
        self
    }

    /// Sets the turn's deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The turn's deadline, if it has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// How many times `tool_name` has asked for a retry in this turn.
    pub fn retries_used(&self, tool_name: &str) -> u32 {
        self.lock_retries().get(tool_name).copied().unwrap_or(0)
    }

    /// Runs one call as part of the turn; see [`ToolExecutor::dispatch`].
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        let options = CallOptions {
            turn: Some(self),
            ..CallOptions::default()
        };
        self.executor.dispatch_with(call, options).await
    }

    /// Runs every call of a model reply; results come back in call order.
    ///
    /// Calls run concurrently on the current task (no thread is spawned, except for
    /// blocking tools), so tools that await I/O overlap, within the executor's
    /// [in-flight limit](ToolExecutorBuilder::max_in_flight). A call of a
    /// [sequential](ToolSpec::is_sequential) tool runs alone: after every call before it
    /// has ended, and before any call after it starts. Each call is independent: one failing
    /// or panicking does not affect the others.
    pub async fn dispatch_all(&self, calls: &[ToolCall]) -> Vec<ToolResult> {
        // Only an executor with a sequential tool has one to look for.
        let any_sequential = self.executor.exclusive.is_some();
        let sequential = |call: &ToolCall| {
            any_sequential
                && self
                    .executor
                    .registry
                    .lookup(call.name())
                    .is_some_and(ToolSpec::is_sequential)
        };
        let mut results = Vec::with_capacity(calls.len());
        let mut rest = calls;
        while !rest.is_empty() {
            let together = match rest.iter().position(sequential) {
                Some(0) => 1,
                Some(next) => next,
                None => rest.len(),
            };
            let (now, later) = rest.split_at(together);
            if let [call] = now {
                results.push(self.dispatch(call).await);
            } else {
                results.extend(join_all(now.iter().map(|call| self.dispatch(call))).await);
            }
            rest = later;
        }
        results
    }

    /// Counts one more retry of `tool_name`; returns how many it has used.
    fn spend_retry(&self, tool_name: &str) -> u32 {
        let mut retries = self.lock_retries();
        let used = retries.entry(tool_name.to_owned()).or_insert(0);
        *used = used.saturating_add(1);
        *used
    }

    fn lock_retries(&self) -> std::sync::MutexGuard<'_, HashMap<String, u32>> {
        // The counts stay consistent across a panic: each change is one increment.
        self.retries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs `f` out of line, as a cold function: the code of the paths that end a call early
/// (an unknown tool, invalid arguments, a timeout, a panic) is kept out of the code every
/// call runs, which so stays denser in the instruction cache.
#[cold]
#[inline(never)]
fn cold<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// Whether a `null` is anywhere in `object`. (A scan of every value: for the small objects
/// tools return, cheaper than looking up the float parameters by name.)
fn has_null(object: &JsonObject) -> bool {
    fn null_in(value: &Value) -> bool {
        match value {
            Value::Null => true,
            Value::Array(items) => items.iter().any(null_in),
            Value::Object(object) => object.values().any(null_in),
            _ => false,
        }
    }
    object.values().any(null_in)
}

/// The call being run: its tool, and what it shares with its guard.
struct Run<'a> {
    tool: &'a Arc<dyn DynTool>,
    spec: &'a ToolSpec,
    call_id: &'a Arc<str>,
    start: Instant,
    cancellation: &'a OnceLock<Cancellation>,
}

/// How a call ended.
enum Outcome {
    Output(Returned),
    Failed(Error),
    /// The approval policy deferred the call.
    Deferred,
    /// The deadline passed while the tool ran without yielding; what it returned is
    /// discarded.
    Late {
        error: Error,
        succeeded: bool,
    },
}

/// What a tool's run gave.
enum Finished {
    Returned(Result<Returned, BoxError>),
    Panicked(ToolPanic),
    /// A blocking tool whose thread never started.
    NotStarted,
}

impl Finished {
    fn succeeded(&self) -> bool {
        matches!(self, Finished::Returned(Ok(_)))
    }
}

/// Room to run, held until the call ends.
struct Room<'a> {
    _lock: Option<Either<RwLockReadGuard<'a, ()>, RwLockWriteGuard<'a, ()>>>,
    _permit: Option<SemaphoreGuard<'a>>,
}

/// A blocking tool's call, owned, to move to the thread that runs it.
struct BlockingJob {
    tool: Arc<dyn DynTool>,
    tool_name: Cow<'static, str>,
    call_id: Arc<str>,
    inputs: JsonObject,
    credentials: Credentials,
    dependencies: Arc<Dependencies>,
    cancellation: Cancellation,
    observers: Arc<Vec<Arc<dyn ToolObserver>>>,
    progress: Option<ProgressReporter>,
    start: Instant,
}

type Reply = futures_channel::oneshot::Sender<(Finished, Credentials)>;

impl BlockingJob {
    fn run(self, reply: Reply) {
        let BlockingJob {
            tool,
            tool_name,
            call_id,
            inputs,
            credentials,
            dependencies,
            cancellation,
            observers,
            progress,
            start,
        } = self;
        let cancellation = OnceLock::from(cancellation);
        let sink = |update: &Progress| {
            report(&observers, &tool_name, &call_id, update, progress.as_ref());
        };
        let finished = {
            let ctx = ToolContext::new(
                &call_id,
                &tool_name,
                &credentials,
                &dependencies,
                &cancellation,
            )
            .with_progress(&sink);
            // `block_on` also drops the future: a panic there is caught too.
            match catch_unwind(AssertUnwindSafe(|| {
                let _mark = ToolMark::enter();
                block_on(tool.execute_boxed(Inputs::Json(&inputs), &ctx))
            })) {
                Ok(returned) => Finished::Returned(returned),
                Err(panic) => Finished::Panicked(tool_panic(panic, &credentials)),
            }
        };
        if let Err((finished, _)) = reply.send((finished, credentials)) {
            // The call ended first (a timeout, or its future was dropped).
            let succeeded = finished.succeeded();
            drop_contained(finished);
            emit_to(
                &observers,
                &ToolEvent::Discarded {
                    tool_name: &tool_name,
                    call_id: &call_id,
                    succeeded,
                    duration: start.elapsed(),
                },
            );
        }
    }
}

/// The earliest of a call's deadlines: a point in time (its timeout, its turn's deadline),
/// and the caller's future.
struct Deadline<'a> {
    at: Option<Instant>,
    /// The runtime's sleep until `at`, made when first polled.
    sleep: Option<Contained<Sleep>>,
    until: Option<Contained<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>>,
    runtime: &'a dyn Runtime,
}

impl Deadline<'_> {
    fn is_set(&self) -> bool {
        self.at.is_some() || self.until.is_some()
    }

    /// Moves the deadline earlier to `at`, if it is later.
    fn tighten(&mut self, at: Instant) {
        if self.at.is_none_or(|current| at < current) {
            self.at = Some(at);
            self.sleep = None;
        }
    }

    /// Whether the deadline has passed (checked without waiting).
    fn is_past(&mut self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
            || self
                .until
                .as_mut()
                .is_some_and(|until| until.now_or_never().is_some())
    }
}

impl Future for Deadline<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        if let Some(at) = this.at {
            let runtime = this.runtime;
            let sleep = this.sleep.get_or_insert_with(|| {
                // A runtime that panics making a sleep gets the timer thread's instead.
                let sleep = catch_unwind(AssertUnwindSafe(|| runtime.sleep_until(at)))
                    .unwrap_or_else(|panic| {
                        discard(panic);
                        crate::runtime::StdRuntime.sleep_until(at)
                    });
                Contained::new(sleep)
            });
            // A sleep that completes, or panics, ends the run.
            if Pin::new(sleep).poll(cx).is_ready() {
                return Poll::Ready(());
            }
        }
        if let Some(until) = &mut this.until {
            if Pin::new(until).poll(cx).is_ready() {
                return Poll::Ready(());
            }
        }
        Poll::Pending
    }
}

/// How many characters of a tool name or call id a span records.
#[cfg(feature = "tracing")]
const TRACE_ECHO: usize = 200;

#[cfg(feature = "tracing")]
fn status_name(result: &ToolResult) -> &'static str {
    match result.status() {
        crate::ToolStatus::Success => "success",
        crate::ToolStatus::Deferred => "deferred",
        _ => "failure",
    }
}

/// A call between its `started` event and its terminal one. Dropped before
/// [`finish`](Self::finish), as when the caller drops the dispatch future, it reports the
/// call as cancelled, so that observers and recorders never see a call that never ends.
struct CallGuard<'a> {
    executor: &'a ToolExecutor,
    tool_name: &'a str,
    call_id: &'a Arc<str>,
    /// When the arguments were found valid: `None` until then.
    start: Option<Instant>,
    cancellation: &'a OnceLock<Cancellation>,
    ended: bool,
}

impl CallGuard<'_> {
    /// The call's duration so far: `None` for a call that never got past its arguments.
    fn timed(&self) -> Option<Duration> {
        self.start.map(|start| start.elapsed())
    }

    /// Emits the terminal event and builds the result.
    fn finish(
        mut self,
        tool_name: Cow<'static, str>,
        inputs: Option<&JsonObject>,
        outcome: Outcome,
    ) -> ToolResult {
        self.ended = true;
        let timed = self.timed();
        // What the events carry; the result keeps whether there was one.
        let duration = timed.unwrap_or_default();
        let executor = self.executor;
        let shared_id = self.call_id;
        let call_id: &str = shared_id;
        let observed = !executor.observers.is_empty();
        // Takes the name, which the events borrow first: no copy of it per call.
        let result = |tool_name, outcome| {
            ToolResult::new(
                tool_name,
                Arc::clone(shared_id),
                outcome,
                timed,
                executor.limits,
            )
        };
        match outcome {
            Outcome::Output(output) => {
                if let (true, Some(inputs)) = (observed, inputs) {
                    executor.emit(&ToolEvent::Completed {
                        tool_name: &tool_name,
                        call_id,
                        inputs,
                        output: output.as_json(),
                        duration,
                    });
                }
                result(tool_name, Ok(output))
            }
            Outcome::Failed(error) => {
                if observed {
                    executor.emit(&ToolEvent::Failed {
                        tool_name: &tool_name,
                        call_id,
                        inputs,
                        error: &error,
                        duration,
                    });
                }
                result(tool_name, Err(error))
            }
            Outcome::Late { error, succeeded } => {
                if observed {
                    executor.emit(&ToolEvent::Failed {
                        tool_name: &tool_name,
                        call_id,
                        inputs,
                        error: &error,
                        duration,
                    });
                    executor.emit(&ToolEvent::Discarded {
                        tool_name: &tool_name,
                        call_id,
                        succeeded,
                        duration,
                    });
                }
                result(tool_name, Err(error))
            }
            Outcome::Deferred => {
                let inputs = inputs.cloned().unwrap_or_default();
                if observed {
                    executor.emit(&ToolEvent::Deferred {
                        tool_name: &tool_name,
                        call_id,
                        inputs: &inputs,
                        duration,
                    });
                }
                let pending = ToolExecutionError::new(tool_name.clone(), AwaitingApproval);
                let deferred =
                    DeferredCall::new(tool_name.to_string(), Arc::clone(shared_id), inputs);
                result(tool_name, Err(pending.into())).deferring(deferred)
            }
        }
    }
}

impl Drop for CallGuard<'_> {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        cancel(self.cancellation);
        if self.executor.observers.is_empty() {
            return;
        }
        let error = Error::from(ToolExecutionError::new(
            capture(self.tool_name),
            ToolCancelled,
        ));
        self.executor.emit(&ToolEvent::Failed {
            tool_name: self.tool_name,
            call_id: self.call_id,
            inputs: None,
            error: &error,
            duration: self.timed().unwrap_or_default(),
        });
    }
}

/// The id of a call made without one ([`ToolExecutor::execute`]): the empty string, made once.
fn no_call_id() -> &'static Arc<str> {
    static NO_CALL_ID: OnceLock<Arc<str>> = OnceLock::new();
    NO_CALL_ID.get_or_init(|| Arc::from(""))
}

/// Sets a call's cancellation signal, if the tool asked for it.
fn cancel(cancellation: &OnceLock<Cancellation>) {
    if let Some(signal) = cancellation.get() {
        signal.cancel();
    }
}

/// Hands `event` to each observer; one that panics is contained.
fn emit_to(observers: &[Arc<dyn ToolObserver>], event: &ToolEvent<'_>) {
    for observer in observers {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| observer.on_event(event))) {
            discard(panic);
            #[cfg(feature = "tracing")]
            tracing::error!(
                event = event.name(),
                "a tool observer panicked; the call goes on without it for this event"
            );
        }
    }
    #[cfg(feature = "tracing")]
    if let ToolEvent::Discarded {
        tool_name,
        call_id,
        succeeded,
        duration,
    } = *event
    {
        tracing::warn!(
            gen_ai.tool.name = %Escaped(tool_name, TRACE_ECHO),
            gen_ai.tool.call.id = %Escaped(call_id, TRACE_ECHO),
            succeeded,
            elapsed = duration.as_secs_f64(),
            "a tool finished after its call had ended; what it returned was discarded"
        );
    }
}

/// Hands a progress report to the observers, and to the client that asked for it.
fn report(
    observers: &[Arc<dyn ToolObserver>],
    tool_name: &str,
    call_id: &str,
    progress: &Progress,
    reporter: Option<&ProgressReporter>,
) {
    emit_to(
        observers,
        &ToolEvent::Progress {
            tool_name,
            call_id,
            progress,
        },
    );
    if let Some(reporter) = reporter {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| reporter(progress))) {
            discard(panic);
        }
    }
}

/// The failure of a tool that panicked, its message free of the call's secrets.
fn panicked(
    tool_name: Cow<'static, str>,
    payload: Box<dyn Any + Send>,
    credentials: &Credentials,
) -> ToolExecutionError {
    ToolExecutionError::new(tool_name, tool_panic(payload, credentials))
}

/// A caught panic as a [`ToolPanic`], its message free of the call's secrets; the payload is
/// dropped, contained.
fn tool_panic(payload: Box<dyn Any + Send>, credentials: &Credentials) -> ToolPanic {
    let secrets: Vec<&str> = credentials.secrets().collect();
    let panic = ToolPanic::from_payload(&*payload, &secrets);
    discard(payload);
    panic
}

fn strict(result: ToolResult) -> Result<ToolResult, Error> {
    result.into_strict()
}

/// The approval policy's denial; the cause of a [`ToolExecutionError`] of kind
/// [`ErrorKind::Denied`], whose model message is the policy's.
#[derive(Debug, thiserror::Error)]
#[error("the approval policy denied the call")]
struct Denied;

/// An approval policy that panicked: the call fails, and the tool does not run.
#[derive(Debug, thiserror::Error)]
#[error("the approval policy panicked, so the tool was not run")]
struct PolicyPanicked;

/// A blocking tool whose thread could not be started.
#[derive(Debug, thiserror::Error)]
#[error("the blocking tool could not be started: no thread was available")]
struct NotStarted;

/// A future run with its panics contained: a panic while polling becomes the `Err` output,
/// and a panic while dropping it (a tool cleaning up on cancellation) is swallowed. Once it
/// has finished or panicked it is dropped at once, within that poll, and not polled again.
///
/// Its polls and its drop each run inside a fresh `S`: nothing, or, for a tool's future
/// ([`Contained::tool`]), a [`ToolMark`] telling the [panic
/// hook](crate::install_tool_panic_hook) that the code running is the tool's.
struct Contained<F, S: Scope = ()>(Option<F>, PhantomData<fn() -> S>);

/// What a [`Contained`] future's polls and drop run inside, made anew for each.
trait Scope {
    fn enter() -> Self;
}

impl Scope for () {
    fn enter() {}
}

impl Scope for ToolMark {
    fn enter() -> Self {
        ToolMark::enter()
    }
}

impl<F> Contained<F> {
    fn new(future: F) -> Self {
        Contained(Some(future), PhantomData)
    }
}

impl<F> Contained<F, ToolMark> {
    /// A tool's future: its polls and drop marked as the tool's code.
    fn tool(future: F) -> Self {
        Contained(Some(future), PhantomData)
    }
}

impl<F: Future + Unpin, S: Scope> Future for Contained<F, S> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(inner) = self.0.as_mut() else {
            return Poll::Pending;
        };
        let _scope = S::enter();
        let output = match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Ok(output),
            Ok(Poll::Pending) => return Poll::Pending,
            Err(panic) => Err(panic),
        };
        // Dropped within the poll's scope; a panic in its drop is swallowed and the output
        // stands. What `Drop` is left with is a future that never finished.
        if let Some(future) = self.0.take() {
            drop_contained(future);
        }
        Poll::Ready(output)
    }
}

impl<F, S: Scope> Drop for Contained<F, S> {
    fn drop(&mut self) {
        if let Some(future) = self.0.take() {
            let _scope = S::enter();
            drop_contained(future);
        }
    }
}

fn drop_contained<F>(value: F) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        discard(panic);
    }
}
