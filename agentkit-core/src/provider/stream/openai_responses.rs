//! [`CallStream`] for OpenAI Responses: function calls from a response's streaming events.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::body::Body;
use super::error::{CutStream, StreamError};
use super::{Completed, Decode, Events, Ids, index, provider_error, push_bytes, read_event};
use crate::call::{ToolArguments, ToolCall};
use crate::provider::parse::{At, ParseError};

const API: &str = "OpenAI Responses";

/// The function calls of a streamed Responses reply (`"stream": true`), each handed out
/// when its arguments are done.
///
/// Feed it the HTTP body's bytes as they arrive with [`push_bytes`](Self::push_bytes), or
/// each event's JSON, in order, with [`push`](Self::push) or [`push_str`](Self::push_str)
/// (the `data:` text). The events, each keyed by the output
/// item's `output_index`:
///
/// | event | read |
/// |---|---|
/// | `response.output_item.added` | a `function_call` item starts a call: its `call_id`, `name`, `id` |
/// | `response.function_call_arguments.delta` | its `delta` adds to the call's arguments |
/// | `response.function_call_arguments.done` | the call is complete, with the event's `arguments` (the whole text): handed out by this event |
/// | `response.output_item.done` | the finished item: completes the call if the `done` above was missed, and must agree with it otherwise |
/// | `response.completed`, `response.incomplete` | the finished response, and the end of the stream: its `function_call` items must be the calls, and any not seen yet are handed out |
/// | `response.failed`, `error` | a [`StreamError::Provider`] with the error's `code` and `message`: the response failed |
///
/// Other items (messages, reasoning, built-in tools' calls) and events (text deltas, the
/// response's progress) are skipped, as [`calls`](crate::provider::openai_responses::calls) skips them; so are event
/// types it does not know. A call's id is the item's `call_id` (not its `id`, `fc_...`), and
/// its arguments the JSON text as sent, as `calls` reads them from the finished response.
/// Calls come in `output_index` order, the order of the response's `output`.
///
/// # Errors
///
/// A [`StreamError`]: [`Malformed`](StreamError::Malformed), a [`ParseError`] naming the
/// event and the place in it, for a delta or `done` for an index no call started (or already
/// done), an `item_id` that is not the call's, a second item at one index, an id an earlier
/// call has, a finished item or response whose calls differ from those the events made, a
/// field of the wrong type; [`Provider`](StreamError::Provider) for an `error` event or a
/// failed response; [`Cut`](StreamError::Cut), from [`finish`](Self::finish), for a stream
/// that ended before `response.completed` (or `response.incomplete`);
/// [`Body`](StreamError::Body) for bytes that are not an event stream.
///
/// ```
/// use agentkit_core::provider::openai_responses::{self, CallStream};
/// use serde_json::json;
///
/// let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
///                   "name": "get_time", "arguments": "", "status": "in_progress"});
/// let events = [
///     json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
///     json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
///            "output_index": 0, "delta": "{\"tz\": "}),
///     json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1",
///            "output_index": 0, "delta": "\"UTC\"}"}),
///     json!({"type": "response.function_call_arguments.done", "item_id": "fc_1",
///            "output_index": 0, "arguments": "{\"tz\": \"UTC\"}"}),
/// ];
/// let mut stream = CallStream::new();
/// let handed: Vec<_> = events.iter().map(|event| stream.push(event).map(|calls| calls.len()))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(handed, [0, 0, 0, 1]);
///
/// let finished = json!({"output": [{"type": "function_call", "id": "fc_1",
///     "call_id": "call_1", "name": "get_time", "arguments": "{\"tz\": \"UTC\"}"}]});
/// stream.push(&json!({"type": "response.completed", "response": finished}))?;
/// assert_eq!(stream.finish()?, openai_responses::calls(&finished)?);
/// # Ok::<(), agentkit_core::provider::StreamError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallStream {
    events: Events,
    body: Body,
    // Whether the finished response came.
    ended: bool,
    // Function calls started and not done, by output index.
    open: BTreeMap<u64, Open>,
    done: Completed,
    ids: Ids,
}

