//! [`ToolOutput`]: what a tool returns, and how the executor settles its parts.

use std::borrow::Cow;

use super::{Content, EmbeddedResource, ResourceContents, ResourceLink};
use crate::error::ContentTooLarge;
use crate::model_text::{TextLimits, escape_text_part, scrub, truncate_content};
use crate::schema::JsonObject;
use serde_json::Value;

/// What a tool returns: structured output, content parts, or both.
///
/// Structured output is any JSON value, as MCP's 2026-07-28 revision allows: an object (what
/// a tool with a [`ToolSchema`](crate::ToolSchema) output returns), or a list, a string, a
/// number, a boolean or `null` for a tool that declares such an output with
/// [`output_json_schema`](crate::ToolSpecBuilder::output_json_schema). The executor validates
/// it against the tool's output schema, whichever kind it declares.
///
/// Converts from what a tool has to return: a [`JsonObject`] or a [`Value`] (structured
/// output), a `String` or `&str` (a text result: the model is sent the text itself, not a JSON
/// string), a [`Content`] or a `Vec<Content>`.
///
/// ```
/// use agentkit_core::{Content, JsonObject, ToolOutput};
/// use serde_json::json;
///
/// let text: ToolOutput = "It is sunny in Paris.".into();
/// assert_eq!(text.structured(), None);
///
/// let mut totals = JsonObject::new();
/// totals.insert("total".into(), json!(9.5));
/// let both = ToolOutput::from(totals).with(Content::image(vec![1, 2, 3], "image/png"));
/// assert_eq!(both.structured().unwrap()["total"], 9.5);
/// assert_eq!(both.content().len(), 1);
///
/// // Any JSON value: a list of names, a count.
/// let names = ToolOutput::from(json!(["Ada", "Grace"]));
/// assert_eq!(names.structured(), Some(&json!(["Ada", "Grace"])));
/// let count = ToolOutput::structured_only(2);
/// assert_eq!(count.structured(), Some(&json!(2)));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolOutput {
    structured: Option<Value>,
    content: Vec<Content>,
    /// Parts for the application alone (see [`with_app_part`](Self::with_app_part)).
    app_content: Vec<Content>,
}

impl ToolOutput {
    /// Structured output only: any JSON value (a [`JsonObject`], a [`Value`], or what converts
    /// into one, such as a number or a `Vec<String>`).
    pub fn structured_only(output: impl Into<Value>) -> Self {
        ToolOutput {
            structured: Some(output.into()),
            content: Vec::new(),
            app_content: Vec::new(),
        }
    }

    /// Content parts only.
    pub fn content_only(content: impl IntoIterator<Item = Content>) -> Self {
        ToolOutput {
            structured: None,
            content: content.into_iter().collect(),
            app_content: Vec::new(),
        }
    }

    /// Adds a content part.
    #[must_use]
    pub fn with(mut self, part: impl Into<Content>) -> Self {
        self.content.push(part.into());
        self
    }

    /// Adds a part for the application alone: kept in the call's
    /// [`ToolResult`](crate::ToolResult) ([`app_content`](crate::ToolResult::app_content)),
    /// never shown to the model (neither in [`to_model_content`](crate::ToolResult::to_model_content)
    /// nor in a provider's tool result message).
    ///
    /// What a tool has for the person or the program using the agent, not for the model: an
    /// MCP server's content block whose `audience` leaves out the assistant, or the text that
    /// only repeats the structured output (see `mcp::McpTool`, feature `mcp`).
    ///
    /// ```
    /// use agentkit_core::{Content, ToolOutput};
    ///
    /// let output = ToolOutput::from("3 files changed").with_app_part(Content::text("diff --git ..."));
    /// assert_eq!(output.content(), [Content::text("3 files changed")]);
    /// assert_eq!(output.app_content(), [Content::text("diff --git ...")]);
    /// ```
    #[must_use]
    pub fn with_app_part(mut self, part: impl Into<Content>) -> Self {
        self.app_content.push(part.into());
        self
    }

    /// The parts for the application alone, in order (see
    /// [`with_app_part`](Self::with_app_part)).
    pub fn app_content(&self) -> &[Content] {
        &self.app_content
    }

