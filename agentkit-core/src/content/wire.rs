//! Content as JSON (recordings, events for observers that serialise them): MCP's shape, with
//! binary data in base64.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Content, EmbeddedResource, ResourceContents, ResourceLink};

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
