//! One `tools/call` served: its arguments as the client wrote them, its principal and what it
//! may call, its deadline, its reports to the client, and, with a deferred store, the
//! deferring and resuming of calls that need approval.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InputResponses, MetaObject,
    ProtocolVersion,
};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::convert::into_call_tool_result;
use super::deferred::{DEFERRED_META, Lookup, RESUME_META, new_id};
use super::inflight::CallsInFlight;
use super::input::{InputSession, Retry, Round};
use super::peer::PeerSession;
use super::progress::{CallNotifier, LogThreshold, our_level};
use super::raw::RawArguments;
use super::request_stream::RequestStream;
use super::server::McpServer;
use super::tasks::TaskClient;
use crate::JsonObject;
use crate::approval::Approval;
use crate::call::{ToolArguments, ToolCall};
use crate::error::{Error, ErrorKind, UnknownToolError};
use crate::executor::CallReporter;
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::session::ClientSession;
use crate::tool::ToolSpec;

impl McpServer {
    /// Serves the call `request`: plainly, or, when `then_task` (see
    /// [`with_input_before_task`](Self::with_input_before_task)), in rounds that end in a
    /// task for a client of 2026-07-28.
    ///
    /// Not an `async fn`, whose future would keep the request and its context twice (as
    /// arguments, and as the body's own); the rare paths (a resumed call, input rounds, a
    /// task) are boxed, so that the future of a plain call is the size of a plain call.
    // An async block, not an `async fn`: see the doc above.
    #[allow(clippy::manual_async_fn)]
    pub(super) fn call(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
        then_task: bool,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + '_ {
        async move {
            // A client of 2026-07-28 is not sent requests while the call runs: the call answers
            // with what the tool asks, and the client calls again with the answers.
            let asks_by_rounds = context
                .protocol_version()
                .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
            let rounds = asks_by_rounds.then(|| Rounds {
                arguments: request.arguments.clone().unwrap_or_default(),
                responses: request.input_responses.take(),
                state: request.request_state.take(),
            });
            let arguments = self.arguments_as_written(&context, request.arguments);
            let parts = context.extensions.get::<http::request::Parts>();
            let principal = parts.and_then(|parts| parts.extensions.get::<Principal>().cloned());
            if !self.may_use(principal.as_ref(), &request.name) {
                // A tool the principal may not call is one it cannot know of.
                return Err(unknown_tool(&request.name));
            }
            let call = ToolCall::new(context.id.to_string(), request.name, arguments);
            let resume = context
                .meta
                .get(RESUME_META)
                .and_then(Value::as_str)
                .map(str::to_owned);
            let (result, deferred_id) = match (&self.deferred, resume) {
                (Some(_), Some(id)) => {
                    Box::pin(self.resume(&call, &id, principal.as_ref())).await?
                }
                _ => {
                    if then_task && let Some(rounds) = &rounds {
                        // The call moves into its task: the round borrows a copy of its name.
                        let name = call.name().to_owned();
                        let retry = rounds.retry(&name);
                        return Box::pin(self.rounds_then_task(call, &context, principal, retry))
                            .await;
                    }
                    let round = match &rounds {
                        None => {
                            Round::Done(self.run_to_end(&call, &context, principal.clone()).await)
                        }
                        Some(rounds) => {
                            let retry = rounds.retry(call.name());
                            Box::pin(self.run_round(&call, &context, principal.clone(), retry))
                                .await?
                        }
                    };
                    match round {
                        Round::Done(result) => (result, None),
                        Round::InputRequired(input) => return Ok(input.into()),
                        // A round driven to its end or its questions does not become a task.
                        Round::Working => {
                            return Err(ErrorData::internal_error(
                                "the call stopped without an answer",
                                None,
                            ));
                        }
                    }
                }
            };
            if let Some(error) = result
                .error()
                .filter(|e| e.kind() == ErrorKind::UnknownTool)
            {
                // The executor's text: bounded and escaped however long or odd the name.
                return Err(ErrorData::invalid_params(error.to_model_message(), None));
            }
            let deferred_id = match (deferred_id, &self.deferred, result.deferred()) {
                (Some(id), _, _) => Some(id),
                (None, Some(store), Some(deferred)) => {
                    let id = new_id();
                    let subject = principal.as_ref().map(Principal::subject);
                    store.keep(&id, deferred, subject).map_err(|_| {
                        ErrorData::internal_error("the deferred call could not be kept", None)
                    })?;
                    Some(id)
                }
                _ => None,
            };
            let structured = self
                .executor
                .registry()
                .lookup(call.name())
                .is_some_and(ToolSpec::has_output_schema);
            let mut answer = into_call_tool_result(result, structured);
            if let Some(id) = deferred_id {
                with_deferred_id(&mut answer, id);
            }
            Ok(answer.into())
        }
    }

