//! [`CallStream`] for OpenAI Chat Completions: tool calls from `chat.completion.chunk`s.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::body::Body;
use super::error::{CutStream, StreamError};
use super::json_end::JsonEnd;
use super::{
    Completed, Decode, Events, Ids, has_none, in_order, index, provider_error, push_bytes,
    read_event,
};
use crate::call::{ToolArguments, ToolCall};
use crate::provider::parse::{At, ParseError};

const API: &str = "OpenAI Chat Completions";

/// The tool calls of a streamed Chat Completions reply (`"stream": true`), handed out as
/// their arguments complete.
///
/// Feed it the HTTP body's bytes as they arrive with [`push_bytes`](Self::push_bytes), or
/// each `chat.completion.chunk` of the stream, in order, with [`push`](Self::push) (the
/// parsed JSON) or [`push_str`](Self::push_str) (an event's `data:` text; `[DONE]` ends the
/// stream). Only the first choice (`"index": 0`) is read, as [`calls`](crate::provider::openai_chat::calls) reads
/// `choices[0]` of a finished reply; text, refusals, usage chunks and the other choices are
/// skipped.
///
/// # When a call is complete
///
/// The API sends a call as `delta.tool_calls[]` fragments sharing an `index`: the first has
/// the call's `id` and `function.name`, every one may add to `function.arguments`, and no
/// event ends a call. A call is complete, and handed out by the event that completes it:
///
/// - when its arguments text closes the JSON object (or array) it opened: the scan follows
///   strings and brackets as the fragments arrive, each byte once, so `{"a": "}"}` closes at
///   its last brace, not its first;
/// - otherwise (empty arguments of a tool without parameters, text that is not an object),
///   when the choice's `finish_reason` arrives.
///
/// So a call starts before the model has written the next one. The calls are those of the
/// finished reply: its arguments are the text of all its fragments, as `calls` reads the
/// finished message's `arguments`. This holds when fragments of parallel calls interleave
/// (each index has its own text) and when one chunk carries several calls.
///
/// What OpenAI-compatible servers send, and the official SDK reads, is read too: a name
/// sent in several fragments (before the arguments start; a fragment equal to the name so
/// far repeats it, as servers that repeat the name on every fragment do), and whitespace
/// after the arguments' JSON closed (dropped: the call was handed out without it).
///
/// # Errors
///
/// A [`StreamError`]:
///
/// - [`Malformed`](StreamError::Malformed), a [`ParseError`] naming the event (the first
///   is event 1) and the place in it, for a stream the API would not send: a fragment for an
///   index no call started (no `id` and `name`), a second `id` for a started call or
///   another `name` once its arguments began (repeating the same one is accepted), an id an
///   earlier call has, more arguments text than whitespace for a call whose JSON already closed (it was
///   handed out without them), a fragment after the `finish_reason`, a chunk with neither
///   `choices`, `usage` nor `error`, a field of the wrong type;
/// - [`Provider`](StreamError::Provider) for an `{"error": {...}}` object in the stream,
///   with its `code` (or `type`) and `message`;
/// - [`Cut`](StreamError::Cut), from [`finish`](Self::finish), for a stream that ended before
///   its `finish_reason` and `[DONE]`;
/// - [`Body`](StreamError::Body) for bytes that are not an event stream.
///
/// Calls of another `type` than `function` are skipped, as `calls` skips them.
///
/// ```
/// use agentkit_core::provider::openai_chat::{self, CallStream};
/// use serde_json::json;
///
/// let chunks = [
///     json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": null,
///         "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
///                         "function": {"name": "get_time", "arguments": ""}}]}}]}),
///     json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///         {"index": 0, "function": {"arguments": "{\"tz\": "}}]}}]}),
///     json!({"choices": [{"index": 0, "delta": {"tool_calls": [
///         {"index": 0, "function": {"arguments": "\"UTC\"}"}}]}}]}),
///     json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
/// ];
/// let mut stream = CallStream::new();
/// assert!(stream.push(&chunks[0])?.is_empty());
/// assert!(stream.push(&chunks[1])?.is_empty());
/// let ready = stream.push(&chunks[2])?; // the JSON closed: the call can start
/// assert_eq!(ready[0].id(), "call_1");
/// assert_eq!(ready[0].arguments().as_text(), Some("{\"tz\": \"UTC\"}"));
/// assert!(stream.push(&chunks[3])?.is_empty());
/// assert!(stream.push_str("[DONE]")?.is_empty());
///
/// let finished = json!({"role": "assistant", "content": null, "tool_calls": [
///     {"id": "call_1", "type": "function",
///      "function": {"name": "get_time", "arguments": "{\"tz\": \"UTC\"}"}},
/// ]});
/// assert_eq!(stream.finish()?, openai_chat::calls(&finished)?);
/// # Ok::<(), agentkit_core::provider::StreamError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallStream {
    events: Events,
    body: Body,
    // Whether `[DONE]` came.
    done_marker: bool,
    // Started and not complete, by index.
    open: BTreeMap<u64, Open>,
    done: Completed,
    // The indexes of calls of another type, whose fragments are skipped.
    skipped: BTreeSet<u64>,
    ids: Ids,
    // Whether the choice's `finish_reason` came.
    finished: bool,
}

