//! [`ToolCall`]: what a model sends to call a tool.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema::JsonObject;

/// One tool call as a model emits it: the tool's name, the provider's call id, and the
/// arguments, either as the JSON *text* the model wrote (OpenAI) or as an already-parsed
/// value (Anthropic's `input`, Gemini's `args`, MCP's `arguments`).
///
/// ```
/// use agentkit_core::{ToolArguments, ToolCall};
/// use serde_json::json;
///
/// // OpenAI: the arguments are a JSON string, parsed by the executor.
/// let call = ToolCall::new("call_1", "fetch_weather", r#"{"city": "Paris"}"#);
/// assert_eq!(call.name(), "fetch_weather");
/// assert_eq!(call.arguments().as_text(), Some(r#"{"city": "Paris"}"#));
///
/// // Anthropic, Gemini, MCP: the arguments are already a JSON object; no round trip.
/// let call = ToolCall::new("toolu_1", "fetch_weather", json!({"city": "Paris"}));
/// assert!(matches!(call.arguments(), ToolArguments::Value(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    // Shared with the call's `ToolResult`, which echoes it: dispatching copies no id.
    id: Arc<str>,
    name: String,
    arguments: ToolArguments,
}

/// The arguments of a [`ToolCall`], as the provider delivered them.
///
/// Text is parsed by the executor, which refuses what is not a JSON object (and a key given
/// twice) as an input validation failure; an empty text counts as `{}`. A value that is not
/// an object is refused the same way.
///
/// Serialises as the text (a JSON string) or as the value itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolArguments {
    /// The JSON text the model wrote, unparsed.
    Text(String),
    /// Arguments the provider's response already carried as JSON.
    Value(Value),
}

impl ToolArguments {
    /// The JSON text, when the arguments are text.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ToolArguments::Text(text) => Some(text),
            ToolArguments::Value(_) => None,
        }
    }

    /// The arguments as JSON text: the text itself, or the value serialised.
    pub fn to_json_string(&self) -> String {
        match self {
            ToolArguments::Text(text) => text.clone(),
            ToolArguments::Value(value) => value.to_string(),
        }
    }
}

impl From<String> for ToolArguments {
    fn from(text: String) -> Self {
        ToolArguments::Text(text)
    }
}

impl From<&str> for ToolArguments {
    fn from(text: &str) -> Self {
        ToolArguments::Text(text.to_owned())
    }
}

impl From<Value> for ToolArguments {
    fn from(value: Value) -> Self {
        ToolArguments::Value(value)
    }
}

impl From<JsonObject> for ToolArguments {
    fn from(object: JsonObject) -> Self {
        ToolArguments::Value(Value::Object(object))
    }
}

impl ToolCall {
    /// A call of tool `name` with id `id` and `arguments`: JSON text (`&str`, `String`) or an
    /// already-parsed [`Value`] or [`JsonObject`].
    pub fn new(
        id: impl Into<Arc<str>>,
        name: impl Into<String>,
        arguments: impl Into<ToolArguments>,
    ) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }

    /// The provider's id for the call, echoed in the result so the model can match them.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub(crate) fn shared_id(&self) -> &Arc<str> {
        &self.id
    }

    /// The name of the tool called.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments, as the provider delivered them.
    pub fn arguments(&self) -> &ToolArguments {
        &self.arguments
    }
}
