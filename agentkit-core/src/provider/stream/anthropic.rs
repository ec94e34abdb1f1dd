//! [`CallStream`] for Anthropic Messages: tool calls from a message's stream events.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::body::Body;
use super::error::{CutStream, StreamError};
use super::{
    Completed, Decode, Events, Ids, in_order, index, provider_error, push_bytes, read_event,
};
use crate::call::{ToolArguments, ToolCall};
use crate::provider::parse::{At, ParseError, value_arguments};

const API: &str = "Anthropic Messages";

/// The tool calls of a streamed Messages reply (`"stream": true`), each handed out when its
/// content block stops.
///
/// Feed it the HTTP body's bytes as they arrive with [`push_bytes`](Self::push_bytes), or
/// each event's JSON, in order, with [`push`](Self::push) or [`push_str`](Self::push_str)
/// (the `data:` text; the `event:` line repeats its `type`).
/// The events:
///
/// | event | read |
/// |---|---|
/// | `message_start` | its `message.content`, which the API sends empty (blocks there count as complete) |
/// | `content_block_start` | a `tool_use` block starts a call: its `index`, `id`, `name` (and `input`, `{}`) |
/// | `content_block_delta` | an `input_json_delta`'s `partial_json` adds to the call's input text |
/// | `content_block_stop` | the call is complete: handed out by this event |
/// | `message_delta`, `ping` | nothing more |
/// | `message_stop` | the end of the stream: without it, [`finish`](Self::finish) says the stream was cut |
/// | `error` | a [`StreamError::Provider`] with the error's `type` and `message`: the stream failed |
///
/// Other blocks (text, thinking, server tools' `server_tool_use` and their results) and
/// their deltas are skipped, as [`calls`](crate::provider::anthropic::calls) skips them; events of a type it does
/// not know are skipped too, as the API asks of clients.
///
/// A call's arguments are its input text parsed: the `input` of the finished message's
/// `tool_use` block, which [`calls`](crate::provider::anthropic::calls) reads. A block with no text (a tool
/// without parameters) has the `input` it started with, `{}`. Text that is not JSON (with
/// fine-grained tool streaming, which does not check the model's JSON) is handed on as
/// text, for the executor to refuse as an input validation failure that goes back to the
/// model.
///
/// # Errors
///
/// A [`StreamError`]: [`Malformed`](StreamError::Malformed), a [`ParseError`] naming the
/// event and the place in it, for a delta or stop for a block that did not start (or already
/// stopped), a second start at one index, an id an earlier call has, a block event after
/// `message_stop`, a field of the wrong type, or a call whose block did not stop before
/// `message_stop`; [`Provider`](StreamError::Provider) for an `error` event;
/// [`Cut`](StreamError::Cut), from [`finish`](Self::finish), for a stream that ended before
/// `message_stop`; [`Body`](StreamError::Body) for bytes that are not an event stream.
///
/// ```
/// use agentkit_core::provider::anthropic::{self, CallStream};
/// use serde_json::json;
///
/// let events = [
///     json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
///            "role": "assistant", "content": [], "stop_reason": null}}),
///     json!({"type": "content_block_start", "index": 0,
///            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}}),
///     json!({"type": "content_block_delta", "index": 0,
///            "delta": {"type": "input_json_delta", "partial_json": "{\"tz\": \"U"}}),
///     json!({"type": "content_block_delta", "index": 0,
///            "delta": {"type": "input_json_delta", "partial_json": "TC\"}"}}),
///     json!({"type": "content_block_stop", "index": 0}),
///     json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
///     json!({"type": "message_stop"}),
/// ];
/// let mut stream = CallStream::new();
/// let handed: Vec<_> = events.iter().map(|event| stream.push(event).map(|calls| calls.len()))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(handed, [0, 0, 0, 0, 1, 0, 0]); // at `content_block_stop`
///
/// let finished = json!({"role": "assistant", "content": [
///     {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {"tz": "UTC"}},
/// ]});
/// assert_eq!(stream.finish()?, anthropic::calls(&finished)?);
/// # Ok::<(), agentkit_core::provider::StreamError>(())
/// ```
///
/// Off the wire: the HTTP body's bytes in the pieces the client yields, each call run the
/// moment it is complete, and a body cut before `message_stop` told apart from a whole one:
///
/// ```
/// use agentkit_core::provider::{anthropic, StreamError};
/// use agentkit_core::{block_on, BoxError, JsonObject, Tool, ToolContext, ToolExecutor, ToolOutput, ToolRegistry, ToolResult, ToolSpec};
/// use futures_util::{stream, Stream, StreamExt};
///
/// /// Runs the calls of a streamed Messages reply as they arrive. `body` is the response body
/// /// (with reqwest: `response.bytes_stream().filter_map(|piece| async { piece.ok() })`; a
/// /// network error then reads as a cut stream).
/// async fn streamed_turn(
///     executor: &ToolExecutor,
///     body: impl Stream<Item = impl AsRef<[u8]>>,
/// ) -> Result<Vec<ToolResult>, StreamError> {
///     let mut reply = anthropic::CallStream::new();
///     let mut failed = None;
///     let calls = body.flat_map(|piece| {
///         let calls = reply.push_bytes(piece.as_ref()).unwrap_or_else(|error| {
///             failed.get_or_insert(error);
///             Vec::new()
///         });
///         stream::iter(calls)
///     });
///     let results = executor.turn().dispatch_stream(calls).await;
///     match failed {
///         Some(error) => Err(error),
///         None => reply.finish().map(|_| results), // cut, or whole
///     }
/// }
///
/// struct Clock(ToolSpec);
/// impl Tool for Clock {
///     fn spec(&self) -> &ToolSpec { &self.0 }
///     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> { Ok("12:00".into()) }
/// }
///
/// fn main() -> Result<(), BoxError> {
///     let mut registry = ToolRegistry::new();
///     registry.register(Clock(ToolSpec::builder("clock").build()?))?;
///     let executor = ToolExecutor::new(registry);
///     let body = "event: content_block_start\r\ndata: {\"type\":\"content_block_start\",\"index\":0,\
///         \"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"clock\",\"input\":{}}}\r\n\r\n\
///         event: content_block_stop\r\ndata: {\"type\":\"content_block_stop\",\"index\":0}\r\n\r\n\
///         event: message_stop\r\ndata: {\"type\":\"message_stop\"}\r\n\r\n";
///     // The body in the pieces a network might give.
///     let results = block_on(streamed_turn(&executor, stream::iter(body.as_bytes().chunks(7))))?;
///     assert_eq!(results[0].call_id(), "toolu_1");
///     // Cut before `message_stop`: the call ran, and the turn says it was not whole.
///     let cut = &body[..body.find("event: message_stop").unwrap()];
///     let error = block_on(streamed_turn(&executor, stream::iter([cut]))).unwrap_err();
///     assert!(matches!(&error, StreamError::Cut(cut) if cut.completed().len() == 1), "{error}");
///     Ok(())
/// }
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallStream {
    events: Events,
    body: Body,
    // Every block that started, by index, until it stops.
    blocks: BTreeMap<u64, Block>,
    done: Completed,
    ids: Ids,
    stopped: bool,
}

