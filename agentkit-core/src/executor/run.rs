//! One call, from its arguments to its outcome: the arguments parsed and validated, then the
//! tool run in one of two lanes. The common call (no approval, no deadline, no room to wait
//! for, not blocking) takes [`run_plain`](ToolExecutor::run_plain), a small state machine
//! of its own; every other takes [`run_tool`](ToolExecutor::run_tool). Both end in
//! [`conclude`](ToolExecutor::conclude) (in `conclude`), which checks the output and scrubs
//! the errors.

use std::borrow::Cow;
use std::pin::pin;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures_util::future::{Either, select};
use serde_json::Value;

use super::blocking::BlockingJob;
use super::budget::TurnBudget;
use super::contain::{Contained, drop_contained, finished, start_tool};
use super::deadline::Deadline;
use super::dispatch::{CallOptions, CallReporter, ToolExecutor};
use super::gates::Denied;
use super::lifecycle::{CallGuard, Outcome, cancel, report};
use crate::approval::{Approval, ApprovalRequest};
use crate::arguments::parse_arguments;
use crate::call::ToolArguments;
use crate::context::{Cancellation, Report, ReportSink, ToolContext};
use crate::credentials::Credentials;
use crate::error::{
    Direction, Error, ErrorKind, ToolExecutionError, ToolTimeout, ToolValidationError,
};
use crate::inputs::{AnyInput, Inputs, InvalidArguments, Parsed, parse_object};
use crate::model_text::capture;
use crate::result::ToolResult;
use crate::schema::{Issues, JsonObject, ValidationIssue};
use crate::session::ClientSession;
use crate::tool::{BoxFuture, DynTool, ToolSpec};

