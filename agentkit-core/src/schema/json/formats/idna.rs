//! Internationalised domain names for the `hostname`, `idn-hostname` and `email` formats:
//! labels checked by IDNA 2008's rules (RFC 5891, 5892), the bidirectional rule (RFC 5893) and
//! Punycode (RFC 3492), approximated by small Unicode ranges rather than the full tables.

use super::MAX_NAME;

/// Checks every label of a domain name; labels may be LDH, A-labels (`xn--`) or U-labels.
pub(super) fn domain<'a>(labels: impl Iterator<Item = &'a str>) -> bool {
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
                !(c.is_whitespace()
                    || c.is_control()
                    || n & 0xFFFE == 0xFFFE
                    || in_ranges(c, DISALLOWED))
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
    // No mark below U+0300 (ASCII, most of any name, is answered here).
    u32::from(c) >= 0x300 && is_mark_by_block(c)
}

/// [`is_mark`] by the blocks of every character.
fn is_mark_by_block(c: char) -> bool {
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

/// RFC 5892 A.1: a ZWNJ between a dual-joining letter and a right- or dual-joining one, marks
/// (transparent) aside; `Joining_Type` is approximated by Arabic-script blocks.
fn zwnj_joins(u: &[char], i: usize) -> bool {
    const RIGHT: &[u32] = &[
        0x622, 0x625, 0x627, 0x627, 0x629, 0x629, 0x62F, 0x632, 0x648, 0x648, 0x671, 0x673, 0x675,
        0x677, 0x688, 0x699, 0x6C0, 0x6C0, 0x6C3, 0x6CB, 0x6CD, 0x6CD, 0x6CF, 0x6CF, 0x6D2, 0x6D3,
        0x6D5, 0x6D5, 0x6EE, 0x6EF,
    ];
    const DUAL: &[u32] = &[
        0x620, 0x620, 0x622, 0x64A, 0x66E, 0x6D5, 0x6EE, 0x6FF, 0x710, 0x74F, 0x750, 0x77F, 0x7CA,
        0x7EA, 0x840, 0x858, 0x8A0, 0x8C9,
    ];
    let dual = |c: char| in_ranges(c, DUAL) && !in_ranges(c, RIGHT);
    let before = u[..i].iter().rev().find(|c| !is_mark(**c));
    let after = u[i + 1..].iter().find(|c| !is_mark(**c));
    before.is_some_and(|&c| dual(c)) && after.is_some_and(|&c| dual(c) || in_ranges(c, RIGHT))
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
    // ASCII, most of any name, without the tables: digits are European numbers, letters
    // left-to-right, the rest neither.
    if c.is_ascii() {
        return match c {
            '0'..='9' => Bidi::En,
            _ if c.is_ascii_alphabetic() => Bidi::L,
            _ => Bidi::Other,
        };
    }
    bidi_by_block(c)
}

/// [`bidi`] by the blocks of every character.
fn bidi_by_block(c: char) -> Bidi {
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
            let mixed_digits = any(&[Bidi::En]) && any(&[Bidi::An]);
            !any(&[Bidi::L])
                && !mixed_digits
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The answers given before the tables, for the characters below U+0300, are the
    /// tables' own.
    #[test]
    fn the_short_answers_are_the_tables() {
        for c in (0..0x300).filter_map(char::from_u32) {
            assert_eq!(is_mark(c), is_mark_by_block(c), "{c:?}");
            if c.is_ascii() {
                assert!(bidi(c) == bidi_by_block(c), "{c:?}");
            }
        }
    }
}
