//! [`CallStream`] for Google Gemini: function calls from `streamGenerateContent` chunks.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::body::Body;
use super::error::{CutStream, ProviderError, StreamError};
use super::{
    Completed, Decode, Events, Ids, has_none, index, provider_error, push_bytes, read_event,
};
use crate::call::ToolCall;
use crate::provider::gemini::GENERATED_ID_PREFIX;
use crate::provider::parse::{At, ParseError, value_arguments};

const API: &str = "Google Gemini";

/// The function calls of a streamed Gemini reply (`models.streamGenerateContent?alt=sse`),
/// each handed out the moment it is whole.
///
/// Feed it the HTTP body's bytes as they arrive with [`push_bytes`](Self::push_bytes)
/// (server-sent events with `alt=sse`, or the JSON array of chunks without it), or each
/// chunk, a `GenerateContentResponse`, in order, with [`push`](Self::push) or
/// [`push_str`](Self::push_str) (an event's `data:` text). Only the first candidate
/// (`"index": 0`) is read, as [`calls`](crate::provider::gemini::calls) reads `candidates[0]`; its content's
/// parts over all chunks are the finished reply's parts, and its `functionCall` parts are the
/// calls. Text, thoughts and the other candidates are skipped.
///
/// # When a call is complete
///
/// The Gemini API sends each `functionCall` part whole (`{"name", "args", "id"}`) in one
/// chunk: it is complete, and handed out by that chunk.
///
/// Vertex AI's Gemini streams a call's arguments in pieces when the request's
/// `toolConfig.functionCallingConfig.streamFunctionCallArguments` is true (the API reference
/// marks the fields "not supported in Gemini API"): the call starts with a `functionCall`
/// part that has its `name` and `"willContinue": true`; later parts carry `partialArgs`, each
/// `{"jsonPath": "$.location", "stringValue" | "numberValue" | "boolValue" | "nullValue",
/// "willContinue"}` (a string whose piece has `"willContinue": true` goes on in the next piece
/// for the same path); the part without `willContinue` (often an empty `functionCall`) ends
/// it. The call is complete there, its `args` built from the pieces: what the finished call's
/// `args` holds.
///
/// A call without an `id` gets the [generated one](crate::provider::gemini#call-ids) `calls` gives it, from its
/// place among the reply's calls.
///
/// The stream ends with the first candidate's `finishReason`.
///
/// # Errors
///
/// A [`StreamError`]: [`Malformed`](StreamError::Malformed), a [`ParseError`] naming the
/// event and the place in it, for a continuation with no call started, a new call (another
/// `name`) before the started one ended, an id an earlier call has, a `jsonPath` that is not
/// a path of names and indexes (`$.a.b[0]`) or that does not fit what earlier pieces built,
/// a chunk with none of `candidates`, `promptFeedback`, `usageMetadata`, `modelVersion`,
/// `responseId` (nothing this decoder would read, which must not pass as a success), a
/// field of the wrong type, or a call still in pieces at the `finishReason`;
/// [`Provider`](StreamError::Provider) for a chunk `{"error": {...}}` (its `status`, or
/// `code`, and `message`) and for a prompt the API blocked (`promptFeedback.blockReason`);
/// [`Cut`](StreamError::Cut), from [`finish`](Self::finish), for a stream that ended before
/// a `finishReason`; [`Body`](StreamError::Body) for bytes that are neither an event stream
/// nor a JSON array of chunks.
///
/// ```
/// use agentkit_core::provider::gemini::{self, CallStream};
/// use serde_json::json;
///
/// let chunks = [
///     json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Checking."}]},
///                            "index": 0}]}),
///     json!({"candidates": [{"content": {"role": "model", "parts": [
///         {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "fc_1"}},
///     ]}, "index": 0}]}),
///     json!({"candidates": [{"content": {"role": "model", "parts": []},
///                            "finishReason": "STOP", "index": 0}]}),
/// ];
/// let mut stream = CallStream::new();
/// assert!(stream.push(&chunks[0])?.is_empty());
/// assert_eq!(stream.push(&chunks[1])?[0].id(), "fc_1");
/// assert!(stream.push(&chunks[2])?.is_empty());
///
/// let finished = json!({"role": "model", "parts": [
///     {"text": "Checking."},
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "fc_1"}},
/// ]});
/// assert_eq!(stream.finish()?, gemini::calls(&finished)?);
/// # Ok::<(), agentkit_core::provider::StreamError>(())
/// ```
///
/// Arguments in pieces (Vertex AI):
///
/// ```
/// use agentkit_core::ToolArguments;
/// use agentkit_core::provider::gemini::CallStream;
/// use serde_json::{Value, json};
///
/// let part = |call: Value| json!({"candidates": [{"content": {"role": "model",
///                                                 "parts": [{"functionCall": call}]}}]});
/// let mut stream = CallStream::new();
/// stream.push(&part(json!({"name": "get_weather", "willContinue": true})))?;
/// stream.push(&part(json!({"willContinue": true, "partialArgs": [
///     {"jsonPath": "$.location", "stringValue": "Boston", "willContinue": true}]})))?;
/// stream.push(&part(json!({"willContinue": true, "partialArgs": [
///     {"jsonPath": "$.location", "stringValue": ", MA"},
///     {"jsonPath": "$.days", "numberValue": 3}]})))?;
/// let calls = stream.push(&part(json!({})))?;
/// assert_eq!(calls[0].arguments(), &ToolArguments::Value(json!({"location": "Boston, MA", "days": 3})));
/// # Ok::<(), agentkit_core::provider::StreamError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallStream {
    events: Events,
    body: Body,
    // Whether the first candidate's `finishReason` came.
    ended: bool,
    // The call whose arguments are coming in pieces, if one is.
    open: Option<Open>,
    done: Completed,
    ids: Ids,
}

