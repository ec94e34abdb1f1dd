//! Blocking tools: run on a thread of the executor's runtime, so that the async task is never
//! stalled and the call's deadline holds; a thread that finishes after its call has ended
//! has its result discarded, and says so.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures_util::future::{Either, select};

use super::contain::{Finished, drop_contained, finished, start_tool};
use super::deadline::Deadline;
use super::dispatch::{CallReporter, ToolExecutor};
use super::lifecycle::{emit_discarded, report};
use crate::block_on::block_on;
use crate::context::{Cancellation, Dependencies, Report, ToolContext};
use crate::credentials::Credentials;
use crate::error::discard;
use crate::events::ToolObserver;
use crate::inputs::Inputs;
use crate::schema::JsonObject;
use crate::session::ClientSession;
use crate::tool::DynTool;

impl ToolExecutor {
    /// Runs a blocking tool on a thread of the runtime, until it returns or the deadline
    /// passes (`None`). The thread gives back the credentials, for scrubbing the result.
    pub(super) async fn run_blocking(
        &self,
        job: BlockingJob,
        deadline: &mut Deadline<'_>,
    ) -> Option<(Finished, bool, Option<Credentials>)> {
        let (reply, returned) = futures_channel::oneshot::channel();
        let task: Box<dyn FnOnce() + Send> = Box::new(move || job.run(reply));
        // A runtime that panics here has not started the task: the reply is dropped with it.
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| self.runtime.spawn_blocking(task))) {
            discard(panic);
        }
        let (returned, late) = if deadline.is_set() {
            match select(returned, &mut *deadline).await {
                Either::Left((returned, _)) => (returned, deadline.is_past()),
                // Dropping the receiver tells the thread that the call has ended.
                Either::Right(_) => return None,
            }
        } else {
            (returned.await, false)
        };
        Some(match returned {
            Ok((finished, credentials)) => (finished, late, Some(credentials)),
            Err(_) => (Finished::NotStarted, late, None),
        })
    }
}

/// A blocking tool's call, owned, to move to the thread that runs it.
pub(super) struct BlockingJob {
    pub(super) tool: Arc<dyn DynTool>,
    pub(super) tool_name: Cow<'static, str>,
    pub(super) call_id: Arc<str>,
    pub(super) inputs: JsonObject,
    pub(super) credentials: Credentials,
    pub(super) dependencies: Arc<Dependencies>,
    pub(super) cancellation: Cancellation,
    pub(super) observers: Arc<Vec<Arc<dyn ToolObserver>>>,
    pub(super) reporter: Option<CallReporter>,
    pub(super) client: Option<Arc<dyn ClientSession>>,
    pub(super) start: Instant,
}

type Reply = futures_channel::oneshot::Sender<(Finished, Credentials)>;

impl BlockingJob {
    fn run(self, reply: Reply) {
        let BlockingJob {
            tool,
            tool_name,
            call_id,
            inputs,
            credentials,
            dependencies,
            cancellation,
            observers,
            reporter,
            client,
            start,
        } = self;
        let cancellation = OnceLock::from(cancellation);
        let sink = |update: Report<'_>| {
            report(&observers, &tool_name, &call_id, update, reporter.as_ref());
        };
        let finished = {
            let ctx = ToolContext::new(
                &call_id,
                &tool_name,
                &credentials,
                &dependencies,
                &cancellation,
            )
            .with_reports(&sink)
            .with_client(client.as_deref());
            let output = match start_tool(&*tool, Inputs::Json(&inputs), &ctx) {
                Ok(run) => block_on(run),
                Err(panic) => Err(panic),
            };
            finished(output, &credentials)
        };
        if let Err((finished, _)) = reply.send((finished, credentials)) {
            // The call ended first (a timeout, or its future was dropped).
            let succeeded = finished.succeeded();
            drop_contained(finished);
            emit_discarded(&observers, &tool_name, &call_id, succeeded, start.elapsed());
        }
    }
}

/// A blocking tool whose thread could not be started.
#[derive(Debug, thiserror::Error)]
#[error("the blocking tool could not be started: no thread was available")]
pub(super) struct NotStarted;
