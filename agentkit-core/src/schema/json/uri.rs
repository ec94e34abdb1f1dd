//! URIs for the JSON Schema validator: RFC 3986 reference resolution (§5.2) of `$id`, `$ref`,
//! `$anchor` and `$dynamicRef` against a base URI of any scheme, and the decoding of a URI
//! fragment that is a JSON pointer (RFC 6901 §6).

use std::fmt;

/// An absolute URI without its fragment, e.g. `https://example.com/root.json` or
/// `urn:uuid:deadbeef-...`, with its scheme and host lowercased.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct BaseUri {
    // Always absolute (a scheme) and fragment-free: only `default_base` and `resolve` build it.
    text: String,
}

impl BaseUri {
    /// The base used when a document has no `$id`: `agentkit:/schema`, whose path starts with
    /// '/' so that relative references resolve (`foo.json` to `agentkit:/foo.json`).
    pub(crate) fn default_base() -> BaseUri {
        BaseUri {
            text: "agentkit:/schema".to_owned(),
        }
    }

    /// Resolves `reference` (a `$id` or the URI of a `$ref`) against `self`: the absolute URI
    /// without its fragment, and the raw fragment text (without '#'; `None` when there is no
    /// '#'). An error says why `reference` is not a URI reference.
    pub(crate) fn resolve(&self, reference: &str) -> Result<(BaseUri, Option<String>), String> {
        check_reference(reference)?;
        let r = Parts::split(reference);
        if let Some(scheme) = r.scheme {
            check_scheme(scheme)?;
        }
        let base = Parts::split(&self.text);
        let (scheme, authority, path, query) = if r.scheme.is_some() || r.authority.is_some() {
            let scheme = r.scheme.or(base.scheme);
            (scheme, r.authority, remove_dot_segments(r.path), r.query)
        } else if r.path.is_empty() {
            let query = r.query.or(base.query);
            (base.scheme, base.authority, base.path.to_owned(), query)
        } else if r.path.starts_with('/') {
            let path = remove_dot_segments(r.path);
            (base.scheme, base.authority, path, r.query)
        } else {
            let path = remove_dot_segments(&merge(&base, r.path));
            (base.scheme, base.authority, path, r.query)
        };
        let text = compose(scheme.unwrap_or_default(), authority, &path, query);
        Ok((BaseUri { text }, r.fragment.map(str::to_owned)))
    }

