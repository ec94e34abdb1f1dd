//! [`Runtime`]: the timers and the blocking pool the executor is given, so that the core
//! stays independent of async runtimes.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

/// A future that completes at a point in time; see [`Runtime::sleep_until`].
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// What the executor needs from an async runtime: timers, for timeouts and deadlines, and a
/// place to run blocking tools off the async task.
///
/// [`StdRuntime`] works anywhere, on a timer thread and one thread per blocking call; with
/// the `tokio` feature, `TokioRuntime` uses tokio's timers and blocking pool (and is then
/// the executor's default). Set one with
/// [`ToolExecutorBuilder::runtime`](crate::ToolExecutorBuilder::runtime).
///
/// ```
/// use std::time::{Duration, Instant};
/// use agentkit_core::{Runtime, StdRuntime, block_on};
///
/// let start = Instant::now();
/// block_on(StdRuntime.sleep_until(start + Duration::from_millis(5)));
/// assert!(start.elapsed() >= Duration::from_millis(5));
/// ```
pub trait Runtime: Send + Sync + 'static {
    /// A future that completes at `deadline` (at once if it has passed).
    fn sleep_until(&self, deadline: Instant) -> Sleep;

    /// Runs `task` off the async task, on a thread that may block. If the task cannot be
    /// started, drop it: the executor then reports the call as failed.
    fn spawn_blocking(&self, task: Box<dyn FnOnce() + Send + 'static>);
}

/// A [`Runtime`] on the standard library alone: one shared timer thread, started on first
/// use, and a new thread for each blocking call.
#[derive(Debug, Clone, Copy, Default)]
pub struct StdRuntime;

impl Runtime for StdRuntime {
    fn sleep_until(&self, deadline: Instant) -> Sleep {
        Box::pin(TimerSleep {
            deadline,
            key: None,
        })
    }

    fn spawn_blocking(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        // A failed spawn drops the task, which the executor reports as the call's failure.
        let _ = std::thread::Builder::new()
            .name("agentkit-blocking".into())
            .spawn(task);
    }
}

/// A [`Runtime`] on tokio (feature `tokio`): `tokio::time::sleep_until` and
/// `tokio::task::spawn_blocking`. Outside a tokio runtime, or in one built without its time
/// driver, it falls back to [`StdRuntime`].
#[cfg(feature = "tokio")]
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioRuntime;

#[cfg(feature = "tokio")]
impl Runtime for TokioRuntime {
    fn sleep_until(&self, deadline: Instant) -> Sleep {
        if tokio::runtime::Handle::try_current().is_ok() {
            // Without the time driver, tokio panics when the sleep is made: fall back.
            let sleep = std::panic::catch_unwind(|| {
                tokio::time::sleep_until(tokio::time::Instant::from_std(deadline))
            });
            if let Ok(sleep) = sleep {
                return Box::pin(sleep);
            }
        }
        StdRuntime.sleep_until(deadline)
    }

    fn spawn_blocking(&self, task: Box<dyn FnOnce() + Send + 'static>) {
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                drop(handle.spawn_blocking(task));
            }
            Err(_) => StdRuntime.spawn_blocking(task),
        }
    }
}

/// The runtime an executor has unless told otherwise.
pub(crate) fn default_runtime() -> Arc<dyn Runtime> {
    #[cfg(feature = "tokio")]
    return Arc::new(TokioRuntime);
    #[cfg(not(feature = "tokio"))]
    Arc::new(StdRuntime)
}

/// A sleep on the shared timer thread. Registered when first polled before its deadline,
/// and unregistered when dropped, so a call that finishes early leaves nothing behind.
struct TimerSleep {
    deadline: Instant,
    key: Option<(Instant, u64)>,
}

impl Future for TimerSleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.deadline {
            if let Some(key) = self.key.take() {
                timer().remove(key);
            }
            return Poll::Ready(());
        }
        let key = timer().register(self.deadline, self.key, cx.waker());
        self.key = Some(key);
        Poll::Pending
    }
}

impl Drop for TimerSleep {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            timer().remove(key);
        }
    }
}

/// The wakers of pending sleeps, by deadline; a thread wakes each when its time comes.
struct Timer {
    state: Mutex<TimerState>,
    changed: Condvar,
}

#[derive(Default)]
struct TimerState {
    sleeps: BTreeMap<(Instant, u64), Waker>,
    next_id: u64,
}

impl fmt::Debug for Timer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Timer").finish_non_exhaustive()
    }
}

fn timer() -> &'static Timer {
    static TIMER: OnceLock<&'static Timer> = OnceLock::new();
    TIMER.get_or_init(|| {
        let timer: &'static Timer = Box::leak(Box::new(Timer {
            state: Mutex::new(TimerState::default()),
            changed: Condvar::new(),
        }));
        // If no thread can be started, sleeps still end when polled after their deadline;
        // the executor polls a deadline again whenever the tool's future wakes it.
        let _ = std::thread::Builder::new()
            .name("agentkit-timer".into())
            .spawn(move || timer.run());
        timer
    })
}

impl Timer {
    fn lock(&self) -> std::sync::MutexGuard<'_, TimerState> {
        // The state stays consistent across a panic: every change is a single map operation.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn register(
        &self,
        deadline: Instant,
        key: Option<(Instant, u64)>,
        waker: &Waker,
    ) -> (Instant, u64) {
        let mut state = self.lock();
        if let Some(key) = key
            && let Some(registered) = state.sleeps.get_mut(&key)
        {
            if !registered.will_wake(waker) {
                registered.clone_from(waker);
            }
            return key;
        }
        let key = (deadline, state.next_id);
        state.next_id += 1;
        let earliest = state.sleeps.keys().next().is_none_or(|first| key < *first);
        state.sleeps.insert(key, waker.clone());
        drop(state);
        if earliest {
            self.changed.notify_one();
        }
        key
    }

    fn remove(&self, key: (Instant, u64)) {
        self.lock().sleeps.remove(&key);
    }

    fn run(&self) {
        let mut due = Vec::new();
        let mut state = self.lock();
        loop {
            let now = Instant::now();
            while let Some(entry) = state.sleeps.first_entry() {
                if entry.key().0 > now {
                    break;
                }
                due.push(entry.remove());
            }
            if !due.is_empty() {
                // A waker may run code that registers a sleep: wake with the lock released.
                drop(state);
                due.drain(..).for_each(Waker::wake);
                state = self.lock();
                continue;
            }
            state = match state.sleeps.keys().next() {
                Some(&(deadline, _)) => {
                    let wait = deadline.saturating_duration_since(now);
                    self.changed
                        .wait_timeout(state, wait)
                        .map(|(state, _)| state)
                        .unwrap_or_else(|poisoned| poisoned.into_inner().0)
                }
                None => self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
            };
        }
    }
}
