//! A call that gathers its input in input-required rounds (SEP-2322) and becomes a task
//! (SEP-2663) on its last round: see
//! [`McpServer::with_input_before_task`](crate::mcp::McpServer::with_input_before_task).
//!
//! Each round runs the tool from its start with an [`InputSession`] as its client, as for a
//! plain call of 2026-07-28, but is driven to become a task: once the tool waits on anything
//! but a question left unanswered, the round stops, a task is made for the call, and the call
//! (the same future, its answers in hand) goes on in the background, its deadline now the
//! task's. The session is handed the task's client, so that what the tool asks from then on
//! waits in the task for `tasks/update`. A tool that ends in the round completes its task at
//! once.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, CreateTaskResult};
use rmcp::service::RequestContext;
use tokio_util::sync::CancellationToken;

use super::TaskClient;
use crate::call::ToolCall;
use crate::mcp::inflight::CallsInFlight;
use crate::mcp::input::{Retry, Round};
use crate::mcp::server::McpServer;
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::session::ClientSession;

impl McpServer {
    /// Serves a round of `call` for the client of `context`: its questions (an
    /// `InputRequiredResult`), else its task.
    pub(in crate::mcp) async fn rounds_then_task(
        &self,
        call: ToolCall,
        context: &RequestContext<RoleServer>,
        principal: Option<Principal>,
        mut retry: Retry<'_>,
    ) -> Result<CallToolResponse, ErrorData> {
        let in_flight = self.calls.as_ref().map(CallsInFlight::enter);
        // The call's own end: the request's cancellation while the call is in its rounds,
        // the task's (`tasks/cancel`) once it is one; the timeout and shutdown either way.
        let stop = CancellationToken::new();
        let mut own = context.clone();
        own.ct = stop.clone();
        let deadline = self.deadline(&own);
        let (notifier, reporter, session) =
            self.open_round(context, &mut retry, principal.clone())?;
        let client: Arc<dyn ClientSession> = session.clone();
        let name = call.name().to_owned();
        let server = self.clone();
        let running = async move {
            server
                .executor
                .dispatch_served(&call, deadline, Some(reporter), Some(client))
                .await
        };
        let mut running: Pin<Box<dyn Future<Output = ToolResult> + Send>> = Box::pin(running);
        let cancelled = async {
            context.ct.cancelled().await;
            stop.cancel();
            // The round goes on to the call's cancelled end.
            std::future::pending().await
        };
        let round = tokio::select! {
            round = session.drive(running.as_mut(), &self.input_state, &retry, true) => round,
            round = cancelled => round,
        };
        let owner = principal.as_ref().map(|p| p.subject().to_owned());
        match round {
            Ok(Round::Working) => {}
            ended => {
                drop(running);
                notifier.finish().await;
                return match ended? {
                    Round::InputRequired(input) => Ok(input.into()),
                    Round::Done(result) => {
                        // The call ended in its last round: its task is complete at once.
                        let (mut task, _) = self.tasks.create_with(owner.clone(), stop)?;
                        let payload = self.payload(&name, result, false, owner.as_deref());
                        task.status = payload.status();
                        self.tasks.end(&task.task_id, payload);
                        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
                    }
                    // Matched above.
                    Round::Working => Err(ErrorData::internal_error(
                        "the call stopped without an answer",
                        None,
                    )),
                };
            }
        }
        let (task, _) = match self.tasks.create_with(owner.clone(), stop.clone()) {
            Ok(made) => made,
            Err(full) => {
                // No room for the task: the call ends here, cancelled, and so do the
                // questions it asked since.
                stop.cancel();
                session.stop();
                drop(running);
                notifier.finish().await;
                return Err(full);
            }
        };
        let id = task.task_id.clone();
        let asks = TaskClient::new(Arc::clone(&self.tasks), id.clone(), context);
        session.hand_to(asks.session(principal));
        let server = self.clone();
        tokio::spawn(async move {
            let result = running.await;
            notifier.finish().await;
            drop(in_flight);
            let payload = server.payload(&name, result, stop.is_cancelled(), owner.as_deref());
            server.tasks.end(&id, payload);
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }
}
