//! The string `format` checks of the JSON Schema validator (draft 2020-12 and draft-07):
//! dates and times, durations, e-mail addresses, host names, IP addresses, URIs, IRIs, URI
//! templates, UUIDs and JSON pointers.

/// Whether `value` is valid for the JSON Schema `format` named `format`; `None` when agentkit does not know the format (unknown formats are annotations only, as JSON Schema says).
pub(crate) fn check(format: &str, value: &str) -> Option<bool> {
    let b = value.as_bytes();
    Some(match format {
        "date-time" => {
            b.len() > 11 && full_date(&b[..10]) && matches!(b[10], b'T' | b't') && time(&b[11..])
        }
        "date" => b.len() == 10 && full_date(b),
        "time" => time(b),
        "duration" => duration(b),
        "email" => email(value, false),
        "idn-email" => email(value, true),
        "hostname" => value.is_ascii() && value.len() <= MAX_NAME && domain(value.split('.')),
        "idn-hostname" => domain(value.split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])),
        "ipv4" => ipv4(value),
        "ipv6" => ipv6(value),
        "uri" => uri(value, false, false),
        "uri-reference" => uri(value, true, false),
        "iri" => uri(value, false, true),
        "iri-reference" => uri(value, true, true),
        "uri-template" => uri_template(value),
        "uuid" => {
            b.len() == 36
                && b.iter().enumerate().all(|(i, c)| match i {
                    8 | 13 | 18 | 23 => *c == b'-',
                    _ => c.is_ascii_hexdigit(),
                })
        }
        "json-pointer" => json_pointer(b),
        "relative-json-pointer" => {
            let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
            n > 0 && (n == 1 || b[0] != b'0') && (&b[n..] == b"#" || json_pointer(&b[n..]))
        }
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

/// Checks every label of a domain name; labels may be LDH, A-labels (`xn--`) or U-labels.
fn domain<'a>(labels: impl Iterator<Item = &'a str>) -> bool {
    let mut unicode = Vec::new();
    let mut octets = 0;
    for label in labels {
        let Some((chars, ascii_len)) = label_check(label) else {
            return false;
        };
        octets += ascii_len + 1;
        if octets > MAX_NAME + 1 {
            return false;
        }
        unicode.push(chars);
    }
    // RFC 5893: once any label is right-to-left, every label must satisfy the Bidi rule.
    let rtl = unicode
        .iter()
        .flatten()
        .any(|&c| matches!(bidi(c), Bidi::R | Bidi::Al | Bidi::An));
    !unicode.is_empty() && (!rtl || unicode.iter().all(|l| bidi_label(l)))
}

/// The label's Unicode form and the octet length of its ASCII form, if it is valid.
fn label_check(label: &str) -> Option<(Vec<char>, usize)> {
    if label.is_ascii() {
        let b = label.as_bytes();
        if b.is_empty()
            || b.len() > 63
            || !b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        {
            return None;
        }
        match label.get(4..) {
            Some(encoded) if b[..4].eq_ignore_ascii_case(b"xn--") => {
                let chars = punycode_decode(encoded)?;
                // An A-label must be the one canonical encoding of a non-ASCII U-label.
                let canonical = punycode_encode(&chars)?.eq_ignore_ascii_case(encoded);
                let non_ascii = chars.iter().any(|c| !c.is_ascii());
                (canonical && non_ascii && u_label(&chars)).then_some((chars, b.len()))
            }
            _ => {
                let chars: Vec<char> = label.chars().collect();
                u_label(&chars).then_some((chars, b.len()))
            }
        }
    } else {
        // An A-label has at least one octet per character after `xn--`, so this bounds the work.
        let chars: Vec<char> = label.chars().take(60).collect();
        if chars.len() > 59 {
            return None;
        }
        let ascii_len = 4 + punycode_encode(&chars)?.len();
        (ascii_len <= 63 && u_label(&chars)).then_some((chars, ascii_len))
    }
}

