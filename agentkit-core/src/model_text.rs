//! Text for an untrusted reader: bounded in size, escaped, free of secrets.
//!
//! Everything the executor hands back to a model, and everything it stores or prints about a
//! call, may echo what a model or a remote client sent. [`TextLimits`] bounds it; the helpers
//! here escape it so that no echoed string can add a line, close a quote or reorder text.

use std::fmt::{self, Write as _};

/// Size bounds on the text the executor produces for the model, set with
/// [`ToolExecutorBuilder::text_limits`](crate::ToolExecutorBuilder::text_limits).
///
/// Whatever the size of a call's arguments, the text a [`ToolResult`](crate::ToolResult)
/// renders for the model ([`to_model_content`](crate::ToolResult::to_model_content)) is at
/// most [`max_content_bytes`](Self::max_content_bytes) long:
///
/// | limit | default | what it bounds |
/// |---|---|---|
/// | [`max_issues`](Self::max_issues) | 20 | validation issues collected and listed; the rest are counted ("... and 3 more") |
/// | [`max_echo_chars`](Self::max_echo_chars) | 80 | each echoed name, key or path, cut with `…` |
/// | [`max_message_chars`](Self::max_message_chars) | 1000 | a tool's message for the model (a retry's feedback, a denial's reason, a failure's model message) |
/// | [`max_content_bytes`](Self::max_content_bytes) | 16384 | the whole text, a successful output included (and the text of its content parts, together) |
/// | [`max_binary_bytes`](Self::max_binary_bytes) | 10 MiB | the binary data of a result's content parts (images, audio, files), together: past it the call fails |
///
/// ```
/// use agentkit_core::TextLimits;
///
/// let limits = TextLimits::default().with_max_issues(5).with_max_content_bytes(4096);
/// assert_eq!(limits.max_issues(), 5);
/// assert_eq!(limits.max_echo_chars(), 80);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextLimits {
    max_issues: u32,
    max_echo_chars: u32,
    max_message_chars: u32,
    max_content_bytes: u32,
    max_binary_bytes: u32,
}

impl Default for TextLimits {
    fn default() -> Self {
        TextLimits::DEFAULT
    }
}

