//! The string `format` checks of the JSON Schema validator (draft 2020-12 and draft-07):
//! dates and times, durations, e-mail addresses, host names, IP addresses, URIs, IRIs, URI
//! templates, UUIDs and JSON pointers.

mod idna;

use idna::domain;

/// Whether `value` is valid for the JSON Schema `format` named `format`; `None` when agentkit does not know the format (unknown formats are annotations only, as JSON Schema says).
pub(crate) fn check(format: &str, value: &str) -> Option<bool> {
    checker(format).map(|check| check(value))
}

/// A format's check, resolved once from its name when a schema is compiled, so that
/// validation calls it without matching the name; `None` when agentkit does not know the
/// format.
pub(crate) fn checker(format: &str) -> Option<fn(&str) -> bool> {
    Some(match format {
        "date-time" => |value| {
            let b = value.as_bytes();
            b.len() > 11 && full_date(&b[..10]) && matches!(b[10], b'T' | b't') && time(&b[11..])
        },
        "date" => |value| value.len() == 10 && full_date(value.as_bytes()),
        "time" => |value| time(value.as_bytes()),
        "duration" => |value| duration(value.as_bytes()),
        "email" => |value| email(value, false),
        "idn-email" => |value| email(value, true),
        "hostname" => {
            |value| value.is_ascii() && value.len() <= MAX_NAME && domain(value.split('.'))
        }
        "idn-hostname" => |value| domain(value.split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])),
        "ipv4" => ipv4,
        "ipv6" => ipv6,
        "uri" => |value| uri(value, false, false),
        "uri-reference" => |value| uri(value, true, false),
        "iri" => |value| uri(value, false, true),
        "iri-reference" => |value| uri(value, true, true),
        "uri-template" => uri_template,
        "uuid" => |value| {
            let b = value.as_bytes();
            b.len() == 36
                && b.iter().enumerate().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => *c == b'-',
                    _ => c.is_ascii_hexdigit(),
                })
        },
        "json-pointer" => |value| json_pointer(value.as_bytes()),
        "relative-json-pointer" => |value| {
            let b = value.as_bytes();
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            n > 0 && (n == 1 || b[0] != b'0') && (&b[n..] == b"#" || json_pointer(&b[n..]))
        },
        _ => return None,
    })
}

/// The longest domain name, in octets of its ASCII form, without a trailing dot (RFC 1034).
const MAX_NAME: usize = 253;

/// The `n` ASCII digits at `at`, as a number.
fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
    b.get(at..at + n)?.iter().try_fold(0, |acc, &d| {
        d.is_ascii_digit().then(|| acc * 10 + u32::from(d - b'0'))
    })
}

fn full_date(b: &[u8]) -> bool {
    let (Some(y), Some(m), Some(d)) = (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2)) else {
        return false;
    };
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && (1..=days).contains(&d)
}