    /// Sets the structured output: any JSON value (see
    /// [`structured_only`](Self::structured_only)).
    #[must_use]
    pub fn with_structured(mut self, output: impl Into<Value>) -> Self {
        self.structured = Some(output.into());
        self
    }

    /// The structured output, when there is one: any JSON value.
    pub fn structured(&self) -> Option<&Value> {
        self.structured.as_ref()
    }

    /// The structured output when it is an object (the output of a tool with a
    /// [`ToolSchema`](crate::ToolSchema) output is).
    pub fn structured_object(&self) -> Option<&JsonObject> {
        self.structured.as_ref().and_then(Value::as_object)
    }

    /// The content parts, in order.
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The structured output, taking it (the parts are dropped).
    pub fn into_structured(self) -> Option<Value> {
        self.structured
    }

    /// The structured output and the parts, taken apart (the parts for the application
    /// are dropped).
    pub fn into_parts(self) -> (Option<Value>, Vec<Content>) {
        (self.structured, self.content)
    }

    /// Whether the output is structured output alone: no parts, for the model or the
    /// application.
    pub(crate) fn is_structured_only(&self) -> bool {
        self.structured.is_some() && self.content.is_empty() && self.app_content.is_empty()
    }

    /// The structured output, taken, leaving the parts.
    pub(crate) fn take_structured(&mut self) -> Option<Value> {
        self.structured.take()
    }
}

impl ToolOutput {
    /// Makes the parts fit to hand on, as the executor does when a call concludes: refused
    /// when their binary data is over the limit; otherwise their text (text parts, embedded
    /// text, links' names and descriptions) escaped, free of `secrets`, and cut to the
    /// limits' [`max_content_bytes`](TextLimits::max_content_bytes) in all.
    pub(crate) fn settle(
        &mut self,
        limits: &TextLimits,
        secrets: &[&str],
    ) -> Result<(), ContentTooLarge> {
        let binary: usize = self.content.iter().map(Content::binary_len).sum();
        if binary > limits.max_binary_bytes() {
            return Err(ContentTooLarge::new(binary, limits.max_binary_bytes()));
        }
        let clean = |text: &mut String| {
            let scrubbed = scrub(text, secrets).unwrap_or_else(|| std::mem::take(text));
            *text = escape_text_part(scrubbed);
        };
        // A part's names, URIs and media types are the tool's text too: scrubbed, escaped
        // and cut like the rest, wherever they are shown.
        let meta = |text: &mut String, max_chars: usize| {
            clean(text);
            if let Some((end, _)) = text.char_indices().nth(max_chars) {
                text.truncate(end);
                text.push('…');
            }
        };
        let mut left = limits.max_content_bytes();
        self.content.retain_mut(|part| {
            let text = match part {
                Content::Text(text) => text,
                Content::Image(media) | Content::Audio(media) => {
                    if !is_media_type(&media.mime_type) {
                        media.mime_type = Cow::Borrowed(UNKNOWN_MEDIA_TYPE);
                    }
                    return true;
                }
                Content::ResourceLink(link) => {
                    meta(&mut link.name, MAX_NAME_CHARS);
                    meta(&mut link.uri, MAX_URI_CHARS);
                    if let Some(description) = &mut link.description {
                        meta(description, MAX_DESCRIPTION_CHARS);
                    }
                    settle_media_type(&mut link.mime_type);
                    return true;
                }
                Content::Resource(resource) => {
                    meta(&mut resource.uri, MAX_URI_CHARS);
                    settle_media_type(&mut resource.mime_type);
                    match &mut resource.contents {
                        ResourceContents::Text(text) => text,
                        ResourceContents::Blob(_) => return true,
                    }
                }
            };
            if left == 0 {
                // Text past the bound: left out, as a long output's tail is.
                return false;
            }
            clean(text);
            if text.len() > left {
                *text = truncate_content(std::mem::take(text), left);
                left = 0;
            } else {
                left -= text.len();
            }
            true
        });
        // The application's parts never reach the model: not escaped or cut, but free of the
        // call's secrets, as everything the executor hands on is.
        for part in &mut self.app_content {
            if let Content::Text(text) = part
                && let Some(scrubbed) = scrub(text, secrets)
            {
                *text = scrubbed;
            }
        }
        Ok(())
    }
}