#[derive(Debug, Clone)]
struct Open {
    id: Option<Arc<str>>,
    name: String,
    args: Map<String, Value>,
    // The `jsonPath` of a string whose next piece is still to come.
    continuing: Option<String>,
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

    /// Sets the longest line, event or JSON chunk [`push_bytes`](Self::push_bytes) takes, in
    /// bytes (default [`DEFAULT_MAX_EVENT_BYTES`](crate::provider::DEFAULT_MAX_EVENT_BYTES)).
    pub fn with_max_event_bytes(mut self, limit: usize) -> Self {
        self.body.set_limit(limit);
        self
    }

    /// Reads the next piece of the HTTP body, as the client yields it (any split); returns
    /// the calls its chunks completed, in order.
    ///
    /// The body is a server-sent event stream (`?alt=sse`), read by the WHATWG rules, or the
    /// JSON array of chunks `streamGenerateContent` sends without `alt=sse`, each chunk read
    /// when its closing brace arrives (see
    /// [`provider`](crate::provider#reading-an-http-body)); a JSON object (the error the API
    /// answers with an error status) is read as one chunk.
    ///
    /// # Errors
    ///
    /// As [`push_str`](Self::push_str) for each chunk, and a
    /// [`BodyError`](crate::provider::BodyError) for bytes that are neither.
    /// Calls that chunks before the error completed are in [`completed`](Self::completed).
    ///
    /// ```
    /// use agentkit_core::provider::gemini::CallStream;
    ///
    /// let body = r#"[{"candidates": [{"content": {"role": "model", "parts": [
    ///   {"functionCall": {"name": "now", "args": {}}}]}, "index": 0}]}
    /// ,
    /// {"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
    ///   "finishReason": "STOP", "index": 0}]}
    /// ]"#;
    /// let mut stream = CallStream::new();
    /// let mut calls = Vec::new();
    /// for piece in body.as_bytes().chunks(9) {
    ///     calls.extend(stream.push_bytes(piece)?);
    /// }
    /// assert_eq!(calls[0].name(), "now");
    /// assert_eq!(stream.finish()?, calls);
    /// # Ok::<(), agentkit_core::provider::StreamError>(())
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        push_bytes(self, API, bytes)
    }

    /// Reads one chunk (the JSON of one event); returns the calls it completed, in order.
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

    /// Reads one event's `data:` text.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push), and a [`ParseError`] for text that is not JSON.
    ///
    /// ```
    /// use agentkit_core::provider::gemini::CallStream;
    ///
    /// let mut stream = CallStream::new();
    /// let err = stream.push_str(r#"{"candidates": [{"content": {"parts": [
    ///     {"functionCall": {"args": {}}}]}}]}"#).unwrap_err();
    /// assert_eq!(
    ///     err.as_malformed().unwrap().path(),
    ///     "event 1: candidates[0].content.parts[0].functionCall.name",
    /// );
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

    /// Every call of the reply, in order: what [`calls`](crate::provider::gemini::calls) reads from the
    /// finished reply (the first candidate's parts of every chunk).
    ///
    /// # Errors
    ///
    /// The error that broke the stream, if one did; a [`CutStream`] when no `finishReason`
    /// came (the calls that were whole are in it).
    pub fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        self.events.check()?;
        if !self.ended {
            let unfinished: Vec<String> = self.open.iter().map(|open| self.open_id(open)).collect();
            return Err(
                CutStream::new(API, "a `finishReason`", self.done.into_vec(), unfinished).into(),
            );
        }
        Ok(self.done.into_vec())
    }

    /// The id of the call in pieces: its own, or the one `calls` would give it.
    fn open_id(&self, open: &Open) -> String {
        match &open.id {
            Some(id) => id.to_string(),
            None => format!("{GENERATED_ID_PREFIX}{}", self.done.len()),
        }
    }

    fn read(&mut self, number: usize, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        let root = At::event(API, number, event).object()?;
        if root.get("error").is_present() {
            return Err(provider_error(API, &root.get("error"), &["status", "code"]));
        }
        let candidates = root.get("candidates");
        if !candidates.is_present() {
            let blocked = root.get("promptFeedback").get("blockReason");
            if let Some(reason) = blocked.value().and_then(Value::as_str) {
                let message = "the prompt was blocked";
                return Err(ProviderError::new(API, reason, message).into());
            }
            let known = [
                "promptFeedback",
                "usageMetadata",
                "modelVersion",
                "responseId",
            ];
            if has_none(&root, &known) {
                return Err(root
                    .error_found("a chunk with `candidates`, or an `error`", "neither")
                    .into());
            }
            return Ok(Vec::new());
        }
        let mut completed = Vec::new();
        for (position, candidate) in candidates.items()?.enumerate() {
            let candidate = candidate.object()?;
            let first = match candidate.get("index").value() {
                Some(_) => index(&candidate.get("index"))? == 0,
                None => position == 0,
            };
            if !first {
                continue;
            }
            let finish_reason = candidate.get("finishReason");
            let content = candidate.get("content");
            if content.is_present() {
                let parts = content.object()?.get("parts");
                if parts.is_present() {
                    for part in parts.items()? {
                        let call = part.object()?.get("functionCall");
                        if call.is_present() {
                            completed.extend(self.function_call(&call.object()?)?);
                        }
                    }
                }
            }
            if finish_reason.is_present() {
                finish_reason.str()?;
                self.ended = true;
                if let Some(open) = &self.open {
                    let id = self.open_id(open);
                    return Err(ParseError::unfinished(
                        API,
                        &id,
                        "ended by a `functionCall` part without `willContinue`",
                        "the `finishReason`",
                    )
                    .into());
                }
            }
        }
        Ok(completed)
    }

    /// One `functionCall` part: a whole call, the start of one, a piece, or the end.
    fn function_call(&mut self, call: &At<'_>) -> Result<Option<ToolCall>, ParseError> {
        let name_at = call.get("name");
        let name = name_at.opt_str()?.filter(|name| !name.is_empty());
        let id_at = call.get("id");
        let id = id_at.opt_str()?.filter(|id| !id.is_empty());
        let will_continue = match call.get("willContinue").value() {
            None | Some(Value::Null) => false,
            Some(Value::Bool(flag)) => *flag,
            Some(_) => return Err(call.get("willContinue").error("a boolean")),
        };
        let pieces = call.get("partialArgs");

        let mut open = match self.open.take() {
            Some(open) => {
                if name.is_some_and(|name| name != open.name) {
                    return Err(name_at.error_found(
                        "absent or the started call's name",
                        "a new call before the started one ended",
                    ));
                }
                match (id, &open.id) {
                    (Some(id), Some(started)) if id != &**started => {
                        return Err(id_at.error_found("the started call's id", "another id"));
                    }
                    _ => {}
                }
                open
            }
            None => {
                let Some(name) = name else {
                    return Err(name_at.error("a string: a call starts with its name"));
                };
                if !will_continue && !pieces.is_present() {
                    // A whole call, as the Gemini API sends them.
                    let args = value_arguments(&call.get("args"));
                    let id = self.claim(id, &id_at)?;
                    return Ok(Some(self.complete(id, name.to_owned(), args)));
                }
                Open {
                    id: match id {
                        Some(id) => Some(self.ids.claim(id, &id_at)?),
                        None => None,
                    },
                    name: name.to_owned(),
                    args: Map::new(),
                    continuing: None,
                }
            }
        };
        if open.id.is_none()
            && let Some(id) = id
        {
            open.id = Some(self.ids.claim(id, &id_at)?);
        }
        let args = call.get("args");
        if args.is_present() {
            let given = args
                .value()
                .and_then(Value::as_object)
                .ok_or_else(|| args.error("an object"))?;
            for (key, value) in given {
                open.args.insert(key.clone(), value.clone());
            }
        }
        if pieces.is_present() {
            for piece in pieces.items()? {
                open.piece(&piece.object()?)?;
            }
        }
        if will_continue {
            self.open = Some(open);
            return Ok(None);
        }
        let id = match open.id {
            Some(id) => id,
            None => Arc::from(format!("{GENERATED_ID_PREFIX}{}", self.done.len())),
        };
        Ok(Some(self.complete(
            id,
            open.name,
            crate::ToolArguments::Value(Value::Object(open.args)),
        )))
    }

    /// The id of a whole call: its own, or the one `calls` generates for its place.
    fn claim(&mut self, id: Option<&str>, at: &At<'_>) -> Result<Arc<str>, ParseError> {
        match id {
            Some(id) => self.ids.claim(id, at),
            None => Ok(Arc::from(format!(
                "{GENERATED_ID_PREFIX}{}",
                self.done.len()
            ))),
        }
    }

    fn complete(&mut self, id: Arc<str>, name: String, args: crate::ToolArguments) -> ToolCall {
        let place = self.done.len() as u64;
        self.done.add(place, ToolCall::new(id, name, args))
    }
}