/// Clamps a `usize` setting into the `u32` a limit is stored as (a limit of 4 GiB of text is
/// no limit anyway).
fn clamp(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

impl TextLimits {
    /// The defaults: 20 issues, 80 characters per echoed name, 1000 characters of a tool's
    /// message for the model, 16 KiB of text in all, 10 MiB of binary content.
    pub const DEFAULT: TextLimits = TextLimits {
        max_issues: 20,
        max_echo_chars: 80,
        max_message_chars: 1000,
        max_content_bytes: 16 * 1024,
        max_binary_bytes: 10 * 1024 * 1024,
    };

    /// How many validation issues are collected and listed; more are counted, not kept.
    pub const fn max_issues(&self) -> usize {
        self.max_issues as usize
    }

    /// How many characters of an echoed name, key or path are shown.
    pub const fn max_echo_chars(&self) -> usize {
        self.max_echo_chars as usize
    }

    /// How many characters of a tool's message for the model are shown (see [`ToolError`](crate::ToolError)).
    pub const fn max_message_chars(&self) -> usize {
        self.max_message_chars as usize
    }

    /// The most bytes the whole model text may have.
    pub const fn max_content_bytes(&self) -> usize {
        self.max_content_bytes as usize
    }

    /// The most bytes of binary data (images, audio, embedded files) a result's content parts
    /// may carry together; a tool that returns more fails, with a
    /// [`ContentTooLarge`](crate::ContentTooLarge) cause.
    pub const fn max_binary_bytes(&self) -> usize {
        self.max_binary_bytes as usize
    }

    /// Sets [`max_binary_bytes`](Self::max_binary_bytes) (0 refuses every binary part).
    #[must_use]
    pub fn with_max_binary_bytes(mut self, n: usize) -> Self {
        self.max_binary_bytes = clamp(n);
        self
    }

    /// Sets [`max_issues`](Self::max_issues) (at least 1).
    #[must_use]
    pub fn with_max_issues(mut self, n: usize) -> Self {
        self.max_issues = clamp(n.max(1));
        self
    }

    /// Sets [`max_echo_chars`](Self::max_echo_chars) (at least 8).
    #[must_use]
    pub fn with_max_echo_chars(mut self, n: usize) -> Self {
        self.max_echo_chars = clamp(n.max(8));
        self
    }

    /// Sets [`max_message_chars`](Self::max_message_chars) (at least 16).
    #[must_use]
    pub fn with_max_message_chars(mut self, n: usize) -> Self {
        self.max_message_chars = clamp(n.max(16));
        self
    }

    /// Sets [`max_content_bytes`](Self::max_content_bytes) (at least 256).
    #[must_use]
    pub fn with_max_content_bytes(mut self, n: usize) -> Self {
        self.max_content_bytes = clamp(n.max(256));
        self
    }
}

/// How many bytes of an untrusted string (a key, a tool name) are kept when it is captured
/// into an issue or error, so that a 50 MB key costs no 50 MB copy. Well above every echo
/// limit a reader would set, and above the longest valid name (64).
pub(crate) const CAPTURE_BYTES: usize = 256;

/// How many characters of an echoed name operator-facing messages (an error's `Display`)
/// show.
pub(crate) const OPERATOR_ECHO: usize = 200;

/// How many characters of a foreign error message operator-facing messages show.
pub(crate) const OPERATOR_MESSAGE: usize = 4096;

/// `s`, cut to at most [`CAPTURE_BYTES`] on a character boundary, with `…` when cut.
pub(crate) fn capture(s: &str) -> String {
    if s.len() <= CAPTURE_BYTES {
        return s.to_owned();
    }
    let mut captured = String::with_capacity(CAPTURE_BYTES + '…'.len_utf8());
    push_captured(&mut captured, s);
    captured
}

/// [`capture`] of `s` written at the end of `out`: for a name made of several, without a
/// string for each.
pub(crate) fn push_captured(out: &mut String, s: &str) {
    if s.len() <= CAPTURE_BYTES {
        out.push_str(s);
        return;
    }
    let mut end = CAPTURE_BYTES;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.push_str(&s[..end]);
    out.push('…');
}

/// Whether `c` must not reach a reader raw: control characters (newlines, NUL, C1), line and
/// paragraph separators, and the invisible format characters that reorder or hide text
/// (bidirectional overrides and isolates, zero-width characters, the byte-order mark, tags).
pub(crate) fn is_unsafe_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061C}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08E2}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{110CD}'
                | '\u{13430}'..='\u{1343F}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
        )
}

/// Writes `s` escaped, at most `max_chars` characters of it, then `…` if it was longer.
///
/// Unsafe characters become `\u{..}` (newlines `\n`). In a `quoted` string, one that messages
/// show in `'...'`, `\` and `'` are escaped too: an echoed name can neither leave its quotes
/// nor start a line.
fn write_escaped(f: &mut dyn fmt::Write, s: &str, max_chars: usize, quoted: bool) -> fmt::Result {
    let bytes = s.as_bytes();
    // Most texts are printable ASCII with nothing to escape, and short enough: one test of
    // every byte (without an early exit, which the compiler can vectorize), one write.
    if bytes.len() <= max_chars && plain_ascii(bytes, quoted) {
        return f.write_str(s);
    }
    // The characters between two escapes are written as one slice: most texts have none.
    // ASCII, most of any text, is read a byte at a time (a byte is a character there).
    let (mut plain, mut at, mut shown) = (0, 0, 0);
    while at < bytes.len() {
        if shown == max_chars {
            f.write_str(&s[plain..at])?;
            return f.write_char('…');
        }
        shown += 1;
        let b = bytes[at];
        let (c, len) = if b.is_ascii() {
            if !b.is_ascii_control() && !(quoted && (b == b'\\' || b == b'\'')) {
                at += 1;
                continue;
            }
            (char::from(b), 1)
        } else {
            let c = s[at..].chars().next().unwrap_or('\u{FFFD}');
            if !is_unsafe_char(c) {
                at += c.len_utf8();
                continue;
            }
            (c, c.len_utf8())
        };
        let escape = match c {
            '\\' if quoted => Some("\\\\"),
            '\'' if quoted => Some("\\'"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        f.write_str(&s[plain..at])?;
        match escape {
            Some(escape) => f.write_str(escape)?,
            None => write!(f, "\\u{{{:x}}}", u32::from(c))?,
        }
        at += len;
        plain = at;
    }
    f.write_str(&s[plain..])
}

/// Whether every byte is printable ASCII that [`write_escaped`] keeps as it is (in a
/// `quoted` text, neither `\\` nor `'`).
fn plain_ascii(bytes: &[u8], quoted: bool) -> bool {
    let mut escaped = false;
    for &b in bytes {
        escaped |= !(0x20..0x7F).contains(&b) | (quoted & ((b == b'\\') | (b == b'\'')));
    }
    !escaped
}

/// A name shown in quotes, escaped and cut, for `format!`: `'{}'` with `Escaped(name, 80)`.
pub(crate) struct Escaped<'a>(pub(crate) &'a str, pub(crate) usize);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0, self.1, true)
    }
}