/// IDNA 2008 (RFC 5891, 5892) label rules that need no Unicode tables beyond small ranges.
fn u_label(u: &[char]) -> bool {
    let (Some(&first), Some(&last)) = (u.first(), u.last()) else {
        return false;
    };
    let has = |lo: char, hi: char| u.iter().any(|c| (lo..=hi).contains(c));
    if first == '-' || last == '-' || u.get(2..4) == Some(&['-', '-'][..]) || is_mark(first) {
        return false;
    }
    if has('\u{660}', '\u{669}') && has('\u{6F0}', '\u{6F9}') {
        return false;
    }
    u.iter().enumerate().all(|(i, &c)| {
        let before = i.checked_sub(1).and_then(|j| u.get(j)).copied();
        let after = u.get(i + 1).copied();
        match c {
            '\u{200C}' => before.is_some_and(is_virama) || zwnj_joins(u, i),
            '\u{200D}' => before.is_some_and(is_virama),
            '\u{B7}' => before == Some('l') && after == Some('l'),
            '\u{375}' => after.is_some_and(|a| in_ranges(a, GREEK)),
            '\u{5F3}' | '\u{5F4}' => before.is_some_and(|b| in_ranges(b, HEBREW)),
            '\u{30FB}' => u.iter().any(|&k| k != '\u{30FB}' && in_ranges(k, KANA_HAN)),
            _ if c.is_ascii() => c.is_ascii_alphanumeric() || c == '-',
            _ => {
                let n = u32::from(c);
                !(c.is_whitespace() || c.is_control() || n & 0xFFFE == 0xFFFE)
                    && !in_ranges(c, DISALLOWED)
            }
        }
    })
}

/// Whether `c` is in one of `ranges`, given as inclusive `low, high` pairs.
fn in_ranges(c: char, ranges: &[u32]) -> bool {
    let n = u32::from(c);
    ranges.chunks_exact(2).any(|r| (r[0]..=r[1]).contains(&n))
}

const GREEK: &[u32] = &[0x370, 0x3FF, 0x1F00, 0x1FFF];
const HEBREW: &[u32] = &[0x590, 0x5FF, 0xFB1D, 0xFB4F];
const KANA_HAN: &[u32] = &[
    0x2E80, 0x2FDF, 0x3005, 0x3007, 0x3021, 0x3029, 0x3038, 0x303B, 0x3040, 0x30FF, 0x31F0, 0x31FF,
    0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0xF900, 0xFAFF, 0x20000, 0x3FFFF,
];
/// Symbols, punctuation and compatibility forms IDNA 2008 disallows, with RFC 5892's exceptions.
const DISALLOWED: &[u32] = &[
    0x80, 0xB6, 0xB8, 0xBF, 0xD7, 0xD7, 0xF7, 0xF7, 0x640, 0x640, 0x7FA, 0x7FA, 0x2000, 0x200B,
    0x200E, 0x2BFF, 0x2E00, 0x2E7F, 0x3000, 0x3004, 0x3008, 0x3020, 0x302E, 0x3037, 0x303D, 0x303F,
    0xD800, 0xF8FF, 0xFDD0, 0xFDEF, 0xFE00, 0xFE4F, 0xFEFF, 0xFEFF, 0xFF00, 0xFFFF, 0x1F000,
    0x1FAFF, 0xE0000, 0x10FFFF,
];
/// Combining marks (general category M) of the commonly used scripts.
const MARKS: &[u32] = &[
    0x300, 0x36F, 0x483, 0x489, 0x591, 0x5BD, 0x5BF, 0x5BF, 0x5C1, 0x5C2, 0x5C4, 0x5C5, 0x5C7,
    0x5C7, 0x610, 0x61A, 0x64B, 0x65F, 0x670, 0x670, 0x6D6, 0x6DC, 0x6DF, 0x6E4, 0x6E7, 0x6E8,
    0x6EA, 0x6ED, 0x711, 0x711, 0x730, 0x74A, 0x7A6, 0x7B0, 0x7EB, 0x7F3, 0x8CA, 0x8E1, 0x8E3,
    0x8FF, 0xE31, 0xE31, 0xE34, 0xE3A, 0xE47, 0xE4E, 0xEB1, 0xEB1, 0xEB4, 0xEBC, 0xEC8, 0xECE,
    0xF71, 0xF84, 0x102B, 0x103E, 0x1AB0, 0x1AFF, 0x1DC0, 0x1DFF, 0x20D0, 0x20FF, 0x302A, 0x302F,
    0x3099, 0x309A, 0xFE20, 0xFE2F,
];

fn is_mark(c: char) -> bool {
    let n = u32::from(c);
    // The Brahmic blocks share one layout: vowel signs and viramas sit at the same offsets.
    let o = n & 0x7F;
    let brahmic = (0x900..=0xDFF).contains(&n)
        && (o <= 0x03
            || ((0x3A..=0x4F).contains(&o) && o != 0x3D)
            || (0x51..=0x57).contains(&o)
            || (0x62..=0x63).contains(&o));
    brahmic || in_ranges(c, MARKS)
}