impl Open {
    /// Puts one `partialArgs` piece into the arguments.
    fn piece(&mut self, piece: &At<'_>) -> Result<(), ParseError> {
        let path_at = piece.get("jsonPath");
        let path = path_at.str()?;
        let Some(segments) = segments(path) else {
            return Err(path_at.error_found(
                "a JSON path of names and indexes, such as `$.a.b[0]`",
                "another path",
            ));
        };
        let value = if piece.get("stringValue").value().is_some() {
            Piece::Text(piece.get("stringValue").str()?)
        } else if let Some(number) = piece.get("numberValue").value() {
            if !number.is_number() {
                return Err(piece.get("numberValue").error("a number"));
            }
            Piece::Value(number.clone())
        } else if let Some(flag) = piece.get("boolValue").value() {
            if !flag.is_boolean() {
                return Err(piece.get("boolValue").error("a boolean"));
            }
            Piece::Value(flag.clone())
        } else if piece.get("nullValue").value().is_some() {
            Piece::Value(Value::Null)
        } else {
            return Err(piece.error_found(
                "a piece with a `stringValue`, `numberValue`, `boolValue` or `nullValue`",
                "none",
            ));
        };
        let continues = self.continuing.as_deref() == Some(path);
        let Some(slot) = slot(&mut self.args, &segments) else {
            return Err(
                path_at.error_found("a path that fits the arguments so far", "one that does not")
            );
        };
        match (value, slot) {
            (Piece::Text(text), Value::String(so_far)) if continues => so_far.push_str(text),
            (Piece::Text(text), slot) => *slot = Value::from(text),
            (Piece::Value(value), slot) => *slot = value,
        }
        self.continuing = match piece.get("willContinue").value() {
            Some(Value::Bool(true)) => Some(path.to_owned()),
            None | Some(Value::Bool(false) | Value::Null) => None,
            Some(_) => return Err(piece.get("willContinue").error("a boolean")),
        };
        Ok(())
    }
}

