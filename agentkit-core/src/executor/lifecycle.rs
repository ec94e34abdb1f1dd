//! A call's life as observers see it: a `started` event, then exactly one terminal event
//! (`completed`, `failed` or `deferred`, and `discarded` after a result that came too late),
//! even when the caller drops the call part-way. Every event reaches the observers through
//! [`emit_to`], which contains an observer that panics.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::dispatch::{CallReporter, ToolExecutor};
#[cfg(feature = "tracing")]
use super::trace::TRACE_ECHO;
use crate::context::{Cancellation, Report};
use crate::error::{AwaitingApproval, Error, ToolCancelled, ToolExecutionError, discard};
use crate::events::{ToolEvent, ToolObserver};
#[cfg(feature = "tracing")]
use crate::model_text::Escaped;
use crate::model_text::capture;
use crate::output::Returned;
use crate::result::{DeferredCall, ToolResult};
use crate::schema::JsonObject;

/// How a call ended.
pub(super) enum Outcome {
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

impl Outcome {
    /// Makes the outcome's error name the tool `name` (the name a view gives it).
    pub(super) fn rename(&mut self, name: &str) {
        if let Outcome::Failed(error) | Outcome::Late { error, .. } = self {
            error.rename_tool(name);
        }
    }
}

/// A call between its `started` event and its terminal one. Dropped before
/// [`finish`](Self::finish), as when the caller drops the dispatch future, it reports the
/// call as cancelled, so that observers and recorders never see a call that never ends.
pub(super) struct CallGuard<'a> {
    executor: &'a ToolExecutor,
    tool_name: &'a str,
    call_id: &'a Arc<str>,
    /// When the arguments were found valid: `None` until then.
    pub(super) start: Option<Instant>,
    cancellation: &'a OnceLock<Cancellation>,
    /// The tool's own name, where the call names it otherwise (through a view).
    pub(super) own_name: Option<Cow<'static, str>>,
    ended: bool,
}

impl<'a> CallGuard<'a> {
    /// Emits the `started` event of a call; from here on the call ends with a terminal event.
    #[inline]
    pub(super) fn start(
        executor: &'a ToolExecutor,
        tool_name: &'a str,
        call_id: &'a Arc<str>,
        cancellation: &'a OnceLock<Cancellation>,
    ) -> Self {
        executor.emit(&ToolEvent::Started { tool_name, call_id });
        CallGuard {
            executor,
            tool_name,
            call_id,
            start: None,
            cancellation,
            own_name: None,
            ended: false,
        }
    }

    /// The call's duration so far: `None` for a call that never got past its arguments.
    fn timed(&self) -> Option<Duration> {
        self.start.map(|start| start.elapsed())
    }

    /// Emits the terminal event and builds the result.
    pub(super) fn finish(
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
                        output: output.structured(),
                        content: output.content(),
                        duration,
                    });
                }
                result(tool_name, Ok(output))
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
                let own_name = self.own_name.take().unwrap_or_else(|| tool_name.clone());
                let deferred =
                    DeferredCall::new(own_name.into_owned(), Arc::clone(shared_id), inputs);
                result(tool_name, Err(pending.into())).deferring(deferred)
            }
            Outcome::Failed(error) => {
                if observed {
                    self.failed(&tool_name, inputs, &error, duration);
                }
                result(tool_name, Err(error))
            }
            Outcome::Late { error, succeeded } => {
                if observed {
                    self.failed(&tool_name, inputs, &error, duration);
                    emit_discarded(
                        &executor.observers,
                        &tool_name,
                        call_id,
                        succeeded,
                        duration,
                    );
                }
                result(tool_name, Err(error))
            }
        }
    }

    /// Emits the `failed` event: the one place it is made, for a call that failed and for
    /// one dropped before it ended.
    fn failed(
        &self,
        tool_name: &str,
        inputs: Option<&JsonObject>,
        error: &Error,
        duration: Duration,
    ) {
        self.executor.emit(&ToolEvent::Failed {
            tool_name,
            call_id: self.call_id,
            inputs,
            error,
            duration,
        });
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
        self.failed(
            self.tool_name,
            None,
            &error,
            self.timed().unwrap_or_default(),
        );
    }
}

impl ToolExecutor {
    #[inline]
    fn emit(&self, event: &ToolEvent<'_>) {
        emit_to(&self.observers, event);
    }
}

/// Sets a call's cancellation signal, if the tool asked for it.
pub(super) fn cancel(cancellation: &OnceLock<Cancellation>) {
    if let Some(signal) = cancellation.get() {
        signal.cancel();
    }
}

/// Emits the `discarded` event: a tool's result came after its call had ended (a tool that
/// ran past its deadline without yielding, or a blocking tool's thread that finished late).
pub(super) fn emit_discarded(
    observers: &[Arc<dyn ToolObserver>],
    tool_name: &str,
    call_id: &str,
    succeeded: bool,
    duration: Duration,
) {
    emit_to(
        observers,
        &ToolEvent::Discarded {
            tool_name,
            call_id,
            succeeded,
            duration,
        },
    );
    #[cfg(feature = "tracing")]
    tracing::warn!(
        gen_ai.tool.name = %Escaped(tool_name, TRACE_ECHO),
        gen_ai.tool.call.id = %Escaped(call_id, TRACE_ECHO),
        succeeded,
        elapsed = duration.as_secs_f64(),
        "a tool finished after its call had ended; what it returned was discarded"
    );
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
}

/// Hands a running tool's report to the observers, and to the call's reporter (the client
/// it is served to).
pub(super) fn report(
    observers: &[Arc<dyn ToolObserver>],
    tool_name: &str,
    call_id: &str,
    report: Report<'_>,
    reporter: Option<&CallReporter>,
) {
    let event = match report {
        Report::Progress(progress) => ToolEvent::Progress {
            tool_name,
            call_id,
            progress,
        },
        Report::Log(message) => ToolEvent::Log {
            tool_name,
            call_id,
            message,
        },
    };
    emit_to(observers, &event);
    if let Some(reporter) = reporter
        && let Err(panic) = catch_unwind(AssertUnwindSafe(|| reporter(report)))
    {
        discard(panic);
    }
}
