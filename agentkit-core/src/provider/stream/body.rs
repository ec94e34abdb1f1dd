//! An HTTP body's bytes, as the client yields them, framed into events: server-sent events
//! ([`Sse`]), or a JSON body, either an array of chunks (Gemini's `streamGenerateContent`
//! without `alt=sse`) or one object (the error body a provider sends with an error status).
//! Which one is told by the body's first byte that is not whitespace (after a byte-order
//! mark): `[` or `{` start JSON, anything else an event stream.

use super::error::{BodyError, BodyErrorKind, StreamError};
use super::sse::Sse;

/// The byte-order mark a body may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The default of the longest line, event or JSON chunk a body may have, in bytes: 16 MiB,
/// far above any reply's event, and a bound on what a hostile or broken server can make a
/// decoder hold.
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// One body's framing state.
#[derive(Debug, Clone)]
pub(crate) struct Body {
    limit: usize,
    form: Form,
}

impl Default for Body {
    fn default() -> Self {
        Body {
            limit: DEFAULT_MAX_EVENT_BYTES,
            form: Form::Unknown(Vec::new()),
        }
    }
}

#[derive(Debug, Clone)]
enum Form {
    /// Nothing but whitespace or a byte-order mark so far (held here, at most a few bytes
    /// past the whitespace).
    Unknown(Vec<u8>),
    Sse(Sse),
    Json(Json),
}

impl Body {
    /// Sets the longest line, event or JSON chunk, in bytes.
    pub(crate) fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
    }

    /// Reads `bytes`, handing each event's text (an event's data, or a JSON chunk) to
    /// `event`.
    pub(super) fn feed(
        &mut self,
        api: &'static str,
        bytes: &[u8],
        event: &mut dyn FnMut(&str) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        let limit = self.limit;
        if let Form::Unknown(start) = &mut self.form {
            if start.len() + bytes.len() > limit {
                return Err(BodyError::new(api, BodyErrorKind::TooLong { limit }).into());
            }
            start.extend_from_slice(bytes);
            let text = start.strip_prefix(BOM).unwrap_or(start);
            if BOM.starts_with(text) && text.len() < BOM.len() {
                return Ok(()); // maybe a mark split between pieces
            }
            let Some(first) = text.iter().find(|b| !b.is_ascii_whitespace()) else {
                return Ok(());
            };
            let text = text.to_vec();
            if matches!(first, b'[' | b'{') {
                self.form = Form::Json(Json::default());
            } else {
                self.form = Form::Sse(Sse::default());
            }
            return self.feed(api, &text, event);
        }
        match &mut self.form {
            Form::Sse(sse) => sse.feed(api, limit, bytes, event),
            Form::Json(json) => json.feed(api, limit, bytes, event),
            Form::Unknown(_) => Ok(()),
        }
    }
}

/// A JSON body read as it arrives: each top-level object (an array's item, or the body
/// itself) is an event, handed on when its closing brace arrives.
#[derive(Debug, Clone, Default)]
struct Json {
    state: State,
    // Whether the body is an array (or one object).
    array: bool,
    // Whether the array has had an item (a `]` may not follow a comma).
    items: bool,
    // The chunk so far.
    chunk: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    /// Before the body's `[` or `{`.
    #[default]
    Start,
    /// In the array, where an item may start (after `[` or a comma).
    Item,
    /// In the array, after an item: a comma or `]` comes.
    AfterItem,
    /// In a chunk.
    Chunk,
    /// After the body's end: whitespace only.
    Ended,
}

