//! `minLength`, `maxLength`, `pattern` and `format`.

use serde_json::{Map, Value};

use super::count;
use crate::schema::issue::{IssueKind, ValidationIssue};
use crate::schema::json::compile::{Compiler, compile_regex};
use crate::schema::json::formats;
use crate::schema::json::index::Place;
use crate::schema::json::node::{Format, Keyword};
use crate::schema::json::validate::{Cx, Loc};
use crate::schema::literal::value_kind;

pub(in crate::schema::json) fn compile(
    c: &mut Compiler<'_, '_>,
    map: &Map<String, Value>,
    place: &Place,
    out: &mut Vec<Keyword>,
) {
    if let Some(n) = count(c, map, place, "minLength") {
        out.push(Keyword::MinLength(n));
    }
    if let Some(n) = count(c, map, place, "maxLength") {
        out.push(Keyword::MaxLength(n));
    }
    match map.get("pattern") {
        None => {}
        Some(Value::String(source)) => {
            if let Some(pattern) = c.pattern(source, &format!("{}/pattern", place.location)) {
                out.push(Keyword::Pattern(pattern));
            }
        }
        Some(_) => c.problem(
            &format!("{}/pattern", place.location),
            "`pattern` must be a string",
        ),
    }
    if let (Some(Value::String(format)), true) = (map.get("format"), c.options.assert_formats) {
        if format == "regex" {
            out.push(Keyword::Format(Format::Regex));
        } else if let Some(check) = formats::checker(format) {
            out.push(Keyword::Format(Format::Known(format.clone(), check)));
        }
    }
}

/// Whether `s` has at least `n` characters: only what the bound needs is counted (a long
/// string costs its first `n` characters).
#[inline]
pub(in crate::schema::json) fn long_enough(s: &str, n: u64) -> bool {
    match usize::try_from(n) {
        Ok(0) => true,
        // A character is at most 4 bytes.
        Ok(n) if s.len() >= n.saturating_mul(4) => true,
        Ok(n) => s.len() >= n && s.chars().nth(n - 1).is_some(),
        Err(_) => false,
    }
}

/// Whether `s` has at most `n` characters.
#[inline]
pub(in crate::schema::json) fn short_enough(s: &str, n: u64) -> bool {
    usize::try_from(n).map_or(true, |n| s.len() <= n || s.chars().nth(n).is_none())
}

/// An example of a format, for the model to see what it should have sent.
fn example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2026-07-28T09:30:00Z",
        "date" => "2026-07-28",
        "time" => "09:30:00Z",
        "duration" => "P3DT4H",
        "email" | "idn-email" => "name@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "uri" | "iri" => "https://example.com/page",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "json-pointer" => "/a/b",
        _ => return None,
    })
}

pub(in crate::schema::json) fn check(
    cx: &mut Cx<'_>,
    keyword: &Keyword,
    value: &Value,
    loc: Loc<'_>,
) -> bool {
    let Value::String(s) = value else {
        return true;
    };
    let issue = |kind, keyword, message: String| {
        ValidationIssue::schema(kind, loc.name(), keyword, Some(value_kind(value)), message)
    };
    match keyword {
        Keyword::MinLength(n) => {
            let enough = long_enough(s, *n);
            if !enough {
                let got = s.chars().count();
                let unit = if *n == 1 { "character" } else { "characters" };
                cx.report(|| {
                    issue(
                        IssueKind::TooShort,
                        "minLength",
                        super::message(format_args!("must be at least {n} {unit} long, got {got}")),
                    )
                });
            }
            enough
        }
        Keyword::MaxLength(n) => {
            let ok = short_enough(s, *n);
            if !ok {
                let got = s.chars().count();
                let unit = if *n == 1 { "character" } else { "characters" };
                cx.report(|| {
                    issue(
                        IssueKind::TooLong,
                        "maxLength",
                        super::message(format_args!("must be at most {n} {unit} long, got {got}")),
                    )
                });
            }
            ok
        }
        Keyword::Pattern(pattern) => {
            let ok = pattern.regex.is_match(s);
            if !ok {
                cx.report(|| {
                    issue(
                        IssueKind::PatternMismatch,
                        "pattern",
                        format!("must match the pattern '{}'", pattern.source),
                    )
                });
            }
            ok
        }
        Keyword::Format(Format::Regex) => {
            let ok = compile_regex(s, cx.schema.options.limits.max_pattern_bytes).is_ok();
            if !ok {
                cx.report(|| {
                    issue(
                        IssueKind::InvalidFormat,
                        "format",
                        "must be a regular expression".to_owned(),
                    )
                });
            }
            ok
        }
        Keyword::Format(Format::Known(format, check)) => {
            let ok = check(s);
            if !ok {
                cx.report(|| {
                    let message = match example(format) {
                        Some(e) => format!("must be a valid {format} (like '{e}')"),
                        None => format!("must be a valid {format}"),
                    };
                    issue(IssueKind::InvalidFormat, "format", message)
                });
            }
            ok
        }
        _ => true,
    }
}