/// Canonical combining class 9 (virama), the context ZWJ and ZWNJ need (RFC 5892 A.1, A.2).
fn is_virama(c: char) -> bool {
    let n = u32::from(c);
    (0x900..=0xDFF).contains(&n) && n & 0x7F == 0x4D || VIRAMAS.contains(&n)
}

const VIRAMAS: &[u32] = &[
    0xD3B, 0xD3C, 0xDCA, 0xE3A, 0xEBA, 0xF84, 0x1039, 0x103A, 0x1714, 0x1715, 0x1734, 0x17D2,
    0x1A60, 0x1B44, 0x1BAA, 0x1BAB, 0x1BF2, 0x1BF3, 0x2D7F, 0xA806, 0xA82C, 0xA8C4, 0xA953, 0xA9C0,
    0xAAF6, 0xABED,
];

#[derive(Clone, Copy, PartialEq)]
enum Joining {
    Dual,
    Right,
    Transparent,
    None,
}

/// Arabic-script `Joining_Type`, approximated by block, with the right-joining letters listed.
fn joining(c: char) -> Joining {
    const RIGHT: &[u32] = &[
        0x622, 0x625, 0x627, 0x627, 0x629, 0x629, 0x62F, 0x632, 0x648, 0x648, 0x671, 0x673, 0x675,
        0x677, 0x688, 0x699, 0x6C0, 0x6C0, 0x6C3, 0x6CB, 0x6CD, 0x6CD, 0x6CF, 0x6CF, 0x6D2, 0x6D3,
        0x6D5, 0x6D5, 0x6EE, 0x6EF,
    ];
    const DUAL: &[u32] = &[
        0x620, 0x64A, 0x66E, 0x6D5, 0x6EE, 0x6FF, 0x710, 0x74F, 0x750, 0x77F, 0x7CA, 0x7EA, 0x840,
        0x858, 0x8A0, 0x8C9,
    ];
    if is_mark(c) {
        Joining::Transparent
    } else if in_ranges(c, RIGHT) {
        Joining::Right
    } else if in_ranges(c, DUAL) && c != '\u{621}' {
        Joining::Dual
    } else {
        Joining::None
    }
}

/// RFC 5892 A.1: a ZWNJ between a left- or dual-joining and a right- or dual-joining letter.
fn zwnj_joins(u: &[char], i: usize) -> bool {
    let solid = |c: &&char| joining(**c) != Joining::Transparent;
    let before = u[..i].iter().rev().find(solid).map(|&c| joining(c));
    let after = u[i + 1..].iter().find(solid).map(|&c| joining(c));
    before == Some(Joining::Dual) && matches!(after, Some(Joining::Dual | Joining::Right))
}

#[derive(Clone, Copy, PartialEq)]
enum Bidi {
    L,
    R,
    Al,
    An,
    En,
    Nsm,
    Other,
}

/// The Unicode bidirectional class, approximated by block.
fn bidi(c: char) -> Bidi {
    match u32::from(c) {
        0x30..=0x39 | 0xB2 | 0xB3 | 0xB9 | 0x6F0..=0x6F9 => Bidi::En,
        0x600..=0x605 | 0x660..=0x669 | 0x66B | 0x66C | 0x6DD | 0x8E2 => Bidi::An,
        _ if is_mark(c) => Bidi::Nsm,
        0x590..=0x5FF | 0x7C0..=0x85F | 0xFB1D..=0xFB4F | 0x10800..=0x10FFF | 0x1E800..=0x1EDFF => {
            Bidi::R
        }
        0x600..=0x7BF | 0x860..=0x8FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF | 0x1EE00..=0x1EEFF => {
            Bidi::Al
        }
        _ if c.is_alphanumeric() => Bidi::L,
        _ => Bidi::Other,
    }
}

/// RFC 5893 section 2, rules 1 to 6.
fn bidi_label(label: &[char]) -> bool {
    let classes: Vec<Bidi> = label.iter().map(|&c| bidi(c)).collect();
    let last = classes.iter().rev().find(|&&b| b != Bidi::Nsm).copied();
    let any = |want: &[Bidi]| classes.iter().any(|b| want.contains(b));
    match classes.first() {
        Some(Bidi::L) => {
            !any(&[Bidi::R, Bidi::Al, Bidi::An]) && matches!(last, Some(Bidi::L | Bidi::En))
        }
        Some(Bidi::R | Bidi::Al) => {
            !any(&[Bidi::L])
                && !(any(&[Bidi::En]) && any(&[Bidi::An]))
                && matches!(last, Some(Bidi::R | Bidi::Al | Bidi::En | Bidi::An))
        }
        _ => false,
    }
}