#[derive(Debug, Clone)]
enum Block {
    /// A block that is not a call, or one that stopped.
    Other {
        open: bool,
    },
    Call(Open),
}

#[derive(Debug, Clone)]
struct Open {
    id: Arc<str>,
    name: String,
    input: Value,
    text: String,
}

impl Decode for CallStream {
    fn events(&mut self) -> &mut Events {
        &mut self.events
    }

    fn body(&mut self) -> &mut Body {
        &mut self.body
    }

    fn push_data(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError> {
        self.push_str(data)
    }
}

impl CallStream {
    /// An accumulator for one streamed message.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the longest line or event [`push_bytes`](Self::push_bytes) takes, in bytes
    /// (default [`DEFAULT_MAX_EVENT_BYTES`](crate::provider::DEFAULT_MAX_EVENT_BYTES)).
    pub fn with_max_event_bytes(mut self, limit: usize) -> Self {
        self.body.set_limit(limit);
        self
    }

    /// Reads the next piece of the HTTP body, as the client yields it (any split); returns
    /// the calls its events completed, in block order.
    ///
    /// The body is a server-sent event stream, read by the WHATWG rules (see
    /// [`provider`](crate::provider#reading-an-http-body)); a JSON body (the error the API
    /// answers with an error status) is read as one event.
    ///
    /// # Errors
    ///
    /// As [`push_str`](Self::push_str) for each event, and a
    /// [`BodyError`](crate::provider::BodyError) for bytes that are not an event stream.
    /// Calls that events before the error completed are in [`completed`](Self::completed).
    ///
    /// ```
    /// use agentkit_core::provider::anthropic::CallStream;
    ///
    /// let body = "event: content_block_start\ndata: {\"type\": \"content_block_start\", \"index\": 0, \
    ///             \"content_block\": {\"type\": \"tool_use\", \"id\": \"toolu_1\", \"name\": \"now\", \
    ///             \"input\": {}}}\n\nevent: content_block_stop\ndata: {\"type\": \"content_block_stop\", \
    ///             \"index\": 0}\n\nevent: message_stop\ndata: {\"type\": \"message_stop\"}\n\n";
    /// let mut stream = CallStream::new();
    /// let mut calls = Vec::new();
    /// for piece in body.as_bytes().chunks(5) {
    ///     calls.extend(stream.push_bytes(piece)?);
    /// }
    /// assert_eq!(calls[0].id(), "toolu_1");
    /// assert_eq!(stream.finish()?, calls);
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        push_bytes(self, API, bytes)
    }

