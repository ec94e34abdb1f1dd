//! A call's deadline: the earliest of its tool's timeout, its turn's deadline and the
//! caller's future, as one future to race the tool against.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use futures_util::task::noop_waker_ref;

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
            || self.until.as_mut().is_some_and(|until| {
                // With the one static no-op waker, which a future that would register to be
                // woken can tell from a waker that wakes, and skip registering (a served
                // call's end does: `mcp::call::Ended`). `now_or_never` makes a fresh no-op
                // waker, whose vtable is a copy at another address: `will_wake` does not take
                // it for the static one, and the future registered at every check.
                let mut cx = Context::from_waker(noop_waker_ref());
                Pin::new(until).poll(&mut cx).is_ready()
            })
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    use super::*;

    #[test]
    fn a_check_polls_the_callers_future_once_with_the_static_noop_waker() {
        let (polls, with_static_noop) = (AtomicUsize::new(0), AtomicUsize::new(0));
        // Ready at its second poll.
        let probe = std::future::poll_fn(|cx| {
            let polled = polls.fetch_add(1, Relaxed) + 1;
            // The static itself, not a no-op waker that may or may not share its vtable
            // (in a debug build it does, in a release build not).
            if std::ptr::eq(cx.waker(), noop_waker_ref()) {
                with_static_noop.fetch_add(1, Relaxed);
            }
            if polled >= 2 {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        });
        let until: Pin<Box<dyn Future<Output = ()> + Send + '_>> = Box::pin(probe);
        let mut deadline = Deadline {
            at: None,
            sleep: None,
            until: Some(Contained::new(until)),
            runtime: &StdRuntime,
        };
        assert!(!deadline.is_past());
        // One poll, with the waker a future that would register can tell apart (`Ended`).
        assert_eq!(
            (polls.load(Relaxed), with_static_noop.load(Relaxed)),
            (1, 1)
        );
        assert!(deadline.is_past());
        assert_eq!(
            (polls.load(Relaxed), with_static_noop.load(Relaxed)),
            (2, 2)
        );
    }
}
