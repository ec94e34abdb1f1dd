//! The arguments of a `tools/call` as the client wrote them.
//!
//! rmcp parses a request into a JSON object before the server sees it, and a JSON object keeps
//! one value per key: `{"city": "Paris", "city": "Lyon"}` would reach the executor as
//! `{"city": "Lyon"}`, and "one key, one value" would not hold over MCP. So the transports
//! agentkit serves read each message's `params.arguments` text first, and the call runs on
//! that text, which the executor parses as it parses a model's (a key given twice is an input
//! error, like any other).
//!
//! Where it holds: [`McpServer::serve_stdio`](super::McpServer::serve_stdio), and the HTTP
//! service ([`serve_http`](super::McpServer::serve_http),
//! [`streamable_http_service`](super::McpServer::streamable_http_service)). Where it does
//! not: a message whose own keys repeat (`"params"` or `"arguments"` twice, which rmcp reads
//! as its last), and transports driven through rmcp directly
//! ([`ServiceExt::serve`](rmcp::ServiceExt::serve)); there the arguments are rmcp's object.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use rmcp::model::RequestId;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncRead, ReadBuf};

mod scan;

/// The arguments text of one `tools/call` request.
#[derive(Debug, Clone)]
pub(super) struct RawArguments(pub(super) Arc<str>);

/// The parts of a JSON-RPC message this reads; everything else is skipped unparsed.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    id: Option<RequestId>,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// [`Message`] without its id, which an HTTP request does not need (its call is the
/// request's): rmcp's `RequestId` reads through a `serde_json::Value`, which took a fifth of
/// the read (measured by `benches/mcp-serving`).
#[derive(Deserialize)]
struct Call<'a> {
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

/// The request id and arguments text of `message`, when it is a `tools/call` with arguments.
pub(super) fn tool_call_arguments(message: &[u8]) -> Option<(Option<RequestId>, RawArguments)> {
    let message: Message<'_> = serde_json::from_slice(message).ok()?;
    if message.method.as_deref() != Some("tools/call") {
        return None;
    }
    let arguments = message.params?.arguments?;
    Some((message.id, RawArguments(Arc::from(arguments.get()))))
}

/// The arguments text of `message`, when it is a `tools/call` with arguments: what
/// [`tool_call_arguments`] reads, but the id.
///
/// A message as clients write them (an object whose keys have no escapes) is scanned, not
/// parsed: a serde read of a whole message took 4 000 instructions a call, a quarter of
/// what agentkit's server added to plain rmcp's (measured by `benches/mcp-serving`). Anything
/// else goes to serde. The scan does not validate the message: one that is not JSON is
/// refused by rmcp's own parse, and never called.
pub(super) fn call_arguments(message: &[u8]) -> Option<RawArguments> {
    match scan::call_arguments(message) {
        scan::Scanned::Arguments(text) => Some(RawArguments(Arc::from(text))),
        scan::Scanned::NotACall => None,
        scan::Scanned::Unsure => parsed_call_arguments(message),
    }
}

/// [`call_arguments`] by serde.
fn parsed_call_arguments(message: &[u8]) -> Option<RawArguments> {
    let message: Call<'_> = serde_json::from_slice(message).ok()?;
    if message.method.as_deref() != Some("tools/call") {
        return None;
    }
    let arguments = message.params?.arguments?;
    Some(RawArguments(Arc::from(arguments.get())))
}

/// The arguments texts of a stdio session's requests, by request id, until their calls take
/// them.
#[derive(Default)]
pub(super) struct PendingArguments {
    by_id: Mutex<(HashMap<RequestId, RawArguments>, VecDeque<RequestId>)>,
}

/// How many arguments texts a session keeps for calls that have not started: a request rmcp
/// refuses never takes its own, and the oldest are dropped past this.
const MAX_PENDING: usize = 1_024;

impl PendingArguments {
    fn put(&self, id: RequestId, arguments: RawArguments) {
        let mut guard = self.by_id.lock().unwrap_or_else(PoisonError::into_inner);
        let (by_id, order) = &mut *guard;
        if by_id.insert(id.clone(), arguments).is_none() {
            order.push_back(id);
        }
        while order.len() > MAX_PENDING {
            if let Some(oldest) = order.pop_front() {
                by_id.remove(&oldest);
            }
        }
    }

