//! Streamed replies: tool calls read from a reply's server-sent events as they arrive, one
//! `CallStream` per API, each re-exported from its API's module.
//!
//! Each accumulator takes the events in the order the API sent them and hands back every
//! call the moment its arguments are complete, with the id, name and arguments that the
//! API's `calls(..)` reads from the finished reply; `finish` then gives every call of the
//! reply in reply order. What they share lives here: the event count that error messages
//! name, reading an event's text, indexes, the ids already taken, the errors a stream ends
//! with ([`error`]), and the framing of an HTTP body's bytes into events ([`body`]).

pub(super) mod anthropic;
pub(super) mod body;
pub(super) mod error;
pub(super) mod gemini;
mod json_end;
pub(super) mod openai_chat;
pub(super) mod openai_responses;
mod sse;

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use self::body::Body;
use self::error::{ProviderError, StreamError};
use super::parse::{At, ParseError};
use crate::call::ToolCall;

/// The events pushed so far: their count, which error messages name (the `n`th event
/// pushed is event `n`), and the error that broke the stream, if one did.
///
/// A broken stream stays broken: every later push, and `finish`, give its error again, so
/// that no call is lost to a caller who went on after it.
#[derive(Debug, Clone, Default)]
pub(super) struct Events {
    count: usize,
    failed: Option<StreamError>,
}

impl Events {
    /// The number of the event being pushed now, unless the stream is broken.
    pub(super) fn next(&mut self) -> Result<usize, StreamError> {
        self.check()?;
        self.count += 1;
        Ok(self.count)
    }

    /// Passes on what reading an event gave, keeping its error.
    pub(super) fn record<T>(&mut self, read: Result<T, StreamError>) -> Result<T, StreamError> {
        if let (Err(error), None) = (&read, &self.failed) {
            self.failed = Some(error.clone());
        }
        read
    }

    /// The error that broke the stream, if one did.
    pub(super) fn check(&self) -> Result<(), StreamError> {
        match &self.failed {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }
}

/// The JSON of one event's `data:` text; `None` for an empty one (a keep-alive).
pub(super) fn read_event(
    api: &'static str,
    number: usize,
    data: &str,
) -> Result<Option<Value>, ParseError> {
    let data = data.trim();
    if data.is_empty() {
        return Ok(None);
    }
    serde_json::from_str(data)
        .map(Some)
        .map_err(|_| At::event(api, number, &Value::Null).error_found("JSON", "malformed JSON"))
}

/// Whether `at` holds an object with none of `keys`: a chunk the decoder would not read
/// anything from, which must not pass as a quiet success.
pub(super) fn has_none(at: &At<'_>, keys: &[&str]) -> bool {
    keys.iter().all(|key| !at.get(key).is_present())
}

/// The error a provider reported at `at` (an error object, or its message alone): its code is
/// the first of `codes` that is there (a string or a number), its message the `message`.
pub(super) fn provider_error(api: &'static str, at: &At<'_>, codes: &[&str]) -> StreamError {
    let text = |value: Option<&Value>| match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Number(number)) => number.to_string(),
        _ => String::new(),
    };
    let error = match at.value() {
        Some(Value::String(message)) => ProviderError::new(api, "", message),
        Some(Value::Object(object)) => {
            let code = codes
                .iter()
                .map(|key| text(object.get(*key)))
                .find(|code| !code.is_empty())
                .unwrap_or_default();
            ProviderError::new(api, &code, &text(object.get("message")))
        }
        _ => ProviderError::new(api, "", ""),
    };
    StreamError::Provider(error)
}

/// A stream decoder's parts that reading an HTTP body needs.
pub(super) trait Decode {
    /// The events pushed so far.
    fn events(&mut self) -> &mut Events;
    /// The framing of the body's bytes.
    fn body(&mut self) -> &mut Body;
    /// Reads one event's `data:` text (`push_str`).
    fn push_data(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError>;
}

/// Reads a piece of an HTTP body: every event it completes is pushed, and the calls they
/// complete come back in order.
pub(super) fn push_bytes<S: Decode>(
    stream: &mut S,
    api: &'static str,
    bytes: &[u8],
) -> Result<Vec<ToolCall>, StreamError> {
    stream.events().check()?;
    let mut body = std::mem::take(stream.body());
    let mut calls = Vec::new();
    let read = body.feed(api, bytes, &mut |data| {
        calls.extend(stream.push_data(data)?);
        Ok(())
    });
    *stream.body() = body;
    stream.events().record(read)?;
    Ok(calls)
}

/// The index (a non-negative integer) at `at`.
pub(super) fn index(at: &At<'_>) -> Result<u64, ParseError> {
    at.value()
        .and_then(Value::as_u64)
        .ok_or_else(|| at.error("a non-negative integer"))
}

/// The call ids a stream has seen: a second call with one is a malformed stream, since its
/// result could not be told from the first's.
#[derive(Debug, Clone, Default)]
pub(super) struct Ids(HashSet<Arc<str>>);

impl Ids {
    /// Takes `id` for a new call, or fails at `at` when an earlier call has it.
    pub(super) fn claim(&mut self, id: &str, at: &At<'_>) -> Result<Arc<str>, ParseError> {
        if self.0.contains(id) {
            return Err(at.error_found("an id no earlier call has", "a duplicate"));
        }
        let id: Arc<str> = Arc::from(id);
        self.0.insert(Arc::clone(&id));
        Ok(id)
    }
}

/// The calls a stream has completed, by their place in the reply (an index the API gives,
/// or the order they came in).
#[derive(Debug, Clone, Default)]
pub(super) struct Completed(BTreeMap<u64, ToolCall>);

impl Completed {
    /// Records `call` at `place` and returns it, for the event that completed it.
    pub(super) fn add(&mut self, place: u64, call: ToolCall) -> ToolCall {
        self.0.insert(place, call.clone());
        call
    }

    pub(super) fn get(&self, place: u64) -> Option<&ToolCall> {
        self.0.get(&place)
    }

    pub(super) fn contains(&self, place: u64) -> bool {
        self.0.contains_key(&place)
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &ToolCall> {
        self.0.values()
    }

    pub(super) fn into_vec(self) -> Vec<ToolCall> {
        self.0.into_values().collect()
    }
}

/// Sorts what one event completed into reply order (an event may complete several calls, and
/// not always in that order).
pub(super) fn in_order(mut completed: Vec<(u64, ToolCall)>) -> Vec<ToolCall> {
    completed.sort_by_key(|(place, _)| *place);
    completed.into_iter().map(|(_, call)| call).collect()
}
