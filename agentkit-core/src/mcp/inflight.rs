//! [`CallsInFlight`]: the calls a server runs, counted, to wait for and cancel when it shuts
//! down.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// The calls a server runs, to wait for and to cancel when it shuts down.
#[derive(Default)]
pub(super) struct CallsInFlight {
    count: AtomicUsize,
    ended: Notify,
    /// Set at the end of the grace period: every call's deadline.
    pub(super) cancel: CancellationToken,
}

impl CallsInFlight {
    /// Counts a call until the guard is dropped.
    pub(super) fn enter(self: &Arc<Self>) -> InFlight {
        self.count.fetch_add(1, Ordering::SeqCst);
        InFlight(Arc::clone(self))
    }

    /// Waits until no call is in flight.
    pub(super) async fn idle(&self) {
        loop {
            let ended = self.ended.notified();
            if self.count.load(Ordering::SeqCst) == 0 {
                return;
            }
            ended.await;
        }
    }
}

/// A call in flight.
pub(super) struct InFlight(Arc<CallsInFlight>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.ended.notify_waiters();
        }
    }
}