enum Piece<'a> {
    Text(&'a str),
    Value(Value),
}

/// One step of a JSON path.
#[derive(Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// The most steps a path may have: serde_json's nesting limit, so that the arguments built
/// can be written out and read back (and dropped without deep recursion).
const MAX_DEPTH: usize = 128;

/// The steps of a JSON path of names and indexes (RFC 9535's `$.name`, `$['name']`,
/// `$[0]`, combined); `None` for any other path, for `$` alone (the arguments stay an
/// object), or past [`MAX_DEPTH`] steps.
fn segments(path: &str) -> Option<Vec<Segment>> {
    let mut rest = path.strip_prefix('$')?;
    let mut segments = Vec::new();
    while !rest.is_empty() {
        if segments.len() == MAX_DEPTH {
            return None;
        }
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                return None;
            }
            segments.push(Segment::Key(after[..end].to_owned()));
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let quote = after.chars().next()?;
            if quote == '\'' || quote == '"' {
                let inner = &after[1..];
                let end = inner.find(quote)?;
                segments.push(Segment::Key(inner[..end].to_owned()));
                rest = inner[end + 1..].strip_prefix(']')?;
            } else {
                let end = after.find(']')?;
                let digits = &after[..end];
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                segments.push(Segment::Index(digits.parse().ok()?));
                rest = &after[end + 1..];
            }
        } else {
            return None;
        }
    }
    (!segments.is_empty()).then_some(segments)
}