/// The longest name of a resource link, in characters (past it, cut with `…`).
const MAX_NAME_CHARS: usize = 256;

/// The longest URI of a resource, in characters.
const MAX_URI_CHARS: usize = 2_048;

/// The longest description of a resource link, in characters.
const MAX_DESCRIPTION_CHARS: usize = 1_024;

/// The longest media type kept, in bytes (RFC 6838 allows 127 for each half).
const MAX_MEDIA_TYPE_BYTES: usize = 255;

/// What a part's media type becomes where it is not one: the media type goes into data URLs
/// and headers of the model APIs, where anything else could break the shape around it.
const UNKNOWN_MEDIA_TYPE: &str = "application/octet-stream";

/// Replaces a media type that is not one.
fn settle_media_type(mime_type: &mut Option<String>) {
    if let Some(text) = mime_type.as_mut().filter(|text| !is_media_type(text)) {
        *text = UNKNOWN_MEDIA_TYPE.to_owned();
    }
}

/// Whether `mime_type` is a media type: `type/subtype` in RFC 6838's characters, with
/// optional `; parameters` in printable ASCII.
fn is_media_type(mime_type: &str) -> bool {
    let restricted = |name: &str| {
        !name.is_empty()
            && name.len() <= 127
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
    };
    let (essence, parameters) = mime_type.split_once(';').unwrap_or((mime_type, ""));
    mime_type.len() <= MAX_MEDIA_TYPE_BYTES
        && essence
            .split_once('/')
            .is_some_and(|(kind, sub)| restricted(kind) && restricted(sub))
        && parameters.bytes().all(|b| (b' '..=b'~').contains(&b))
}

impl From<JsonObject> for ToolOutput {
    fn from(output: JsonObject) -> Self {
        ToolOutput::structured_only(output)
    }
}

/// Structured output: any JSON value. (A `String` is a text result instead; a JSON string
/// as structured output is `Value::String`.)
impl From<Value> for ToolOutput {
    fn from(output: Value) -> Self {
        ToolOutput::structured_only(output)
    }
}

impl From<String> for ToolOutput {
    fn from(text: String) -> Self {
        ToolOutput::content_only([Content::Text(text)])
    }
}

impl From<&str> for ToolOutput {
    fn from(text: &str) -> Self {
        ToolOutput::from(text.to_owned())
    }
}

impl From<Content> for ToolOutput {
    fn from(part: Content) -> Self {
        ToolOutput::content_only([part])
    }
}

impl From<ResourceLink> for ToolOutput {
    fn from(link: ResourceLink) -> Self {
        ToolOutput::content_only([Content::ResourceLink(link)])
    }
}

impl From<EmbeddedResource> for ToolOutput {
    fn from(resource: EmbeddedResource) -> Self {
        ToolOutput::content_only([Content::Resource(resource)])
    }
}

impl From<Vec<Content>> for ToolOutput {
    fn from(parts: Vec<Content>) -> Self {
        ToolOutput::content_only(parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn structured_output_is_any_json_value_and_text_stays_text() {
        for value in [
            json!([1, 2]),
            json!("s"),
            json!(3.5),
            json!(true),
            Value::Null,
        ] {
            let output = ToolOutput::from(value.clone());
            assert_eq!(output.structured(), Some(&value));
            assert_eq!(output.structured_object(), None);
            assert!(output.content().is_empty());
            assert_eq!(output.into_structured(), Some(value));
        }
        let mut object = JsonObject::new();
        object.insert("n".into(), json!(1));
        let output = ToolOutput::from(object.clone());
        assert_eq!(output.structured_object(), Some(&object));
        assert_eq!(output.structured(), Some(&Value::Object(object)));
        // A `String` is a text result, not a JSON string.
        let text = ToolOutput::from("hello");
        assert_eq!(text.structured(), None);
        assert_eq!(text.content(), [Content::Text("hello".into())]);
        // Parts and a value that is not an object, together.
        let both = ToolOutput::content_only([Content::Text("two".into())]).with_structured(2);
        assert_eq!(
            both.into_parts(),
            (Some(json!(2)), vec![Content::Text("two".into())])
        );
    }
}
