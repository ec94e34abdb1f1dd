//! The arguments text of a `tools/call` message, found by scanning its bytes rather than
//! parsing it (see [`call_arguments`](super::call_arguments)).
//!
//! The scan reads a message as clients write them: an object, its keys plain strings (no
//! escape), `method` and `params` once each, `params` an object with `arguments` once. On
//! anything else it is [`Unsure`](Scanned::Unsure), and the caller parses the message with
//! serde, so that both read the same. It checks the structure only as far as it needs to
//! find values: on a message that is not JSON it may find arguments serde would not, which
//! is harmless, as rmcp's parse refuses that message before any call.

/// What a scan found.
pub(super) enum Scanned<'a> {
    /// The text of the call's arguments.
    Arguments(&'a str),
    /// The message is not a `tools/call` with arguments.
    NotACall,
    /// The message is not as clients write them: parse it.
    Unsure,
}

/// Scans `message` for the arguments of a `tools/call`.
pub(super) fn call_arguments(message: &[u8]) -> Scanned<'_> {
    scanned(message).unwrap_or(Scanned::Unsure)
}

/// `None` when unsure.
fn scanned(message: &[u8]) -> Option<Scanned<'_>> {
    let mut scan = Scan {
        bytes: message,
        at: 0,
    };
    let mut method = None;
    let mut arguments = None;
    let mut params_seen = false;
    scan.eat(b'{')?;
    if !scan.peek_is(b'}') {
        loop {
            let key = scan.plain_string()?;
            scan.eat(b':')?;
            match key {
                b"method" if method.is_none() => method = Some(scan.value()?),
                b"params" if !params_seen => {
                    params_seen = true;
                    arguments = scan.params()?;
                }
                b"method" | b"params" => return None,
                _ => {
                    scan.value()?;
                }
            }
            if !scan.eat_either(b',', b'}')? {
                break;
            }
        }
    } else {
        scan.at += 1;
    }
    scan.skip_whitespace();
    if scan.at != message.len() {
        return None;
    }
    match method {
        Some(b"\"tools/call\"") => {}
        // Escaped: serde's to unescape.
        Some(method) if method.contains(&b'\\') => return None,
        _ => return Some(Scanned::NotACall),
    }
    match arguments {
        Some(text) if text != b"null" => Some(Scanned::Arguments(std::str::from_utf8(text).ok()?)),
        _ => Some(Scanned::NotACall),
    }
}

struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Scan<'a> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek_is(&mut self, byte: u8) -> bool {
        self.skip_whitespace();
        self.bytes.get(self.at) == Some(&byte)
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        if !self.peek_is(byte) {
            return None;
        }
        self.at += 1;
        Some(())
    }

    /// Eats `more` (`true`) or `end` (`false`).
    fn eat_either(&mut self, more: u8, end: u8) -> Option<bool> {
        self.skip_whitespace();
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        match byte {
            _ if byte == more => Some(true),
            _ if byte == end => Some(false),
            _ => None,
        }
    }

    /// The content of a string without escapes.
    fn plain_string(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.at;
        let length = self.bytes[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\')?;
        self.at = start + length;
        if self.bytes[self.at] == b'\\' {
            return None;
        }
        self.at += 1;
        Some(&self.bytes[start..start + length])
    }

    /// Passes a string, the opening quote passed already.
    fn pass_string(&mut self) -> Option<()> {
        loop {
            // `get`: an escape as the message's last byte leaves `at` past its end.
            let length = self
                .bytes
                .get(self.at..)?
                .iter()
                .position(|&b| b == b'"' || b == b'\\')?;
            self.at += length + 1;
            if self.bytes[self.at - 1] == b'"' {
                return Some(());
            }
            // An escape: the next byte is escaped (a `\u` is followed by hex digits only).
            self.at += 1;
        }
    }

    /// The text of the value here, passed.
    fn value(&mut self) -> Option<&'a [u8]> {
        self.skip_whitespace();
        let start = self.at;
        match *self.bytes.get(self.at)? {
            b'"' => {
                self.at += 1;
                self.pass_string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0_usize;
                loop {
                    let byte = *self.bytes.get(self.at)?;
                    self.at += 1;
                    match byte {
                        b'"' => self.pass_string()?,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {
                let length = self.bytes[start..]
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(self.bytes.len() - start);
                if length == 0 {
                    return None;
                }
                self.at = start + length;
            }
        }
        Some(&self.bytes[start..self.at])
    }

    /// `params`' `arguments` text, passing `params`: `Some(None)` without one (or `null`
    /// params); `None` when unsure.
    fn params(&mut self) -> Option<Option<&'a [u8]>> {
        if !self.peek_is(b'{') {
            let value = self.value()?;
            return (value == b"null").then_some(None);
        }
        self.at += 1;
        let mut arguments = None;
        if self.peek_is(b'}') {
            self.at += 1;
            return Some(None);
        }
        loop {
            let key = self.plain_string()?;
            self.eat(b':')?;
            let value = self.value()?;
            if key == b"arguments" {
                if arguments.is_some() {
                    return None;
                }
                arguments = Some(value);
            }
            if !self.eat_either(b',', b'}')? {
                return Some(arguments);
            }
        }
    }
}