    /// The arguments of the call of `context` as the client wrote them, where the transport
    /// kept them (see `raw`): a key given twice is then an input error, as from a model; else
    /// `parsed`, as rmcp read them.
    pub(super) fn arguments_as_written(
        &self,
        context: &RequestContext<RoleServer>,
        parsed: Option<JsonObject>,
    ) -> ToolArguments {
        let written = context
            .extensions
            .get::<http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<RawArguments>().cloned())
            .or_else(|| self.raw.as_ref()?.take(&context.id));
        match written {
            Some(RawArguments(text)) => ToolArguments::Text(text.as_ref().into()),
            None => ToolArguments::Value(Value::Object(parsed.unwrap_or_default())),
        }
    }

    /// When a call served for `context` ends: the client cancels it, the timeout passes, or
    /// the server shuts down past its grace period.
    pub(super) fn deadline(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> impl Future<Output = ()> + Send + use<> {
        let ended = Ended {
            cancelled: context.ct.clone(),
            shutdown: self.calls.as_ref().map(|calls| calls.cancel.clone()),
            waiting: None,
        };
        let timeout = self.timeout;
        async move {
            match timeout {
                Some(timeout) => {
                    let _ = tokio::time::timeout(timeout, ended).await;
                }
                None => ended.await,
            }
        }
    }

    /// Runs `call` through the executor to its end, for the client of `context`, which the
    /// tool asks by requests of its own (2025-11-25), or through its task (see `tasks`).
    ///
    /// Not an `async fn`, whose future would keep `principal` twice.
    // An async block, not an `async fn`: see the doc above.
    #[allow(clippy::manual_async_fn)]
    pub(super) fn run_to_end<'a>(
        &'a self,
        call: &'a ToolCall,
        context: &'a RequestContext<RoleServer>,
        principal: Option<Principal>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        async move {
            let _in_flight = self.calls.as_ref().map(CallsInFlight::enter);
            let deadline = self.deadline(context);
            // Progress goes to the client only when it asked, with a token for the call; log
            // messages at or above the level it set.
            let token = context.meta.get_progress_token();
            let stream = context.extensions.get::<RequestStream>().cloned();
            let (notifier, reporter) = CallNotifier::start(
                context.peer.clone(),
                stream,
                token,
                Arc::clone(&self.log_threshold),
            );
            // A task's client is asked through the task (see `tasks::input`).
            let client: Arc<dyn ClientSession> = match context.extensions.get::<TaskClient>() {
                Some(task) => task.session(principal),
                None => Arc::new(PeerSession::new(context.peer.clone(), principal)),
            };
            let result = self
                .executor
                .dispatch_served(call, deadline, Some(reporter), Some(client))
                .await;
            notifier.finish().await;
            result
        }
    }

    /// Runs `call` through the executor, for a client of 2026-07-28 (its `retry`), until it
    /// asks what the client has not answered.
    async fn run_round(
        &self,
        call: &ToolCall,
        context: &RequestContext<RoleServer>,
        principal: Option<Principal>,
        mut retry: Retry<'_>,
    ) -> Result<Round, ErrorData> {
        let _in_flight = self.calls.as_ref().map(CallsInFlight::enter);
        let deadline = self.deadline(context);
        let (notifier, reporter, session) = self.open_round(context, &mut retry, principal)?;
        let client: Arc<dyn ClientSession> = session.clone();
        let running = self
            .executor
            .dispatch_served(call, deadline, Some(reporter), Some(client));
        let mut running = Box::pin(running);
        let round = session
            .drive(running.as_mut(), &self.input_state, &retry, false)
            .await;
        drop(running);
        notifier.finish().await;
        round
    }

    /// What a round of `retry` for the client of `context` reports through, and the
    /// session that answers its tool's questions; refused when its state is not valid.
    pub(super) fn open_round(
        &self,
        context: &RequestContext<RoleServer>,
        retry: &mut Retry<'_>,
        principal: Option<Principal>,
    ) -> Result<(CallNotifier, CallReporter, Arc<InputSession>), ErrorData> {
        let token = context.meta.get_progress_token();
        // A client of 2026-07-28 sets the level in each request, and gets no message
        // without.
        let threshold = Arc::new(LogThreshold::of_request(
            context.meta.log_level().map(|level| our_level(&level)),
        ));
        // What the request declares (its `_meta`), else what the session's client did (a
        // transport that skipped the handshake's per-request metadata).
        let declared = context.client_capabilities().or_else(|| {
            context
                .peer
                .peer_info()
                .map(|info| info.capabilities.clone())
        });
        let session = Arc::new(InputSession::open(
            &self.input_state,
            retry,
            declared.as_ref(),
            principal,
        )?);
        let stream = context.extensions.get::<RequestStream>().cloned();
        let (notifier, reporter) =
            CallNotifier::start(context.peer.clone(), stream, token, threshold);
        Ok((notifier, reporter, session))
    }

    /// Resumes the deferred call `id` for `call`'s client: runs or ends it by its decision, or
    /// answers again that it waits (with its id).
    async fn resume(
        &self,
        call: &ToolCall,
        id: &str,
        principal: Option<&Principal>,
    ) -> Result<(ToolResult, Option<String>), ErrorData> {
        let Some(store) = &self.deferred else {
            return Err(ErrorData::invalid_params(
                "no deferred call with that id",
                None,
            ));
        };
        let subject = principal.map(Principal::subject);
        let lookup = store
            .take_decided(id, call.name(), subject)
            .map_err(|_| ErrorData::invalid_params("no deferred call with that id", None))?;
        match lookup {
            Lookup::Decided {
                call: deferred,
                decision,
            } => {
                let _in_flight = self.calls.as_ref().map(CallsInFlight::enter);
                Ok((self.executor.resume(deferred, decision).await, None))
            }
            Lookup::Pending(deferred) => {
                // The same answer as when it was deferred: it still waits, under its id.
                let waiting = self.executor.resume(deferred, Approval::Defer).await;
                Ok((waiting, Some(id.to_owned())))
            }
            _ => Err(ErrorData::invalid_params(
                "no deferred call with that id",
                None,
            )),
        }
    }
}

