//! What a tool returns: a [`ToolOutput`], which holds structured output (a JSON object the
//! output schema validates), content parts ([`Content`]: text, images, audio, links to
//! resources, embedded resources), or both.
//!
//! A tool whose answer is an object returns the object, as before; one whose answer is a
//! sentence returns the sentence, which reaches the model as the bare text; a screenshot tool
//! returns an image, a report tool a file or a link to one. Each model API's format renders
//! the parts where it takes them (see [`provider`](crate::provider)).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::ContentTooLarge;
use crate::model_text::{TextLimits, escape_text_part, scrub, truncate_content};
use crate::schema::JsonObject;

/// One part of a tool's result, beside or instead of its structured output.
///
/// ```
/// use agentkit_core::{Content, ResourceLink};
///
/// let parts = [
///     Content::text("The chart of last week's sales:"),
///     Content::image(vec![0x89, b'P', b'N', b'G'], "image/png"),
///     Content::from(ResourceLink::new("file:///reports/sales.pdf", "sales.pdf").with_mime_type("application/pdf")),
/// ];
/// assert_eq!(parts[0].as_text(), Some("The chart of last week's sales:"));
/// assert_eq!(parts[1].binary_len(), 4);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Content {
    /// Text.
    Text(String),
    /// An image: its bytes and media type (`image/png`, `image/jpeg`, ...).
    Image(Media),
    /// Audio: its bytes and media type (`audio/wav`, `audio/mpeg`, ...).
    Audio(Media),
    /// A link to a resource the model or the host may fetch: a URI and a name.
    ResourceLink(ResourceLink),
    /// A resource carried whole: its URI and its contents, text or bytes.
    Resource(EmbeddedResource),
}

impl Content {
    /// A text part.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(text.into())
    }

    /// An image part: `data` is the encoded image, `mime_type` its media type.
    pub fn image(data: impl Into<Arc<[u8]>>, mime_type: impl Into<Cow<'static, str>>) -> Self {
        Content::Image(Media::new(data, mime_type))
    }

    /// An audio part: `data` is the encoded audio, `mime_type` its media type.
    pub fn audio(data: impl Into<Arc<[u8]>>, mime_type: impl Into<Cow<'static, str>>) -> Self {
        Content::Audio(Media::new(data, mime_type))
    }

    /// The text of a text part.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            _ => None,
        }
    }

    /// How many bytes of binary data the part carries: an image's, audio's or embedded
    /// blob's; 0 for text and links.
    pub fn binary_len(&self) -> usize {
        match self {
            Content::Image(media) | Content::Audio(media) => media.data.len(),
            Content::Resource(resource) => match &resource.contents {
                ResourceContents::Blob(data) => data.len(),
                ResourceContents::Text(_) => 0,
            },
            Content::Text(_) | Content::ResourceLink(_) => 0,
        }
    }

    /// The part described in one line of text, for an API that takes text only: a text
    /// part's own text, an embedded text resource's text after its URI; what else a part
    /// is (`[image: image/png, 2048 bytes]`).
    pub fn describe(&self) -> Cow<'_, str> {
        match self {
            Content::Text(text) => Cow::Borrowed(text),
            Content::Image(media) => Cow::Owned(format!(
                "[image: {}, {} bytes]",
                media.mime_type,
                media.data.len()
            )),
            Content::Audio(media) => Cow::Owned(format!(
                "[audio: {}, {} bytes]",
                media.mime_type,
                media.data.len()
            )),
            Content::ResourceLink(link) => {
                Cow::Owned(format!("[resource: {} <{}>]", link.name, link.uri))
            }
            Content::Resource(resource) => match &resource.contents {
                ResourceContents::Text(text) => {
                    Cow::Owned(format!("[resource: <{}>]\n{text}", resource.uri))
                }
                ResourceContents::Blob(data) => Cow::Owned(format!(
                    "[resource: <{}>, {}, {} bytes]",
                    resource.uri,
                    resource
                        .mime_type
                        .as_deref()
                        .unwrap_or("application/octet-stream"),
                    data.len()
                )),
            },
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.to_owned())
    }
}

impl From<ResourceLink> for Content {
    fn from(link: ResourceLink) -> Self {
        Content::ResourceLink(link)
    }
}

impl From<EmbeddedResource> for Content {
    fn from(resource: EmbeddedResource) -> Self {
        Content::Resource(resource)
    }
}

/// Binary media: the bytes of an image or of audio, and their media type.
#[derive(Clone, PartialEq, Eq)]
pub struct Media {
    data: Arc<[u8]>,
    mime_type: Cow<'static, str>,
}