impl Json {
    fn feed(
        &mut self,
        api: &'static str,
        limit: usize,
        bytes: &[u8],
        event: &mut dyn FnMut(&str) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        let not_json = |found| BodyError::new(api, BodyErrorKind::NotJson { found });
        let mut start = 0;
        for (at, &byte) in bytes.iter().enumerate() {
            match self.state {
                State::Chunk => {
                    if self.in_string {
                        if self.escaped {
                            self.escaped = false;
                        } else if byte == b'\\' {
                            self.escaped = true;
                        } else if byte == b'"' {
                            self.in_string = false;
                        }
                        continue;
                    }
                    match byte {
                        b'"' => self.in_string = true,
                        b'{' | b'[' => self.depth += 1,
                        b'}' | b']' => {
                            self.depth -= 1;
                            if self.depth == 0 {
                                self.chunk_done(api, limit, &bytes[start..=at], event)?;
                            }
                        }
                        _ => {}
                    }
                }
                _ if byte.is_ascii_whitespace() => {}
                State::Start => match byte {
                    b'[' => {
                        self.array = true;
                        self.state = State::Item;
                    }
                    b'{' => {
                        self.array = false;
                        self.start_chunk();
                        start = at;
                    }
                    _ => {
                        return Err(
                            not_json("a body that is neither an array nor an object").into()
                        );
                    }
                },
                State::Item => match byte {
                    b'{' => {
                        self.start_chunk();
                        start = at;
                    }
                    b']' if !self.items => self.state = State::Ended,
                    _ => return Err(not_json("an array item that is not an object").into()),
                },
                State::AfterItem => match byte {
                    b',' => self.state = State::Item,
                    b']' => self.state = State::Ended,
                    _ => return Err(not_json("no comma between two items").into()),
                },
                State::Ended => return Err(not_json("more after the body's end").into()),
            }
        }
        if self.state == State::Chunk {
            let piece = &bytes[start..];
            if self.chunk.len() + piece.len() > limit {
                return Err(BodyError::new(api, BodyErrorKind::TooLong { limit }).into());
            }
            self.chunk.extend_from_slice(piece);
        }
        Ok(())
    }

    fn start_chunk(&mut self) {
        self.state = State::Chunk;
        self.depth = 1;
        self.chunk.clear();
    }

    /// The chunk's last piece came: the whole chunk is an event.
    fn chunk_done(
        &mut self,
        api: &'static str,
        limit: usize,
        last: &[u8],
        event: &mut dyn FnMut(&str) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        if self.chunk.len() + last.len() > limit {
            return Err(BodyError::new(api, BodyErrorKind::TooLong { limit }).into());
        }
        self.items = true;
        self.state = if self.array {
            State::AfterItem
        } else {
            State::Ended
        };
        let read = if self.chunk.is_empty() {
            text(api, last).and_then(&mut *event)
        } else {
            self.chunk.extend_from_slice(last);
            let chunk = std::mem::take(&mut self.chunk);
            let read = text(api, &chunk).and_then(&mut *event);
            self.chunk = chunk;
            read
        };
        self.chunk.clear();
        read
    }
}

fn text<'a>(api: &'static str, bytes: &'a [u8]) -> Result<&'a str, StreamError> {
    std::str::from_utf8(bytes).map_err(|_| BodyError::new(api, BodyErrorKind::NotUtf8).into())
}

#[cfg(test)]
mod tests {
    use super::Body;

    fn events(pieces: &[&[u8]]) -> Result<Vec<String>, String> {
        let mut body = Body::default();
        let mut out = Vec::new();
        for piece in pieces {
            body.feed("test", piece, &mut |data| {
                out.push(data.to_owned());
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        }
        Ok(out)
    }

    #[test]
    fn the_first_byte_tells_an_event_stream_from_json() {
        assert_eq!(events(&[b"\xEF\xBB", b"\xBF\ndata: 1\n\n"]).unwrap(), ["1"]);
        assert_eq!(
            events(&[b"\xEF\xBB\xBF \n[{\"a\": \"]}\"},", b"\n{\"b\": [1]}]\n"]).unwrap(),
            ["{\"a\": \"]}\"}", "{\"b\": [1]}"]
        );
        assert_eq!(
            events(&[b"{\"error\": ", b"{}}"]).unwrap(),
            ["{\"error\": {}}"]
        );
        assert_eq!(events(&[b"[]"]).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn a_json_body_that_is_not_an_array_of_objects_is_refused() {
        for bad in [
            &b"[1]"[..],
            b"[{} {}]",
            b"[{}]x",
            b"{}{}",
            b"[,{}]",
            b"[{},]",
        ] {
            assert!(
                events(&[bad]).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
