//! [`ToolExecutor`]: the only path to a tool.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Instant;

use serde_json::Value;

use crate::arguments::parse_arguments;
use crate::call::{ToolArguments, ToolCall};
use crate::context::{Cancellation, Dependencies, ToolContext};
use crate::credentials::{CredentialProvider, Credentials, NoCredentials};
use crate::error::{
    CredentialError, Direction, Error, ToolCancelled, ToolExecutionError, ToolPanic, ToolTimeout,
    ToolValidationError, discard,
};
use crate::events::{ToolEvent, ToolObserver};
#[cfg(feature = "tracing")]
use crate::model_text::Escaped;
use crate::model_text::{TextLimits, capture};
use crate::recorder::ReplayedFailure;
use crate::registry::ToolRegistry;
use crate::result::ToolResult;
use crate::schema::{Issues, JsonObject, UnknownArguments, ValidationIssue};
use crate::tool::{DynTool, ToolSpec};

/// Runs tool calls: the Python original's `ToolExecutor`, and the only path to a tool.
///
/// Each call goes through the Python original's five steps, in order:
///
/// 1. validate the inputs against the tool's input schema, filling defaults
///    (a failure is a [`ToolValidationError`] with [`Direction::Input`]);
/// 2. resolve the credentials the tool names (a failure is a [`ToolExecutionError`] caused by
///    a [`CredentialError`], and the tool is not run);
/// 3. run the tool (an error or a panic is a [`ToolExecutionError`]);
/// 4. validate the output against the output schema ([`Direction::Output`]);
/// 5. return a [`ToolResult`] with the status, output or error, and duration.
///
/// Two calls per entry point: the result mode ([`dispatch`](Self::dispatch),
/// [`execute`](Self::execute)) always returns a [`ToolResult`], failed or not, ready to hand
/// back to the model; the strict mode ([`try_dispatch`](Self::try_dispatch),
/// [`try_execute`](Self::try_execute)) returns the typed [`Error`] instead of a failed result.
///
/// The executor is runtime-agnostic: its calls are plain futures. Await them on any runtime,
/// or use [`block_on`](crate::block_on) from synchronous code. To time out or cancel a call,
/// give it a deadline with [`dispatch_until`](Self::dispatch_until), or drop its future.
///
/// Whatever a model or a callback does, a call ends with a result: arguments of any size or
/// shape, an unknown tool, a panicking tool, observer or credential provider, a tool future
/// that panics when dropped: none of it unwinds out of `dispatch`. What the result tells the
/// model is bounded by [`TextLimits`] and escaped, and no text the executor produces,
/// stores or hands to observers carries the call's secrets (see the README's "Guarantees").
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
    observers: Vec<Arc<dyn ToolObserver>>,
    unknown_arguments: UnknownArguments,
    limits: TextLimits,
    dependencies: Dependencies,
}

impl fmt::Debug for ToolExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolExecutor")
            .field("registry", &self.registry)
            .field("observers", &self.observers.len())
            .field("unknown_arguments", &self.unknown_arguments)
            .field("limits", &self.limits)
            .field("dependencies", &self.dependencies.len())
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
        self.executor.observers.push(Arc::new(observer));
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
        self.executor.dependencies.insert(value);
        self
    }

    /// Sets the bounds on the text results render for the model (default:
    /// [`TextLimits::DEFAULT`]).
    pub fn text_limits(mut self, limits: TextLimits) -> Self {
        self.executor.limits = limits;
        self
    }

    /// Builds the executor.
    pub fn build(self) -> ToolExecutor {
        self.executor
    }
}

