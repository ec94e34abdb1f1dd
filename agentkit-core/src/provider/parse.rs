//! Reading a provider's reply: a cursor over the JSON that knows where it is, so that a
//! malformed reply (or a malformed event of a streamed one) is a [`ParseError`] naming the
//! place, never a panic.

use std::fmt;

use serde_json::Value;

/// A model API's reply that does not have the documented shape of tool calls.
///
/// Names the API, the place in the JSON given (such as
/// `choices[0].message.tool_calls[1].function.name`) and what was expected there. The
/// message quotes no value from the reply, so it stays short whatever the reply holds.
///
/// In a streamed reply (a `CallStream` of each API, such as
/// [`openai_chat::CallStream`](super::openai_chat::CallStream)) the place is an event,
/// numbered from 1 in the order the events were pushed (`event 7:
/// choices[0].delta.tool_calls[0].index`), or a call the stream never finished, named by its
/// id (cut to 64 characters and escaped).
///
/// ```
/// use agentkit_core::provider::openai_chat;
/// use serde_json::json;
///
/// let reply = json!({"role": "assistant", "tool_calls": [
///     {"id": "call_1", "type": "function", "function": {"name": 5, "arguments": "{}"}},
/// ]});
/// let err = openai_chat::calls(&reply).unwrap_err();
/// assert_eq!(err.api(), "OpenAI Chat Completions");
/// assert_eq!(err.path(), "tool_calls[0].function.name");
/// assert_eq!(
///     err.to_string(),
///     "malformed OpenAI Chat Completions reply: `tool_calls[0].function.name` should be a \
///      string, found a number",
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed {api} reply: {place} should be {expected}, found {found}")]
pub struct ParseError {
    api: &'static str,
    path: String,
    place: Place,
    expected: &'static str,
    found: &'static str,
}

impl ParseError {
    /// The API whose reply this was, such as `"Anthropic Messages"`.
    pub fn api(&self) -> &'static str {
        self.api
    }

    /// Where in the given JSON the problem is; empty for the value itself. In a stream:
    /// `event N: ` and the path in that event (`event N` for the event itself), or `call
    /// '<id>'` for a call the stream left unfinished.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The error for a call the stream never finished: `call '<id>' should be <expected>,
    /// found <found>`.
    pub(crate) fn unfinished(
        api: &'static str,
        id: &str,
        expected: &'static str,
        found: &'static str,
    ) -> Self {
        let id: String = id.chars().take(64).flat_map(char::escape_default).collect();
        let path = format!("call '{id}'");
        ParseError {
            api,
            place: Place::Call(path.clone()),
            path,
            expected,
            found,
        }
    }
}

/// How the error message names the place.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// A path in a whole reply, in backquotes, or "the reply" for the root.
    Reply(String),
    /// A path in one event of a stream.
    Event(usize, String),
    /// A call of a stream, already worded (`call '<id>'`).
    Call(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Reply(path) if path.is_empty() => f.write_str("the reply"),
            Place::Reply(path) => write!(f, "`{path}`"),
            Place::Event(number, path) if path.is_empty() => write!(f, "event {number}"),
            Place::Event(number, path) => write!(f, "event {number}: `{path}`"),
            Place::Call(call) => f.write_str(call),
        }
    }
}

/// The kind of a JSON value, with its article, for error messages.
fn kind(value: Option<&Value>) -> &'static str {
    match value {
        None => "nothing",
        Some(Value::Null) => "null",
        Some(Value::Bool(_)) => "a boolean",
        Some(Value::Number(_)) => "a number",
        Some(Value::String(_)) => "a string",
        Some(Value::Array(_)) => "an array",
        Some(Value::Object(_)) => "an object",
    }
}

/// A place in a reply: the value there (if any) and its path from the root.
#[derive(Debug, Clone)]
pub(crate) struct At<'a> {
    api: &'static str,
    // The number of the streamed event this is in, if it is in one.
    event: Option<usize>,
    path: String,
    value: Option<&'a Value>,
}