impl Media {
    /// Media of `mime_type` made of `data`.
    pub fn new(data: impl Into<Arc<[u8]>>, mime_type: impl Into<Cow<'static, str>>) -> Self {
        Media {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// The bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The media type.
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// The bytes in base64 (standard alphabet, padded), as the model APIs and MCP carry them.
    pub fn to_base64(&self) -> String {
        STANDARD.encode(&self.data)
    }

    /// The media as a `data:` URL (`data:image/png;base64,...`).
    pub fn to_data_url(&self) -> String {
        format!("data:{};base64,{}", self.mime_type, self.to_base64())
    }
}

impl fmt::Debug for Media {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The size, not the bytes: an image in a log line is noise.
        f.debug_struct("Media")
            .field("mime_type", &self.mime_type)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// A link to a resource: its URI, a name, and what else is known of it.
///
/// ```
/// use agentkit_core::ResourceLink;
///
/// let link = ResourceLink::new("file:///reports/q3.pdf", "q3.pdf")
///     .with_mime_type("application/pdf")
///     .with_description("The third quarter's report");
/// assert_eq!(link.mime_type(), Some("application/pdf"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceLink {
    uri: String,
    name: String,
    mime_type: Option<String>,
    description: Option<String>,
}

impl ResourceLink {
    /// A link to `uri`, called `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            mime_type: None,
            description: None,
        }
    }

    /// Sets the resource's media type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets a description of the resource.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The resource's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The resource's media type, when known.
    pub fn mime_type(&self) -> Option<&str> {
        self.mime_type.as_deref()
    }

    /// The resource's description, when given.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
}

/// A resource carried whole in a result: its URI, media type and contents.
///
/// ```
/// use agentkit_core::{Content, EmbeddedResource};
///
/// let csv = EmbeddedResource::text("file:///exports/orders.csv", "id,total\n1,9.50\n")
///     .with_mime_type("text/csv");
/// let pdf = EmbeddedResource::blob("file:///reports/q3.pdf", vec![b'%', b'P', b'D', b'F'])
///     .with_mime_type("application/pdf");
/// assert_eq!(Content::from(pdf).binary_len(), 4);
/// assert_eq!(csv.as_text(), Some("id,total\n1,9.50\n"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbeddedResource {
    uri: String,
    mime_type: Option<String>,
    contents: ResourceContents,
}

/// The contents of an [`EmbeddedResource`].
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text.
    Text(String),
    /// Bytes.
    Blob(Arc<[u8]>),
}

impl fmt::Debug for ResourceContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceContents::Text(text) => f.debug_tuple("Text").field(text).finish(),
            ResourceContents::Blob(data) => {
                f.debug_struct("Blob").field("bytes", &data.len()).finish()
            }
        }
    }
}

impl EmbeddedResource {
    /// A text resource at `uri`.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            contents: ResourceContents::Text(text.into()),
        }
    }

    /// A binary resource at `uri`.
    pub fn blob(uri: impl Into<String>, data: impl Into<Arc<[u8]>>) -> Self {
        EmbeddedResource {
            uri: uri.into(),
            mime_type: None,
            contents: ResourceContents::Blob(data.into()),
        }
    }

    /// Sets the resource's media type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The resource's media type, when known.
    pub fn mime_type(&self) -> Option<&str> {
        self.mime_type.as_deref()
    }

    /// The contents.
    pub fn contents(&self) -> &ResourceContents {
        &self.contents
    }

    /// The text, for a text resource.
    pub fn as_text(&self) -> Option<&str> {
        match &self.contents {
            ResourceContents::Text(text) => Some(text),
            ResourceContents::Blob(_) => None,
        }
    }

    /// The bytes, for a binary resource.
    pub fn as_blob(&self) -> Option<&[u8]> {
        match &self.contents {
            ResourceContents::Blob(data) => Some(data),
            ResourceContents::Text(_) => None,
        }
    }
}

/// What a tool returns: structured output, content parts, or both.
///
/// Converts from what a tool has to return: a [`JsonObject`] (structured output, as a tool
/// without content parts always returned), a `String` or `&str` (a text result: the model is
/// sent the text itself), a [`Content`] or a `Vec<Content>`.
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
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolOutput {
    structured: Option<JsonObject>,
    content: Vec<Content>,
}

impl ToolOutput {
    /// Structured output only.
    pub fn structured_only(output: JsonObject) -> Self {
        ToolOutput {
            structured: Some(output),
            content: Vec::new(),
        }
    }

    /// Content parts only.
    pub fn content_only(content: impl IntoIterator<Item = Content>) -> Self {
        ToolOutput {
            structured: None,
            content: content.into_iter().collect(),
        }
    }

    /// Adds a content part.
    #[must_use]
    pub fn with(mut self, part: impl Into<Content>) -> Self {
        self.content.push(part.into());
        self
    }

