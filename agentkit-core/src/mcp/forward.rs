//! What a remote MCP server reports while [`McpTool`](super::McpTool) calls run: its
//! `notifications/progress` and `notifications/message`, routed to the calls they concern, whose
//! [`ToolContext`] hands them on to the executor's observers (and, when the tool is served
//! again over MCP, to that client).
//!
//! The routing happens in the transport, as each message is read, rather than in a client
//! handler: rmcp runs each notification's handler on a task of its own, so a handler could see
//! the last progress notification of a call after the call's result, and its order with the
//! others is not kept either. Read off the wire in order, a call's reports are all in its queue
//! by the time its result is handed to the caller.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::RoleClient;
#[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
use rmcp::model::ServerNotification;
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, JsonRpcMessage, ProgressNotificationParam,
    ProgressToken, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::{IntoTransport, Transport};
use serde_json::Value;
use tokio::sync::mpsc;

use super::progress::our_level;
use crate::context::{Progress, ToolContext};
use crate::session::LogLevel;

/// How agentkit's client introduces itself: in every request's `_meta` at 2026-07-28, in the
/// `initialize` handshake before.
pub(super) fn client_config() -> ClientConfig {
    // The version offered in `initialize`, when the server has no `server/discover`: the
    // newest revision that has the handshake (servers, and the conformance suite, that check
    // the version offered refuse one they do not know).
    // The tasks extension (SEP-2663): a call the server runs as a task is waited for, so a
    // tool that needs one can be called.
    ClientConfig::new(
        ClientCapabilities::builder().enable_tasks().build(),
        Implementation::new("agentkit", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

/// How the client starts: `server/discover` at 2026-07-28 (the stateless core: no handshake,
/// each request carrying the protocol version and the client's name and capabilities in its
/// `_meta`, and over HTTP the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and
/// `Mcp-Param-*` headers); with a server that answers it with an error (one of an older
/// revision), the `initialize` handshake at 2025-11-25 on the same connection.
pub(super) fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    }
}

/// A transport that hands the server's progress and log messages to the calls they concern as
/// it reads them, then passes every message on unchanged.
pub(super) struct Routed<T> {
    inner: T,
    routes: Arc<Routes>,
}

/// `transport`, routing to `routes`.
pub(super) fn routed<E, A>(
    transport: impl IntoTransport<RoleClient, E, A>,
    routes: Arc<Routes>,
) -> Routed<impl Transport<RoleClient, Error = E> + 'static>
where
    E: std::error::Error + Send + Sync + 'static,
{
    Routed {
        inner: transport.into_transport(),
        routes,
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Routed<T> {
    type Error = T::Error;

    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        let routes = Arc::clone(&self.routes);
        let received = self.inner.receive();
        async move {
            let message = received.await?;
            if let JsonRpcMessage::Notification(notification) = &message {
                routes.route(&notification.notification);
            }
            Some(message)
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}

/// A report of the remote server about a call.
#[derive(Debug, Clone)]
pub(super) enum Remote {
    Progress(Progress),
    Log(LogLevel, String),
}

impl Remote {
    /// Hands the report to the call's context.
    pub(super) fn forward(self, ctx: &ToolContext<'_>) {
        match self {
            Remote::Progress(progress) => ctx.report_progress(progress),
            Remote::Log(level, text) => ctx.log(level, text),
        }
    }
}

/// The calls running on one connection, by the progress token of their request.
#[derive(Default)]
pub(super) struct Routes {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Each running call: its number, the token of its request once sent, where it reads.
    calls: Vec<(u64, Option<ProgressToken>, mpsc::UnboundedSender<Remote>)>,
    next: u64,
    /// Progress for tokens no call has claimed yet: rmcp picks a request's token as it sends
    /// the request, so the call can only claim it once the request is on its way.
    unclaimed: VecDeque<(ProgressToken, Remote)>,
}

/// How many unclaimed progress notifications are kept (the oldest go first): those of
/// requests that are not calls (rmcp gives every request a token) must not pile up.
const UNCLAIMED: usize = 64;

impl Routes {
    /// Opens a route for a call about to send its request: log messages (which name no
    /// request) reach it from now on, so none the server sends as soon as it reads the
    /// request is lost; its progress reaches it once [`Route::claim`] names its token. Until
    /// the returned guard is dropped.
    pub(super) fn open(self: &Arc<Self>) -> (Route, mpsc::UnboundedReceiver<Remote>) {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut state = self.lock();
        let id = state.next;
        state.next += 1;
        state.calls.push((id, None, sender));
        drop(state);
        let route = Route {
            routes: Arc::clone(self),
            id,
        };
        (route, receiver)
    }

    /// Sends what `notification` reports to the calls it concerns.
    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    fn route(&self, notification: &ServerNotification) {
        match notification {
            ServerNotification::ProgressNotification(notification) => {
                let params = &notification.params;
                self.send(
                    Some(&params.progress_token),
                    Remote::Progress(progress(params)),
                );
            }
            ServerNotification::LoggingMessageNotification(notification) => {
                let params = &notification.params;
                let data = match &params.data {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                let text = match &params.logger {
                    Some(logger) => format!("{logger}: {data}"),
                    None => data,
                };
                self.send(None, Remote::Log(our_level(&params.level), text));
            }
            _ => {}
        }
    }

    /// Sends `report` to the call with `token`; with none, to every call running: MCP's log
    /// messages do not say which request they concern.
    fn send(&self, token: Option<&ProgressToken>, report: Remote) {
        let mut state = self.lock();
        let mut claimed = false;
        for (_, call, sender) in &state.calls {
            if token.is_none_or(|token| call.as_ref() == Some(token)) {
                claimed = true;
                let _ = sender.send(report.clone());
            }
        }
        if let (false, Some(token)) = (claimed, token) {
            if state.unclaimed.len() == UNCLAIMED {
                state.unclaimed.pop_front();
            }
            state.unclaimed.push_back((token.clone(), report));
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Held only to update the lists and to queue without blocking: a panic while it is
        // held leaves them usable.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A call's route; dropping it stops the call's reports.
pub(super) struct Route {
    routes: Arc<Routes>,
    id: u64,
}

impl Route {
    /// Names the token of the call's request, once sent: its progress reaches the call from
    /// now on, with what came before.
    pub(super) fn claim(&self, token: ProgressToken) {
        let mut state = self.routes.lock();
        let mut earlier = Vec::new();
        state.unclaimed.retain(|(unclaimed, report)| {
            let mine = *unclaimed == token;
            if mine {
                earlier.push(report.clone());
            }
            !mine
        });
        if let Some((_, call, sender)) = state.calls.iter_mut().find(|(id, ..)| *id == self.id) {
            for report in earlier {
                let _ = sender.send(report);
            }
            *call = Some(token);
        }
    }
}

impl Drop for Route {
    fn drop(&mut self) {
        self.routes.lock().calls.retain(|(id, ..)| *id != self.id);
    }
}

/// A progress notification as agentkit's report.
fn progress(params: &ProgressNotificationParam) -> Progress {
    let mut progress = Progress::new(params.progress);
    if let Some(total) = params.total {
        progress = progress.with_total(total);
    }
    if let Some(message) = &params.message {
        progress = progress.with_message(message.clone());
    }
    progress
}