// RFC 3492 Punycode parameters.
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;

fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = delta / if first { 700 } else { 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + 38)
}

fn threshold(k: u32, bias: u32) -> u32 {
    k.saturating_sub(bias).clamp(T_MIN, T_MAX)
}

/// RFC 3492 decoding; callers bound the input to one label of at most 63 octets.
fn punycode_decode(input: &str) -> Option<Vec<char>> {
    let (basic, extended) = input.rsplit_once('-').unwrap_or(("", input));
    let mut out: Vec<char> = basic.chars().collect();
    let mut digits = extended.chars();
    let (mut n, mut i, mut bias) = (0x80u32, 0u32, 72u32);
    while !digits.as_str().is_empty() {
        let old = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let d = (digits.next()?.to_digit(36)? + 26) % 36;
            i = i.checked_add(d.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if d < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = u32::try_from(out.len()).ok()? + 1;
        bias = adapt(i - old, len, old == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(
            usize::try_from(i).ok()?,
            char::from_u32(n).filter(|c| !c.is_ascii())?,
        );
        i += 1;
    }
    Some(out)
}

/// RFC 3492 encoding; callers bound the input to at most 63 characters.
fn punycode_encode(input: &[char]) -> Option<String> {
    let mut out: String = input.iter().filter(|c| c.is_ascii()).collect();
    let basic = u32::try_from(out.len()).ok()?;
    let total = u32::try_from(input.len()).ok()?;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias, mut h) = (0x80u32, 0u32, 72u32, basic);
    while h < total {
        let m = input
            .iter()
            .map(|&c| u32::from(c))
            .filter(|&c| c >= n)
            .min()?;
        delta = delta.checked_add((m - n).checked_mul(h + 1)?)?;
        n = m;
        for c in input.iter().map(|&c| u32::from(c)) {
            if c < n {
                delta = delta.checked_add(1)?;
            } else if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    out.push(char::from_digit((t + (q - t) % (BASE - t) + 10) % 36, 36)?);
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(char::from_digit((q + 10) % 36, 36)?);
                bias = adapt(delta, h + 1, h == basic);
                delta = 0;
                h += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n += 1;
    }
    Some(out)
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

    /// One case a line: the format, `+` (valid) or `-` (invalid), then the value to the line's end.
    const CASES: &str = r#"
date-time + 1963-06-19T08:30:06.283185Z
date-time + 1998-12-31T15:59:60.123-08:00
date-time + 1963-06-19t08:30:06z
date-time - 1998-12-31T23:58:60Z
date-time - 1990-02-31T15:59:59Z
date-time - 1985-04-12T23:20:50+01
date-time - 2013-350T01:01:01
date + 2020-02-29
date + 0400-02-29
date - 2021-02-29
date - 2100-02-29
date - 2020-1-01
date - 2020-01-01Z
date - ২020-01-01
time + 23:59:60Z
time + 01:29:60+01:30
time + 00:29:60-23:30
time + 12:34:56-00:00
time - 23:59:60+01:00
time - 12:00:00
time - 01:02:03Z+00:30
time - 24:00:00Z
time - 08:30:06-8:000
duration + P4DT12H30M5S
duration + P2W
duration + PT36H
duration + P1Y2M
duration + PT1M2S
duration + P01D
duration - P
duration - PT
duration - P1YT
duration - P2D1Y
duration - P1D2H
duration - P1Y2W
duration - P1Y2D
duration - PT1H2S
duration - PT0.5S
duration - -P1D
email + joe.bloggs@example.com
email + "joe..bloggs"@example.com
email + "joe@bloggs"@example.com
email + a@[127.0.0.1]
email + a@[IPv6:::1]
email - .a@example.com
email - a.@example.com
email - a..b@example.com
email - a@[127.0.0.300]
email - a b@example.com
email - @example.com
email - a@
email - a@invalid=domain.com
idn-email + 실례@실례.테스트
idn-email + "δοκιμή"@example.com
idn-email - user＠example.com
hostname + www.example.com
hostname + a--b.com
hostname + xn--9n2bp8q.xn--9t4b11yi5a
hostname + xn--ll-0ea
hostname - example.
hostname - -a
hostname - a_b
hostname - xn--X
hostname - xn--l-fda
hostname - XN--aa---o47jg78q
hostname - Kelvin.example.com
idn-hostname + 실례.테스트
idn-hostname + a。b
idn-hostname + l·l
idn-hostname + α͵β
idn-hostname + א׳ב
idn-hostname + ・ぁ
idn-hostname + क्‍ष
idn-hostname + بي‌بي
idn-hostname + ۰0
idn-hostname - 〮실례.테스트
idn-hostname - ̀hello
idn-hostname - a·l
idn-hostname - def・abc
idn-hostname - ب٠۰
idn-hostname - 0a.א
idn-hostname - aא
idn-hostname - xn--7a
idn-hostname - xn---9uc
idn-hostname - xn--example-
idn-hostname - a..b
ipv4 + 192.168.0.1
ipv4 + 0.0.0.0
ipv4 - 127.1
ipv4 - 01.2.3.4
ipv4 - 256.0.0.1
ipv4 - 1.2.3.4.
ipv6 + ::
ipv6 + ::1
ipv6 + d6::
ipv6 + 1:2:3:4:5:6:7:8
ipv6 + ::ffff:192.168.0.1
ipv6 - 12345::
ipv6 - :2:3:4:5:6:7:8
ipv6 - 1::d6::42
ipv6 - 1:2:3:4:5:::8
ipv6 - 1:2:3:4:5:6:7
ipv6 - ::ffff:192.168.0.01
ipv6 - fe80::a%eth1
uri + http://foo.bar/?baz=qux#quux
uri + urn:oasis:names:specification:docbook:dtd:xml:4.1.2
uri + ldap://[2001:db8::7]/c=GB?objectClass?one
uri + http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com
uri - //foo.bar/
uri - abc
uri - http:// a.com
uri - https://[@example.org/
uri - http://a.com/%6G
uri - http://a.com:abc/
uri - 1http://a
uri - https://example.org/foobar®.txt
uri-reference + //
uri-reference + ./this:that
uri-reference + #f
uri-reference - 1:b
uri-reference - /[::1]
uri-reference - //a@b@c/
uri-reference - \\WINDOWS\fileshare
iri + http://ƒøø.ßår/?∂éœ=πîx#πîüx
iri + http://[V1.fe]
iri - âππ
iri - http://2001:0db8:85a3:0000:0000:8a2e:0370:7334
iri-reference + /âππ
iri-reference + #ƒrägmênt
iri-reference - #ƒräg\mênt
uri-template + http://example.com/{term:1}/{term}
uri-template + {+var}
uri-template + {x,y*}
uri-template + {%41}
uri-template + a'b
uri-template + a😀b
uri-template - {}
uri-template - {a,,b}
uri-template - {v:0}
uri-template - {v:10000}
uri-template - foo}bar
uri-template - {a..b}
uri-template - {var=def}
uri-template - a b
uuid + 2eb8aa08-AA98-11ea-B4Aa-73B441D16380
uuid - 2eb8aa08aa9811eab4aa73b441d16380
uuid - 2eb8aa0-8aa98-11e-ab4aa7-3b441d16380
json-pointer + /foo/-
json-pointer + /~1~0
json-pointer - #
json-pointer - /~2
json-pointer - a
relative-json-pointer + 0#
relative-json-pointer + 120/foo
relative-json-pointer + 0//
relative-json-pointer - 01#
relative-json-pointer - 0##
relative-json-pointer - -1/a
relative-json-pointer - 1#/a
"#;

    #[test]
    fn formats_accept_and_refuse_the_listed_cases() {
        for line in CASES.lines().filter(|l| !l.is_empty()) {
            let mut parts = line.splitn(3, ' ');
            let (format, sign, value) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
            let (Some(format), Some(sign)) = (format, sign) else {
                panic!("bad case {line:?}")
            };
            assert_eq!(
                check(format, value),
                Some(sign == "+"),
                "{format} {sign} {value:?}"
            );
        }
    }

    #[test]
    fn empty_and_newline_terminated_values() {
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
    fn regex_and_unknown_formats_are_not_checked_here() {
        assert_eq!(check("regex", "("), None);
        assert_eq!(check("no-such-format", ""), None);
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