/// The place `segments` name in `args`, made where missing; `None` where the path does
/// not fit (an index into the arguments object or a name into an array, an index past the
/// end of an array).
fn slot<'v>(args: &'v mut Map<String, Value>, segments: &[Segment]) -> Option<&'v mut Value> {
    let (Segment::Key(first), rest) = segments.split_first()? else {
        return None;
    };
    let mut here = args.entry(first.clone()).or_insert(Value::Null);
    for segment in rest {
        here = match segment {
            Segment::Key(key) => {
                if here.is_null() {
                    *here = Value::Object(Map::new());
                }
                here.as_object_mut()?
                    .entry(key.clone())
                    .or_insert(Value::Null)
            }
            Segment::Index(at) => {
                if here.is_null() {
                    *here = Value::Array(Vec::new());
                }
                let items = here.as_array_mut()?;
                // One past the end appends; further would make room for a hostile index.
                if *at == items.len() {
                    items.push(Value::Null);
                }
                items.get_mut(*at)?
            }
        };
    }
    Some(here)
}

#[cfg(test)]
mod tests {
    use super::{Segment, segments};

    #[test]
    fn paths_of_names_and_indexes_are_read() {
        assert_eq!(
            segments("$.a.b[0]['c d']"),
            Some(vec![
                Segment::Key("a".into()),
                Segment::Key("b".into()),
                Segment::Index(0),
                Segment::Key("c d".into()),
            ])
        );
        for bad in [
            "", "$", "a.b", "$..a", "$.a[", "$[x]", "$['a'", "$.a[-1]", "$*",
        ] {
            assert_eq!(segments(bad), None, "{bad}");
        }
    }
}
