//! A request's own response stream, in a session of MCP 2025-11-25 over streamable HTTP: how
//! a call's reports (its log messages and progress) reach the client before its result.
//!
//! rmcp's session sends a server's message to a request's stream (the `POST`'s SSE
//! response) only when it names the request: a response, a request of the server's made
//! while serving it, a progress notification by its token. Every other notification, log
//! messages included, goes to the session's standalone stream (the client's `GET`), which
//! nothing orders with the `POST`: a message logged during a call could reach the client
//! after the call's result. So the session manager (`sessions`) gives each request's stream
//! a queue of its own, handed to the call in the request's extensions ([`RequestStream`]),
//! and the stream yields what is queued there as it comes, holding rmcp's response back until
//! the queue is drained. A call hands its reports to the queue before its result leaves the
//! handler (`CallNotifier::finish`), so they are on the wire before it.
//!
//! Those messages carry no SSE event id: a client that reconnects with `Last-Event-ID` is not
//! sent them again. Without a session ([stateless](super::McpServer::stateless) serving,
//! whose responses are JSON, and MCP 2026-07-28), rmcp gives each request a stream of its
//! own already: the response is JSON when the handler sends nothing before it, and an SSE
//! stream, in order, when it does.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use futures_util::Stream;
use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, GetExtensions, ServerJsonRpcMessage, ServerNotification,
};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;

/// The queue of a request's response stream, in the request's extensions: what is sent into
/// it reaches the client before the request's response.
///
/// A deque behind a lock rather than a channel: every `tools/call` gets one and most send
/// nothing, and an empty deque allocates nothing, where a channel allocates its first block
/// of slots (measured by `benches/mcp-serving`).
#[derive(Clone, Debug)]
pub(super) struct RequestStream(Arc<Mutex<Queue>>);

#[derive(Debug, Default)]
pub(super) struct Queue {
    messages: VecDeque<ServerJsonRpcMessage>,
    /// The stream's task, to wake when a message comes.
    waker: Option<Waker>,
    /// The stream has answered or gone: what comes now is not sent.
    closed: bool,
}

impl RequestStream {
    /// Sends `notification` on the request's stream: `false` when the stream has ended (the
    /// request was answered, or its client went away).
    pub(super) fn send(&self, notification: ServerNotification) -> bool {
        let waker = {
            let mut queue = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            if queue.closed {
                return false;
            }
            queue
                .messages
                .push_back(ServerJsonRpcMessage::notification(notification));
            queue.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
        true
    }
}

/// Gives the stream of `message`, when it is a `tools/call`, a queue: its end is in the request's
/// extensions, and [`ReportsFirst`] yields what it receives.
pub(super) fn open(message: &mut ClientJsonRpcMessage) -> Option<Arc<Mutex<Queue>>> {
    // Only a call reports.
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    if !matches!(request.request, ClientRequest::CallToolRequest(_)) {
        return None;
    }
    let queue = Arc::new(Mutex::new(Queue::default()));
    request
        .request
        .extensions_mut()
        .insert(RequestStream(Arc::clone(&queue)));
    Some(queue)
}

/// A request's response stream: rmcp's messages in their order (the priming event, the
/// server's requests), but its response, the last, only once what was queued is sent.
pub(super) struct ReportsFirst<S> {
    queued: Option<Arc<Mutex<Queue>>>,
    inner: Pin<Box<S>>,
    /// rmcp's response, held until the queue is drained.
    answer: Option<ServerSseMessage>,
    /// Whether rmcp's stream has ended.
    ended: bool,
}

impl<S> ReportsFirst<S> {
    pub(super) fn new(queued: Option<Arc<Mutex<Queue>>>, inner: S) -> Self {
        ReportsFirst {
            queued,
            inner: Box::pin(inner),
            answer: None,
            ended: false,
        }
    }

    /// Closes the queue: what the call sends now is discarded, not held.
    fn close(&mut self) {
        if let Some(queue) = self.queued.take() {
            let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
            queue.closed = true;
            queue.messages.clear();
            queue.waker = None;
        }
    }
}

impl<S> Drop for ReportsFirst<S> {
    fn drop(&mut self) {
        self.close();
    }
}

/// Whether `message` answers the request: the stream's last.
fn answers(message: &ServerSseMessage) -> bool {
    matches!(
        message.message.as_deref(),
        Some(ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_))
    )
}

impl<S: Stream<Item = ServerSseMessage>> Stream for ReportsFirst<S> {
    type Item = ServerSseMessage;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.answer.is_none() && !this.ended {
            match this.inner.as_mut().poll_next(cx) {
                Poll::Ready(Some(message)) if answers(&message) => this.answer = Some(message),
                Poll::Ready(Some(message)) => return Poll::Ready(Some(message)),
                Poll::Ready(None) => this.ended = true,
                Poll::Pending => {}
            }
        }
        if let Some(queued) = &this.queued {
            let mut queue = queued.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(message) = queue.messages.pop_front() {
                return Poll::Ready(Some(ServerSseMessage::from_message(message)));
            }
            if this.answer.is_none() && !this.ended {
                match &queue.waker {
                    Some(waker) if waker.will_wake(cx.waker()) => {}
                    _ => queue.waker = Some(cx.waker().clone()),
                }
            }
        }
        if this.answer.is_some() || this.ended {
            // The call queued its reports before it answered, so the queue is drained: what
            // it would get later (nothing, as the call's notifier discards it) is not sent.
            this.close();
            return Poll::Ready(this.answer.take());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    use rmcp::model::LoggingMessageNotificationParam;
    use rmcp::model::{Notification, RequestId, ServerResult};

    #[allow(deprecated)] // MCP's logging, which the 2026-07-28 revision deprecates.
    fn log(text: &str) -> ServerNotification {
        ServerNotification::LoggingMessageNotification(Notification::new(
            LoggingMessageNotificationParam::new(
                rmcp::model::LoggingLevel::Info,
                serde_json::Value::from(text),
            ),
        ))
    }

    fn method(message: &ServerSseMessage) -> String {
        let Some(message) = message.message.as_deref() else {
            return "priming".to_owned();
        };
        let wire = serde_json::to_value(message).unwrap();
        match wire.get("method") {
            Some(method) => method.as_str().unwrap().to_owned(),
            None => "response".to_owned(),
        }
    }

    /// What was queued comes after rmcp's priming event and before its response, and the
    /// stream ends with rmcp's even while an end of the queue lives on.
    #[tokio::test]
    async fn what_is_queued_comes_before_the_response_and_the_stream_ends_with_rmcps() {
        let queued = Arc::new(Mutex::new(Queue::default()));
        let queue = RequestStream(Arc::clone(&queued));
        let response =
            ServerJsonRpcMessage::response(ServerResult::empty(()), RequestId::Number(1));
        let priming = ServerSseMessage::priming("0", std::time::Duration::from_secs(1));
        let inner = futures_util::stream::iter([priming, ServerSseMessage::from_message(response)]);
        assert!(queue.send(log("one")));
        assert!(queue.send(log("two")));
        let stream = ReportsFirst::new(Some(queued), inner);
        let seen: Vec<String> = stream.map(|message| method(&message)).collect().await;
        assert_eq!(
            seen,
            [
                "priming",
                "notifications/message",
                "notifications/message",
                "response"
            ]
        );
        // The stream has let go of the queue.
        assert!(!queue.send(log("late")));
    }
}