#[derive(Debug, Clone)]
struct Open {
    id: Arc<str>,
    name: String,
    arguments: String,
    scan: JsonEnd,
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
    /// An accumulator for one streamed reply.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the longest line or event [`push_bytes`](Self::push_bytes) takes, in bytes
    /// (default [`DEFAULT_MAX_EVENT_BYTES`](crate::provider::DEFAULT_MAX_EVENT_BYTES)): past
    /// it, the body is a [`BodyError`](crate::provider::BodyError), not unbounded memory.
    pub fn with_max_event_bytes(mut self, limit: usize) -> Self {
        self.body.set_limit(limit);
        self
    }

    /// Reads the next piece of the HTTP body, as the client yields it (`reqwest`'s
    /// `bytes_stream()`, hyper's frames: any split); returns the calls its events
    /// completed, in reply order.
    ///
    /// The body is a server-sent event stream, read by the WHATWG rules (see
    /// [`provider`](crate::provider#reading-an-http-body)); a JSON body (the error a server
    /// answers with an error status) is read as one chunk.
    ///
    /// # Errors
    ///
    /// As [`push_str`](Self::push_str) for each event, and a
    /// [`BodyError`](crate::provider::BodyError) for bytes that are not an event stream.
    /// Calls that events before the error completed are in [`completed`](Self::completed).
    ///
    /// ```
    /// use agentkit_core::provider::openai_chat::CallStream;
    ///
    /// let body = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"tool_calls\": [{\"index\": 0, \
    ///             \"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"now\", \
    ///             \"arguments\": \"{}\"}}]}}]}\r\n\r\ndata: {\"choices\": [{\"index\": 0, \
    ///             \"delta\": {}, \"finish_reason\": \"tool_calls\"}]}\r\n\r\ndata: [DONE]\r\n\r\n";
    /// let mut stream = CallStream::new();
    /// let mut calls = Vec::new();
    /// for piece in body.as_bytes().chunks(7) {
    ///     calls.extend(stream.push_bytes(piece)?);
    /// }
    /// assert_eq!(calls[0].name(), "now");
    /// assert_eq!(stream.finish()?, calls);
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        push_bytes(self, API, bytes)
    }

    /// Reads one chunk (the JSON of one event); returns the calls it completed, in reply
    /// order.
    ///
    /// # Errors
    ///
    /// A [`StreamError`] when the chunk breaks the stream's documented shape or is an error
    /// (see [the type's docs](Self#errors)).
    pub fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let number = self.events.next()?;
        let read = self.read(number, event);
        self.events.record(read)
    }

    fn read(&mut self, number: usize, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let root = At::event(API, number, event).object()?;
        if root.get("error").is_present() {
            return Err(provider_error(API, &root.get("error"), &["code", "type"]));
        }
        let choices = root.get("choices");
        if !choices.is_present() {
            if has_none(&root, &["usage"]) {
                return Err(root
                    .error_found("a chunk with `choices`, `usage` or an `error`", "none")
                    .into());
            }
            return Ok(Vec::new());
        }
        let mut completed = Vec::new();
        for (position, choice) in choices.items()?.enumerate() {
            let choice = choice.object()?;
            let first = match choice.get("index").value() {
                Some(_) => index(&choice.get("index"))? == 0,
                None => position == 0,
            };
            if first {
                self.choice(&choice, &mut completed)?;
            }
        }
        Ok(in_order(completed))
    }

    /// Reads one event's `data:` text: the chunk's JSON, or `[DONE]` (the end of the stream).
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push), and a [`ParseError`] for text that is not JSON.
    ///
    /// ```
    /// use agentkit_core::provider::openai_chat::CallStream;
    ///
    /// let mut stream = CallStream::new();
    /// assert!(stream.push_str(r#"{"choices": [{"index": 0, "delta": {"content": "Hi"}}]}"#)?.is_empty());
    /// let err = stream.push_str("{\"choices\": [").unwrap_err();
    /// assert_eq!(err.as_malformed().unwrap().path(), "event 2");
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn push_str(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError> {
        let number = self.events.next()?;
        if data.trim() == "[DONE]" {
            self.done_marker = true;
            return Ok(Vec::new());
        }
        let read = read_event(API, number, data)
            .map_err(StreamError::from)
            .and_then(|event| event.map_or(Ok(Vec::new()), |event| self.read(number, &event)));
        self.events.record(read)
    }

    /// The calls completed so far, in reply order.
    pub fn completed(&self) -> impl Iterator<Item = &ToolCall> {
        self.done.iter()
    }

    /// Every call of the reply, in reply order: what [`calls`](crate::provider::openai_chat::calls) reads from the
    /// finished message.
    ///
    /// # Errors
    ///
    /// The error that broke the stream, if one did; a [`CutStream`] when neither the
    /// `finish_reason` nor `[DONE]` came (the stream was cut short: the calls that had
    /// completed are in it); a [`ParseError`] naming the first call (by index) that is not
    /// complete after a `[DONE]` without a `finish_reason`.
    ///
    /// ```
    /// use agentkit_core::provider::{StreamError, openai_chat::CallStream};
    /// use serde_json::json;
    ///
    /// let mut stream = CallStream::new();
    /// stream.push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
    ///     {"index": 0, "id": "call_1", "type": "function",
    ///      "function": {"name": "search", "arguments": "{}"}},
    ///     {"index": 1, "id": "call_2", "type": "function",
    ///      "function": {"name": "search", "arguments": "{\"q\": \"ru"}}]}}]}))?;
    /// let StreamError::Cut(cut) = stream.finish().unwrap_err() else { panic!() };
    /// assert_eq!(cut.completed()[0].id(), "call_1");
    /// assert_eq!(cut.unfinished(), ["call_2"]);
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        self.events.check()?;
        if !self.finished && !self.done_marker {
            let unfinished = self
                .open
                .values()
                .map(|open| open.id.to_string())
                .collect::<Vec<_>>();
            return Err(CutStream::new(
                API,
                "its `finish_reason` or `[DONE]`",
                self.done.into_vec(),
                unfinished,
            )
            .into());
        }
        if let Some(open) = self.open.values().next() {
            return Err(ParseError::unfinished(
                API,
                &open.id,
                "complete: its arguments' JSON closed, or a `finish_reason` came",
                "the end of the stream",
            )
            .into());
        }
        Ok(self.done.into_vec())
    }

    fn choice(
        &mut self,
        choice: &At<'_>,
        completed: &mut Vec<(u64, ToolCall)>,
    ) -> Result<(), ParseError> {
        let tool_calls = choice.get("delta").get("tool_calls");
        if tool_calls.is_present() {
            if self.finished {
                return Err(tool_calls.error_found(
                    "absent after the choice's `finish_reason`",
                    "more tool calls",
                ));
            }
            for fragment in tool_calls.items()? {
                self.fragment(&fragment.object()?, completed)?;
            }
        }
        if choice.get("finish_reason").is_present() {
            choice.get("finish_reason").str()?;
            self.finished = true;
            for (place, open) in std::mem::take(&mut self.open) {
                completed.push((place, self.complete(place, open)));
            }
        }
        Ok(())
    }

    fn fragment(
        &mut self,
        fragment: &At<'_>,
        completed: &mut Vec<(u64, ToolCall)>,
    ) -> Result<(), ParseError> {
        let place = index(&fragment.get("index"))?;
        if self.skipped.contains(&place) {
            return Ok(());
        }
        let id_at = fragment.get("id");
        let id = non_empty(id_at.opt_str()?);
        let function = fragment.get("function");
        if function.is_present() {
            function.clone().object()?;
        }
        let name_at = function.get("name");
        let name = non_empty(name_at.opt_str()?);
        let arguments_at = function.get("arguments");
        let arguments = arguments_at.opt_str()?.unwrap_or("");

        if let Some(call) = self.done.get(place) {
            same(&id_at, id, call.id())?;
            same(&name_at, name, call.name())?;
            // Whitespace after the JSON closed changes nothing the call means.
            if !arguments.trim_ascii().is_empty() {
                return Err(arguments_at.error_found(
                    "no more text than whitespace: the call's JSON had closed",
                    "more arguments",
                ));
            }
            return Ok(());
        }
        if let Some(mut open) = self.open.remove(&place) {
            same(&id_at, id, &open.id)?;
            match name {
                // The rest of a name sent in pieces, before the arguments begin.
                Some(name) if name != open.name && open.arguments.is_empty() => {
                    open.name.push_str(name);
                }
                _ => same(&name_at, name, &open.name)?,
            }
            open.arguments.push_str(arguments);
            if open.scan.feed(arguments) {
                completed.push((place, self.complete(place, open)));
            } else {
                self.open.insert(place, open);
            }
            return Ok(());
        }

        // The first fragment of a call.
        if !matches!(fragment.get("type").opt_str()?, None | Some("function")) {
            self.skipped.insert(place);
            return Ok(());
        }
        let Some(id) = id else {
            return Err(id_at.error("a string: the first fragment of a call has its id"));
        };
        let Some(name) = name else {
            return Err(name_at.error("a string: the first fragment of a call has its name"));
        };
        let id = self.ids.claim(id, &id_at)?;
        let mut open = Open {
            id,
            name: name.to_owned(),
            arguments: arguments.to_owned(),
            scan: JsonEnd::default(),
        };
        if open.scan.feed(arguments) {
            completed.push((place, self.complete(place, open)));
        } else {
            self.open.insert(place, open);
        }
        Ok(())
    }

    fn complete(&mut self, place: u64, open: Open) -> ToolCall {
        let call = ToolCall::new(open.id, open.name, ToolArguments::Text(open.arguments));
        self.done.add(place, call)
    }
}

/// Servers that repeat a call's `id` or `name` on later fragments send an empty one too.
fn non_empty(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.is_empty())
}

/// A later fragment may repeat the call's `id` or `name`, never change it.
fn same(at: &At<'_>, given: Option<&str>, started: &str) -> Result<(), ParseError> {
    match given {
        Some(given) if given != started => Err(at.error_found(
            "the value the call started with",
            "a second start for the index",
        )),
        _ => Ok(()),
    }
}
