//! Where a JSON object or array ends, found while its text arrives in pieces: OpenAI Chat
//! Completions has no event that ends a call's arguments, so their closing bracket does.

/// A scan of one JSON text, fed in pieces, each byte looked at once.
///
/// It follows strings (and their escapes) and brackets only, not the whole grammar: it finds
/// where the first top-level object or array closes, whatever is inside. Text that starts
/// with anything else (a scalar, or nothing yet) never closes here.
#[derive(Debug, Clone, Default)]
pub(super) struct JsonEnd {
    state: State,
    depth: u64,
    in_string: bool,
    escaped: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    /// Only whitespace so far.
    #[default]
    Before,
    /// Inside the top-level object or array.
    Inside,
    /// The top-level value closed, or the text is not an object or array.
    Over,
}

impl JsonEnd {
    /// Reads the next piece; true when the top-level object or array closes in it.
    pub(super) fn feed(&mut self, piece: &str) -> bool {
        // Bytes, not chars: every byte the scan looks for is ASCII, and no byte of a
        // multi-byte character is.
        for &byte in piece.as_bytes() {
            match self.state {
                State::Over => return false,
                State::Before => match byte {
                    b' ' | b'\t' | b'\n' | b'\r' => {}
                    b'{' | b'[' => {
                        self.state = State::Inside;
                        self.depth = 1;
                    }
                    _ => self.state = State::Over,
                },
                State::Inside if self.in_string => {
                    if self.escaped {
                        self.escaped = false;
                    } else if byte == b'\\' {
                        self.escaped = true;
                    } else if byte == b'"' {
                        self.in_string = false;
                    }
                }
                State::Inside => match byte {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            self.state = State::Over;
                            return true;
                        }
                    }
                    _ => {}
                },
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::JsonEnd;

    fn closes_at(pieces: &[&str]) -> Option<usize> {
        let mut scan = JsonEnd::default();
        pieces.iter().position(|piece| scan.feed(piece))
    }

    #[test]
    fn an_object_closes_at_its_bracket_whatever_the_split() {
        assert_eq!(closes_at(&["{\"a\"", ": [1, {}", "]}"]), Some(2));
        assert_eq!(closes_at(&[" ", "{", "}"]), Some(2));
        assert_eq!(closes_at(&["[1,2", "]"]), Some(1));
    }

    #[test]
    fn brackets_and_quotes_in_strings_do_not_count() {
        assert_eq!(closes_at(&["{\"a\": \"}\\\"", "]\"", "}"]), Some(2));
        assert_eq!(closes_at(&["{\"a\": \"\\\\\"", "}"]), Some(1));
    }

    #[test]
    fn scalars_and_empty_text_never_close() {
        assert_eq!(closes_at(&["", "  "]), None);
        assert_eq!(closes_at(&["12", "3"]), None);
        assert_eq!(closes_at(&["\"{}\""]), None);
        assert_eq!(closes_at(&["{\"a\": 1"]), None);
    }

    #[test]
    fn only_the_first_value_counts() {
        let mut scan = JsonEnd::default();
        assert!(scan.feed("{}"));
        assert!(!scan.feed("{}"));
    }
}