    /// The arguments text of request `id`, taken.
    pub(super) fn take(&self, id: &RequestId) -> Option<RawArguments> {
        let mut guard = self.by_id.lock().unwrap_or_else(PoisonError::into_inner);
        let (by_id, order) = &mut *guard;
        let taken = by_id.remove(id)?;
        order.retain(|pending| pending != id);
        Some(taken)
    }
}

/// The longest line read for its arguments, in bytes: longer messages pass through unread
/// (and are refused by the executor's own limits, or rmcp's).
const MAX_LINE: usize = 16 * 1024 * 1024;

impl PendingArguments {
    /// Keeps the arguments text of `line`, when it is a `tools/call` request with an id.
    pub(super) fn keep(&self, line: &[u8]) {
        if let Some((Some(id), arguments)) = tool_call_arguments(line) {
            self.put(id, arguments);
        }
    }
}

/// A stdio reader that passes every byte on and hands each whole line (a JSON-RPC message, up
/// to [`MAX_LINE`] bytes) to `on_line`: the server keeps the arguments text of the
/// `tools/call` request on it ([`PendingArguments::keep`]), the client reads what rmcp's
/// types leave out of a server's results (see `legacy_tasks`).
pub(super) struct Reading<R, F> {
    inner: R,
    line: Vec<u8>,
    /// The line is past [`MAX_LINE`]: skipped to its end.
    skipping: bool,
    on_line: F,
}

impl<R, F: FnMut(&[u8])> Reading<R, F> {
    pub(super) fn new(inner: R, on_line: F) -> Self {
        Reading {
            inner,
            line: Vec::new(),
            skipping: false,
            on_line,
        }
    }

    fn scan(&mut self, bytes: &[u8]) {
        for chunk in bytes.split_inclusive(|&b| b == b'\n') {
            let ends = chunk.last() == Some(&b'\n');
            if !self.skipping {
                if self.line.len() + chunk.len() > MAX_LINE {
                    self.skipping = true;
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(chunk);
                }
            }
            if ends {
                if !self.skipping {
                    (self.on_line)(&self.line);
                }
                self.line.clear();
                self.skipping = false;
            }
        }
    }
}

