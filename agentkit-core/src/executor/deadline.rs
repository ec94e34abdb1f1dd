//! A call's deadline: the earliest of its tool's timeout, its turn's deadline and the
//! caller's future, as one future to race the tool against.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use futures_util::FutureExt as _;

use super::contain::Contained;
use crate::error::discard;
use crate::runtime::{Runtime, Sleep, StdRuntime};

/// The earliest of a call's deadlines: a point in time (its timeout, its turn's deadline),
/// and the caller's future.
pub(super) struct Deadline<'a> {
    pub(super) at: Option<Instant>,
    /// The runtime's sleep until `at`, made when first polled.
    pub(super) sleep: Option<Contained<Sleep>>,
    pub(super) until: Option<Contained<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>>,
    pub(super) runtime: &'a dyn Runtime,
}

impl Deadline<'_> {
    pub(super) fn is_set(&self) -> bool {
        self.at.is_some() || self.until.is_some()
    }

    /// Moves the deadline earlier to `at`, if it is later.
    pub(super) fn tighten(&mut self, at: Instant) {
        if self.at.is_none_or(|current| at < current) {
            self.at = Some(at);
            self.sleep = None;
        }
    }

    /// Whether the deadline has passed (checked without waiting).
    pub(super) fn is_past(&mut self) -> bool {
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
                        StdRuntime.sleep_until(at)
                    });
                Contained::new(sleep)
            });
            // A sleep that completes, or panics, ends the run.
            if Pin::new(sleep).poll(cx).is_ready() {
                return Poll::Ready(());
            }
        }
        if let Some(until) = &mut this.until
            && Pin::new(until).poll(cx).is_ready()
        {
            return Poll::Ready(());
        }
        Poll::Pending
    }
}
