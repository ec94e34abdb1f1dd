//! [`block_on`]: run a future to completion from synchronous code.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

struct ThreadWaker(Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

thread_local! {
    // One waker per thread, made once: blocking on a call that completes at once (a tool
    // without I/O) then costs no allocation.
    static WAKER: Waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
}

/// Runs `future` to completion on the current thread, parking it while the future waits.
///
/// For synchronous callers, tests and examples: the executor's calls are plain futures, and
/// `agentkit-core` brings no async runtime. Inside an async runtime, `.await` them instead; a
/// tool whose future needs a specific runtime (a Tokio timer, say) must be awaited on it.
///
/// ```
/// assert_eq!(agentkit_core::block_on(async { 40 + 2 }), 42);
/// ```
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    WAKER.with(|waker| {
        let mut cx = Context::from_waker(waker);
        loop {
            match future.as_mut().poll(&mut cx) {
                Poll::Ready(output) => return output,
                Poll::Pending => thread::park(),
            }
        }
    })
}
