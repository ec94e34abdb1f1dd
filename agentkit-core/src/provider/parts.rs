//! Content parts for the model APIs: what each part's bytes are, what of a result goes out as
//! parts rather than as its model text, and the short text of a part an API cannot take.
//!
//! The executor has already bounded, escaped and scrubbed the parts' text (see
//! [`ToolResult::content`]); what the renderers write of their own is kept short here:
//! the structured output's JSON is cut to the result's
//! [`max_content_bytes`](crate::TextLimits::max_content_bytes), as in the model text, and
//! every URI, name and media type a description or a title shows is escaped and cut.

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::content::{Content, ResourceContents};
use crate::model_text::{EscapedText, escape_json_text, truncate_content};
use crate::result::ToolResult;

/// The media type of bytes whose type is unknown.
pub(super) const OCTET_STREAM: &str = "application/octet-stream";

/// The image types Anthropic's image blocks and OpenAI's image inputs take.
pub(super) const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// At most this many characters of a URI in a description or a title.
const URI_CHARS: usize = 256;
/// At most this many characters of a name in a description or a file name.
const NAME_CHARS: usize = 120;
/// At most this many characters of a media type in a description.
const TYPE_CHARS: usize = 80;

/// The parts of a result that go out as parts: `None` when its model text says it all (a
/// failure, a call awaiting approval, a result without parts) or is the whole result (text
/// parts alone, which the model is sent as the bare text).
pub(super) fn rich(result: &ToolResult) -> Option<&[Content]> {
    let parts = result.content();
    let text_only =
        result.output().is_none() && parts.iter().all(|part| matches!(part, Content::Text(_)));
    (!parts.is_empty() && !text_only).then_some(parts)
}

/// The structured output as JSON text, escaped and bounded as in the model text.
pub(super) fn structured_text(result: &ToolResult) -> Option<String> {
    let output = result.output()?;
    let json = serde_json::to_string(output).unwrap_or_else(|_| "{}".to_owned());
    Some(truncate_content(
        escape_json_text(json),
        result.text_limits().max_content_bytes(),
    ))
}

/// What a part's bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// An image part, or an embedded resource of an `image/` type.
    Image,
    /// An audio part, or an embedded resource of an `audio/` type.
    Audio,
    /// Any other embedded resource: a file.
    File,
}

/// The bytes of a part that has some.
#[derive(Debug, Clone, Copy)]
pub(super) struct Binary<'a> {
    pub(super) kind: Kind,
    /// The media type as the tool gave it (`application/octet-stream` for an embedded
    /// resource without one).
    pub(super) mime_type: &'a str,
    pub(super) data: &'a [u8],
    /// The embedded resource's URI.
    pub(super) uri: Option<&'a str>,
}

