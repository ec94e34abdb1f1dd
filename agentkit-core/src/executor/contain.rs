//! Containment: a tool's code runs so that nothing it does unwinds into the executor. Its
//! future is started, polled and dropped in one place ([`run_contained`]), each step caught
//! and marked as the tool's code for the [panic hook](crate::install_tool_panic_hook); any
//! other future the executor must not trust (a caller's deadline, a runtime's sleep) runs as
//! a [`Contained`] too.

use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::context::ToolContext;
use crate::credentials::Credentials;
use crate::error::{BoxError, ToolPanic, discard};
use crate::inputs::Inputs;
use crate::output::Returned;
use crate::panic_hook::ToolMark;
use crate::tool::{BoxFuture, DynTool};

/// What a tool's run gave.
pub(super) enum Finished {
    Returned(Result<Returned, BoxError>),
    Panicked(ToolPanic),
    /// A blocking tool whose thread never started.
    NotStarted,
}

impl Finished {
    pub(super) fn succeeded(&self) -> bool {
        matches!(self, Finished::Returned(Ok(_)))
    }
}

/// A tool's future, run contained: its polls and its drop marked as the tool's code.
pub(super) type ToolRun<'a> = Contained<BoxFuture<'a, Result<Returned, BoxError>>, ToolMark>;

/// What running a tool gives before [`finished`] reads it: its output, or a caught panic.
pub(super) type RunOutput = Result<Result<Returned, BoxError>, Box<dyn Any + Send>>;

/// Starts a tool: the one place its future is made, by the call of `execute`, which runs
/// marked as the tool's code, with a panic in it caught (the `Err`). The future comes back
/// as a [`ToolRun`], which contains its polls and its drop the same way; [`finished`] reads
/// what either gives.
pub(super) fn start_tool<'a>(
    tool: &'a dyn DynTool,
    input: Inputs<'a>,
    ctx: &'a ToolContext<'a>,
) -> Result<ToolRun<'a>, Box<dyn Any + Send>> {
    catch_unwind(AssertUnwindSafe(|| {
        let _mark = ToolMark::enter();
        Contained::tool(tool.execute_boxed(input, ctx))
    }))
}

/// What a tool's run came to: what it returned, or its panic (while starting or running) as
/// a [`ToolPanic`] whose message is free of the call's `credentials`.
pub(super) fn finished(output: RunOutput, credentials: &Credentials) -> Finished {
    match output {
        Ok(returned) => Finished::Returned(returned),
        Err(panic) => Finished::Panicked(tool_panic(panic, credentials)),
    }
}

/// A caught panic as a [`ToolPanic`], its message free of the call's secrets; the payload is
/// dropped, contained.
fn tool_panic(payload: Box<dyn Any + Send>, credentials: &Credentials) -> ToolPanic {
    let secrets: Vec<&str> = credentials.secrets().collect();
    let panic = ToolPanic::from_payload(&*payload, &secrets);
    discard(payload);
    panic
}

/// A future run with its panics contained: a panic while polling becomes the `Err` output,
/// and a panic while dropping it (a tool cleaning up on cancellation) is swallowed. Once it
/// has finished or panicked it is dropped at once, within that poll, and not polled again.
///
/// Its polls and its drop each run inside a fresh `S`: nothing, or, for a tool's future
/// ([`Contained::tool`]), a [`ToolMark`] telling the [panic
/// hook](crate::install_tool_panic_hook) that the code running is the tool's.
pub(super) struct Contained<F, S: Scope = ()>(Option<F>, PhantomData<fn() -> S>);

/// What a [`Contained`] future's polls and drop run inside, made anew for each.
pub(super) trait Scope {
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
    pub(super) fn new(future: F) -> Self {
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

pub(super) fn drop_contained<F>(value: F) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        discard(panic);
    }
}