/// A served call's end before its own: its client cancels it, or the server shuts down past
/// its grace period.
///
/// The executor checks a deadline without waiting (polling it with a waker that wakes
/// nothing) before and after the tool runs; a tool that finishes at once never waits on it.
/// Such a poll reads the tokens' flags only: registering with both tokens and leaving them
/// again, at every such poll, took 2 000 instructions a call (measured by
/// `benches/mcp-serving`). The first poll that can wake registers.
struct Ended {
    cancelled: CancellationToken,
    shutdown: Option<CancellationToken>,
    /// Waits on the tokens, from the first poll with a waker that wakes.
    waiting: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
}

impl Future for Ended {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = &mut *self;
        if this.cancelled.is_cancelled()
            || this
                .shutdown
                .as_ref()
                .is_some_and(CancellationToken::is_cancelled)
        {
            return Poll::Ready(());
        }
        // Nothing is woken through a noop waker: registering it would be for nothing, and
        // would replace the registration of the poll that can wake. The executor's check
        // (`Deadline::is_past`) polls with this very static waker; a fresh `noop_waker()` (as
        // `now_or_never` makes) may carry another copy of its vtable, which `will_wake` would
        // not take for the same.
        if cx.waker().will_wake(futures_util::task::noop_waker_ref()) {
            return Poll::Pending;
        }
        let waiting = this.waiting.get_or_insert_with(|| {
            let cancelled = this.cancelled.clone();
            let shutdown = this.shutdown.clone();
            Box::pin(async move {
                match shutdown {
                    Some(shutdown) => tokio::select! {
                        () = cancelled.cancelled() => {}
                        () = shutdown.cancelled() => {}
                    },
                    None => cancelled.cancelled().await,
                }
            })
        });
        waiting.as_mut().poll(cx)
    }
}