impl Binary<'_> {
    /// The bytes in base64.
    pub(super) fn base64(&self) -> String {
        STANDARD.encode(self.data)
    }

    /// The bytes as a `data:` URL of `mime_type` (one of the media types an API takes, or
    /// [`media_type`] of the tool's).
    pub(super) fn data_url(&self, mime_type: &str) -> String {
        format!("data:{mime_type};base64,{}", self.base64())
    }

    /// The one of `accepted` its media type is (compared without case; `image/jpg` is
    /// `image/jpeg`).
    pub(super) fn type_in(&self, accepted: &[&'static str]) -> Option<&'static str> {
        let mime_type = if self.mime_type.eq_ignore_ascii_case("image/jpg") {
            "image/jpeg"
        } else {
            self.mime_type
        };
        accepted
            .iter()
            .copied()
            .find(|accepted| accepted.eq_ignore_ascii_case(mime_type))
    }

    /// A file name for the bytes: the last segment of the resource's URI (without query or
    /// fragment), cut and stripped of characters a file name should not hold; `file` when
    /// there is none. A PDF's name ends in `.pdf`, which OpenAI goes by.
    pub(super) fn filename(&self) -> String {
        let uri = self.uri.unwrap_or_default();
        let path = uri.split(['?', '#']).next().unwrap_or_default();
        let last = path.rsplit(['/', '\\', ':']).next().unwrap_or_default();
        let mut name: String = last
            .chars()
            .filter(|&c| !crate::model_text::is_unsafe_char(c) && c != '"')
            .take(NAME_CHARS)
            .collect();
        if name.is_empty() || name.chars().all(|c| c == '.') {
            name = "file".to_owned();
        }
        let is_pdf = self.mime_type.eq_ignore_ascii_case("application/pdf");
        if is_pdf && !name.to_ascii_lowercase().ends_with(".pdf") {
            name.push_str(".pdf");
        }
        name
    }
}

/// The bytes of `part`, for an image, audio, or an embedded binary resource.
pub(super) fn binary(part: &Content) -> Option<Binary<'_>> {
    match part {
        Content::Image(media) => Some(Binary {
            kind: Kind::Image,
            mime_type: media.mime_type(),
            data: media.data(),
            uri: None,
        }),
        Content::Audio(media) => Some(Binary {
            kind: Kind::Audio,
            mime_type: media.mime_type(),
            data: media.data(),
            uri: None,
        }),
        Content::Resource(resource) => {
            let data = resource.as_blob()?;
            let mime_type = resource.mime_type().unwrap_or(OCTET_STREAM);
            let has_prefix = |prefix: &str| {
                mime_type
                    .get(..prefix.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
            };
            let kind = if has_prefix("image/") {
                Kind::Image
            } else if has_prefix("audio/") {
                Kind::Audio
            } else {
                Kind::File
            };
            Some(Binary {
                kind,
                mime_type,
                data,
                uri: Some(resource.uri()),
            })
        }
        Content::Text(_) | Content::ResourceLink(_) => None,
    }
}

/// `mime_type` if it is a media type (`type/subtype`, without parameters), else
/// `application/octet-stream`: what goes into a `data:` URL or an API's media type field.
pub(super) fn media_type(mime_type: &str) -> &str {
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
    };
    match mime_type.split_once('/') {
        Some((kind, subtype)) if mime_type.len() <= 127 && token(kind) && token(subtype) => {
            mime_type
        }
        _ => OCTET_STREAM,
    }
}

/// A URI as a title: escaped and cut.
pub(super) fn title(uri: &str) -> String {
    EscapedText(uri, URI_CHARS).to_string()
}