/// Free text (a tool's error message) shown escaped and cut: it cannot start a line or
/// reorder what follows, and its quotes are its own.
pub(crate) struct EscapedText<'a>(pub(crate) &'a str, pub(crate) usize);

impl fmt::Display for EscapedText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_escaped(f, self.0, self.1, false)
    }
}

/// A tool's own text (a text part) made safe for a reader: it keeps its lines and tabs, but
/// every other character [`is_unsafe_char`] names becomes `\u{..}`, so that it cannot reorder
/// or hide text.
pub(crate) fn escape_text_part(text: String) -> String {
    let unsafe_char = |c: char| c != '\n' && c != '\t' && is_unsafe_char(c);
    if !text.chars().any(unsafe_char) {
        return text;
    }
    let mut escaped = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if unsafe_char(c) {
            // Writing to a String cannot fail.
            let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// JSON text made safe for a reader: the characters [`is_unsafe_char`] names become `\uXXXX`
/// escapes. They can only stand inside JSON strings (serde_json already escapes the control
/// characters), where such an escape means the same character, so the text stays valid JSON
/// with the same value.
pub(crate) fn escape_json_text(json: String) -> String {
    if json.is_ascii() || !json.chars().any(is_unsafe_char) {
        return json;
    }
    let mut escaped = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe_char(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                // Writing to a String cannot fail.
                let _ = write!(escaped, "\\u{unit:04x}");
            }
        } else {
            escaped.push(c);
        }
    }
    escaped
}

/// Cuts `text` to at most `max_bytes`, on a character boundary, saying how much was left out.
pub(crate) fn truncate_content(mut text: String, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text;
    }
    let omitted_note = |omitted: usize| format!("… [truncated: {omitted} more bytes]");
    // The note is at most ~40 bytes; keep room for it inside the bound.
    let mut end = max_bytes.saturating_sub(48);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let note = omitted_note(text.len() - end);
    text.truncate(end);
    text.push_str(&note);
    text
}

/// Replaces every occurrence of each secret in `text` by `[redacted]`.
pub(crate) fn scrub(text: &str, secrets: &[&str]) -> Option<String> {
    let mut scrubbed: Option<String> = None;
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        let current = scrubbed.as_deref().unwrap_or(text);
        if current.contains(secret) {
            scrubbed = Some(current.replace(secret, "[redacted]"));
        }
    }
    scrubbed
}

/// `text` cut to `max_chars` characters (ending with `…` when cut), then scrubbed of
/// `secrets` as [`scrub_cut`] does.
pub(crate) fn cut_scrubbed(mut text: String, max_chars: usize, secrets: &[&str]) -> String {
    if let Some((end, _)) = text.char_indices().nth(max_chars) {
        text.truncate(end);
        text.push('…');
    }
    scrub_cut(text, secrets)
}

