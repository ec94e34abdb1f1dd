//! The rules for the words of a declaration that are not schema: tool and parameter names,
//! versions and timeouts.

use std::time::Duration;

use super::detail::NameError;
use super::problem::Problem;
use super::types::{MAX_NAME_LEN, NameKind};

/// Checks a tool or parameter name: 1 to 64 ASCII letters, digits, `_` or `-`, starting with
/// a letter or `_`.
///
/// This is the intersection of what OpenAI, Anthropic and Gemini accept, so a tool that
/// passes works with each of them.
pub fn check_name(kind: NameKind, name: &str) -> Result<(), Problem> {
    let reason = if name.is_empty() {
        Some(NameError::Empty)
    } else if name.len() > MAX_NAME_LEN {
        Some(NameError::TooLong { len: name.len() })
    } else {
        name.chars().enumerate().find_map(|(index, c)| {
            if index == 0 && !(c.is_ascii_alphabetic() || c == '_') {
                Some(NameError::BadStart { found: c })
            } else if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                None
            } else {
                Some(NameError::BadChar { found: c, index })
            }
        })
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(Problem::InvalidName {
            kind,
            name: name.to_owned(),
            reason,
        }),
    }
}

/// Checks that a version is `MAJOR.MINOR.PATCH`: three dot-separated decimal numbers without
/// leading zeros (semver's core form).
pub fn check_version(version: &str) -> Result<(), Problem> {
    let parts: Vec<&str> = version.split('.').collect();
    // The first reason that applies, in the order a reader would fix them.
    let reason = if version.is_empty() {
        Some("it is empty")
    } else if version.starts_with(['v', 'V']) {
        Some("write the numbers without the 'v'")
    } else if version.contains('-') {
        Some("it has a pre-release tag ('-...'), which a tool's version does not take")
    } else if version.contains('+') {
        Some("it has build metadata ('+...'), which a tool's version does not take")
    } else if parts.len() < 3 {
        Some("it has fewer than three numbers")
    } else if parts.len() > 3 {
        Some("it has more than three numbers")
    } else if parts.iter().any(|part| part.is_empty()) {
        Some("a number is missing between two dots")
    } else if !parts
        .iter()
        .all(|part| part.bytes().all(|b| b.is_ascii_digit()))
    {
        Some("each part is a whole number, written in digits")
    } else if parts
        .iter()
        .any(|part| part.len() > 1 && part.starts_with('0'))
    {
        Some("a number has a leading zero")
    } else {
        None
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(Problem::InvalidVersion {
            found: version.to_owned(),
            reason,
        }),
    }
}

/// The longest timeout a tool may declare: a day. A longer one is almost surely a unit slip,
/// and it keeps every timeout far from `Duration`'s and the timers' limits.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// Reads a tool's timeout as written in `#[tool(timeout = "10s")]` and in a spec's JSON
/// shape: a whole number followed by `ms`, `s`, `m` or `h`, more than zero and at most a day.
pub fn parse_timeout(text: &str) -> Result<Duration, Problem> {
    let refuse = |reason| Problem::InvalidTimeout {
        found: text.to_owned(),
        reason,
    };
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digits);
    if number.is_empty() {
        return Err(refuse("it does not start with a number"));
    }
    let millis_per_unit: u64 = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "" => return Err(refuse("it has no unit")),
        _ => return Err(refuse("the unit is not recognised")),
    };
    let millis = number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(millis_per_unit))
        .map(Duration::from_millis);
    match millis {
        Some(d) if d.is_zero() => Err(refuse("a timeout of zero would fail every call")),
        Some(d) if d <= MAX_TIMEOUT => Ok(d),
        _ => Err(refuse("it is longer than a day")),
    }
}

/// Writes a timeout in the form [`parse_timeout`] reads, in the largest unit that is exact.
pub fn format_timeout(timeout: Duration) -> String {
    let millis = timeout.as_millis();
    match millis {
        m if m % 3_600_000 == 0 => format!("{}h", m / 3_600_000),
        m if m % 60_000 == 0 => format!("{}m", m / 60_000),
        m if m % 1_000 == 0 => format!("{}s", m / 1_000),
        m => format!("{m}ms"),
    }
}

/// Checks a tool's annotations: it cannot be both read-only and destructive (MCP's hints say
/// a read-only tool changes nothing, so "destructive" would contradict it).
pub fn check_annotations(
    read_only: Option<bool>,
    destructive: Option<bool>,
) -> Result<(), Problem> {
    if read_only == Some(true) && destructive == Some(true) {
        return Err(Problem::ConflictingAnnotations {
            first: "read_only",
            second: "destructive",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_provider_intersection() {
        assert!(check_name(NameKind::Tool, "fetch_weather").is_ok());
        assert!(check_name(NameKind::Tool, "_x-1").is_ok());
        assert!(check_name(NameKind::Tool, &"a".repeat(64)).is_ok());
        let err = |name: &str| match check_name(NameKind::Tool, name) {
            Err(Problem::InvalidName { reason, .. }) => reason,
            other => panic!("expected an invalid name, got {other:?}"),
        };
        assert_eq!(err(""), NameError::Empty);
        assert_eq!(err(&"a".repeat(65)), NameError::TooLong { len: 65 });
        assert_eq!(err("1tool"), NameError::BadStart { found: '1' });
        assert_eq!(
            err("fetch weather"),
            NameError::BadChar {
                found: ' ',
                index: 5
            }
        );
    }

    #[test]
    fn versions_are_three_numbers() {
        for ok in ["1.0.0", "0.1.0", "10.20.30"] {
            assert!(check_version(ok).is_ok(), "{ok}");
        }
        for (bad, why) in [
            ("1.0", "fewer than three numbers"),
            ("1.0.0.0", "more than three numbers"),
            ("v1.0.0", "without the 'v'"),
            ("1.0.x", "whole number"),
            ("01.0.0", "leading zero"),
            ("1.00.0", "leading zero"),
            ("", "empty"),
            ("1..0", "missing between two dots"),
            ("1.0.0-beta", "pre-release tag"),
            ("1.0.0+build.5", "build metadata"),
        ] {
            match check_version(bad) {
                Err(Problem::InvalidVersion { found, reason }) => {
                    assert_eq!(found, bad);
                    assert!(reason.contains(why), "{bad}: {reason}");
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
