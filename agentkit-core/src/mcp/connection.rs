//! [`Connection`]: an open connection to a server, and how a tool call goes over it.

use std::any::Any;
use std::sync::Arc;

use futures_util::future::{Either, select};
use rmcp::RoleClient;
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CancelledNotificationParam,
    ClientRequest, DEFAULT_MRTR_MAX_ROUNDS, RequestId, ServerResult,
};
use rmcp::service::{Peer, PeerRequestOptions, RequestHandle, ServiceError};
use tokio::sync::mpsc;

use super::elicit::{Answers, fulfill};
use super::forward::{Remote, Route, Routes};
use super::legacy_tasks::LegacyTasks;
use crate::context::ToolContext;
use crate::error::BoxError;

/// An open connection to a server.
pub(super) struct Connection {
    pub(super) peer: Peer<RoleClient>,
    /// Where the server's progress and log messages go; `None` when the connection's handler
    /// is the caller's ([`McpClient::from_connection`]).
    pub(super) routes: Option<Arc<Routes>>,
    /// How the application answers what the server asks in an `input_required` result or a
    /// task waiting for input: an elicitation (declined without a handler), a sampling request
    /// (the call fails without a handler).
    pub(super) answers: Answers,
    /// What a 2025-11-25 server said of tasks, read off its stream (over stdio and streamable
    /// HTTP): see `legacy_tasks`.
    pub(super) legacy: Option<Arc<LegacyTasks>>,
    /// The running service (an rmcp `RunningService`): dropping it closes the connection.
    pub(super) _service: Box<dyn Any + Send + Sync>,
}

impl Connection {
    /// Sends `tools/call` and waits for its result. A result that asks for input first
    /// (`input_required`, SEP-2322) is answered (see [`fulfill`]) and the call sent again, as
    /// a new request with the answers and the server's `requestState` as it was, up to
    /// [`DEFAULT_MRTR_MAX_ROUNDS`] times. A call the server runs as a task is waited for until
    /// the task ends (see `task_call`).
    pub(super) async fn call_tool(
        &self,
        mut params: CallToolRequestParams,
        ctx: &ToolContext<'_>,
    ) -> Result<CallToolResult, BoxError> {
        if self.routes.is_some() {
            // A server of 2026-07-28 sends a call's log messages only at the level its request
            // sets: ask for what a 2025-11-25 server sends unasked (info and above), for the
            // observers the reports go to.
            let meta = params.meta.get_or_insert_with(Default::default);
            if meta.log_level().is_none() {
                #[allow(deprecated)] // MCP's logging, which 2026-07-28 deprecates.
                meta.set_log_level(rmcp::model::LoggingLevel::Info);
            }
        }
        for _ in 0..DEFAULT_MRTR_MAX_ROUNDS {
            match self.call_once(params.clone(), ctx).await? {
                ServerResult::CallToolResult(result) => return Ok(result),
                // A result with nothing in it.
                ServerResult::EmptyResult(_) => return Ok(CallToolResult::default()),
                // The server runs the call as a task (SEP-2663): its result comes when the
                // task ends.
                ServerResult::CreateTaskResult(created) => {
                    return self.await_task(created.task).await;
                }
                ServerResult::InputRequiredResult(asked) => {
                    let requests = asked.input_requests.unwrap_or_default();
                    if requests.is_empty() && asked.request_state.is_none() {
                        return Err(ServiceError::UnexpectedResponse.into());
                    }
                    let answers = fulfill(&self.answers, requests).await?;
                    params.input_responses = (!answers.is_empty()).then_some(answers);
                    params.request_state = asked.request_state;
                }
                _ => return Err(ServiceError::UnexpectedResponse.into()),
            }
        }
        Err(ServiceError::InputRequiredRoundsExceeded {
            max_rounds: DEFAULT_MRTR_MAX_ROUNDS,
        }
        .into())
    }

    /// Sends one `tools/call` and waits for its result, handing what the server reports about
    /// the call to `ctx` meanwhile. (rmcp's `call_tool_once`, plus the reports: they need the
    /// request's progress token, which rmcp picks when it sends the request.)
    async fn call_once(
        &self,
        params: CallToolRequestParams,
        ctx: &ToolContext<'_>,
    ) -> Result<ServerResult, ServiceError> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let (route, handle) = self.send_routed(request).await?;
        let mut abandoned = Abandoned::new(&self.peer, &handle);
        let result = forwarding(route, ctx, handle.await_response()).await;
        abandoned.id = None;
        result
    }

    /// Sends `request` with a route open for what the server reports on it, its progress
    /// token claimed. The route opens before the request goes: a log message the server
    /// sends at once is then the call's, not lost while the request is still being sent.
    pub(super) async fn send_routed(
        &self,
        request: ClientRequest,
    ) -> Result<
        (
            Option<(Route, mpsc::UnboundedReceiver<Remote>)>,
            RequestHandle<RoleClient>,
        ),
        ServiceError,
    > {
        let route = self.routes.as_ref().map(Routes::open);
        let handle = self
            .peer
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await?;
        if let Some((route, _)) = &route {
            route.claim(handle.progress_token.clone());
        }
        Ok((route, handle))
    }
}

/// Awaits `response`, handing what the server reports on `route` (when there is one) to
/// `ctx` meanwhile, and all it reported before `response` came, after.
pub(super) async fn forwarding<T>(
    route: Option<(Route, mpsc::UnboundedReceiver<Remote>)>,
    ctx: &ToolContext<'_>,
    response: impl Future<Output = T>,
) -> T {
    let mut response = std::pin::pin!(response);
    let Some((route, mut reports)) = route else {
        return response.await;
    };
    let result = loop {
        match select(std::pin::pin!(reports.recv()), response.as_mut()).await {
            Either::Left((Some(report), _)) => report.forward(ctx),
            Either::Left((None, _)) => break response.await,
            Either::Right((result, _)) => break result,
        }
    };
    // The transport routed what the server sent before the result as it read it (see
    // `forward`): all of it is queued by now.
    drop(route);
    while let Ok(report) = reports.try_recv() {
        report.forward(ctx);
    }
    result
}

/// Tells the server that the caller gave up on request `id`, when dropped before it is
/// cleared: a call dropped before its answer (the executor's timeout, a cancelled turn) is
/// cancelled on the server too, as rmcp's `call_tool` does.
pub(super) struct Abandoned<'a> {
    peer: &'a Peer<RoleClient>,
    pub(super) id: Option<RequestId>,
}

impl<'a> Abandoned<'a> {
    /// For `handle`'s request, until its `id` is cleared.
    pub(super) fn new(peer: &'a Peer<RoleClient>, handle: &RequestHandle<RoleClient>) -> Self {
        Abandoned {
            peer,
            id: Some(handle.id.clone()),
        }
    }
}

impl Drop for Abandoned<'_> {
    fn drop(&mut self) {
        let (Some(id), Ok(runtime)) = (self.id.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let peer = self.peer.clone();
        let reason = Some("request abandoned by the caller".to_owned());
        runtime.spawn(async move {
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                .await;
        });
    }
}