    /// The URI text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for BaseUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The five components of a URI reference (RFC 3986 appendix B), borrowed from its text.
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

impl<'a> Parts<'a> {
    fn split(text: &'a str) -> Parts<'a> {
        let (rest, fragment) = match text.split_once('#') {
            Some((rest, fragment)) => (rest, Some(fragment)),
            None => (text, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, Some(query)),
            None => (rest, None),
        };
        // A ':' before any '/' ends a scheme; an empty one is kept so that `check_scheme` rejects
        // it (":x" is no valid relative reference either).
        let (scheme, rest) = match rest.split_once(':') {
            Some((scheme, rest)) if !scheme.contains('/') => (Some(scheme), rest),
            _ => (None, rest),
        };
        let (authority, path) = match rest.strip_prefix("//") {
            Some(after) => {
                let (authority, path) = after.split_at(after.find('/').unwrap_or(after.len()));
                (Some(authority), path)
            }
            None => (None, rest),
        };
        Parts {
            scheme,
            authority,
            path,
            query,
            fragment,
        }
    }
}

fn check_reference(reference: &str) -> Result<(), String> {
    let bytes = reference.as_bytes();
    let mut fragment = false;
    for (i, c) in reference.char_indices() {
        match c {
            // Non-ASCII characters are accepted as written (IRIs, RFC 3987), as validators do.
            c if c.is_control() || c.is_whitespace() || "\"<>\\^`{|}".contains(c) => {
                return Err(format!("invalid character {c:?} in URI reference"));
            }
            '#' if fragment => return Err("more than one '#' in URI reference".to_owned()),
            '#' => fragment = true,
            '%' => {
                let hex = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return Err("'%' not followed by two hex digits in URI reference".to_owned());
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn check_scheme(scheme: &str) -> Result<(), String> {
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if valid {
        Ok(())
    } else {
        Err(format!("invalid URI scheme {scheme:?}"))
    }
}

/// RFC 3986 §5.2.3.
fn merge(base: &Parts<'_>, relative: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{relative}");
    }
    match base.path.rfind('/') {
        Some(slash) => format!("{}{relative}", &base.path[..=slash]),
        None => relative.to_owned(),
    }
}

/// RFC 3986 §5.2.4, in linear time: the output buffer is a stack of segments, each with the
/// '/' before it, so that removing the last one is a pop.
fn remove_dot_segments(path: &str) -> String {
    let mut output: Vec<&str> = Vec::new();
    let mut input = path;
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") {
            input = &input[3..];
            output.pop();
        } else if input == "/.." {
            input = "/";
            output.pop();
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| start + i);
            let (segment, rest) = input.split_at(end);
            output.push(segment);
            input = rest;
        }
    }
    output.concat()
}

fn compose(scheme: &str, authority: Option<&str>, path: &str, query: Option<&str>) -> String {
    let mut text = String::with_capacity(scheme.len() + path.len() + 16);
    text.push_str(&scheme.to_ascii_lowercase());
    text.push(':');
    if let Some(authority) = authority {
        text.push_str("//");
        // Only the host is case-insensitive: the user information is kept as written.
        let (userinfo, host) = match authority.rfind('@') {
            Some(at) => authority.split_at(at + 1),
            None => ("", authority),
        };
        text.push_str(userinfo);
        push_lowercase_host(&mut text, host);
    } else if path.starts_with("//") {
        // Without it the path would read back as an authority; "/." is a no-op segment.
        text.push_str("/.");
    }
    text.push_str(path);
    if let Some(query) = query {
        text.push('?');
        text.push_str(query);
    }
    text
}

/// Lowercases `host` except the hex digits of its percent-escapes, which stay as written.
fn push_lowercase_host(text: &mut String, host: &str) {
    let mut escape_digits = 0;
    for c in host.chars() {
        if escape_digits > 0 {
            escape_digits -= 1;
            text.push(c);
        } else {
            if c == '%' {
                escape_digits = 2;
            }
            text.push(c.to_ascii_lowercase());
        }
    }
}

/// Decodes a JSON pointer fragment (without '#') into its reference tokens: percent-decoded
/// first, then split at '/' and unescaped (`~1` to '/', `~0` to '~'), as RFC 6901 §6 orders it.
/// `None` when the decoded text is neither empty nor starts with '/', or is malformed (a bad
/// percent-escape, bytes that are not UTF-8, a '~' not followed by '0' or '1').
pub(crate) fn pointer_tokens(fragment: &str) -> Option<Vec<String>> {
    let pointer = percent_decode(fragment)?;
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .map(unescape_token)
        .collect()
}

fn percent_decode(text: &str) -> Option<String> {
    let mut bytes = text.bytes();
    let mut decoded = Vec::with_capacity(text.len());
    while let Some(byte) = bytes.next() {
        if byte == b'%' {
            let high = hex_value(bytes.next()?)?;
            let low = hex_value(bytes.next()?)?;
            decoded.push(high << 4 | low);
        } else {
            decoded.push(byte);
        }
    }
    String::from_utf8(decoded).ok()
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

fn unescape_token(token: &str) -> Option<String> {
    let mut unescaped = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match c {
            '~' => match chars.next()? {
                '0' => unescaped.push('~'),
                '1' => unescaped.push('/'),
                _ => return None,
            },
            c => unescaped.push(c),
        }
    }
    Some(unescaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(text: &str) -> BaseUri {
        let (uri, fragment) = BaseUri::default_base().resolve(text).unwrap();
        assert_eq!(fragment, None, "{text}");
        uri
    }

    /// The resolved URI with its fragment, if any, appended.
    fn resolve(base: &BaseUri, reference: &str) -> String {
        let (uri, fragment) = base.resolve(reference).unwrap();
        match fragment {
            Some(fragment) => format!("{uri}#{fragment}"),
            None => uri.to_string(),
        }
    }

    /// RFC 3986 §5.4.1 (normal) then §5.4.2 (abnormal examples), as the RFC writes them.
    const RFC_3986_EXAMPLES: &str = r##"
        "g:h" = "g:h"  "g" = "http://a/b/c/g"  "./g" = "http://a/b/c/g"  "g/" = "http://a/b/c/g/"
        "/g" = "http://a/g"  "//g" = "http://g"  "?y" = "http://a/b/c/d;p?y"
        "g?y" = "http://a/b/c/g?y"  "#s" = "http://a/b/c/d;p?q#s"  "g#s" = "http://a/b/c/g#s"
        "g?y#s" = "http://a/b/c/g?y#s"  ";x" = "http://a/b/c/;x"  "g;x" = "http://a/b/c/g;x"
        "g;x?y#s" = "http://a/b/c/g;x?y#s"  "" = "http://a/b/c/d;p?q"  "." = "http://a/b/c/"
        "./" = "http://a/b/c/"  ".." = "http://a/b/"  "../" = "http://a/b/"  "../g" = "http://a/b/g"
        "../.." = "http://a/"  "../../" = "http://a/"  "../../g" = "http://a/g"

        "../../../g" = "http://a/g"  "../../../../g" = "http://a/g"  "/./g" = "http://a/g"
        "/../g" = "http://a/g"  "g." = "http://a/b/c/g."  ".g" = "http://a/b/c/.g"
        "g.." = "http://a/b/c/g.."  "..g" = "http://a/b/c/..g"  "./../g" = "http://a/b/g"
        "./g/." = "http://a/b/c/g/"  "g/./h" = "http://a/b/c/g/h"  "g/../h" = "http://a/b/c/h"
        "g;x=1/./y" = "http://a/b/c/g;x=1/y"  "g;x=1/../y" = "http://a/b/c/y"
        "g?y/./x" = "http://a/b/c/g?y/./x"  "g?y/../x" = "http://a/b/c/g?y/../x"
        "g#s/./x" = "http://a/b/c/g#s/./x"  "g#s/../x" = "http://a/b/c/g#s/../x"
        "http:g" = "http:g"
    "##;

    /// The strings quoted in `text`.
    fn quoted(text: &str) -> Vec<&str> {
        text.split('"').skip(1).step_by(2).collect()
    }

    #[test]
    fn rfc_3986_examples() {
        let base = uri("http://a/b/c/d;p?q");
        let examples = quoted(RFC_3986_EXAMPLES);
        assert_eq!(examples.len(), 2 * 42);
        for pair in examples.chunks_exact(2) {
            assert_eq!(resolve(&base, pair[0]), pair[1], "{:?}", pair[0]);
        }
    }

    /// Base, reference and the resolved URI with its fragment (`a:/.//c`: without the `/.` the
    /// path would read back as an authority).
    const OTHER_EXAMPLES: &str = r##"
        "urn:uuid:deadbeef-1234" + "#/$defs/bar" = "urn:uuid:deadbeef-1234#/$defs/bar"
        "urn:uuid:deadbeef-1234" + "#foo" = "urn:uuid:deadbeef-1234#foo"
        "urn:uuid:deadbeef-1234" + "" = "urn:uuid:deadbeef-1234"
        "urn:uuid:deadbeef-1234" + "foo.json" = "urn:foo.json"
        "urn:example:weather?=op=map&lat=39" + "#x" = "urn:example:weather?=op=map&lat=39#x"
        "urn:example:foo?+CCResolve:cc=uk" + "" = "urn:example:foo?+CCResolve:cc=uk"
        "tag:example.com,2005:s/a.json" + "b.json#/c" = "tag:example.com,2005:s/b.json#/c"
        "file:///folder/file.json" + "file:///c:/f.json" = "file:///c:/f.json"
        "file:///folder/file.json" + "other.json" = "file:///folder/other.json"
        "agentkit:/schema" + "foo.json" = "agentkit:/foo.json"
        "agentkit:/schema" + "#/$defs/a" = "agentkit:/schema#/$defs/a"
        "agentkit:/schema" + "foo.json#" = "agentkit:/foo.json#"
        "HTTPS://User@EXAMPLE.com:80/A%2f?Q" + "" = "https://User@example.com:80/A%2f?Q"
        "http://%C3%A9X.org/" + "//OTHER/x" = "http://other/x"
        "http://%C3%A9X.org/" + "" = "http://%C3%A9x.org/"
        "http://example.com/é" + "#é" = "http://example.com/é#é"
        "http://[::1]/a" + "b" = "http://[::1]/b"
        "a:/b" + "..//c" = "a:/.//c"
        "a:/.//c" + "" = "a:/.//c"
    "##;

    #[test]
    fn other_bases_and_fragments() {
        let examples = quoted(OTHER_EXAMPLES);
        assert_eq!(examples.len(), 3 * 19);
        for triple in examples.chunks_exact(3) {
            let (base, reference) = (uri(triple[0]), triple[1]);
            assert_eq!(resolve(&base, reference), triple[2], "{base} {reference}");
        }
        let base = BaseUri::default_base();
        assert_eq!(base.as_str(), "agentkit:/schema");
        let (empty, fragment) = base.resolve("foo.json#").unwrap();
        assert_eq!((empty, fragment.as_deref()), (uri("foo.json"), Some("")));
        let (same, fragment) = base.resolve("").unwrap();
        assert_eq!((same, fragment), (base, None));
    }

    #[test]
    fn invalid_references() {
        let base = BaseUri::default_base();
        let invalid =
            "a b,a\u{1},a\nb,%zz,%4,50%,a#b#c,1x:y,:foo,a\\b,{x},a<b,a|b,a^b,\"x\",`x`,\u{3000}";
        for reference in invalid.split(',') {
            assert!(base.resolve(reference).is_err(), "{reference:?}");
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let base = uri("urn:é:x/y");
        for text in "é: %é % /.é/.. é/../../é //é/. é#é x:é/./../é ~ %2".split(' ') {
            let _ = base.resolve(text);
            let _ = BaseUri::default_base().resolve(text);
            let _ = pointer_tokens(text);
        }
    }

    #[test]
    fn pointer_fragments() {
        let tokens = |fragment| pointer_tokens(fragment);
        let owned = |tokens: &[&str]| Some(tokens.iter().map(ToString::to_string).collect());
        assert_eq!(tokens("/a~1b"), owned(&["a/b"]));
        assert_eq!(tokens("/c%25d"), owned(&["c%d"]));
        assert_eq!(tokens("/m~0n"), owned(&["m~n"]));
        assert_eq!(tokens("/"), owned(&[""]));
        assert_eq!(tokens(""), owned(&[]));
        assert_eq!(tokens("//"), owned(&["", ""]));
        assert_eq!(tokens("/$defs/foo%22bar"), owned(&["$defs", "foo\"bar"]));
        // Percent-decoding comes first: "%2F" separates tokens, "%7E1" is an escaped '/'.
        assert_eq!(tokens("/a%2Fb"), owned(&["a", "b"]));
        assert_eq!(tokens("/%7E1"), owned(&["/"]));
        assert_eq!(tokens("%2Fa"), owned(&["a"]));
        assert_eq!(tokens("/~01"), owned(&["~1"]));
        assert_eq!(tokens("/%C3%A9"), owned(&["é"]));
        for bad in ["foo", "a/b", "/~", "/~2", "/%4", "/%zz", "/%FF", "/a%"] {
            assert_eq!(tokens(bad), None, "{bad:?}");
        }
    }
}
