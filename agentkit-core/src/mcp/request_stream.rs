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
//! In a server with more than one session live, a call answered quickly goes out in one
//! write: [`FirstMessage`] holds the response's headers and rmcp's priming event until the
//! stream's first message comes, for at most [`FIRST_MESSAGE_WAIT`], rather than sending them
//! alone ahead of it. Each write costs both ends a system call and a wake-up, which a server
//! with many clients pays in throughput (on loopback at 8 and 64 sessions, about a tenth of the
//! calls a second). A server's only session has its headers sent at once, as rmcp does: its
//! client reads them while the tool runs, which gains it latency where nothing else competes
//! for the server. A call that runs longer than the wait has its headers and priming event sent
//! once the wait is over, so a client can still resume its stream (`Last-Event-ID`) while it
//! runs.
//!
//! Those messages carry no SSE event id: a client that reconnects with `Last-Event-ID` is not
//! sent them again. Without a session ([stateless](super::McpServer::stateless) serving,
//! whose responses are JSON, and MCP 2026-07-28), rmcp gives each request a stream of its
//! own already: the response is JSON when the handler sends nothing before it, and an SSE
//! stream, in order, when it does.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

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

/// How long a call's response waits for its first message, in a server with other sessions
/// live, before its headers and priming event are sent alone (see [`FirstMessage`]).
pub(super) const FIRST_MESSAGE_WAIT: Duration = Duration::from_millis(50);