#[derive(Debug, Clone)]
struct Open {
    call_id: Arc<str>,
    item_id: Option<String>,
    name: String,
    arguments: String,
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
    /// An accumulator for one streamed response.
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
    /// the calls its events completed, in output order.
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
    /// use agentkit_core::provider::{StreamError, openai_responses::CallStream};
    ///
    /// let body = "event: error\ndata: {\"type\": \"error\", \"code\": \"server_error\", \
    ///             \"message\": \"The server had an error\"}\n\n";
    /// let mut stream = CallStream::new();
    /// let StreamError::Provider(error) = stream.push_bytes(body.as_bytes()).unwrap_err() else {
    ///     panic!()
    /// };
    /// assert_eq!(error.code(), "server_error");
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        push_bytes(self, API, bytes)
    }

    /// Reads one event (its JSON); returns the calls it completed, in output order.
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
    /// use agentkit_core::provider::openai_responses::CallStream;
    ///
    /// let mut stream = CallStream::new();
    /// let err = stream
    ///     .push_str(r#"{"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{"}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.as_malformed().unwrap().path(), "event 1: output_index");
    /// ```
    pub fn push_str(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError> {
        let number = self.events.next()?;
        let read = read_event(API, number, data)
            .map_err(StreamError::from)
            .and_then(|event| event.map_or(Ok(Vec::new()), |event| self.read(number, &event)));
        self.events.record(read)
    }

    /// The calls completed so far, in output order.
    pub fn completed(&self) -> impl Iterator<Item = &ToolCall> {
        self.done.iter()
    }

    /// Every call of the response, in output order: what [`calls`](crate::provider::openai_responses::calls) reads from
    /// the finished response.
    ///
    /// # Errors
    ///
    /// The error that broke the stream, if one did; a [`CutStream`] when the finished
    /// response did not come (the calls that were done are in it).
    pub fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        self.events.check()?;
        if !self.ended {
            let unfinished: Vec<String> = self
                .open
                .values()
                .map(|open| open.call_id.to_string())
                .collect();
            return Err(CutStream::new(
                API,
                "`response.completed` (or `response.incomplete`)",
                self.done.into_vec(),
                unfinished,
            )
            .into());
        }
        if let Some(open) = self.open.values().next() {
            return Err(ParseError::unfinished(
                API,
                &open.call_id,
                "done (`response.function_call_arguments.done` or `response.output_item.done`)",
                "the end of the stream",
            )
            .into());
        }
        Ok(self.done.into_vec())
    }

    fn read(&mut self, number: usize, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let root = At::event(API, number, event).object()?;
        let kind = root.get("type");
        if !kind.is_present() && root.get("error").is_present() {
            // The JSON body of an error status.
            return Err(provider_error(API, &root.get("error"), &["code", "type"]));
        }
        let read = match kind.str()? {
            "response.output_item.added" => self.added(&root).map(|()| Vec::new()),
            "response.function_call_arguments.delta" => self.delta(&root).map(|()| Vec::new()),
            "response.function_call_arguments.done" => self.arguments_done(&root),
            "response.output_item.done" => {
                let place = index(&root.get("output_index"))?;
                self.item_done(place, &root.get("item").object()?)
                    .map(|call| call.into_iter().collect())
            }
            "response.completed" | "response.incomplete" => {
                self.ended = true;
                self.completed_response(&root)
            }
            "response.failed" => {
                let error = root.get("response").get("error");
                return Err(provider_error(API, &error, &["code", "type"]));
            }
            "error" => {
                // The documented event has its fields at the top; some servers nest them.
                let error = root.get("error");
                return Err(if error.is_present() {
                    provider_error(API, &error, &["code", "type"])
                } else {
                    provider_error(API, &root, &["code"])
                });
            }
            _ => Ok(Vec::new()),
        };
        Ok(read?)
    }

    fn added(&mut self, root: &At<'_>) -> Result<(), ParseError> {
        let at = root.get("output_index");
        let place = index(&at)?;
        let item = root.get("item").object()?;
        if item.get("type").str()? != "function_call" {
            return Ok(());
        }
        if self.open.contains_key(&place) || self.done.contains(place) {
            return Err(at.error_found("the index of a new item", "a second item there"));
        }
        let open = self.start(&item)?;
        self.open.insert(place, open);
        Ok(())
    }

    /// A call started by `item`, a `function_call` item.
    fn start(&mut self, item: &At<'_>) -> Result<Open, ParseError> {
        let id_at = item.get("call_id");
        let call_id = self.ids.claim(id_at.str()?, &id_at)?;
        Ok(Open {
            call_id,
            item_id: item.get("id").opt_str()?.map(str::to_owned),
            name: item.get("name").str()?.to_owned(),
            arguments: item.get("arguments").opt_str()?.unwrap_or("").to_owned(),
        })
    }

    /// Takes the open call at the event's `output_index`, checked against its `item_id`.
    fn take_open(&mut self, root: &At<'_>) -> Result<(u64, Open), ParseError> {
        let at = root.get("output_index");
        let place = index(&at)?;
        let item_id = root.get("item_id");
        let given = item_id.opt_str()?;
        let Some(open) = self.open.remove(&place) else {
            return Err(at.error_found(
                "the index of a function call that started and is not done",
                "none",
            ));
        };
        if let (Some(given), Some(started)) = (given, &open.item_id)
            && given != started
        {
            return Err(item_id.error_found("the `id` of the call's item", "another id"));
        }
        Ok((place, open))
    }

    fn delta(&mut self, root: &At<'_>) -> Result<(), ParseError> {
        let delta = root.get("delta").str()?;
        let (place, mut open) = self.take_open(root)?;
        open.arguments.push_str(delta);
        self.open.insert(place, open);
        Ok(())
    }

    fn arguments_done(&mut self, root: &At<'_>) -> Result<Vec<ToolCall>, ParseError> {
        let arguments = root.get("arguments").str()?;
        let name_at = root.get("name");
        let name = name_at.opt_str()?;
        let (place, mut open) = self.take_open(root)?;
        if name.is_some_and(|name| name != open.name) {
            return Err(name_at.error_found("the call's name", "another name"));
        }
        // The whole text: what the finished item holds, whatever deltas were missed.
        open.arguments = arguments.to_owned();
        Ok(vec![self.complete(place, open)])
    }

    /// A finished `function_call` item at `place`: completes the call, or checks it.
    fn item_done(&mut self, place: u64, item: &At<'_>) -> Result<Option<ToolCall>, ParseError> {
        if item.get("type").str()? != "function_call" {
            return Ok(None);
        }
        let call_id = item.get("call_id").str()?;
        let name = item.get("name").str()?;
        let arguments = item.get("arguments").str()?;
        if let Some(call) = self.done.get(place) {
            if call.id() != call_id
                || call.name() != name
                || call.arguments().as_text() != Some(arguments)
            {
                return Err(item.error_found("the call its events made", "another call"));
            }
            return Ok(None);
        }
        let mut open = match self.open.remove(&place) {
            Some(open) => open,
            // Its `added` event was missed: the finished item has all of the call.
            None => self.start(item)?,
        };
        if &*open.call_id != call_id || open.name != name {
            return Err(item.error_found("the call its events made", "another call"));
        }
        open.arguments = arguments.to_owned();
        Ok(Some(self.complete(place, open)))
    }

    fn completed_response(&mut self, root: &At<'_>) -> Result<Vec<ToolCall>, ParseError> {
        let output = root.get("response").object()?.get("output");
        let mut completed = Vec::new();
        let mut calls = 0;
        for (place, item) in output.items()?.enumerate() {
            let item = item.object()?;
            if let Some(call) = self.item_done(place as u64, &item)? {
                completed.push(call);
            }
            if item.get("type").str()? == "function_call" {
                calls += 1;
            }
        }
        if calls != self.done.len() || !self.open.is_empty() {
            return Err(output.error_found("every call the events made", "other calls"));
        }
        Ok(completed)
    }

    fn complete(&mut self, place: u64, open: Open) -> ToolCall {
        let call = ToolCall::new(open.call_id, open.name, ToolArguments::Text(open.arguments));
        self.done.add(place, call)
    }
}
