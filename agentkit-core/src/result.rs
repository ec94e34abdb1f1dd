//! [`ToolResult`]: the immutable outcome of one tool call.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use crate::content::{Content, ToolOutput};
use crate::error::{Error, ErrorKind};
use crate::model_text::{TextLimits, escape_json_text, truncate_content};
use crate::output::Returned;
use crate::schema::JsonObject;

/// Whether a tool call succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToolStatus {
    /// The tool ran and its output is valid.
    Success,
    /// Validation, the tool, or dispatch failed; see [`ToolResult::error`].
    Failure,
    /// The call awaits approval and the tool has not run; see [`ToolResult::deferred`].
    Deferred,
}

/// A call the approval policy deferred: what [`ToolExecutor::resume`](crate::ToolExecutor::resume)
/// needs to run or deny it later.
///
/// It can be kept while a person decides: it serialises (with serde) to the tool name, the
/// call id and the validated inputs, and the executor validates the inputs again when it
/// resumes the call.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DeferredCall {
    tool_name: String,
    call_id: Arc<str>,
    inputs: JsonObject,
}

impl DeferredCall {
    pub(crate) fn new(tool_name: String, call_id: Arc<str>, inputs: JsonObject) -> Self {
        DeferredCall {
            tool_name,
            call_id,
            inputs,
        }
    }

    /// The tool called.
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// The call id the model sent.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The validated inputs, defaults filled: what a person approving the call looks at.
    pub fn inputs(&self) -> &JsonObject {
        &self.inputs
    }

    pub(crate) fn into_parts(self) -> (String, Arc<str>, JsonObject) {
        (self.tool_name, self.call_id, self.inputs)
    }
}

/// The outcome of one tool call: the Python original's `ToolResult`, immutable.
///
/// Holds the tool name, the call id, the status, the output (on success) or the error (on
/// failure), and how long the call took. [`to_model_content`](Self::to_model_content) renders
/// it as the text to send back to the model.
#[must_use = "a tool result says whether the call failed"]
pub struct ToolResult {
    tool_name: Cow<'static, str>,
    // The call's own id, shared, not copied.
    call_id: Arc<str>,
    // A `#[tool]` tool's typed output stays typed until `output()` or the model text asks.
    outcome: Result<Returned, Error>,
    deferred: Option<Box<DeferredCall>>,
    // `None` for a call refused before its tool ran: nothing was timed.
    duration: Option<Duration>,
    limits: TextLimits,
}

impl ToolResult {
    pub(crate) fn new(
        tool_name: Cow<'static, str>,
        call_id: Arc<str>,
        outcome: Result<Returned, Error>,
        duration: Option<Duration>,
        limits: TextLimits,
    ) -> Self {
        ToolResult {
            tool_name,
            call_id,
            outcome,
            deferred: None,
            duration,
            limits,
        }
    }

    /// Marks the result as deferred; its outcome is the [`AwaitingApproval`](crate::AwaitingApproval) error.
    pub(crate) fn deferring(mut self, call: DeferredCall) -> Self {
        self.deferred = Some(Box::new(call));
        self
    }

    /// The name of the tool called (as the model wrote it, for an unknown tool).
    pub fn tool_name(&self) -> &str {
        &self.tool_name
    }

    /// The call id the model sent (empty for calls made without one).
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// Success, failure, or deferred for approval.
    pub fn status(&self) -> ToolStatus {
        match (&self.outcome, &self.deferred) {
            (Ok(_), _) => ToolStatus::Success,
            (Err(_), Some(_)) => ToolStatus::Deferred,
            (Err(_), None) => ToolStatus::Failure,
        }
    }