/// The arguments of a call, parsed or not.
enum Arguments<'a> {
    Json(&'a str),
    Value(&'a Value),
    Object(JsonObject),
}

/// A future whose completion ends a tool's run with a timeout.
type Deadline<'a> = Option<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>;

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
                observers: Vec::new(),
                unknown_arguments: UnknownArguments::default(),
                limits: TextLimits::DEFAULT,
                dependencies: Dependencies::default(),
            },
        }
    }

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
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        self.dispatch_with(call, None).await
    }

    /// Like [`dispatch`](Self::dispatch), but the tool's run ends when `deadline` completes
    /// first: the call then fails with a [`ToolExecutionError`] caused by a [`ToolTimeout`],
    /// and the tool's future is dropped (cancelled).
    ///
    /// The deadline is any future, so the executor stays independent of async runtimes:
    /// pass your runtime's sleep, such as `tokio::time::sleep(Duration::from_secs(10))`, or
    /// a cancellation signal.
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
        self.dispatch_with(call, Some(Box::pin(deadline))).await
    }

    async fn dispatch_with(&self, call: &ToolCall, deadline: Deadline<'_>) -> ToolResult {
        let arguments = match call.arguments() {
            ToolArguments::Text(text) => Arguments::Json(text),
            ToolArguments::Value(value) => Arguments::Value(value),
        };
        self.run(call.name(), call.id(), arguments, deadline).await
    }

    /// Like [`dispatch`](Self::dispatch), in strict mode: a failure is returned as the typed
    /// error.
    pub async fn try_dispatch(&self, call: &ToolCall) -> Result<ToolResult, Error> {
        strict(self.dispatch(call).await)
    }

    /// Runs every call of one model turn concurrently; results come back in call order.
    ///
    /// The calls share the current task (no thread is spawned), so tools that await I/O
    /// overlap. Each call is independent: one failing or panicking does not affect the others.
    pub async fn dispatch_all(&self, calls: &[ToolCall]) -> Vec<ToolResult> {
        JoinAll::new(calls.iter().map(|call| Box::pin(self.dispatch(call)))).await
    }

    /// Runs `tool_name` on already-parsed `inputs`; result mode.
    pub async fn execute(&self, tool_name: &str, inputs: JsonObject) -> ToolResult {
        self.run(tool_name, "", Arguments::Object(inputs), None)
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

    async fn run(
        &self,
        tool_name: &str,
        call_id: &str,
        arguments: Arguments<'_>,
        deadline: Deadline<'_>,
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
                error.r#type = tracing::field::Empty,
            );
            let result = self
                .run_inner(tool_name, call_id, arguments, deadline)
                .instrument(span.clone())
                .await;
            if let Some(error) = result.error() {
                span.record("error.type", error.kind().as_str());
            }
            tracing::info!(
                parent: &span,
                histogram.agent.tool.execution.duration = result.duration().as_secs_f64(),
                gen_ai.tool.name = %name,
            );
            result
        }
        #[cfg(not(feature = "tracing"))]
        self.run_inner(tool_name, call_id, arguments, deadline)
            .await
    }

    async fn run_inner(
        &self,
        tool_name: &str,
        call_id: &str,
        arguments: Arguments<'_>,
        deadline: Deadline<'_>,
    ) -> ToolResult {
        let start = Instant::now();
        self.emit(&ToolEvent::Started { tool_name, call_id });
        // Made only if the tool asks for it; declared before the guard, which outlives it
        // not, so that a dropped call can still signal it.
        let cancellation = OnceLock::new();
        // From here on the call ends with a terminal event, even if this future is dropped.
        let call = CallGuard {
            executor: self,
            tool_name,
            call_id,
            start,
            cancellation: &cancellation,
            ended: false,
        };
        let tool = match self.registry.resolve(tool_name) {
            Ok(tool) => tool,
            Err(unknown) => {
                let name = Cow::Owned(capture(tool_name));
                return call.finish(name, None, Err(unknown.into()));
            }
        };
        let spec = tool.spec();
        let name = spec.name_cow().clone();
        let max_issues = self.limits.max_issues();
        let none_found = || Issues::with_cap(max_issues);
        let parsed = match arguments {
            Arguments::Object(inputs) => Ok((inputs, none_found())),
            Arguments::Value(Value::Object(object)) => Ok((object.clone(), none_found())),
            Arguments::Value(other) => {
                let mut issues = Issues::with_cap(max_issues);
                issues.push(|| ValidationIssue::not_an_object(other));
                Err(issues)
            }
            Arguments::Json(text) => parse_arguments(text, max_issues),
        };
        let (mut inputs, found) = match parsed {
            Ok(parsed) => parsed,
            Err(issues) => {
                let error =
                    ToolValidationError::from_issues(name.clone(), Direction::Input, issues);
                return call.finish(name, None, Err(error.into()));
            }
        };
        let input = Input {
            values: &mut inputs,
            found,
        };
        let outcome = self
            .run_tool(&**tool, spec, call_id, input, &cancellation, deadline)
            .await;
        call.finish(name, Some(&inputs), outcome)
    }

    /// Steps 1 to 4, for a tool that exists and arguments that are an object.
    async fn run_tool(
        &self,
        tool: &dyn DynTool,
        spec: &ToolSpec,
        call_id: &str,
        input: Input<'_>,
        cancellation: &OnceLock<Cancellation>,
        deadline: Deadline<'_>,
    ) -> Result<JsonObject, Error> {
        let name = || spec.name_cow().clone();
        let max_issues = self.limits.max_issues();
        let Input {
            values: inputs,
            mut found,
        } = input;
        if let Some(schema) = spec.input_schema() {
            schema.validate_into(inputs, self.unknown_arguments, &mut found);
        }
        if !found.is_empty() {
            return Err(ToolValidationError::from_issues(name(), Direction::Input, found).into());
        }
        let credentials = self.resolve_credentials(spec)?;
        // Wanted on failures only: a successful call pays nothing for scrubbing.
        let secrets = || credentials.secrets().collect::<Vec<&str>>();
        let inputs = &*inputs;
        let ctx = ToolContext::new(
            call_id,
            spec.name(),
            &credentials,
            &self.dependencies,
            cancellation,
        );
        let run = match catch_unwind(AssertUnwindSafe(|| tool.execute_boxed(inputs, &ctx))) {
            Ok(future) => Contained::new(future),
            Err(panic) => return Err(panicked(name(), panic, &secrets()).into()),
        };
        let finished = match deadline {
            None => run.await,
            Some(deadline) => {
                let race = Race {
                    run,
                    deadline: Contained::new(deadline),
                };
                match race.await {
                    Some(finished) => finished,
                    None => {
                        if let Some(signal) = cancellation.get() {
                            signal.cancel();
                        }
                        return Err(ToolExecutionError::new(name(), ToolTimeout).into());
                    }
                }
            }
        };
        let mut output = match finished {
            Ok(Ok(output)) => output,
            Ok(Err(cause)) => {
                return Err(match cause.downcast::<ReplayedFailure>() {
                    Ok(replayed) => replayed.into_error(name()),
                    Err(cause) => ToolExecutionError::scrubbed(name(), cause, &secrets()).into(),
                });
            }
            Err(panic) => return Err(panicked(name(), panic, &secrets()).into()),
        };
        if let Some(schema) = spec.output_schema() {
            let mut issues =
                schema.validate_limited(&mut output, UnknownArguments::Reject, max_issues);
            if !issues.is_empty() {
                issues.scrub(&secrets());
                return Err(
                    ToolValidationError::from_issues(name(), Direction::Output, issues).into(),
                );
            }
        }
        Ok(output)
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
        for observer in &self.observers {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| observer.on_event(event))) {
                discard(panic);
                #[cfg(feature = "tracing")]
                tracing::error!(
                    event = event.name(),
                    "a tool observer panicked; the call goes on without it for this event"
                );
            }
        }
    }
}