impl<R: AsyncRead + Unpin, F: FnMut(&[u8]) + Unpin> AsyncRead for Reading<R, F> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let read = buf.filled()[before..].to_vec();
            self.scan(&read);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_text_is_kept_as_written() {
        let message = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"w","arguments":{"city":"Paris","city":"Lyon"}}}"#;
        let (id, arguments) = tool_call_arguments(message).unwrap();
        assert_eq!(id, Some(RequestId::Number(7)));
        assert_eq!(&*arguments.0, r#"{"city":"Paris","city":"Lyon"}"#);
        assert!(tool_call_arguments(br#"{"method":"tools/list","id":1}"#).is_none());
        assert!(tool_call_arguments(b"not json").is_none());
        // The same without the id, as the HTTP service reads it.
        assert_eq!(
            &*call_arguments(message).unwrap().0,
            r#"{"city":"Paris","city":"Lyon"}"#
        );
        let string_id = br#"{"id":"a\"b","method":"tools/call","params":{"arguments":{}}}"#;
        assert_eq!(&*call_arguments(string_id).unwrap().0, "{}");
        assert!(call_arguments(br#"{"method":"tools/list","id":1}"#).is_none());
        assert!(call_arguments(br#"{"method":"tools/call","params":{}}"#).is_none());
        assert!(call_arguments(b"not json").is_none());
    }

    /// The scan finds what serde finds, and hands serde what it is unsure of.
    #[test]
    fn every_cut_of_a_message_is_scanned_without_a_panic() {
        // A message cut anywhere, in a string, after an escape, inside nested values: the
        // scan is a read of bytes a client sent, and never panics on them.
        let message = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{"a":[1,{"b":"}\"\\"}],"c":"\u00e9","d":-1.5e3,"e":[[{}]]}}}"#;
        for end in 0..=message.len() {
            let cut = &message[..end];
            let _ = scan::call_arguments(cut);
            let scanned = call_arguments(cut).map(|arguments| arguments.0);
            let parsed = parsed_call_arguments(cut).map(|arguments| arguments.0);
            assert_eq!(scanned, parsed, "{}", String::from_utf8_lossy(cut));
        }
    }

    #[test]
    fn the_scan_never_panics_and_on_json_reads_what_serde_reads() {
        // Messages pieced together at random (a fixed sequence) from what JSON is made of.
        let pieces: [&[u8]; 16] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b"\\",
            b":",
            b",",
            b" ",
            b"\"method\"",
            b"\"tools/call\"",
            b"\"params\"",
            b"\"arguments\"",
            b"1",
            b"null",
            b"\\u",
        ];
        // Each after one of these openings, so that the pieces reach the scan's every part.
        let openings: [&[u8]; 4] = [
            b"",
            br#"{"a":"#,
            br#"{"method":"tools/call","params":"#,
            br#"{"method":"tools/call","params":{"arguments":"#,
        ];
        // xorshift32: a fixed sequence, the same on every run.
        let mut state = 0x2545_f491_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as usize
        };
        for round in 0..40_000 {
            let mut message = openings[round % openings.len()].to_vec();
            for _ in 0..next() % 12 {
                message.extend_from_slice(pieces[next() % pieces.len()]);
            }
            let scanned = call_arguments(&message).map(|arguments| arguments.0);
            // On JSON, the scan reads what serde reads.
            if serde_json::from_slice::<serde_json::Value>(&message).is_ok() {
                let parsed = parsed_call_arguments(&message).map(|arguments| arguments.0);
                assert_eq!(scanned, parsed, "{}", String::from_utf8_lossy(&message));
            }
        }
    }

    #[test]
    fn the_scan_reads_what_serde_reads() {
        let messages: [&[u8]; 16] = [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{"a":[1,{"b":"}\""}],"a":2}}}"#,
            br#" { "params" : { "arguments" : [ 1 , 2 ] , "name" : "w" } , "method" : "tools/call" } "#,
            br#"{"method":"tools/call","params":{"arguments":"text","_meta":{"x":"\\u0041\"q"}}}"#,
            br#"{"method":"tools/call","params":{"arguments":null}}"#,
            br#"{"method":"tools/call","params":null}"#,
            br#"{"method":"tools/list","params":{"arguments":{}}}"#,
            br#"{"method":"tools\/call","params":{"arguments":{}}}"#,
            br#"{"meth\u006fd":"tools/call","params":{"arguments":{}}}"#,
            br#"{"method":"tools/call","method":"tools/call","params":{"arguments":{}}}"#,
            br#"{"method":"tools/call","params":{"arguments":{},"arguments":{}}}"#,
            br#"{"method":"tools/call","params":[{}]}"#,
            br#"["tools/call",1,{"arguments":{}}]"#,
            br#"{"method":"tools/call","params":{"arguments":{}}} x"#,
            br#"{"method":"tools/call","params":{"arguments":-1.5e3}}"#,
            br#"{"method":"tools/call","params":{"arguments":{}}"#,
            b"",
        ];
        for message in messages {
            let scanned = call_arguments(message).map(|arguments| arguments.0);
            let parsed = parsed_call_arguments(message).map(|arguments| arguments.0);
            assert_eq!(scanned, parsed, "{}", String::from_utf8_lossy(message));
        }
        // What the scan reads itself, and what it leaves to serde.
        let plain = messages[0];
        assert!(matches!(
            scan::call_arguments(plain),
            scan::Scanned::Arguments(_)
        ));
        assert!(matches!(
            scan::call_arguments(messages[5]),
            scan::Scanned::NotACall
        ));
        for unsure in [6, 7, 8, 9, 10, 11, 12] {
            assert!(
                matches!(
                    scan::call_arguments(messages[unsure]),
                    scan::Scanned::Unsure
                ),
                "{}",
                String::from_utf8_lossy(messages[unsure])
            );
        }
    }

    #[test]
    fn lines_split_across_reads_are_read_whole_and_the_pending_are_bounded() {
        let pending = Arc::new(PendingArguments::default());
        let kept = Arc::clone(&pending);
        let mut reading = Reading::new(tokio::io::empty(), move |line: &[u8]| kept.keep(line));
        let line = br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"w","arguments":{"x":1}}}
"#;
        let (first, second) = line.split_at(20);
        reading.scan(first);
        reading.scan(second);
        let id = RequestId::String("a".into());
        assert_eq!(&*pending.take(&id).unwrap().0, r#"{"x":1}"#);
        assert!(pending.take(&id).is_none());
        for n in 0..(MAX_PENDING as i64 + 10) {
            let line = format!(
                "{{\"id\":{n},\"method\":\"tools/call\",\"params\":{{\"arguments\":{{}}}}}}\n"
            );
            reading.scan(line.as_bytes());
        }
        assert!(pending.take(&RequestId::Number(0)).is_none());
        assert!(
            pending
                .take(&RequestId::Number(MAX_PENDING as i64 + 9))
                .is_some()
        );
    }
}
