//! Server-sent events read from bytes as they arrive, by the WHATWG HTML standard's rules
//! ("Interpreting an event stream"): lines end at LF, CR or CRLF (a CRLF split between two
//! pieces is one line end); a blank line dispatches the event; a line starting with `:` is a
//! comment; `field: value` with one space after the colon dropped, a line without a colon a
//! field with an empty value; the `data` lines of an event are joined with `\n`.
//!
//! Only `data` matters to the decoders: each API's JSON names its own event type, so `event`
//! is not needed, and `id` and `retry` serve reconnecting, which a reply's stream cannot do.
//!
//! Two choices differ from a browser's, both so that a broken stream is an error rather than
//! a wrong call: text that is not UTF-8 is refused (a browser puts U+FFFD in its place), and a
//! line or event past the limit is refused (a browser has none). A character split between
//! two pieces is not either: a line is decoded once it is whole, and no byte of a multi-byte
//! character is CR or LF.

use super::error::{BodyError, BodyErrorKind, StreamError};

/// One stream's framing state.
#[derive(Debug, Clone, Default)]
pub(super) struct Sse {
    // The line so far, when a piece ended inside one.
    line: Vec<u8>,
    // The previous piece ended with CR: an LF starting the next one ends no second line.
    after_cr: bool,
    // The event's `data` so far, each line followed by `\n`.
    data: String,
    // Whether a `data` field came (the data may be empty text).
    has_data: bool,
}

impl Sse {
    /// Reads `bytes`, handing each event's data to `event` as its blank line arrives.
    pub(super) fn feed(
        &mut self,
        api: &'static str,
        limit: usize,
        mut bytes: &[u8],
        event: &mut dyn FnMut(&str) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        if self.after_cr && !bytes.is_empty() {
            self.after_cr = false;
            if bytes[0] == b'\n' {
                bytes = &bytes[1..];
            }
        }
        while let Some(end) = bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            let ends_cr = bytes[end] == b'\r';
            if self.line.is_empty() {
                self.check(api, limit, end)?;
                self.line_done(api, limit, &bytes[..end], event)?;
            } else {
                self.check(api, limit, self.line.len() + end)?;
                self.line.extend_from_slice(&bytes[..end]);
                let line = std::mem::take(&mut self.line);
                let read = self.line_done(api, limit, &line, event);
                self.line = line;
                self.line.clear();
                read?;
            }
            bytes = &bytes[end + 1..];
            if ends_cr {
                match bytes.first() {
                    Some(b'\n') => bytes = &bytes[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.check(api, limit, self.line.len() + bytes.len())?;
        self.line.extend_from_slice(bytes);
        Ok(())
    }

    fn check(&self, api: &'static str, limit: usize, len: usize) -> Result<(), StreamError> {
        if len > limit {
            return Err(BodyError::new(api, BodyErrorKind::TooLong { limit }).into());
        }
        Ok(())
    }

    fn line_done(
        &mut self,
        api: &'static str,
        limit: usize,
        line: &[u8],
        event: &mut dyn FnMut(&str) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        if line.is_empty() {
            if !self.has_data {
                return Ok(());
            }
            self.has_data = false;
            self.data.pop(); // the `\n` after the last line
            let read = event(&self.data);
            self.data.clear();
            return read;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(0) => return Ok(()), // a comment
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        if field == b"data" {
            let value = std::str::from_utf8(value)
                .map_err(|_| BodyError::new(api, BodyErrorKind::NotUtf8))?;
            self.check(api, limit, self.data.len() + value.len() + 1)?;
            self.data.push_str(value);
            self.data.push('\n');
            self.has_data = true;
        }
        // `event`, `id`, `retry` and unknown fields: nothing a reply's calls depend on.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Sse;

    /// The events of `pieces`, fed one after the other.
    fn events(pieces: &[&[u8]]) -> Vec<String> {
        let mut sse = Sse::default();
        let mut out = Vec::new();
        for piece in pieces {
            sse.feed("test", 64, piece, &mut |data| {
                out.push(data.to_owned());
                Ok(())
            })
            .unwrap();
        }
        out
    }

    #[test]
    fn line_ends_comments_and_fields_follow_the_standard() {
        let body: &[u8] = b": hi\r\nevent: x\rid: 3\nretry: 10\r\ndata:a\ndata:  b\ndata\r\n\r\n";
        assert_eq!(events(&[body]), ["a\n b\n"]);
        // A CRLF split between pieces is one line end, not an empty line.
        assert_eq!(events(&[b"data: 1\r", b"\ndata: 2\r\n\r", b"\n"]), ["1\n2"]);
        // Blank lines alone, and an event without data, dispatch nothing.
        assert_eq!(events(&[b"\n\r\n\rid: 1\n\n"]), Vec::<String>::new());
        // The last event without its blank line is not dispatched.
        assert_eq!(events(&[b"data: 1\n\ndata: 2\n"]), ["1"]);
    }

    #[test]
    fn lines_and_events_past_the_limit_are_refused() {
        let mut sse = Sse::default();
        let long = [b'x'; 65];
        let mut ignore = |_: &str| Ok(());
        assert!(sse.feed("test", 64, &long, &mut ignore).is_err());
        let mut sse = Sse::default();
        let line = [b"data: ".as_slice(), &[b'x'; 40], b"\n"].concat();
        sse.feed("test", 64, &line, &mut ignore).unwrap();
        assert!(sse.feed("test", 64, &line, &mut ignore).is_err());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused() {
        let mut sse = Sse::default();
        let read = sse.feed("test", 64, b"data: \xff\n\n", &mut |_| Ok(()));
        assert!(read.is_err());
    }
}