    /// Reads one event (its JSON); returns the call it completed, if any.
    ///
    /// # Errors
    ///
    /// A [`StreamError`] when the event breaks the stream's documented shape or is an error
    /// (see [the type's docs](Self#errors)).
    pub fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let number = self.events.next()?;
        let read = self.read(number, event);
        self.events.record(read)
    }

    /// Reads one event's `data:` text.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push), and a [`ParseError`] for text that is not JSON.
    ///
    /// ```
    /// use agentkit_core::provider::anthropic::CallStream;
    ///
    /// let mut stream = CallStream::new();
    /// assert!(stream.push_str(r#"{"type": "ping"}"#)?.is_empty());
    /// let err = stream.push_str(r#"{"type": "content_block_stop", "index": 3}"#).unwrap_err();
    /// assert_eq!(err.as_malformed().unwrap().path(), "event 2: index");
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn push_str(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError> {
        let number = self.events.next()?;
        let read = read_event(API, number, data)
            .map_err(StreamError::from)
            .and_then(|event| event.map_or(Ok(Vec::new()), |event| self.read(number, &event)));
        self.events.record(read)
    }

    /// The calls completed so far, in reply order.
    pub fn completed(&self) -> impl Iterator<Item = &ToolCall> {
        self.done.iter()
    }

    /// Every call of the message, in block order: what [`calls`](crate::provider::anthropic::calls) reads from
    /// the finished message.
    ///
    /// # Errors
    ///
    /// The error that broke the stream, if one did; a [`CutStream`] when `message_stop` did
    /// not come (the calls whose blocks had stopped are in it); a [`ParseError`] naming the
    /// first call whose block did not stop before `message_stop`.
    pub fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        self.events.check()?;
        if !self.stopped {
            let unfinished = self.blocks.values().filter_map(|block| match block {
                Block::Call(open) => Some(open.id.to_string()),
                Block::Other { .. } => None,
            });
            let unfinished: Vec<String> = unfinished.collect();
            return Err(
                CutStream::new(API, "`message_stop`", self.done.into_vec(), unfinished).into(),
            );
        }
        for block in self.blocks.values() {
            if let Block::Call(open) = block {
                return Err(ParseError::unfinished(
                    API,
                    &open.id,
                    "ended by `content_block_stop`",
                    "the end of the stream",
                )
                .into());
            }
        }
        Ok(self.done.into_vec())
    }

    fn read(&mut self, number: usize, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let root = At::event(API, number, event).object()?;
        let kind = root.get("type");
        let block_event = matches!(
            kind.str()?,
            "content_block_start" | "content_block_delta" | "content_block_stop"
        );
        if block_event && self.stopped {
            return Err(kind
                .error_found("no block event after `message_stop`", "one")
                .into());
        }
        let read = match kind.str()? {
            "message_start" => self.message_start(&root),
            "content_block_start" => self.start(&root).map(|()| Vec::new()),
            "content_block_delta" => self.delta(&root).map(|()| Vec::new()),
            "content_block_stop" => self.stop(&root),
            "message_stop" => {
                self.stopped = true;
                Ok(Vec::new())
            }
            "error" => return Err(provider_error(API, &root.get("error"), &["type"])),
            _ => Ok(Vec::new()),
        };
        Ok(read?)
    }

    fn message_start(&mut self, root: &At<'_>) -> Result<Vec<ToolCall>, ParseError> {
        let content = root.get("message").object()?.get("content");
        if !content.is_present() {
            return Ok(Vec::new());
        }
        let mut completed = Vec::new();
        for (place, block) in content.items()?.enumerate() {
            let place = place as u64;
            let block = block.object()?;
            match self.open(place, &block)? {
                Block::Call(open) => {
                    completed.push((place, self.complete(place, open)));
                }
                Block::Other { .. } => {
                    self.blocks.insert(place, Block::Other { open: false });
                }
            }
        }
        Ok(in_order(completed))
    }

    fn start(&mut self, root: &At<'_>) -> Result<(), ParseError> {
        let place = index(&root.get("index"))?;
        let block = self.open(place, &root.get("content_block").object()?)?;
        self.blocks.insert(place, block);
        Ok(())
    }

    /// The block that `block` (a content block's JSON) starts.
    fn open(&mut self, place: u64, block: &At<'_>) -> Result<Block, ParseError> {
        if self.blocks.contains_key(&place) || self.done.contains(place) {
            return Err(block.error_found("a block at a new index", "a second start"));
        }
        if block.get("type").str()? != "tool_use" {
            return Ok(Block::Other { open: true });
        }
        let id_at = block.get("id");
        let id = self.ids.claim(id_at.str()?, &id_at)?;
        Ok(Block::Call(Open {
            id,
            name: block.get("name").str()?.to_owned(),
            input: block.get("input").value().cloned().unwrap_or(Value::Null),
            text: String::new(),
        }))
    }

    fn delta(&mut self, root: &At<'_>) -> Result<(), ParseError> {
        let at = root.get("index");
        let delta = root.get("delta").object()?;
        match self.blocks.get_mut(&index(&at)?) {
            Some(Block::Call(open)) => {
                if delta.get("type").str()? == "input_json_delta" {
                    open.text.push_str(delta.get("partial_json").str()?);
                }
                Ok(())
            }
            Some(Block::Other { open: true }) => Ok(()),
            _ => Err(at.error_found("the index of a started block", "no open block there")),
        }
    }

    fn stop(&mut self, root: &At<'_>) -> Result<Vec<ToolCall>, ParseError> {
        let at = root.get("index");
        let place = index(&at)?;
        match self.blocks.remove(&place) {
            Some(Block::Other { open: true }) => {
                self.blocks.insert(place, Block::Other { open: false });
                Ok(Vec::new())
            }
            Some(Block::Call(open)) => Ok(vec![self.complete(place, open)]),
            other => {
                if let Some(block) = other {
                    self.blocks.insert(place, block);
                }
                Err(at.error_found("the index of a started block", "no open block there"))
            }
        }
    }

    fn complete(&mut self, place: u64, open: Open) -> ToolCall {
        let arguments = if open.text.trim().is_empty() {
            value_arguments(&At::root(API, &open.input))
        } else {
            match serde_json::from_str::<Value>(&open.text) {
                Ok(input) => value_arguments(&At::root(API, &input)),
                Err(_) => ToolArguments::Text(open.text),
            }
        };
        self.done
            .add(place, ToolCall::new(open.id, open.name, arguments))
    }
}