impl<'a> At<'a> {
    /// The root of `reply`, a reply of `api`.
    pub(crate) fn root(api: &'static str, reply: &'a Value) -> Self {
        At {
            api,
            event: None,
            path: String::new(),
            value: Some(reply),
        }
    }

    /// The root of `event`, the `number`th event of a streamed reply of `api`.
    pub(crate) fn event(api: &'static str, number: usize, event: &'a Value) -> Self {
        At {
            api,
            event: Some(number),
            path: String::new(),
            value: Some(event),
        }
    }

    /// The value here; `None` when absent.
    pub(crate) fn value(&self) -> Option<&'a Value> {
        self.value
    }

    /// Whether a value is here and is not `null` (APIs write `null` for "none").
    pub(crate) fn is_present(&self) -> bool {
        !matches!(self.value, None | Some(Value::Null))
    }

    /// Member `key` of the object here (absent when this is not an object).
    pub(crate) fn get(&self, key: &str) -> At<'a> {
        let path = if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        };
        At {
            api: self.api,
            event: self.event,
            path,
            value: self.value.and_then(|v| v.get(key)),
        }
    }

    /// The error "should be `expected`" at this place.
    pub(crate) fn error(&self, expected: &'static str) -> ParseError {
        self.error_found(expected, kind(self.value))
    }

    /// The error "should be `expected`, found `found`" at this place, for what the kind of
    /// the value does not say (a duplicate id, an event out of order).
    pub(crate) fn error_found(&self, expected: &'static str, found: &'static str) -> ParseError {
        let (path, place) = match self.event {
            None => (self.path.clone(), Place::Reply(self.path.clone())),
            Some(number) if self.path.is_empty() => (
                format!("event {number}"),
                Place::Event(number, String::new()),
            ),
            Some(number) => (
                format!("event {number}: {}", self.path),
                Place::Event(number, self.path.clone()),
            ),
        };
        ParseError {
            api: self.api,
            path,
            place,
            expected,
            found,
        }
    }

    /// The string here.
    pub(crate) fn str(&self) -> Result<&'a str, ParseError> {
        self.value
            .and_then(Value::as_str)
            .ok_or_else(|| self.error("a string"))
    }

    /// The string here, or `None` when absent or `null`.
    pub(crate) fn opt_str(&self) -> Result<Option<&'a str>, ParseError> {
        if self.is_present() {
            self.str().map(Some)
        } else {
            Ok(None)
        }
    }

    /// The items of the array here, each with its path.
    pub(crate) fn items(&self) -> Result<impl Iterator<Item = At<'a>> + '_, ParseError> {
        let items = self
            .value
            .and_then(Value::as_array)
            .ok_or_else(|| self.error("an array"))?;
        Ok(items.iter().enumerate().map(|(index, item)| At {
            api: self.api,
            event: self.event,
            path: format!("{}[{index}]", self.path),
            value: Some(item),
        }))
    }

    /// Checks that the value here is an object.
    pub(crate) fn object(self) -> Result<Self, ParseError> {
        match self.value {
            Some(Value::Object(_)) => Ok(self),
            _ => Err(self.error("an object")),
        }
    }
}

/// Arguments the API documents as a JSON string (OpenAI): kept as text, for the executor to
/// parse. OpenAI-compatible servers that send an object instead are read too.
pub(crate) fn text_arguments(at: &At<'_>) -> Result<crate::ToolArguments, ParseError> {
    match at.value() {
        Some(Value::String(text)) => Ok(crate::ToolArguments::Text(text.clone())),
        Some(object @ Value::Object(_)) => Ok(crate::ToolArguments::Value(object.clone())),
        _ => Err(at.error("a JSON string of arguments")),
    }
}

/// Arguments the API documents as an object (Anthropic, Gemini, MCP): passed on as they are,
/// since the executor refuses what is not an object as an input validation failure that goes
/// back to the model under the call's id; absent means no arguments.
pub(crate) fn value_arguments(at: &At<'_>) -> crate::ToolArguments {
    match at.value() {
        Some(value) if at.is_present() => crate::ToolArguments::Value(value.clone()),
        _ => crate::ToolArguments::Value(Value::Object(serde_json::Map::new())),
    }
}