    /// The kind of error, unless the call succeeded.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        self.error().map(Error::kind)
    }

    /// Whether the call failed in a way the model can fix by changing it (see
    /// [`ErrorKind::is_retryable`]): send the result back and let it try again.
    pub fn is_retryable(&self) -> bool {
        self.error().is_some_and(Error::is_retryable)
    }

    /// The call awaiting approval, when the approval policy deferred it: pass it to
    /// [`ToolExecutor::resume`](crate::ToolExecutor::resume) with the decision.
    pub fn deferred(&self) -> Option<&DeferredCall> {
        self.deferred.as_deref()
    }

    /// Takes the deferred call out of the result, when there is one.
    pub fn into_deferred(self) -> Option<DeferredCall> {
        self.deferred.map(|call| *call)
    }

    /// Whether the call succeeded.
    pub fn is_success(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The structured output, validated, on success: `None` for a failure, and for a result
    /// of content parts alone (see [`content`](Self::content)).
    ///
    /// Any JSON value: an object for a tool whose output is a [`ToolSchema`](crate::ToolSchema)
    /// (index it, `result.output().unwrap()["city"]`, or see
    /// [`output_object`](Self::output_object)); whatever the output schema allows for a tool
    /// declared with [`output_json_schema`](crate::ToolSpecBuilder::output_json_schema), a
    /// list or a number as well.
    pub fn output(&self) -> Option<&Value> {
        self.outcome.as_ref().ok().and_then(Returned::structured)
    }

    /// The structured output when it is an object; `None` for any other value, a result of
    /// content parts alone, or a failure.
    pub fn output_object(&self) -> Option<&JsonObject> {
        self.output().and_then(Value::as_object)
    }

    /// The content parts of a successful result (text, images, audio, resources), as the
    /// executor left them: text bounded by the [`TextLimits`], escaped and free of the call's
    /// secrets, binary data within [`max_binary_bytes`](TextLimits::max_binary_bytes). Empty
    /// for structured output alone, and for a failure.
    pub fn content(&self) -> &[Content] {
        match &self.outcome {
            Ok(returned) => returned.content(),
            Err(_) => &[],
        }
    }

    /// The parts of a successful result for the application alone, never shown to the model
    /// (see [`ToolOutput::with_app_part`](crate::ToolOutput::with_app_part)): their text free
    /// of the call's secrets, not cut. Empty for a failure.
    pub fn app_content(&self) -> &[Content] {
        match &self.outcome {
            Ok(returned) => returned.app_content(),
            Err(_) => &[],
        }
    }

    /// The error, on failure (for a deferred call, the [`AwaitingApproval`](crate::AwaitingApproval) error).
    pub fn error(&self) -> Option<&Error> {
        self.outcome.as_ref().err()
    }

    /// How long the call took once its arguments were found valid: from there to the end of
    /// output validation, credentials, the tool's run and any wait for approval included.
    ///
    /// Zero for a call refused before that (an unknown tool, invalid arguments), which never
    /// ran anything worth timing: such a call reads no clock. The events of the call carry the
    /// same duration.
    pub fn duration(&self) -> Duration {
        self.duration.unwrap_or_default()
    }

    /// Whether the call was timed: it got past its arguments, and [`duration`](Self::duration)
    /// is its tool's. (The duration histogram of the `tracing` feature counts only these.)
    #[cfg(feature = "tracing")]
    pub(crate) fn was_timed(&self) -> bool {
        self.duration.is_some()
    }

    /// The outcome, consuming the result (a deferred call is the
    /// [`AwaitingApproval`](crate::AwaitingApproval) error).
    pub fn into_result(self) -> Result<ToolOutput, Error> {
        self.outcome.map(Returned::into_output)
    }

    /// Strict mode: a failure is the error; a success or a deferred call stays a result.
    pub(crate) fn into_strict(self) -> Result<ToolResult, Error> {
        match self.status() {
            ToolStatus::Failure => match self.outcome {
                Err(error) => Err(error),
                Ok(output) => Ok(ToolResult {
                    outcome: Ok(output),
                    ..self
                }),
            },
            _ => Ok(self),
        }
    }

    /// The text to send back to the model, for an API that takes text: on success the
    /// structured output as JSON, then each content part on a line of its own (a text part's
    /// text; what another part is, as [`Content::describe`] says it); on failure a short error
    /// message (see [`Error::to_model_message`]). A result of one text part is that text,
    /// bare.
    ///
    /// The text is bounded by the executor's [`TextLimits`]: at most
    /// [`max_content_bytes`](TextLimits::max_content_bytes), whatever the arguments were; an
    /// output longer than that is cut, saying how many bytes were left out (the whole output
    /// stays in [`output`](Self::output)). Control, bidirectional and other invisible format
    /// characters never appear raw: in an output they are JSON `\u` escapes (the same
    /// value), in a message they are escaped where echoed.
    pub fn to_model_content(&self) -> String {
        match &self.outcome {
            Ok(output) => {
                let json = output.to_json_text().map(escape_json_text);
                let text = match output.content() {
                    [] => json.unwrap_or_default(),
                    parts => {
                        let mut text = json.unwrap_or_default();
                        for part in parts {
                            if !text.is_empty() {
                                text.push('\n');
                            }
                            text.push_str(&part.describe());
                        }
                        text
                    }
                };
                truncate_content(text, self.limits.max_content_bytes())
            }
            Err(error) => error.to_model_message_with(&self.limits),
        }
    }

    /// The limits [`to_model_content`](Self::to_model_content) keeps to.
    pub fn text_limits(&self) -> &TextLimits {
        &self.limits
    }
}

impl fmt::Debug for ToolResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("ToolResult");
        d.field("tool_name", &self.tool_name)
            .field("call_id", &self.call_id)
            .field("status", &self.status());
        if let Some(deferred) = &self.deferred {
            d.field("deferred", deferred);
        }
        match &self.outcome {
            Ok(output) if output.content().is_empty() => d.field("output", &output.structured()),
            Ok(output) => d
                .field("output", &output.structured())
                .field("content", &output.content()),
            Err(error) => d.field("error", error),
        };
        d.field("duration", &self.duration()).finish()
    }
}