/// RFC 3339 `full-time`: a time of day with a fraction and a mandatory offset.
fn time(b: &[u8]) -> bool {
    let (Some(h), Some(m), Some(s)) = (digits(b, 0, 2), digits(b, 3, 2), digits(b, 6, 2)) else {
        return false;
    };
    if b[2] != b':' || b[5] != b':' || h > 23 || m > 59 || s > 60 {
        return false;
    }
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    let offset = match b.get(i) {
        Some(b'Z' | b'z') if b.len() == i + 1 => 0,
        Some(&sign @ (b'+' | b'-')) if b.len() == i + 6 && b[i + 3] == b':' => {
            let (Some(oh), Some(om)) = (digits(b, i + 1, 2), digits(b, i + 4, 2)) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            if sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    // A leap second is inserted at the end of a UTC day, so only 23:59:60 UTC exists.
    s < 60 || (i64::from(h * 60 + m) - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

/// RFC 3339 appendix A: `P` then weeks alone, or date parts and/or `T` and time parts.
fn duration(b: &[u8]) -> bool {
    let Some(rest) = b.strip_prefix(b"P") else {
        return false;
    };
    let (date, time) = match rest.iter().position(|&c| c == b'T') {
        Some(t) => (&rest[..t], Some(&rest[t + 1..])),
        None => (rest, None),
    };
    if let (Some(weeks), None) = (date.strip_suffix(b"W"), time) {
        return !weeks.is_empty() && weeks.iter().all(u8::is_ascii_digit);
    }
    (!date.is_empty() || time.is_some())
        && units(date, b"YMD")
        && time.is_none_or(|t| !t.is_empty() && units(t, b"HMS"))
}

/// Number-unit pairs whose units are consecutive members of `order`: `Y` `D` lacks its `M`.
fn units(mut s: &[u8], order: &[u8]) -> bool {
    let mut last: Option<usize> = None;
    while !s.is_empty() {
        let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
        let Some(pos) = s.get(n).and_then(|u| order.iter().position(|o| o == u)) else {
            return false;
        };
        if n == 0 || last.is_some_and(|l| pos != l + 1) {
            return false;
        }
        last = Some(pos);
        s = &s[n + 1..];
    }
    true
}

fn json_pointer(b: &[u8]) -> bool {
    (b.is_empty() || b[0] == b'/')
        && b.iter()
            .enumerate()
            .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

fn ipv4(s: &str) -> bool {
    let mut parts = 0;
    s.len() <= 15
        && s.split('.').all(|p| {
            parts += 1;
            !p.is_empty()
                && p.bytes().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u8>().is_ok()
        })
        && parts == 4
}

fn ipv6(s: &str) -> bool {
    // Groups in a `:`-separated run; only the address's last group may be a dotted quad.
    fn groups(run: &str, last: bool) -> Option<usize> {
        if run.is_empty() {
            return Some(0);
        }
        let count = run.split(':').count();
        let mut n = 0;
        for (i, g) in run.split(':').enumerate() {
            if last && i + 1 == count && g.contains('.') {
                n += if ipv4(g) { 2 } else { return None };
            } else if (1..=4).contains(&g.len()) && g.bytes().all(|c| c.is_ascii_hexdigit()) {
                n += 1;
            } else {
                return None;
            }
        }
        Some(n)
    }
    if s.len() > 45 {
        return false;
    }
    match s.split_once("::") {
        Some((head, tail)) => {
            matches!((groups(head, false), groups(tail, true)), (Some(h), Some(t)) if h + t <= 7)
        }
        None => groups(s, true) == Some(8),
    }
}

fn email(s: &str, idn: bool) -> bool {
    let text = |c: char| c == ' ' || c.is_ascii_graphic() || (idn && !c.is_ascii());
    let (local, domain) = if let Some(quoted) = s.strip_prefix('"') {
        let mut chars = quoted.char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) if chars.next().is_some_and(|(_, c)| text(c)) => {}
                Some((i, '"')) => break i,
                Some((_, c)) if c != '\\' && text(c) => {}
                _ => return false,
            }
        };
        let Some(domain) = quoted[end + 1..].strip_prefix('@') else {
            return false;
        };
        (&s[..end + 2], domain)
    } else {
        let Some((local, domain)) = s.rsplit_once('@') else {
            return false;
        };
        let atext = |c: char| {
            c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || (idn && !c.is_ascii())
        };
        let dots_ok = !local.starts_with('.') && !local.ends_with('.') && !local.contains("..");
        if local.is_empty() || !dots_ok || !local.split('.').all(|atom| atom.chars().all(atext)) {
            return false;
        }
        (local, domain)
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => ipv6(&literal[5..]),
            _ => ipv4(literal),
        },
        None if idn => check("idn-hostname", domain) == Some(true),
        None => check("hostname", domain) == Some(true),
    };
    local.len() <= 64 && domain_ok
}

/// RFC 3986 `URI` or, with `reference`, `URI-reference`; with `iri`, RFC 3987's versions.
fn uri(s: &str, reference: bool, iri: bool) -> bool {
    let (rest, fragment) = s.split_once('#').map_or((s, None), |(r, f)| (r, Some(f)));
    let (rest, query) = rest
        .split_once('?')
        .map_or((rest, None), |(r, q)| (r, Some(q)));
    let tail_ok = query.is_none_or(|q| chars_ok(q, "/?:@", iri, iri))
        && fragment.is_none_or(|f| chars_ok(f, "/?:@", iri, false));
    let scheme = rest.find(':').filter(|&i| {
        let b = &rest.as_bytes()[..i];
        b.first().is_some_and(u8::is_ascii_alphabetic)
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(c))
    });
    let hier = match scheme {
        Some(i) => &rest[i + 1..],
        // A relative path's first segment must not look like a scheme (`path-noscheme`).
        None if reference && !rest.split('/').next().is_some_and(|s| s.contains(':')) => rest,
        None => return false,
    };
    let path_ok = match hier.strip_prefix("//") {
        Some(after) => {
            let (authority, path) = after.split_at(after.find('/').unwrap_or(after.len()));
            authority_ok(authority, iri) && chars_ok(path, "/:@", iri, false)
        }
        None => chars_ok(hier, "/:@", iri, false),
    };
    tail_ok && path_ok
}

