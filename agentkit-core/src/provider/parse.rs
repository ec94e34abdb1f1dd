//! Reading a provider's reply: a cursor over the JSON that knows where it is, so that a
//! malformed reply is a [`ParseError`] naming the place, never a panic.

use std::fmt;

use serde_json::Value;

/// A model API's reply that does not have the documented shape of tool calls.
///
/// Names the API, the place in the JSON given (such as
/// `choices[0].message.tool_calls[1].function.name`) and what was expected there. The
/// message quotes no value from the reply, so it stays short whatever the reply holds.
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

    /// Where in the given JSON the problem is; empty for the value itself.
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// How the error message names the place: the path in backquotes, or "the reply".
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place(String);

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("the reply")
        } else {
            write!(f, "`{}`", self.0)
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
    path: String,
    value: Option<&'a Value>,
}

impl<'a> At<'a> {
    /// The root of `reply`, a reply of `api`.
    pub(crate) fn root(api: &'static str, reply: &'a Value) -> Self {
        At {
            api,
            path: String::new(),
            value: Some(reply),
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
            path,
            value: self.value.and_then(|v| v.get(key)),
        }
    }

    /// The error "should be `expected`" at this place.
    pub(crate) fn error(&self, expected: &'static str) -> ParseError {
        ParseError {
            api: self.api,
            path: self.path.clone(),
            place: Place(self.path.clone()),
            expected,
            found: kind(self.value),
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