/// `text` with every occurrence of `secrets` replaced, and, when it was cut (it ends with
/// `…`), the beginning of a secret it was cut inside of.
pub(crate) fn scrub_cut(text: String, secrets: &[&str]) -> String {
    let mut text = scrub(&text, secrets).unwrap_or(text);
    let Some(body) = text.strip_suffix('…') else {
        return text;
    };
    let partial = secrets
        .iter()
        .filter_map(|secret| {
            (1..secret.len())
                .rev()
                .find(|&n| secret.is_char_boundary(n) && body.ends_with(&secret[..n]))
        })
        .max();
    if let Some(n) = partial {
        let end = body.len();
        text.replace_range(end - n..end, "[redacted]");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(s: &str, n: usize) -> String {
        Escaped(s, n).to_string()
    }

    #[test]
    fn echoed_text_cannot_add_lines_or_reorder() {
        assert_eq!(escaped("city", 80), "city");
        assert_eq!(
            escaped("x\n- Missing required parameter: 'admin'", 80),
            "x\\n- Missing required parameter: \\'admin\\'"
        );
        assert_eq!(escaped("a\u{202E}b\0c", 80), "a\\u{202e}b\\u{0}c");
        assert_eq!(escaped("\\", 80), "\\\\");
        assert_eq!(escaped("abcdefghij", 4), "abcd…");
        assert_eq!(escaped("日本語", 2), "日本…");
        assert_eq!(
            EscapedText("it's a\nb\u{2066}", 80).to_string(),
            "it's a\\nb\\u{2066}"
        );
    }

    /// One character at a time: what `write_escaped`, which writes the runs between escapes
    /// whole, must equal.
    fn escaped_char_by_char(s: &str, max_chars: usize, quoted: bool) -> String {
        let mut out = String::new();
        for (shown, c) in s.chars().enumerate() {
            if shown == max_chars {
                out.push('…');
                return out;
            }
            match c {
                '\\' | '\'' if quoted => out.extend(['\\', c]),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if is_unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn runs_between_escapes_are_written_as_they_were_char_by_char() {
        // Every ASCII character, and each alone (the whole-text test of printable ASCII).
        let ascii: String = (0..=0x7F_u8).map(char::from).collect();
        let alone: Vec<String> = ascii.chars().map(|c| format!("ab{c}cd")).collect();
        let texts = [
            "",
            &ascii,
            "plain ascii",
            "it's a \\ path\n\tand\r more",
            "\u{202E}first\u{0}\u{85}mid\u{E0041}last\u{FEFF}",
            "日本語 and é, then \u{2028} then 😀'",
            "''\\\\\n\n",
        ];
        for text in texts.into_iter().chain(alone.iter().map(String::as_str)) {
            for max_chars in 0..=text.chars().count() + 1 {
                for quoted in [false, true] {
                    let mut written = String::new();
                    write_escaped(&mut written, text, max_chars, quoted).unwrap();
                    assert_eq!(
                        written,
                        escaped_char_by_char(text, max_chars, quoted),
                        "{text:?} cut at {max_chars}, quoted: {quoted}"
                    );
                }
            }
        }
    }

    #[test]
    fn ascii_is_unsafe_exactly_when_it_is_a_control_character() {
        for byte in 0..=0x7f_u8 {
            let c = char::from(byte);
            assert_eq!(is_unsafe_char(c), c.is_control(), "{byte:#x}");
        }
        assert!(is_unsafe_char('\u{85}'), "C1 controls stay unsafe");
    }

    #[test]
    fn captures_are_bounded_on_char_boundaries() {
        assert_eq!(capture("short"), "short");
        let long = "é".repeat(1000);
        let captured = capture(&long);
        assert!(captured.len() <= CAPTURE_BYTES + 3);
        assert!(captured.ends_with('…'));
    }

    #[test]
    fn json_stays_valid_with_the_same_value() {
        let value = serde_json::json!({"a": "x\u{202E}y\u{2028}z😀"});
        let text = escape_json_text(serde_json::to_string(&value).unwrap());
        assert!(!text.chars().any(is_unsafe_char), "{text}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            value
        );
    }

    #[test]
    fn content_is_cut_within_its_bound() {
        let cut = truncate_content("é".repeat(10_000), 1000);
        assert!(cut.len() <= 1000, "{}", cut.len());
        assert!(cut.ends_with("more bytes]"));
        assert_eq!(truncate_content("short".into(), 1000), "short");
    }

    #[test]
    fn secrets_are_replaced_everywhere() {
        assert_eq!(
            scrub("key sk-1 and sk-1 again", &["sk-1", ""]).as_deref(),
            Some("key [redacted] and [redacted] again")
        );
        assert_eq!(scrub("nothing here", &["sk-1"]), None);
    }

    #[test]
    fn a_text_cut_inside_a_secret_loses_the_secrets_beginning() {
        let secrets = ["sk-1234", ""];
        assert_eq!(scrub_cut("key sk-12…".into(), &secrets), "key [redacted]…");
        assert_eq!(
            scrub_cut("sk-1234 and sk-1…".into(), &secrets),
            "[redacted] and [redacted]…"
        );
        // An uncut text ends where its author ended it.
        assert_eq!(scrub_cut("key sk-12".into(), &secrets), "key sk-12");
    }
}