/// A call's arguments as an object, with the issues their text already showed (repeated keys),
/// which validation adds to.
struct Input<'a> {
    values: &'a mut JsonObject,
    found: Issues,
}

/// How many characters of a tool name or call id a span records.
#[cfg(feature = "tracing")]
const TRACE_ECHO: usize = 200;

/// A call between its `started` event and its terminal one. Dropped before
/// [`finish`](Self::finish), as when the caller drops the dispatch future, it reports the
/// call as cancelled, so that observers and recorders never see a call that never ends.
struct CallGuard<'a> {
    executor: &'a ToolExecutor,
    tool_name: &'a str,
    call_id: &'a str,
    start: Instant,
    cancellation: &'a OnceLock<Cancellation>,
    ended: bool,
}

impl CallGuard<'_> {
    /// Emits the terminal event and builds the result.
    fn finish(
        mut self,
        tool_name: Cow<'static, str>,
        inputs: Option<&JsonObject>,
        outcome: Result<JsonObject, Error>,
    ) -> ToolResult {
        self.ended = true;
        let duration = self.start.elapsed();
        let executor = self.executor;
        if !executor.observers.is_empty() {
            let call_id = self.call_id;
            match (&outcome, inputs) {
                (Ok(output), Some(inputs)) => executor.emit(&ToolEvent::Completed {
                    tool_name: &tool_name,
                    call_id,
                    inputs,
                    output,
                    duration,
                }),
                (Err(error), inputs) => executor.emit(&ToolEvent::Failed {
                    tool_name: &tool_name,
                    call_id,
                    inputs,
                    error,
                    duration,
                }),
                // `run_inner` passes no inputs only together with an error.
                (Ok(_), None) => {}
            }
        }
        ToolResult::new(
            tool_name,
            self.call_id.to_owned(),
            outcome,
            duration,
            executor.limits,
        )
    }
}

