//! Progress over MCP: a served call's reports become `notifications/progress` to the client
//! that asked for them.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use tokio::sync::{mpsc, oneshot};

use crate::context::Progress;
use crate::executor::ProgressReporter;

/// Sends the progress reports of one call to the client that asked for them (its request
/// carried `_meta.progressToken`), in the order the tool made them.
///
/// The tool reports synchronously and must never wait on the network, so a report is queued
/// (unbounded: a report is small, and dropping some would break "every report, in order"),
/// and one task per call drains the queue into the connection. [`finish`](Self::finish) waits
/// for the queue to drain, so that every notification precedes the call's result on the wire:
/// a client stops listening for a token once the result arrives.
pub(super) struct ProgressNotifier {
    queue: mpsc::UnboundedSender<Queued>,
}

enum Queued {
    Report(ProgressNotificationParam),
    Finish(oneshot::Sender<()>),
}

impl ProgressNotifier {
    /// Starts the task sending notifications for `token` to `peer` (on the current tokio
    /// runtime), and returns the notifier with the reporter to hand the executor.
    pub(super) fn start(peer: Peer<RoleServer>, token: ProgressToken) -> (Self, ProgressReporter) {
        let (queue, mut queued) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(item) = queued.recv().await {
                match item {
                    // A client that went away does not hear the rest; the call's result
                    // goes nowhere either.
                    Queued::Report(param) => {
                        let _ = peer.notify_progress(param).await;
                    }
                    Queued::Finish(done) => {
                        let _ = done.send(());
                        break;
                    }
                }
            }
            // The queue is dropped here: reports made after the result (a blocking tool
            // still running past its deadline) are discarded, not sent after the result.
        });
        let sender = queue.clone();
        let reporter: ProgressReporter = Arc::new(move |progress: &Progress| {
            let _ = sender.send(Queued::Report(notification(token.clone(), progress)));
        });
        (ProgressNotifier { queue }, reporter)
    }

    /// Waits until every report made so far has been handed to the connection, and stops
    /// the task.
    pub(super) async fn finish(self) {
        let (done, sent) = oneshot::channel();
        if self.queue.send(Queued::Finish(done)).is_ok() {
            let _ = sent.await;
        }
    }
}

/// A report as MCP's `notifications/progress` carries it.
fn notification(token: ProgressToken, progress: &Progress) -> ProgressNotificationParam {
    let mut param = ProgressNotificationParam::new(token, progress.progress());
    if let Some(total) = progress.total() {
        param = param.with_total(total);
    }
    if let Some(message) = progress.message() {
        param = param.with_message(message);
    }
    param
}
