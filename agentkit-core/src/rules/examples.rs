//! The rules for a tool's input examples: each is an object that validation would accept as a
//! call's arguments, and there are few of them, each short, since every one is sent with every
//! request.

use std::borrow::Cow;

use super::detail::ExampleIssue;
use super::problem::Problem;
use super::types::{Literal, MAX_EXAMPLE_BYTES, MAX_EXAMPLES};
use super::walk::{Decl, Step, Subject, Walker};

/// A problem with an input example, and the value inside the example it is about (for an
/// undeclared or repeated key, the entry with that key; for a missing parameter, the
/// dictionary it is missing from), so that a compile error can point at it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleProblem {
    /// The steps from the example to the value concerned: empty for the example itself, else
    /// starting with a parameter's name.
    pub at: Vec<Step>,
    /// The problem: a [`Problem::InvalidExample`].
    pub problem: Problem,
}

/// Checks input example `index` (its entries, in order) against the tool's parameters, as
/// validation checks arguments: every declared parameter of its type and within its
/// constraints, at any depth; no required one missing (`null` counts as absent for an
/// optional one); no undeclared key, with the name meant suggested for a typo (and the
/// parameter it leaves missing not reported again: see [`implied_by_typos`]). Without
/// parameters (`None`: the tool has no input schema) any object is an example.
///
/// Two things are refused that validation never sees, since JSON text cannot spell them but a
/// `#[tool(...)]` literal can: a NaN or an infinity, and an integer outside the signed 64-bit
/// range, wherever they are. The example is taken as written: defaults are not filled in, so
/// a model sees what a good call looks like.
pub fn check_example(
    index: usize,
    params: Option<&[Decl<'_>]>,
    example: &[(Cow<'static, str>, Literal)],
) -> Vec<ExampleProblem> {
    let mut walker = Walker::new(Subject::Example(index));
    match params {
        Some(params) => {
            walker.object(params, example);
        }
        None => walker.untyped_object(example),
    }
    let problems: Vec<Problem> = walker.problems.iter().map(|(_, p)| p.clone()).collect();
    let implied = implied_by_typos(&problems);
    walker
        .problems
        .into_iter()
        .zip(implied)
        .filter(|(_, implied)| !implied)
        .map(|((at, problem), _)| ExampleProblem { at, problem })
        .collect()
}

/// Which of `problems` only follow from another: a required parameter missing from a
/// dictionary where an unknown key of the same dictionary is a typo of it (`ctiy` for
/// `city`) is that typo, reported once, as the unknown key with its suggestion.
pub fn implied_by_typos(problems: &[Problem]) -> Vec<bool> {
    // The dictionary a key is in, and the key: `stops[0].city` is `stops[0]` and `city`.
    let split = |at: &str| -> (String, String) {
        match at.rsplit_once('.') {
            Some((parent, key)) => (parent.to_owned(), key.to_owned()),
            None => (String::new(), at.to_owned()),
        }
    };
    let typos: Vec<(usize, String, String)> = problems
        .iter()
        .filter_map(|problem| match problem {
            Problem::InvalidExample {
                index,
                issue:
                    ExampleIssue::Unknown {
                        at,
                        suggestion: Some(meant),
                    },
            } => Some((*index, split(at).0, meant.clone())),
            _ => None,
        })
        .collect();
    problems
        .iter()
        .map(|problem| match problem {
            Problem::InvalidExample {
                index,
                issue: ExampleIssue::Missing { at },
            } => {
                let (parent, name) = split(at);
                typos
                    .iter()
                    .any(|typo| typo.0 == *index && typo.1 == parent && typo.2 == name)
            }
            _ => false,
        })
        .collect()
}

/// Checks how many input examples a tool has: at most [`MAX_EXAMPLES`].
pub fn check_example_count(count: usize) -> Result<(), Problem> {
    if count > MAX_EXAMPLES {
        Err(Problem::TooManyExamples { count })
    } else {
        Ok(())
    }
}

/// Checks the length of input example `index`, `bytes` of compact JSON text: at most
/// [`MAX_EXAMPLE_BYTES`].
pub fn check_example_size(index: usize, bytes: usize) -> Result<(), Problem> {
    if bytes > MAX_EXAMPLE_BYTES {
        Err(Problem::ExampleTooLarge { index, bytes })
    } else {
        Ok(())
    }
}

/// The length of an example's entries as compact JSON text (`{"city":"Paris"}`), as
/// `serde_json` writes it, in bytes; the count stops soon after passing `limit`, so that a
/// huge value costs no more than a small one.
///
/// A float is counted as Rust's shortest representation writes it, which is `serde_json`'s
/// but for the rare exponent written otherwise: the count is exact where it matters, near the
/// limit, within a few bytes.
pub fn json_len(entries: &[(Cow<'static, str>, Literal)], limit: usize) -> usize {
    let mut len = 0;
    dictionary_len(entries, limit, &mut len);
    len
}

fn dictionary_len(entries: &[(Cow<'static, str>, Literal)], limit: usize, len: &mut usize) {
    // `{` and `}`, a `:` per entry and a `,` between two.
    *len += 2 + entries.len() + entries.len().saturating_sub(1);
    for (key, value) in entries {
        if *len > limit {
            return;
        }
        *len += string_len(key);
        value_len(value, limit, len);
    }
}

fn value_len(value: &Literal, limit: usize, len: &mut usize) {
    *len += match value {
        Literal::Null => 4,
        Literal::Boolean(true) => 4,
        Literal::Boolean(false) => 5,
        Literal::Integer(i) => i.to_string().len(),
        Literal::OutOfRange(i) => i.to_string().len(),
        // `serde_json` writes a NaN or an infinity as `null`.
        Literal::Float(f) if !f.is_finite() => 4,
        Literal::Float(f) => format!("{f:?}").len(),
        Literal::String(s) => string_len(s),
        Literal::List(items) => {
            *len += 2 + items.len().saturating_sub(1);
            for item in items.iter() {
                if *len > limit {
                    return;
                }
                value_len(item, limit, len);
            }
            0
        }
        Literal::Dictionary(entries) => {
            dictionary_len(entries, limit, len);
            0
        }
    };
}

/// A string's length as JSON text: quoted, with `"`, `\` and control characters escaped.
fn string_len(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
            c if u32::from(c) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::constraints::Constraints;
    use crate::rules::types::{Number, ParamType};

    fn s(text: &'static str) -> Literal {
        Literal::String(Cow::Borrowed(text))
    }

    fn entries(pairs: &[(&'static str, Literal)]) -> Vec<(Cow<'static, str>, Literal)> {
        pairs
            .iter()
            .map(|(k, v)| (Cow::Borrowed(*k), v.clone()))
            .collect()
    }

    static NONE: Constraints = Constraints::NONE;

    fn param<'a>(name: &'a str, ty: ParamType, required: bool) -> Decl<'a> {
        Decl {
            name,
            ty,
            required,
            items: None,
            fields: None,
            default: None,
            constraints: &NONE,
        }
    }

    fn messages(problems: &[ExampleProblem]) -> Vec<String> {
        problems.iter().map(|p| p.problem.to_string()).collect()
    }

    #[test]
    fn examples_are_checked_as_arguments() {
        let limit = Constraints {
            maximum: Some(Number::Integer(50)),
            ..Constraints::NONE
        };
        let params = [
            param("city", ParamType::String, true),
            param("units", ParamType::String, false),
            Decl {
                constraints: &limit,
                ..param("limit", ParamType::Integer, false)
            },
        ];
        let good = entries(&[("city", s("Paris")), ("units", Literal::Null)]);
        assert_eq!(check_example(0, Some(&params), &good), []);
        let bad = entries(&[
            ("units", Literal::Integer(3)),
            ("limit", Literal::Float(80.0)),
            ("ctiy", s("Paris")),
        ]);
        let problems = check_example(2, Some(&params), &bad);
        // `city` is missing because `ctiy` is a typo of it: one problem, the typo.
        assert_eq!(
            messages(&problems),
            [
                "input example 2: parameter 'units': a value of type 'integer' does not fit the \
                 declared type 'string'",
                "input example 2: parameter 'limit': the value must be at most 50, got 80",
                "input example 2: unknown parameter 'ctiy'; did you mean 'city'?",
            ]
        );
        // Each located where a compile error points: the value, the key, the example.
        let at: Vec<&[Step]> = problems.iter().map(|p| p.at.as_slice()).collect();
        assert_eq!(at[0], [Step::Field("units".into())]);
        assert_eq!(at[2], [Step::Field("ctiy".into())]);
        let missing = check_example(0, Some(&params), &entries(&[("units", s("metric"))]));
        assert_eq!(
            messages(&missing),
            ["input example 0: missing required parameter 'city'"]
        );
        assert_eq!(missing[0].at, []);
    }

    #[test]
    fn nested_values_are_named_as_validation_names_them() {
        let stop = vec![
            param("city", ParamType::String, true),
            param("nights", ParamType::Integer, false),
        ];
        let params = [Decl {
            items: Some(ParamType::Dictionary),
            fields: Some(stop),
            ..param("stops", ParamType::List, true)
        }];
        let example = entries(&[(
            "stops",
            Literal::List(Cow::Owned(vec![Literal::Dictionary(Cow::Owned(entries(
                &[("nights", s("two")), ("pet", s("cat"))],
            )))])),
        )]);
        assert_eq!(
            messages(&check_example(0, Some(&params), &example)),
            [
                "input example 0: missing required parameter 'stops[0].city'",
                "input example 0: parameter 'stops[0].nights': a value of type 'string' does not \
                 fit the declared type 'integer'",
                "input example 0: unknown parameter 'stops[0].pet': the tool does not declare it",
            ]
        );
    }

    #[test]
    fn without_parameters_any_object_that_json_can_hold_is_an_example() {
        let example = entries(&[("anything", Literal::List(Cow::Owned(vec![s("x")])))]);
        assert_eq!(check_example(0, None, &example), []);
        let example = entries(&[("x", Literal::Float(f64::INFINITY))]);
        assert_eq!(
            messages(&check_example(1, None, &example)),
            [
                "input example 1: parameter 'x': the value is not a finite number; JSON has no \
                 NaN or infinity"
            ]
        );
    }

    #[test]
    fn examples_are_few_and_short() {
        assert!(check_example_count(MAX_EXAMPLES).is_ok());
        assert_eq!(
            check_example_count(12).unwrap_err().to_string(),
            "a tool has at most 10 input examples, and this one has 12: each is sent with every \
             request; keep the few that show the most"
        );
        assert_eq!(
            check_example_size(3, 5000).unwrap_err().to_string(),
            "input example 3 is 5000 bytes as JSON, more than the 4096 an example may have: it \
             is sent with every request; shorten its values"
        );
        let example = entries(&[
            ("city", s("Par\"is\n")),
            ("n", Literal::Integer(-12)),
            ("x", Literal::Float(2.5)),
            (
                "l",
                Literal::List(Cow::Owned(vec![Literal::Boolean(true), Literal::Null])),
            ),
            ("d", Literal::Dictionary(Cow::Owned(vec![]))),
        ]);
        let text = r#"{"city":"Par\"is\n","n":-12,"x":2.5,"l":[true,null],"d":{}}"#;
        assert_eq!(json_len(&example, usize::MAX), text.len());
        // The count stops soon after the limit.
        let long = entries(&[("a", s("x")), ("b", s("y")), ("c", s("z"))]);
        assert!(json_len(&long, 3) < r#"{"a":"x","b":"y","c":"z"}"#.len());
    }
}
