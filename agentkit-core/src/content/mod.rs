//! What a tool returns: a [`ToolOutput`], which holds structured output (a JSON value the
//! output schema validates: an object, or any value for a tool that declares such an output),
//! content parts ([`Content`]: text, images, audio, links to
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

mod output;
mod wire;

pub use output::ToolOutput;