/// `part` in one line of text (an embedded text resource: its URI, then its text), as
/// [`Content::describe`] says it, with every URI, name and media type escaped and cut: a
/// text part is its text, and what a renderer writes of its own is short.
pub(super) fn describe(part: &Content) -> Cow<'_, str> {
    let uri = |uri| EscapedText(uri, URI_CHARS);
    let mime = |mime_type| EscapedText(mime_type, TYPE_CHARS);
    match part {
        Content::Text(text) => Cow::Borrowed(text),
        Content::Image(media) => Cow::Owned(format!(
            "[image: {}, {} bytes]",
            mime(media.mime_type()),
            media.data().len()
        )),
        Content::Audio(media) => Cow::Owned(format!(
            "[audio: {}, {} bytes]",
            mime(media.mime_type()),
            media.data().len()
        )),
        Content::ResourceLink(link) => Cow::Owned(format!(
            "[resource: {} <{}>]",
            EscapedText(link.name(), NAME_CHARS),
            uri(link.uri())
        )),
        Content::Resource(resource) => match resource.contents() {
            ResourceContents::Text(text) => {
                Cow::Owned(format!("[resource: <{}>]\n{text}", uri(resource.uri())))
            }
            ResourceContents::Blob(data) => Cow::Owned(format!(
                "[resource: <{}>, {}, {} bytes]",
                uri(resource.uri()),
                mime(resource.mime_type().unwrap_or(OCTET_STREAM)),
                data.len()
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::{EmbeddedResource, ResourceLink};

    fn parts() -> Vec<Content> {
        vec![
            Content::text("hello\nworld"),
            Content::image(vec![1, 2, 3], "image/png"),
            Content::audio(vec![4; 10], "audio/wav"),
            ResourceLink::new("https://example.com/q3.pdf", "q3.pdf").into(),
            EmbeddedResource::text("file:///notes.txt", "a\nb").into(),
            EmbeddedResource::blob("file:///q3.pdf", vec![b'%'; 4])
                .with_mime_type("application/pdf")
                .into(),
            EmbeddedResource::blob("file:///x", vec![0; 2]).into(),
        ]
    }

    #[test]
    fn descriptions_are_the_parts_own_when_short() {
        for part in parts() {
            assert_eq!(describe(&part), part.describe(), "{part:?}");
        }
    }

    #[test]
    fn descriptions_are_bounded_and_escaped() {
        let long = "x".repeat(1 << 20);
        let hostile = format!("{long}\n\u{202e}");
        let parts = [
            Content::image(vec![1], hostile.clone()),
            Content::audio(vec![1], hostile.clone()),
            ResourceLink::new(hostile.clone(), hostile.clone()).into(),
            EmbeddedResource::text(hostile.clone(), "t").into(),
            EmbeddedResource::blob(hostile.clone(), vec![1])
                .with_mime_type(hostile.clone())
                .into(),
        ];
        for part in &parts {
            let text = describe(part);
            assert!(text.len() < 1024, "{} bytes", text.len());
            assert!(!text.contains('\u{202e}'), "{text}");
            // An embedded text's own text starts on the second line; nothing else does.
            assert!(text.lines().count() <= 2, "{text}");
        }
        assert!(title(&hostile).len() < 1024);
    }

    #[test]
    fn binaries_are_classified_by_part_and_media_type() {
        let parts = parts();
        let kinds: Vec<_> = parts.iter().map(|p| binary(p).map(|b| b.kind)).collect();
        assert_eq!(
            kinds,
            [
                None,
                Some(Kind::Image),
                Some(Kind::Audio),
                None,
                None,
                Some(Kind::File),
                Some(Kind::File)
            ]
        );
        let png: Content = EmbeddedResource::blob("file:///a.png", vec![1])
            .with_mime_type("IMAGE/PNG")
            .into();
        let png = binary(&png).unwrap();
        assert_eq!(png.kind, Kind::Image);
        assert_eq!(png.type_in(IMAGE_TYPES), Some("image/png"));
        let jpg = Content::image(vec![1], "image/jpg");
        assert_eq!(
            binary(&jpg).unwrap().type_in(IMAGE_TYPES),
            Some("image/jpeg")
        );
        let bmp = Content::image(vec![1], "image/bmp");
        assert_eq!(binary(&bmp).unwrap().type_in(IMAGE_TYPES), None);
    }

    #[test]
    fn file_names_come_from_the_uri() {
        let name = |uri: &str, mime: &str| {
            let part: Content = EmbeddedResource::blob(uri, vec![1])
                .with_mime_type(mime)
                .into();
            binary(&part).unwrap().filename()
        };
        assert_eq!(
            name("https://x.test/r/q3.pdf?sig=1#p2", "application/pdf"),
            "q3.pdf"
        );
        assert_eq!(name("file:///r/report", "application/pdf"), "report.pdf");
        assert_eq!(name("urn:x:orders.csv", "text/csv"), "orders.csv");
        assert_eq!(name("file:///dir/", "text/csv"), "file");
        assert_eq!(name("file:///..", "text/csv"), "file");
        assert_eq!(
            name(&format!("{}\u{0}", "n".repeat(999)), "text/csv").len(),
            120
        );
    }

    #[test]
    fn media_types_are_checked_before_they_go_into_a_field() {
        assert_eq!(media_type("application/pdf"), "application/pdf");
        assert_eq!(media_type("text/csv"), "text/csv");
        assert_eq!(media_type("text/csv; charset=utf-8"), OCTET_STREAM);
        assert_eq!(media_type("image/png\n"), OCTET_STREAM);
        assert_eq!(media_type("png"), OCTET_STREAM);
        assert_eq!(media_type(&format!("a/{}", "b".repeat(200))), OCTET_STREAM);
    }
}
