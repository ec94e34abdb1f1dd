//! What a served call reports while it runs: its progress and log messages become
//! `notifications/progress` and `notifications/message` to the client, in order, before the
//! call's result (over a 2025-11-25 HTTP session, on the call's own response stream: see
//! `request_stream`).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

use rmcp::RoleServer;
#[allow(deprecated)]
// MCP's logging, which the 2026-07-28 revision deprecates, is still served.
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::model::{Notification, ProgressNotificationParam, ProgressToken, ServerNotification};
use rmcp::service::Peer;
use serde_json::Value;
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

use super::request_stream::RequestStream;
use crate::context::{Progress, Report};
use crate::executor::CallReporter;
use crate::session::{LogLevel, LogMessage};

/// The least level of log message a session's client wants (`logging/setLevel`), shared by
/// the session's calls. Until the client sets one, messages of level `info` and above are
/// sent.
#[derive(Debug)]
pub(super) struct LogThreshold(AtomicU8);

impl Default for LogThreshold {
    fn default() -> Self {
        LogThreshold(AtomicU8::new(LogLevel::Info as u8))
    }
}

impl LogThreshold {
    /// The threshold a request sets for itself (MCP 2026-07-28's `_meta` log level): none
    /// lets no message through.
    pub(super) fn of_request(level: Option<LogLevel>) -> Self {
        LogThreshold(AtomicU8::new(level.map_or(u8::MAX, |level| level as u8)))
    }

    pub(super) fn set(&self, level: LogLevel) {
        self.0.store(level as u8, Ordering::Relaxed);
    }

    fn admits(&self, level: LogLevel) -> bool {
        level as u8 >= self.0.load(Ordering::Relaxed)
    }
}

/// Sends the reports of one call to its client, in the order the tool made them: progress
/// for the token the request carried (`_meta.progressToken`, when it did), and log messages
/// at or above the session's threshold.
///
/// The tool reports synchronously and must never wait on the network, so a report is queued
/// (unbounded: a report is small, and dropping some would break "every report, in order"),
/// and one task per call drains the queue into the connection. [`finish`](Self::finish) waits
/// for the queue to drain, so that every notification precedes the call's result on the wire:
/// a client stops listening for a token once the result arrives.
///
/// The queue and its task are made at the call's first report, not before: most calls report
/// nothing, and a task spawned, polled and joined per call was a tenth of a served call's
/// cost (measured by `benches/mcp-serving`).
pub(super) struct CallNotifier {
    /// Empty until the first report; then the queue to the task, or `None` once the call has
    /// finished without reporting (later reports are discarded).
    queue: Arc<OnceLock<Option<mpsc::UnboundedSender<Queued>>>>,
}

enum Queued {
    Progress(ProgressNotificationParam),
    #[allow(deprecated)]
    Log(LoggingMessageNotificationParam),
    Finish(oneshot::Sender<()>),
}

impl CallNotifier {
    /// The notifier of a call whose reports go to `peer`, on the call's own response stream
    /// when it has one (`stream`), and the reporter to hand the executor. Must be called on
    /// the tokio runtime the reports are to be sent from.
    pub(super) fn start(
        peer: Peer<RoleServer>,
        stream: Option<RequestStream>,
        token: Option<ProgressToken>,
        threshold: Arc<LogThreshold>,
    ) -> (Self, CallReporter) {
        let queue = Arc::new(OnceLock::new());
        let shared = Arc::clone(&queue);
        // A blocking tool reports from a thread of its own: the task goes on this runtime.
        let runtime = Handle::current();
        let reporter: CallReporter = Arc::new(move |report: Report<'_>| {
            let queued = match report {
                Report::Progress(progress) => match &token {
                    Some(token) => Queued::Progress(progress_param(token.clone(), progress)),
                    None => return,
                },
                Report::Log(message) if threshold.admits(message.level()) => {
                    Queued::Log(log_param(message))
                }
                Report::Log(_) => return,
            };
            let sender = shared.get_or_init(|| {
                let outlet = match &stream {
                    Some(stream) => Outlet::Stream(stream.clone()),
                    None => Outlet::Peer(peer.clone()),
                };
                Some(drain(&runtime, outlet))
            });
            if let Some(sender) = sender {
                let _ = sender.send(queued);
            }
        });
        (CallNotifier { queue }, reporter)
    }

    /// Waits until every report made so far has been handed to the connection, and stops
    /// the task. Reports made after this (a blocking tool still running past its deadline)
    /// are discarded, not sent after the result.
    pub(super) async fn finish(self) {
        // Nothing reported: no task to wait for, and none will start.
        if self.queue.set(None).is_ok() {
            return;
        }
        if let Some(Some(queue)) = self.queue.get() {
            let (done, sent) = oneshot::channel();
            if queue.send(Queued::Finish(done)).is_ok() {
                let _ = sent.await;
            }
        }
    }
}

/// Where a call's reports go.
enum Outlet {
    /// The session, which routes them (progress to the request's stream, by its token).
    Peer(Peer<RoleServer>),
    /// The call's own response stream.
    Stream(RequestStream),
}

impl Outlet {
    async fn send(&self, notification: ServerNotification) {
        // A client that went away does not hear the rest; the call's result goes nowhere
        // either.
        match self {
            Outlet::Peer(peer) => {
                let _ = peer.send_notification(notification).await;
            }
            Outlet::Stream(stream) => {
                stream.send(notification);
            }
        }
    }
}

/// Starts the task that sends a call's queued reports to `outlet`, and returns its queue.
fn drain(runtime: &Handle, outlet: Outlet) -> mpsc::UnboundedSender<Queued> {
    let (queue, mut queued) = mpsc::unbounded_channel();
    runtime.spawn(async move {
        while let Some(item) = queued.recv().await {
            match item {
                Queued::Progress(param) => {
                    let progress =
                        ServerNotification::ProgressNotification(Notification::new(param));
                    outlet.send(progress).await;
                }
                Queued::Log(param) => {
                    #[allow(deprecated)]
                    let log =
                        ServerNotification::LoggingMessageNotification(Notification::new(param));
                    outlet.send(log).await;
                }
                Queued::Finish(done) => {
                    let _ = done.send(());
                    break;
                }
            }
        }
        // The queue is dropped here: reports made after the result are discarded.
    });
    queue
}

/// A report as MCP's `notifications/progress` carries it.
fn progress_param(token: ProgressToken, progress: &Progress) -> ProgressNotificationParam {
    let mut param = ProgressNotificationParam::new(token, progress.progress());
    if let Some(total) = progress.total() {
        param = param.with_total(total);
    }
    if let Some(message) = progress.message() {
        param = param.with_message(message);
    }
    param
}

/// A log message as MCP's `notifications/message` carries it.
#[allow(deprecated)]
fn log_param(message: &LogMessage) -> LoggingMessageNotificationParam {
    LoggingMessageNotificationParam::new(
        mcp_level(message.level()),
        Value::String(message.text().to_owned()),
    )
}

/// MCP's name of a level.
#[allow(deprecated)]
pub(super) fn mcp_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// Our level for MCP's.
#[allow(deprecated)]
pub(super) fn our_level(level: &LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}
