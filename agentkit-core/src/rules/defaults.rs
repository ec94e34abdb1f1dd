//! The rules for a parameter's default: checked against the whole declaration, at any depth,
//! as validation would check the same value given as the argument, and normalised as
//! validation leaves it.

use super::problem::Problem;
use super::types::Literal;
use super::walk::{Decl, Step, Subject, Walker};

/// A problem with a default, and the value inside the default it is about (for an undeclared
/// or repeated key, the entry with that key), so a compile error can point at it.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultProblem {
    /// The steps from the default to the value concerned; empty for the default itself.
    pub at: Vec<Step>,
    /// The problem.
    pub problem: Problem,
}

/// What [`check_default`] finds.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultCheck {
    /// Every problem, in the order of the default.
    pub problems: Vec<DefaultProblem>,
    /// The default as validation leaves the same value given as an argument: integral floats
    /// of integer type as integers, `null` for an optional field removed, the defaults of
    /// absent fields filled in. `None` when the declaration has no default.
    pub value: Option<Literal>,
}

/// Checks a parameter's default against the parameter's whole declaration: only an optional
/// parameter may have one, and it must be what validation accepts for the parameter, at any
/// depth (typed items, declared fields, the fields of a list's dictionary items), with no
/// undeclared field, no NaN or infinity and no integer outside the 64-bit range anywhere.
///
/// The rules are validation's, so a default is accepted exactly when the same value, given as
/// the argument, would validate, with two exceptions where a default is stricter: it is never
/// `null` (which validation reads as "absent"), and it never holds an integer outside the
/// 64-bit range, not even where a `float` or anything is allowed. The
/// [`value`](DefaultCheck::value) returned is what that validation leaves, which a schema
/// stores so that filling the default is a plain copy.
pub fn check_default(decl: &Decl<'_>) -> DefaultCheck {
    let Some(default) = decl.default else {
        return DefaultCheck {
            problems: Vec::new(),
            value: None,
        };
    };
    let mut walker = Walker::new(Subject::Default(decl.name));
    if decl.required {
        let name = decl.name.to_owned();
        walker.report_problem(Vec::new(), Problem::RequiredWithDefault { name });
    }
    let value = walker.value(decl, default);
    let problems = walker.problems.into_iter();
    DefaultCheck {
        problems: problems
            .map(|(at, problem)| DefaultProblem { at, problem })
            .collect(),
        value: Some(value),
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;
    use crate::rules::constraints::Constraints;
    use crate::rules::types::{Number, ParamType, ValueKind};

    impl Literal {
        fn from_str(s: &'static str) -> Literal {
            Literal::String(Cow::Borrowed(s))
        }

        fn from_pairs(pairs: &[(&'static str, Literal)]) -> Literal {
            Literal::Dictionary(Cow::Owned(
                pairs
                    .iter()
                    .map(|(k, v)| (Cow::Borrowed(*k), v.clone()))
                    .collect(),
            ))
        }
    }

    fn decl<'a>(name: &'a str, ty: ParamType, default: Option<&'a Literal>) -> Decl<'a> {
        Decl {
            name,
            ty,
            required: default.is_none(),
            items: None,
            fields: None,
            default,
            constraints: &NONE,
        }
    }

    static NONE: Constraints = Constraints::NONE;

    fn messages(check: &DefaultCheck) -> Vec<String> {
        check
            .problems
            .iter()
            .map(|p| p.problem.to_string())
            .collect()
    }

    #[test]
    fn defaults_must_fit_and_be_optional() {
        let two = Literal::Integer(2);
        assert!(
            check_default(&decl("n", ParamType::Float, Some(&two)))
                .problems
                .is_empty()
        );
        let text = Literal::String(Cow::Borrowed("3"));
        let required = Decl {
            required: true,
            ..decl("n", ParamType::Integer, Some(&text))
        };
        assert_eq!(
            check_default(&required).problems,
            vec![
                DefaultProblem {
                    at: vec![],
                    problem: Problem::RequiredWithDefault { name: "n".into() },
                },
                DefaultProblem {
                    at: vec![],
                    problem: Problem::DefaultTypeMismatch {
                        name: "n".into(),
                        at: String::new(),
                        expected: ParamType::Integer,
                        got: ValueKind::String
                    },
                },
            ]
        );
        assert!(!ParamType::Integer.accepts(ValueKind::Boolean));
        assert!(!ParamType::String.accepts(ValueKind::Null));
    }

    #[test]
    fn numbers_follow_validation() {
        // `2.0` is the integer 2 where an integer is declared, and stays a float elsewhere.
        let float = Literal::Float(2.0);
        let check = check_default(&decl("n", ParamType::Integer, Some(&float)));
        assert_eq!(check.value, Some(Literal::Integer(2)));
        let list = Literal::List(Cow::Owned(vec![Literal::Float(2.0)]));
        let check = check_default(&decl("l", ParamType::List, Some(&list)));
        assert_eq!(check.value, Some(list.clone()));
        // Out of range and non-finite anywhere, in one wording each.
        let big = Literal::Float(1e19);
        let bad = Literal::List(Cow::Owned(vec![
            Literal::OutOfRange(1 << 64),
            Literal::Float(f64::NAN),
        ]));
        assert_eq!(
            messages(&check_default(&decl("n", ParamType::Integer, Some(&big)))),
            ["parameter 'n': default is an integer outside the 64-bit range"]
        );
        assert_eq!(
            messages(&check_default(&decl("l", ParamType::List, Some(&bad)))),
            [
                "parameter 'l': default value 'l[0]' is an integer outside the 64-bit range",
                "parameter 'l': default value 'l[1]' is not a finite number; JSON has no NaN or infinity",
            ]
        );
    }

    #[test]
    fn nested_defaults_are_checked_and_filled_at_any_depth() {
        let us = Literal::String(Cow::Borrowed("US"));
        let one = Literal::Integer(1);
        let city = Decl {
            required: true,
            ..decl("city", ParamType::String, None)
        };
        let country = Decl {
            required: false,
            ..decl("country", ParamType::String, Some(&us))
        };
        let nights = Decl {
            required: false,
            ..decl("nights", ParamType::Integer, Some(&one))
        };
        let stop = |default| Decl {
            name: "stops",
            ty: ParamType::List,
            required: false,
            items: Some(ParamType::Dictionary),
            fields: Some(vec![city.clone(), country.clone(), nights.clone()]),
            default: Some(default),
            constraints: &NONE,
        };
        let given = Literal::from_pairs(&[("city", Literal::String(Cow::Borrowed("Paris")))]);
        let with_null = Literal::from_pairs(&[
            ("city", Literal::String(Cow::Borrowed("Rome"))),
            ("country", Literal::Null),
            ("nights", Literal::Float(3.0)),
        ]);
        let good = Literal::List(Cow::Owned(vec![given, with_null]));
        let check = check_default(&stop(&good));
        assert!(check.problems.is_empty(), "{check:?}");
        let filled = |city: &'static str, nights| {
            Literal::from_pairs(&[
                ("city", Literal::String(Cow::Borrowed(city))),
                ("country", us.clone()),
                ("nights", Literal::Integer(nights)),
            ])
        };
        let Some(Literal::List(items)) = check.value else {
            panic!("a list")
        };
        assert_eq!(items.len(), 2);
        for (item, expected) in items.iter().zip([filled("Paris", 1), filled("Rome", 3)]) {
            let (Literal::Dictionary(a), Literal::Dictionary(b)) = (item, &expected) else {
                panic!("dictionaries")
            };
            let mut a = a.to_vec();
            let mut b = b.to_vec();
            a.sort_by(|x, y| x.0.cmp(&y.0));
            b.sort_by(|x, y| x.0.cmp(&y.0));
            assert_eq!(a, b);
        }
        let bad = Literal::List(Cow::Owned(vec![
            Literal::from_pairs(&[("city", Literal::Null), ("pet", Literal::Boolean(true))]),
            Literal::from_pairs(&[("country", Literal::Integer(1))]),
        ]));
        let check = check_default(&stop(&bad));
        assert_eq!(
            messages(&check),
            [
                "parameter 'stops': default value 'stops[0].city' of type 'null' does not fit the declared type 'string'",
                "parameter 'stops': default value 'stops[0]' has a field 'pet' that is not declared",
                "parameter 'stops': default value 'stops[1]' has no 'city', a required field",
                "parameter 'stops': default value 'stops[1].country' of type 'integer' does not fit the declared type 'string'",
            ]
        );
        assert_eq!(
            check.problems[1].at,
            [Step::Item(0), Step::Field("pet".into())]
        );
    }

    #[test]
    fn defaults_keep_their_constraints_at_any_depth() {
        let units = Constraints {
            enum_values: Some(Cow::Owned(vec![
                Literal::from_str("metric"),
                Literal::from_str("imperial"),
            ])),
            ..Constraints::NONE
        };
        let kelvin = Literal::from_str("kelvin");
        let units = Decl {
            constraints: &units,
            required: false,
            ..decl("units", ParamType::String, Some(&kelvin))
        };
        assert_eq!(
            messages(&check_default(&units)),
            ["parameter 'units': default must be one of 'metric', 'imperial', got 'kelvin'"]
        );
        let limit = Constraints {
            maximum: Some(Number::Integer(50)),
            ..Constraints::NONE
        };
        let field = Decl {
            required: true,
            constraints: &limit,
            ..decl("limit", ParamType::Integer, None)
        };
        let default = Literal::from_pairs(&[("limit", Literal::Float(80.0))]);
        let query = Decl {
            required: false,
            fields: Some(vec![field]),
            ..decl("query", ParamType::Dictionary, Some(&default))
        };
        let check = check_default(&query);
        assert_eq!(
            messages(&check),
            ["parameter 'query': default value 'query.limit' must be at most 50, got 80"]
        );
        assert_eq!(check.problems[0].at, [Step::Field("limit".into())]);
    }
}
