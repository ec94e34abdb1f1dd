//! One `tools/call` served: its arguments as the client wrote them, its principal and what it
//! may call, its deadline, its reports to the client, and, with a deferred store, the
//! deferring and resuming of calls that need approval.

use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, MetaObject};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use super::convert::into_call_tool_result;
use super::deferred::{DEFERRED_META, Lookup, RESUME_META, new_id};
use super::inflight::CallsInFlight;
use super::peer::PeerSession;
use super::progress::CallNotifier;
use super::raw::RawArguments;
use super::server::McpServer;
use super::tasks::TaskClient;
use crate::approval::Approval;
use crate::call::{ToolArguments, ToolCall};
use crate::error::{Error, ErrorKind, UnknownToolError};
use crate::principal::Principal;
use crate::result::ToolResult;
use crate::session::ClientSession;
use crate::tool::ToolSpec;

impl McpServer {
    pub(super) async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The arguments as the client wrote them, where the transport kept them (see
        // `raw`): a key given twice is then an input error, as from a model.
        let parts = context.extensions.get::<http::request::Parts>();
        let written = parts
            .and_then(|parts| parts.extensions.get::<RawArguments>().cloned())
            .or_else(|| self.raw.as_ref()?.take(&context.id));
        let arguments = match written {
            Some(RawArguments(text)) => ToolArguments::Text(text.as_ref().into()),
            None => ToolArguments::Value(Value::Object(request.arguments.unwrap_or_default())),
        };
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
            (Some(_), Some(id)) => self.resume(&call, &id, principal.as_ref()).await?,
            _ => (self.run(&call, &context, principal.clone()).await, None),
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

    /// Runs `call` through the executor, for the client of `context`.
    pub(super) async fn run(
        &self,
        call: &ToolCall,
        context: &RequestContext<RoleServer>,
        principal: Option<Principal>,
    ) -> ToolResult {
        // The call ends when the client cancels it, at the timeout, or when the server shuts
        // down past its grace period.
        let _in_flight = self.calls.as_ref().map(CallsInFlight::enter);
        let cancelled = context.ct.clone();
        let shutdown = self.calls.as_ref().map(|calls| calls.cancel.clone());
        let timeout = self.timeout;
        let deadline = async move {
            let ended = async {
                match shutdown {
                    Some(shutdown) => tokio::select! {
                        () = cancelled.cancelled() => {}
                        () = shutdown.cancelled() => {}
                    },
                    None => cancelled.cancelled().await,
                }
            };
            match timeout {
                Some(timeout) => {
                    let _ = tokio::time::timeout(timeout, ended).await;
                }
                None => ended.await,
            }
        };
        // Progress goes to the client only when it asked, with a token for the call; log
        // messages at or above the level it set.
        let token = context.meta.get_progress_token();
        let (notifier, reporter) =
            CallNotifier::start(context.peer.clone(), token, Arc::clone(&self.log_threshold));
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