impl Drop for CallGuard<'_> {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        if let Some(signal) = self.cancellation.get() {
            signal.cancel();
        }
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
            duration: self.start.elapsed(),
        });
    }
}

/// The failure of a tool that panicked, its message free of the call's secrets.
fn panicked(
    tool_name: Cow<'static, str>,
    payload: Box<dyn Any + Send>,
    secrets: &[&str],
) -> ToolExecutionError {
    let panic = ToolPanic::from_payload(&*payload, secrets);
    discard(payload);
    ToolExecutionError::new(tool_name, panic)
}

fn strict(result: ToolResult) -> Result<ToolResult, Error> {
    result.into_strict()
}

/// A future run with its panics contained: a panic while polling becomes the `Err` output,
/// and a panic while dropping it (a tool cleaning up on cancellation) is swallowed.
struct Contained<F>(Option<F>);

impl<F> Contained<F> {
    fn new(future: F) -> Self {
        Contained(Some(future))
    }
}

impl<F: Future + Unpin> Future for Contained<F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(inner) = self.0.as_mut() else {
            return Poll::Pending;
        };
        match catch_unwind(AssertUnwindSafe(|| Pin::new(inner).poll(cx))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => {
                // A future that panicked is not polled again.
                let _ = self.0.take().map(|future| drop_contained(future));
                Poll::Ready(Err(panic))
            }
        }
    }
}

impl<F> Drop for Contained<F> {
    fn drop(&mut self) {
        if let Some(future) = self.0.take() {
            drop_contained(future);
        }
    }
}

fn drop_contained<F>(future: F) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(future))) {
        discard(panic);
    }
}

/// Polls a tool's run and its deadline; `None` when the deadline comes first.
struct Race<R, D> {
    run: R,
    deadline: D,
}

impl<R: Future + Unpin, D: Future + Unpin> Future for Race<R, D> {
    type Output = Option<R::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Poll::Ready(output) = Pin::new(&mut self.run).poll(cx) {
            return Poll::Ready(Some(output));
        }
        // A deadline that completes, or panics, ends the run.
        match Pin::new(&mut self.deadline).poll(cx) {
            Poll::Ready(_) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Polls every future until all are done; outputs in input order.
struct JoinAll<F: Future> {
    slots: Vec<Slot<F>>,
}

enum Slot<F: Future> {
    Pending(F),
    Done(F::Output),
    Taken,
}

impl<F: Future + Unpin> JoinAll<F> {
    fn new(futures: impl IntoIterator<Item = F>) -> Self {
        JoinAll {
            slots: futures.into_iter().map(Slot::Pending).collect(),
        }
    }
}

impl<F: Future + Unpin> Future for JoinAll<F>
where
    F::Output: Unpin,
{
    type Output = Vec<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut all_done = true;
        for slot in &mut self.slots {
            if let Slot::Pending(future) = slot {
                match Pin::new(future).poll(cx) {
                    Poll::Ready(output) => *slot = Slot::Done(output),
                    Poll::Pending => all_done = false,
                }
            }
        }
        if !all_done {
            return Poll::Pending;
        }
        let outputs = self
            .slots
            .iter_mut()
            .map(|slot| match std::mem::replace(slot, Slot::Taken) {
                Slot::Done(output) => output,
                // Every slot is `Done` once all are done, and `Taken` only after this point.
                Slot::Pending(_) | Slot::Taken => unreachable!("JoinAll polled after completion"),
            })
            .collect();
        Poll::Ready(outputs)
    }
}