    /// Sets the structured output.
    #[must_use]
    pub fn with_structured(mut self, output: JsonObject) -> Self {
        self.structured = Some(output);
        self
    }

    /// The structured output, when there is one.
    pub fn structured(&self) -> Option<&JsonObject> {
        self.structured.as_ref()
    }

    /// The content parts, in order.
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The structured output, taking it (the parts are dropped).
    pub fn into_structured(self) -> Option<JsonObject> {
        self.structured
    }

    /// The structured output and the parts, taken apart.
    pub fn into_parts(self) -> (Option<JsonObject>, Vec<Content>) {
        (self.structured, self.content)
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

// Content as JSON (recordings, events for observers that serialise them): MCP's shape, with
// binary data in base64.

/// The serialised form of a [`Content`].
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Wire {
    Text {
        text: String,
    },
    Image {
        data: String,
        mime_type: String,
    },
    Audio {
        data: String,
        mime_type: String,
    },
    ResourceLink {
        uri: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
    },
    Resource {
        uri: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        blob: Option<String>,
    },
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = match self {
            Content::Text(text) => Wire::Text { text: text.clone() },
            Content::Image(media) => Wire::Image {
                data: media.to_base64(),
                mime_type: media.mime_type.to_string(),
            },
            Content::Audio(media) => Wire::Audio {
                data: media.to_base64(),
                mime_type: media.mime_type.to_string(),
            },
            Content::ResourceLink(link) => Wire::ResourceLink {
                uri: link.uri.clone(),
                name: link.name.clone(),
                mime_type: link.mime_type.clone(),
                description: link.description.clone(),
            },
            Content::Resource(resource) => {
                let (text, blob) = match &resource.contents {
                    ResourceContents::Text(text) => (Some(text.clone()), None),
                    ResourceContents::Blob(data) => (None, Some(STANDARD.encode(data))),
                };
                Wire::Resource {
                    uri: resource.uri.clone(),
                    mime_type: resource.mime_type.clone(),
                    text,
                    blob,
                }
            }
        };
        wire.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let decode = |data: &str| -> Result<Arc<[u8]>, D::Error> {
            STANDARD
                .decode(data)
                .map(Arc::from)
                .map_err(|e| D::Error::custom(format_args!("content data is not base64: {e}")))
        };
        Ok(match Wire::deserialize(deserializer)? {
            Wire::Text { text } => Content::Text(text),
            Wire::Image { data, mime_type } => Content::image(decode(&data)?, mime_type),
            Wire::Audio { data, mime_type } => Content::audio(decode(&data)?, mime_type),
            Wire::ResourceLink {
                uri,
                name,
                mime_type,
                description,
            } => Content::ResourceLink(ResourceLink {
                uri,
                name,
                mime_type,
                description,
            }),
            Wire::Resource {
                uri,
                mime_type,
                text,
                blob,
            } => {
                let contents = match (text, blob) {
                    (Some(text), None) => ResourceContents::Text(text),
                    (None, Some(blob)) => ResourceContents::Blob(decode(&blob)?),
                    _ => {
                        return Err(D::Error::custom(
                            "an embedded resource has either `text` or `blob`",
                        ));
                    }
                };
                Content::Resource(EmbeddedResource {
                    uri,
                    mime_type,
                    contents,
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parts_read_back_from_their_json() {
        let parts = vec![
            Content::text("hello"),
            Content::image(vec![0, 1, 2, 255], "image/png"),
            Content::audio(vec![9; 10], "audio/wav"),
            ResourceLink::new("file:///a.pdf", "a.pdf")
                .with_mime_type("application/pdf")
                .into(),
            EmbeddedResource::text("file:///a.txt", "text").into(),
            EmbeddedResource::blob("file:///b.bin", vec![7, 7])
                .with_mime_type("application/octet-stream")
                .into(),
        ];
        let json = serde_json::to_value(&parts).unwrap();
        assert_eq!(
            json[1],
            json!({"type": "image", "data": "AAEC/w==", "mime_type": "image/png"})
        );
        assert_eq!(
            json[4],
            json!({"type": "resource", "uri": "file:///a.txt", "text": "text"})
        );
        let back: Vec<Content> = serde_json::from_value(json).unwrap();
        assert_eq!(back, parts);
        assert!(
            serde_json::from_value::<Content>(
                json!({"type": "image", "data": "%%", "mime_type": "x"})
            )
            .is_err()
        );
    }

    #[test]
    fn debug_shows_sizes_not_bytes() {
        let image = Content::image(vec![42; 4096], "image/png");
        let debug = format!("{image:?}");
        assert!(debug.contains("bytes: 4096"), "{debug}");
        assert!(debug.len() < 100, "{debug}");
    }
}