fn authority_ok(authority: &str, iri: bool) -> bool {
    let (userinfo, host_port) = authority
        .split_once('@')
        .map_or((None, authority), |(u, h)| (Some(u), h));
    if userinfo.is_some_and(|u| !chars_ok(u, ":", iri, false)) {
        return false;
    }
    let port = if let Some(bracketed) = host_port.strip_prefix('[') {
        let Some((literal, after)) = bracketed.split_once(']') else {
            return false;
        };
        if !ipv6(literal) && !ip_future(literal) {
            return false;
        }
        match after.strip_prefix(':') {
            Some(port) => port,
            None if after.is_empty() => "",
            None => return false,
        }
    } else {
        let (host, port) = host_port.split_once(':').unwrap_or((host_port, ""));
        if !chars_ok(host, "", iri, false) {
            return false;
        }
        port
    };
    port.bytes().all(|c| c.is_ascii_digit())
}

/// RFC 3986 `IPvFuture`: `v`, a hex version, `.`, then unreserved, sub-delims or `:`.
fn ip_future(s: &str) -> bool {
    let Some((version, rest)) = s.strip_prefix(['v', 'V']).and_then(|r| r.split_once('.')) else {
        return false;
    };
    !version.is_empty()
        && version.bytes().all(|c| c.is_ascii_hexdigit())
        && !rest.is_empty()
        && rest
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:".contains(&c))
}

/// Only unreserved, sub-delims, percent-encoded octets and `extra`; for IRIs also `ucschar`
/// and, where `private`, `iprivate`.
fn chars_ok(s: &str, extra: &str, iri: bool, private: bool) -> bool {
    let b = s.as_bytes();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        let ok = match c {
            '%' => {
                chars.nth(1);
                b.get(i + 1..i + 3)
                    .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            }
            _ if c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c) => true,
            _ if c.is_ascii() => extra.contains(c),
            _ => iri && (ucschar(c) || (private && iprivate(c))),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// RFC 3987 `ucschar`.
fn ucschar(c: char) -> bool {
    let n = u32::from(c);
    n >= 0xA0
        && !(0xD800..=0xF8FF).contains(&n)
        && !(0xFDD0..=0xFDEF).contains(&n)
        && !(0xFFF0..=0xFFFF).contains(&n)
        && n & 0xFFFE != 0xFFFE
        && !(0xE0000..=0xE0FFF).contains(&n)
        && n < 0xF0000
}

/// RFC 3987 `iprivate`.
fn iprivate(c: char) -> bool {
    let n = u32::from(c);
    (0xE000..=0xF8FF).contains(&n) || (n >= 0xF0000 && n & 0xFFFE != 0xFFFE)
}

/// RFC 6570 level 4 syntax; the apostrophe is a literal as errata 6937 says.
fn uri_template(s: &str) -> bool {
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let used = match c {
            '{' => match rest[1..].split_once('}') {
                Some((expression, _)) if template_expression(expression) => expression.len() + 2,
                _ => return false,
            },
            '%' if rest
                .as_bytes()
                .get(1..3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) =>
            {
                3
            }
            _ if c.is_ascii_graphic() && !"\"%<>\\^`{|}".contains(c) => 1,
            _ if !c.is_ascii() && (ucschar(c) || iprivate(c)) => c.len_utf8(),
            _ => return false,
        };
        rest = &rest[used..];
    }
    true
}