/// What a call of a 2026-07-28 client carries for its input rounds.
struct Rounds {
    arguments: JsonObject,
    responses: Option<InputResponses>,
    state: Option<String>,
}

impl Rounds {
    /// The retry of the tool `tool` these rounds make.
    fn retry<'a>(&'a self, tool: &'a str) -> Retry<'a> {
        Retry {
            tool,
            arguments: &self.arguments,
            responses: self.responses.clone(),
            state: self.state.clone(),
        }
    }
}

/// The protocol error for a tool `name` the client may not know of.
fn unknown_tool(name: &str) -> ErrorData {
    let unknown = UnknownToolError::new(name, Vec::new());
    ErrorData::invalid_params(Error::from(unknown).to_model_message(), None)
}

/// Puts the id of a deferred call in the result's `_meta`, for the client to resume it by.
fn with_deferred_id(answer: &mut CallToolResult, id: String) {
    let mut meta = answer.meta.take().map_or_else(Map::new, |meta| meta.0);
    meta.insert(DEFERRED_META.to_owned(), Value::String(id));
    answer.meta = Some(MetaObject(meta));
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt as _;

    fn ended(cancelled: &CancellationToken, shutdown: &CancellationToken) -> Ended {
        Ended {
            cancelled: cancelled.clone(),
            shutdown: Some(shutdown.clone()),
            waiting: None,
        }
    }

    /// A check without waiting sees either token cancelled, and a call waiting on its end
    /// is woken by either, checked first or not.
    #[tokio::test]
    async fn a_calls_end_is_seen_by_a_check_and_wakes_a_wait() {
        for by_shutdown in [false, true] {
            let (cancelled, shutdown) = (CancellationToken::new(), CancellationToken::new());
            let mut end = ended(&cancelled, &shutdown);
            // As the executor checks it (`Deadline::is_past`): with the static no-op waker.
            let mut check = Context::from_waker(futures_util::task::noop_waker_ref());
            assert!(Pin::new(&mut end).poll(&mut check).is_pending());
            // A check without waiting registers nothing with the tokens.
            assert!(end.waiting.is_none());
            let waiting = tokio::spawn(end);
            tokio::task::yield_now().await;
            assert!(!waiting.is_finished());
            if by_shutdown {
                shutdown.cancel();
            } else {
                cancelled.cancel();
            }
            waiting.await.unwrap();

            let (cancelled, shutdown) = (CancellationToken::new(), CancellationToken::new());
            let mut end = ended(&cancelled, &shutdown);
            if by_shutdown {
                shutdown.cancel();
            } else {
                cancelled.cancel();
            }
            assert!((&mut end).now_or_never().is_some());
        }
    }
}
