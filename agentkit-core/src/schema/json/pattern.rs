//! `pattern`s and `patternProperties` keys as the `regex` crate reads them: ECMA-262's
//! dialect translated, and what the linear-time engine cannot run refused.

use regex::Regex;

/// A `pattern` for the `regex` crate, read as ECMA-262 reads it: `\d` and `\w` are ASCII
/// classes (the crate's are Unicode), `\cX` is a control character, `[]` matches nothing and
/// `[^]` anything; what ECMA-262 does not have (`\a`, Python's `(?P<name>`, inline flags) is
/// refused, as is what the linear-time engine does not run (look-around, backreferences).
pub(super) fn compile_regex(source: &str, max_bytes: usize) -> Result<Regex, String> {
    let mut translated = String::with_capacity(source.len() + 16);
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('d') if in_class => translated.push_str("0-9"),
                Some('d') => translated.push_str("[0-9]"),
                Some('D') if !in_class => translated.push_str("[^0-9]"),
                Some('w') if in_class => translated.push_str("a-zA-Z0-9_"),
                Some('w') => translated.push_str("[a-zA-Z0-9_]"),
                Some('W') if !in_class => translated.push_str("[^a-zA-Z0-9_]"),
                Some('a') => return Err("`\\a` is not an ECMA-262 escape".to_owned()),
                Some('c') => match chars.next() {
                    Some(letter) if letter.is_ascii_alphabetic() => {
                        let code = u32::from(letter) % 32;
                        translated.push_str(&format!("\\x{code:02X}"));
                    }
                    _ => return Err("`\\c` must be followed by a letter".to_owned()),
                },
                Some('k') => {
                    return Err(
                        "backreferences are not supported (the engine runs in linear time)"
                            .to_owned(),
                    );
                }
                Some(other) => {
                    translated.push('\\');
                    translated.push(other);
                }
                None => translated.push('\\'),
            },
            '[' if !in_class => {
                match (chars.peek(), source.len()) {
                    (Some(']'), _) => {
                        chars.next();
                        translated.push_str("[^\\s\\S]");
                        continue;
                    }
                    (Some('^'), _) => {
                        let mut ahead = chars.clone();
                        ahead.next();
                        if ahead.peek() == Some(&']') {
                            chars.next();
                            chars.next();
                            translated.push_str("[\\s\\S]");
                            continue;
                        }
                    }
                    _ => {}
                }
                in_class = true;
                translated.push(c);
            }
            ']' if in_class => {
                in_class = false;
                translated.push(c);
            }
            '(' if !in_class && chars.peek() == Some(&'?') => {
                let mut ahead = chars.clone();
                ahead.next();
                match ahead.peek() {
                    Some(':' | '<' | '=' | '!') => {}
                    Some('P') => {
                        return Err(
                            "`(?P<name>` is Python's syntax; ECMA-262 writes `(?<name>`".to_owned()
                        );
                    }
                    _ => return Err("inline flags like `(?i)` are not ECMA-262".to_owned()),
                }
                translated.push(c);
            }
            _ => translated.push(c),
        }
    }
    regex::RegexBuilder::new(&translated)
        // The compiled program's size, bounded by what the pattern's length allows.
        .size_limit((max_bytes * 1024).max(1 << 20))
        .dfa_size_limit(2 << 20)
        .build()
        .map_err(|e| match e {
            regex::Error::Syntax(message) => message
                .lines()
                .last()
                .unwrap_or("syntax error")
                .trim_start_matches("error: ")
                .to_owned(),
            regex::Error::CompiledTooBig(_) => "the pattern compiles too large".to_owned(),
            _ => "the pattern is not supported".to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::compile_regex;

    fn matches(pattern: &str, text: &str) -> bool {
        compile_regex(pattern, 4096).unwrap().is_match(text)
    }

    #[test]
    fn patterns_read_as_ecma_262_reads_them() {
        // `\d` and `\w` are ASCII, in classes too.
        assert!(matches(r"^\d+$", "123"));
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(!matches(r"^[\w-]+$", "é"));
        assert!(matches(r"^[\w-]+$", "a_b-c"));
        assert!(matches(r"^\D$", "x"));
        // `\cJ` is a line feed; `[]` matches nothing, `[^]` anything.
        assert!(matches(r"^\cJ$", "\n"));
        assert!(!matches("[]", "a"));
        assert!(matches("^[^]$", "\n"));
        // Named groups are ECMA-262's.
        assert!(matches("(?<year>[0-9]{4})", "2026"));
    }

    #[test]
    fn what_ecma_262_lacks_or_the_engine_cannot_run_is_refused() {
        for (pattern, words) in [
            (r"\a", "not an ECMA-262 escape"),
            ("(?P<x>a)", "Python's syntax"),
            ("(?i)a", "inline flags"),
            (r"(?<n>a)\k<n>", "backreferences"),
            ("(?=a)", "look-around"),
            ("(", "unclosed group"),
        ] {
            let error = compile_regex(pattern, 4096).unwrap_err();
            assert!(error.contains(words), "{pattern}: {error}");
        }
    }
}