impl ToolExecutor {
    /// Runs one call: its events, its arguments, its tool, its result.
    ///
    /// An async block rather than an `async fn`, whose future would keep its arguments (the
    /// call's options among them) beside the body's own copies for as long as it runs.
    #[allow(clippy::manual_async_fn)]
    pub(super) fn run_inner<'a>(
        &'a self,
        tool_name: &'a str,
        shared_id: &'a Arc<str>,
        arguments: Cow<'a, ToolArguments>,
        options: CallOptions<'a>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        async move {
            // Made only if the tool asks for it; declared before the guard, which outlives it
            // not, so that a dropped call can still signal it.
            let cancellation = OnceLock::new();
            // From here on the call ends with a terminal event, even if this future is dropped.
            let mut call = CallGuard::start(self, tool_name, shared_id, &cancellation);
            let resolved = match options.view {
                Some(view) => view.resolve_in(&self.registry, tool_name),
                None => self.registry.resolve(tool_name),
            };
            let tool = match resolved {
                Ok(tool) => tool,
                Err(unknown) => {
                    return cold(|| {
                        let name = Cow::Owned(capture(tool_name));
                        call.finish(name, None, Outcome::Failed(unknown.into()))
                    });
                }
            };
            let spec = tool.spec();
            // Through a view, the call is named as the model called it; its deferred call keeps
            // the tool's own name, by which it resumes.
            let name = if options.view.is_some() && tool_name != spec.name() {
                call.own_name = Some(spec.name_cow().clone());
                Cow::Owned(tool_name.to_owned())
            } else {
                spec.name_cow().clone()
            };
            let max_issues = self.limits.max_issues();
            // The argument text in one pass, validated on the way: to the tool's own input where
            // nothing needs the arguments as JSON (no observer to show them to, no approval
            // request or deferred call to carry them, no blocking thread to own a copy), else to
            // a JSON object. What it cannot decide, the full path below decides.
            let fast = match &*arguments {
                ToolArguments::Text(text)
                    if self.observers.is_empty()
                        && !spec.requires_approval()
                        && !spec.is_blocking() =>
                {
                    tool.parse_typed(text, self.unknown_arguments, max_issues)
                }
                ToolArguments::Text(text) => {
                    let observed = !self.observers.is_empty();
                    parse_object(
                        spec.input_schema(),
                        text,
                        self.unknown_arguments,
                        max_issues,
                        observed,
                    )
                }
                ToolArguments::Value(_) => Parsed::Unparsed,
            };
            let none_found = || Issues::with_cap(max_issues);
            // The full path: the arguments as a JSON object (with the issues found parsing them),
            // checked by the validator.
            let validate = |mut inputs: JsonObject, mut found: Issues| {
                if let Some(schema) = spec.input_schema() {
                    schema.validate_into(&mut inputs, self.unknown_arguments, &mut found);
                } else if let Some(schema) = spec.input_json() {
                    let mut value = Value::Object(std::mem::take(&mut inputs));
                    schema.validate_into(&mut value, self.unknown_arguments, &mut found);
                    if let Value::Object(object) = value {
                        inputs = object;
                    }
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
                // An object the caller handed over ([`ToolExecutor::execute`], a resumed call)
                // is validated in place; one borrowed from a call, on a copy.
                (Parsed::Unparsed, Cow::Owned(ToolArguments::Value(Value::Object(inputs)))) => {
                    validate(inputs, none_found())
                }
                (Parsed::Unparsed, Cow::Borrowed(ToolArguments::Value(Value::Object(object)))) => {
                    validate(object.clone(), none_found())
                }
                (Parsed::Unparsed, arguments) => match &*arguments {
                    ToolArguments::Text(text) => match parse_arguments(text, max_issues) {
                        Ok((inputs, found)) => validate(inputs, found),
                        Err(issues) => Err((issues, None)),
                    },
                    ToolArguments::Value(other) => {
                        let mut issues = Issues::with_cap(max_issues);
                        issues.push(|| ValidationIssue::not_an_object(other));
                        Err((issues, None))
                    }
                },
            };
            let (inputs, typed) = match parsed {
                Ok(parsed) => parsed,
                Err((issues, inputs)) => {
                    return cold(|| {
                        let error = ToolValidationError::from_issues(
                            name.clone(),
                            Direction::Input,
                            issues,
                        );
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
            let mut outcome = outcome;
            if call.own_name.is_some() {
                cold(|| outcome.rename(&name));
            }
            call.finish(name, Some(&inputs), outcome)
        }
    }

    /// Everything after validating the arguments, for the calls [`run_plain`](Self::run_plain)
    /// does not take: approval, blocking, deadlines, room to wait for.
    pub(super) fn run_tool<'a>(
        &'a self,
        run: Run<'a>,
        inputs: &'a JsonObject,
        typed: Option<AnyInput>,
        options: CallOptions<'a>,
    ) -> impl Future<Output = Outcome> + Send + 'a {
        // Taken apart before the future: it holds each part once, not the whole beside them.
        let Run {
            tool,
            spec,
            call_id: shared_id,
            start,
            cancellation,
        } = run;
        let CallOptions {
            until,
            turn,
            reporter,
            client,
            decision,
            view: _,
        } = options;
        async move {
            let call_id: &str = shared_id;
            let name = || spec.name_cow().clone();
            let fail = |error: ToolExecutionError| cold(|| Outcome::Failed(error.into()));
            let mut deadline = Deadline {
                at: turn.and_then(|turn| turn.deadline),
                sleep: None,
                until: until.map(Contained::new),
                runtime: &*self.runtime,
            };
            if spec.requires_approval() {
                let capabilities = client.as_ref().map(|client| client.capabilities());
                let principal = client.as_ref().and_then(|client| client.principal());
                let decision = match decision {
                    Some(decision) => Ok(decision),
                    None => self.decide(
                        &ApprovalRequest::new(spec, call_id, inputs)
                            .with_client(capabilities, principal),
                    ),
                };
                let decision = match decision {
                    // A person at the client decides, while the call's deadline holds.
                    Ok(Approval::Ask(message)) => {
                        // Boxed: a question to a person is the rare case; inline, its future
                        // would size every call's.
                        let asked = Box::pin(self.ask(client.as_ref(), spec, message));
                        match select(asked, &mut deadline).await {
                            Either::Left((decision, _)) => Ok(decision),
                            Either::Right(_) => {
                                return fail(ToolExecutionError::new(name(), ToolTimeout));
                            }
                        }
                    }
                    other => other,
                };
                match decision {
                    Ok(Approval::Allow) => {}
                    Ok(Approval::Deny(message)) => {
                        let denied =
                            ToolExecutionError::new(name(), Denied).into_kind(ErrorKind::Denied);
                        return fail(denied.with_model_message(&message));
                    }
                    Ok(_) => return Outcome::Deferred,
                    Err(panicked) => return fail(ToolExecutionError::new(name(), panicked)),
                }
            }

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
                    reporter,
                    client,
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
                let sink = self.report_sink(spec, call_id, reporter.as_ref());
                let ctx = self.tool_context(
                    spec,
                    call_id,
                    &credentials,
                    cancellation,
                    &sink,
                    client.as_ref(),
                );
                let input = match typed {
                    Some(input) => Inputs::Parsed(input),
                    None => Inputs::Json(inputs),
                };
                let (output, late) = match start_tool(&**tool, input, &ctx) {
                    Ok(run) if deadline.is_set() => match select(run, &mut deadline).await {
                        Either::Left((output, _)) => (output, deadline.is_past()),
                        Either::Right((_, run)) => {
                            cancel(cancellation);
                            drop(run);
                            return fail(ToolExecutionError::new(name(), ToolTimeout));
                        }
                    },
                    Ok(run) => (run.await, false),
                    Err(panic) => (Err(panic), false),
                };
                (finished(output, &credentials), late, Some(credentials))
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
            self.conclude(spec, turn, finished, credentials.as_ref())
        }
    }

    /// The common case, in a state machine of its own, a fraction of [`run_tool`]'s size: no
    /// approval, no deadline, no room to wait for, not blocking. Its guarantees are
    /// [`run_tool`]'s: credentials resolved by name, panics contained (starting the tool and
    /// in every poll), the output checked and errors scrubbed by [`conclude`](Self::conclude).
    /// Fewer branches and a smaller future per call are what it is for: the code every call
    /// runs stays dense in the instruction cache.
    ///
    /// [`run_tool`]: Self::run_tool
    pub(super) fn run_plain<'a>(
        &'a self,
        run: Run<'a>,
        input: Inputs<'a>,
        options: CallOptions<'a>,
    ) -> impl Future<Output = Outcome> + Send + 'a {
        // Taken apart before the future: it holds each part once, not the whole beside them.
        let Run {
            tool,
            spec,
            call_id: shared_id,
            cancellation,
            ..
        } = run;
        let CallOptions {
            turn,
            reporter,
            client,
            ..
        } = options;
        async move {
            let call_id: &str = shared_id;
            let credentials = match self.resolve_credentials(spec) {
                Ok(credentials) => credentials,
                Err(error) => return cold(|| Outcome::Failed(error.into())),
            };
            let sink = self.report_sink(spec, call_id, reporter.as_ref());
            let ctx = self.tool_context(
                spec,
                call_id,
                &credentials,
                cancellation,
                &sink,
                client.as_ref(),
            );
            let output = match start_tool(&**tool, input, &ctx) {
                Ok(run) => run.await,
                Err(panic) => Err(panic),
            };
            let finished = finished(output, &credentials);
            self.conclude(spec, turn, finished, Some(&credentials))
        }
    }

    /// Where a running tool's reports go: to the observers, and to the reporter of the
    /// call's caller (an MCP client).
    fn report_sink<'c>(
        &'c self,
        spec: &'c ToolSpec,
        call_id: &'c str,
        reporter: Option<&'c CallReporter>,
    ) -> impl Fn(Report<'_>) + Send + Sync + 'c {
        move |update: Report<'_>| report(&self.observers, spec.name(), call_id, update, reporter)
    }

    /// What a tool runs with: its call's id, credentials and cancellation, the executor's
    /// dependencies, `sink` for its reports, and the client it is served to.
    #[allow(clippy::too_many_arguments)]
    fn tool_context<'c>(
        &'c self,
        spec: &'c ToolSpec,
        call_id: &'c str,
        credentials: &'c Credentials,
        cancellation: &'c OnceLock<Cancellation>,
        sink: ReportSink<'c>,
        client: Option<&'c Arc<dyn ClientSession>>,
    ) -> ToolContext<'c> {
        ToolContext::new(
            call_id,
            spec.name(),
            credentials,
            &self.dependencies,
            cancellation,
        )
        .with_reports(sink)
        .with_client(client.map(|client| &**client as &dyn ClientSession))
    }

    /// Whether a call can take [`run_plain`](Self::run_plain): nothing but the tool to wait
    /// for, and nothing to decide first.
    pub(super) fn is_plain(&self, spec: &ToolSpec, options: &CallOptions<'_>) -> bool {
        !spec.requires_approval()
            && !spec.is_blocking()
            && options.until.is_none()
            && options.turn.is_none_or(|turn| turn.deadline.is_none())
            && self.in_flight.is_none()
            && self.exclusive.is_none()
            && spec.timeout().or(self.default_timeout).is_none()
    }

    /// Counts a retry request against the tool's budget for the turn; past it, the request
    /// becomes a failure the model is told it cannot retry.
    pub(super) fn spend_retry(
        &self,
        error: Error,
        spec: &ToolSpec,
        turn: Option<&TurnBudget>,
    ) -> Error {
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
}

/// Runs `f` out of line, as a cold function: the code of the paths that end a call early
/// (an unknown tool, invalid arguments, a timeout, a panic) is kept out of the code every
/// call runs, which so stays denser in the instruction cache.
#[cold]
#[inline(never)]
pub(super) fn cold<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// The call being run: its tool, and what it shares with its guard.
pub(super) struct Run<'a> {
    tool: &'a Arc<dyn DynTool>,
    spec: &'a ToolSpec,
    call_id: &'a Arc<str>,
    start: Instant,
    cancellation: &'a OnceLock<Cancellation>,
}