/// A request's response stream: rmcp's messages in their order (the priming event, the
/// server's requests), but its response, the last, only once what was queued is sent.
pub(super) struct ReportsFirst<S> {
    /// What [`FirstMessage`] read ahead (rmcp's priming event, the first message), in order.
    ahead: [Option<ServerSseMessage>; 2],
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
            ahead: [None, None],
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
        if let Some(message) = this.ahead.iter_mut().find_map(Option::take) {
            return Poll::Ready(Some(message));
        }
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

/// A response stream once its first message has come, or its wait has passed (none: what is
/// ready now): what the stream yielded before (rmcp's priming event) is held, and yielded
/// first.
///
/// The session manager returns the stream only then: hyper writes a response's headers as soon
/// as it has them and its body has nothing ready, so the wait must come before them for the
/// headers, the priming event and a quick call's response to leave in one write.
pub(super) struct FirstMessage<S> {
    stream: Option<ReportsFirst<S>>,
    /// The priming event (rmcp's only message without a JSON-RPC message in it), held.
    priming: Option<ServerSseMessage>,
    /// Armed once the stream has nothing ready: boxed, so that the request's future, which
    /// holds this one, stays small.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
    wait: Option<Duration>,
}

impl<S> FirstMessage<S> {
    pub(super) fn new(stream: ReportsFirst<S>, wait: Option<Duration>) -> Self {
        FirstMessage {
            stream: Some(stream),
            priming: None,
            deadline: None,
            wait,
        }
    }
}

impl<S: Stream<Item = ServerSseMessage>> Future for FirstMessage<S> {
    type Output = ReportsFirst<S>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // Every field is `Unpin` (the inner stream is boxed).
        let this = self.get_mut();
        let Some(stream) = this.stream.as_mut() else {
            // Polled again after it was ready: nothing more to give.
            return Poll::Pending;
        };
        let first = loop {
            match Pin::new(&mut *stream).poll_next(cx) {
                Poll::Ready(Some(message))
                    if message.message.is_none() && this.priming.is_none() =>
                {
                    this.priming = Some(message);
                }
                Poll::Ready(next) => break next,
                Poll::Pending => {
                    let Some(wait) = this.wait else {
                        break None;
                    };
                    let deadline = this
                        .deadline
                        .get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
                    if deadline.as_mut().poll(cx).is_pending() {
                        return Poll::Pending;
                    }
                    break None;
                }
            }
        };
        let Some(mut stream) = this.stream.take() else {
            return Poll::Pending;
        };
        stream.ahead = [this.priming.take(), first];
        Poll::Ready(stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{FutureExt as _, StreamExt};
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

    fn priming() -> ServerSseMessage {
        ServerSseMessage::priming("0", std::time::Duration::from_secs(1))
    }

    fn response() -> ServerSseMessage {
        ServerSseMessage::from_message(ServerJsonRpcMessage::response(
            ServerResult::empty(()),
            RequestId::Number(1),
        ))
    }

    /// An hour: a wait the tests never see pass.
    const LONG: Duration = Duration::from_secs(3600);

    /// Held for its first message, the stream is handed out only once the response comes, and
    /// then yields the priming event before it, and ends.
    #[tokio::test]
    async fn a_stream_waits_for_its_first_message_and_keeps_the_priming_event_ahead_of_it() {
        let (sent, inner) = futures_channel::mpsc::unbounded();
        sent.unbounded_send(priming()).unwrap();
        let mut first = FirstMessage::new(ReportsFirst::new(None, inner), Some(LONG));
        assert!(
            (&mut first).now_or_never().is_none(),
            "handed out before its first message"
        );
        sent.unbounded_send(response()).unwrap();
        drop(sent);
        let stream = first
            .now_or_never()
            .expect("handed out with its first message");
        let seen: Vec<String> = stream.map(|message| method(&message)).collect().await;
        assert_eq!(seen, ["priming", "response"]);
    }

    /// A report queued while the stream waits is a first message too: the stream is handed out
    /// with it, and the response still comes last.
    #[tokio::test]
    async fn a_report_ends_the_wait_and_still_comes_before_the_response() {
        let queued = Arc::new(Mutex::new(Queue::default()));
        let queue = RequestStream(Arc::clone(&queued));
        let (sent, inner) = futures_channel::mpsc::unbounded();
        sent.unbounded_send(priming()).unwrap();
        let mut first = FirstMessage::new(ReportsFirst::new(Some(queued), inner), Some(LONG));
        assert!((&mut first).now_or_never().is_none());
        assert!(queue.send(log("working")));
        let stream = first.now_or_never().expect("handed out with the report");
        sent.unbounded_send(response()).unwrap();
        drop(sent);
        let seen: Vec<String> = stream.map(|message| method(&message)).collect().await;
        assert_eq!(seen, ["priming", "notifications/message", "response"]);
    }

    /// Without a wait, the stream is handed out at once, its priming event ready; and once a
    /// wait has passed, without its first message: the response then follows as it comes.
    #[tokio::test]
    async fn without_a_wait_or_once_it_passes_the_stream_is_handed_out_as_it_is() {
        for wait in [None, Some(Duration::from_millis(1))] {
            let (sent, inner) = futures_channel::mpsc::unbounded();
            sent.unbounded_send(priming()).unwrap();
            // Bounded, so that a wait that never ends fails here rather than hanging the run.
            let mut stream = tokio::time::timeout(
                Duration::from_secs(10),
                FirstMessage::new(ReportsFirst::new(None, inner), wait),
            )
            .await
            .expect("handed out without its first message");
            let first = stream.next().await.expect("the priming event");
            assert_eq!(method(&first), "priming", "wait: {wait:?}");
            assert!(
                stream.next().now_or_never().is_none(),
                "wait: {wait:?}: nothing more yet"
            );
            sent.unbounded_send(response()).unwrap();
            drop(sent);
            let rest: Vec<String> = stream.map(|message| method(&message)).collect().await;
            assert_eq!(rest, ["response"], "wait: {wait:?}");
        }
    }

    /// A stream that ends while held is handed out, and ends after what it held.
    #[tokio::test]
    async fn a_stream_that_ends_while_held_is_handed_out_and_ends() {
        let (sent, inner) = futures_channel::mpsc::unbounded();
        sent.unbounded_send(priming()).unwrap();
        drop(sent);
        let stream = FirstMessage::new(ReportsFirst::new(None, inner), Some(LONG))
            .now_or_never()
            .expect("handed out when the stream ends");
        let seen: Vec<String> = stream.map(|message| method(&message)).collect().await;
        assert_eq!(seen, ["priming"]);
    }
}
