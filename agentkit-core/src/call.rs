//! [`ToolCall`]: what a model sends to call a tool.

use serde::{Deserialize, Serialize};

/// One tool call as a model emits it: the tool's name, the provider's call id, and the
/// arguments as a JSON *string*, unparsed.
///
/// ```
/// use agentkit_core::ToolCall;
///
/// let call = ToolCall::new("call_1", "fetch_weather", r#"{"city": "Paris"}"#);
/// assert_eq!(call.name(), "fetch_weather");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ToolCall {
    id: String,
    name: String,
    arguments: String,
}

impl ToolCall {
    /// A call of tool `name` with id `id` and the JSON argument string `arguments`.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
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

    /// The name of the tool called.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments, as the JSON text the model wrote.
    pub fn arguments(&self) -> &str {
        &self.arguments
    }
}