fn template_expression(e: &str) -> bool {
    let list = e
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(e);
    list.split(',').all(|spec| {
        let (name, modifier) = spec.split_at(spec.find([':', '*']).unwrap_or(spec.len()));
        let modifier_ok = match modifier.strip_prefix(':') {
            Some(len) => {
                (1..=4).contains(&len.len())
                    && !len.starts_with('0')
                    && len.bytes().all(|c| c.is_ascii_digit())
            }
            None => modifier.is_empty() || modifier == "*",
        };
        let dots_ok = !name.starts_with('.') && !name.ends_with('.') && !name.contains("..");
        let b = name.as_bytes();
        let chars_ok = b.iter().enumerate().all(|(i, &c)| match c {
            b'%' => b
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)),
            _ => c.is_ascii_alphanumeric() || c == b'_' || c == b'.',
        });
        modifier_ok && !name.is_empty() && dots_ok && chars_ok
    })
}

#[cfg(test)]
mod tests {
    use super::check;

    /// A format, `+` (valid) or `-` (invalid), then values, each after two spaces; a few hold
    /// invisible joiners (U+200C, U+200D) or a KELVIN SIGN (U+212A).
    const CASES: &str = r#"
date-time +  1963-06-19T08:30:06.283185Z  1998-12-31T15:59:60.123-08:00  1963-06-19t08:30:06z
date-time -  1998-12-31T23:58:60Z  1990-02-31T15:59:59Z  1985-04-12T23:20:50+01
date-time -  2013-350T01:01:01
date +  2020-02-29  0400-02-29
date -  2021-02-29  2100-02-29  2020-1-01  2020-01-01Z  ২020-01-01
time +  23:59:60Z  01:29:60+01:30  00:29:60-23:30  12:34:56-00:00
time -  23:59:60+01:00  12:00:00  01:02:03Z+00:30  24:00:00Z  08:30:06-8:000
duration +  P4DT12H30M5S  P2W  PT36H  P1Y2M  PT1M2S  P01D
duration -  P  PT  P1YT  P2D1Y  P1D2H  P1Y2W  P1Y2D  PT1H2S  PT0.5S  -P1D
email +  joe.bloggs@example.com  "joe..bloggs"@example.com  "joe@bloggs"@example.com
email +  a@[127.0.0.1]  a@[IPv6:::1]
email -  .a@example.com  a.@example.com  a..b@example.com  a@[127.0.0.300]  a b@example.com
email -  @example.com  a@  a@invalid=domain.com
idn-email +  실례@실례.테스트  "δοκιμή"@example.com
idn-email -  user＠example.com
hostname +  www.example.com  a--b.com  xn--9n2bp8q.xn--9t4b11yi5a  xn--ll-0ea
hostname -  example.  -a  a_b  xn--X  xn--l-fda  XN--aa---o47jg78q  Kelvin.example.com
idn-hostname +  실례.테스트  a。b  l·l  α͵β  א׳ב  ・ぁ  क्‍ष  بي‌بي  ۰0
idn-hostname -  〮실례.테스트  ̀hello  a·l  def・abc  ب٠۰  0a.א  aא  xn--7a  xn---9uc  xn--example-
idn-hostname -  a..b
ipv4 +  192.168.0.1  0.0.0.0
ipv4 -  127.1  01.2.3.4  256.0.0.1  1.2.3.4.
ipv6 +  ::  ::1  d6::  1:2:3:4:5:6:7:8  ::ffff:192.168.0.1
ipv6 -  12345::  :2:3:4:5:6:7:8  1::d6::42  1:2:3:4:5:::8  1:2:3:4:5:6:7  ::ffff:192.168.0.01
ipv6 -  fe80::a%eth1
uri +  http://foo.bar/?baz=qux#quux  urn:oasis:names:specification:docbook:dtd:xml:4.1.2
uri +  ldap://[2001:db8::7]/c=GB?objectClass?one
uri +  http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com
uri -  //foo.bar/  abc  http:// a.com  https://[@example.org/  http://a.com/%6G
uri -  http://a.com:abc/  1http://a  https://example.org/foobar®.txt
uri-reference +  //  ./this:that  #f
uri-reference -  1:b  /[::1]  //a@b@c/  \\WINDOWS\fileshare
iri +  http://ƒøø.ßår/?∂éœ=πîx#πîüx  http://[V1.fe]
iri -  âππ  http://2001:0db8:85a3:0000:0000:8a2e:0370:7334
iri-reference +  /âππ  #ƒrägmênt
iri-reference -  #ƒräg\mênt
uri-template +  http://example.com/{term:1}/{term}  {+var}  {x,y*}  {%41}  a'b  a😀b
uri-template -  {}  {a,,b}  {v:0}  {v:10000}  foo}bar  {a..b}  {var=def}  a b
uuid +  2eb8aa08-AA98-11ea-B4Aa-73B441D16380
uuid -  2eb8aa08aa9811eab4aa73b441d16380  2eb8aa0-8aa98-11e-ab4aa7-3b441d16380
json-pointer +  /foo/-  /~1~0
json-pointer -  #  /~2  a
relative-json-pointer +  0#  120/foo  0//
relative-json-pointer -  01#  0##  -1/a  1#/a
"#;

    #[test]
    fn formats_accept_and_refuse_the_listed_cases() {
        for line in CASES.lines().filter(|l| !l.is_empty()) {
            let mut fields = line.split("  ");
            let head = fields.next().unwrap_or_default();
            let (format, sign) = head.split_once(' ').unwrap_or((head, ""));
            for value in fields {
                let got = check(format, value);
                assert_eq!(got, Some(sign == "+"), "{format} {sign} {value:?}");
            }
        }
    }

    #[test]
    fn empty_and_newline_terminated_values_and_unchecked_formats() {
        assert_eq!(check("regex", "("), None);
        assert_eq!(check("no-such-format", ""), None);
        for format in [
            "date",
            "date-time",
            "time",
            "duration",
            "hostname",
            "idn-hostname",
            "ipv4",
        ] {
            assert_eq!(check(format, ""), Some(false), "{format}");
        }
        for format in [
            "uri-reference",
            "iri-reference",
            "uri-template",
            "json-pointer",
        ] {
            assert_eq!(check(format, ""), Some(true), "{format}");
        }
        assert_eq!(check("date-time", "1985-04-12T23:20:50Z\n"), Some(false));
        assert_eq!(check("hostname", "example.com\n"), Some(false));
        assert_eq!(
            check("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380\n"),
            Some(false)
        );
        assert_eq!(check("iri", "http://ƒøø.ßår/\n"), Some(false));
    }

    #[test]
    fn hostname_lengths() {
        let label = |n: usize| "a".repeat(n);
        assert_eq!(check("hostname", &format!("{}.com", label(63))), Some(true));
        assert_eq!(
            check("hostname", &format!("{}.com", label(64))),
            Some(false)
        );
        let long = [label(63), label(63), label(63), label(62)].join(".");
        assert_eq!(check("hostname", &long), Some(false));
        assert_eq!(check("hostname", &long[1..]), Some(true));
        // 59 `ü`s encode to a 65-octet A-label.
        assert_eq!(check("idn-hostname", &"ü".repeat(59)), Some(false));
        assert_eq!(check("idn-hostname", &"ü".repeat(20)), Some(true));
    }
}
