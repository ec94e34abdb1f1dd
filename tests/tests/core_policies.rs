//! The executor's policies for an agent loop: timeouts that hold for cooperative, blocking
//! and CPU-bound tools; the in-flight limit and sequential tools; turns with retry budgets;
//! `ToolError`'s retry / failed / denied; approval with deny, defer and resume; progress.
//!
//! No test asserts on wall-clock bounds: deadlines are shown to hold by ordering and state
//! (the result arrives while the tool is provably still running). Waits that guard against a
//! hang use generous bounds that only a broken executor reaches.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use agentkit_core::{
    Approval, ApprovalRequest, BoxError, CredentialProvider, ErrorKind, ExecutionRecorder,
    InMemoryCredentials, JsonObject, Progress, RecordedOutcome, Runtime, Secret, StdRuntime, Tool,
    ToolCall, ToolContext, ToolError, ToolEvent, ToolExecutor, ToolOutput, ToolRegistry, ToolSpec,
    ToolStatus, block_on,
};
use serde_json::json;

/// A guard against a hang: far beyond any deadline in these tests.
const HANG: Duration = Duration::from_secs(30);

fn object(value: serde_json::Value) -> JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits `duration` on the executor-independent timer thread, without blocking the task.
async fn nap(duration: Duration) {
    StdRuntime.sleep_until(Instant::now() + duration).await;
}

/// Events, as observed, in order: (name, call id, error kind or discarded success).
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<(String, String, String)>>>);

impl Log {
    fn observer(&self) -> impl Fn(&ToolEvent<'_>) + Send + Sync + 'static {
        let log = self.clone();
        move |event: &ToolEvent<'_>| {
            let detail = match event {
                ToolEvent::Failed { error, .. } => error.kind().to_string(),
                ToolEvent::Discarded { succeeded, .. } => format!("succeeded={succeeded}"),
                ToolEvent::Progress { progress, .. } => format!(
                    "{}/{:?} {}",
                    progress.progress(),
                    progress.total(),
                    progress.message().unwrap_or("")
                ),
                _ => String::new(),
            };
            lock(&log.0).push((event.name().to_owned(), event.call_id().to_owned(), detail));
        }
    }

    fn names(&self) -> Vec<String> {
        lock(&self.0).iter().map(|(n, _, _)| n.clone()).collect()
    }

    fn all(&self) -> Vec<(String, String, String)> {
        lock(&self.0).clone()
    }

    /// Waits until an event called `name` has been seen (from another thread).
    fn wait_for(&self, name: &str) {
        let start = Instant::now();
        while !self.names().iter().any(|n| n == name) {
            assert!(
                start.elapsed() < HANG,
                "no `{name}` event: {:?}",
                self.all()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

mod approval;
mod concurrency;
mod progress;
mod retries;
mod timeouts;
