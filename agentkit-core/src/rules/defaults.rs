//! The rules for a parameter's default: checked against the whole declaration, at any depth,
//! as validation would check the same value given as the argument, and normalised as
//! validation leaves it.

use std::borrow::Cow;

use super::constraints::{Constraints, Measured, Violation, write_bound, write_enum_miss};
use super::keys::find_duplicates;
use super::problem::Problem;
use super::types::{Literal, ParamType};

/// A parameter declaration as the default rules read it: its type and shape, at any depth,
/// and its default (a dictionary default that leaves out an optional field gets the field's
/// default, as validation fills it).
#[derive(Debug, Clone)]
pub struct Decl<'a> {
    /// The parameter's name.
    pub name: &'a str,
    /// Its type.
    pub ty: ParamType,
    /// Whether a value must have it.
    pub required: bool,
    /// The type of a list's items, when declared.
    pub items: Option<ParamType>,
    /// The declared fields of a dictionary (or of a list's dictionary items).
    pub fields: Option<Vec<Decl<'a>>>,
    /// The default, if any.
    pub default: Option<&'a Literal>,
    /// Its constraints.
    pub constraints: &'a Constraints,
}

/// One step from a value to a value inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The item at this index of a list.
    Item(usize),
    /// The entry with this key of a dictionary.
    Field(String),
}

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
    let mut checker = Checker {
        name: decl.name,
        at: Vec::new(),
        problems: Vec::new(),
        quiet: false,
    };
    if decl.required {
        checker.report(Vec::new(), |name, _| Problem::RequiredWithDefault { name });
    }
    let value = checker.value(decl, default);
    DefaultCheck {
        problems: checker.problems,
        value: Some(value),
    }
}

/// Renders steps as validation names a nested value: `[1].city`.
pub fn render_steps(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Item(index) => {
                out.push('[');
                out.push_str(&index.to_string());
                out.push(']');
            }
            Step::Field(key) => {
                out.push('.');
                out.push_str(key);
            }
        }
    }
    out
}

/// Walks a default as validation walks an argument, normalising as it goes.
struct Checker<'a> {
    name: &'a str,
    at: Vec<Step>,
    problems: Vec<DefaultProblem>,
    /// Set while filling a field's own default: its problems belong to the field's
    /// declaration, which reports them itself.
    quiet: bool,
}

impl Checker<'_> {
    /// Reports the problem `make(name, at)` about the value at `at + extra`; the message
    /// locates it at the current value (for a key, the dictionary holding it).
    fn report(&mut self, extra: Vec<Step>, make: impl FnOnce(String, String) -> Problem) {
        if self.quiet {
            return;
        }
        let problem = make(self.name.to_owned(), render_steps(&self.at));
        let mut at = self.at.clone();
        at.extend(extra);
        self.problems.push(DefaultProblem { at, problem });
    }

    /// The value at the current step, checked against the declaration's type and
    /// constraints and, below it, its `items` and `fields`.
    fn value(&mut self, decl: &Decl<'_>, value: &Literal) -> Literal {
        let Some(value) = self.typed(decl.ty, value) else {
            return value.clone();
        };
        self.constrained(decl, &value);
        let (items, fields) = (decl.items, decl.fields.as_deref());
        match (&value, items, fields) {
            (Literal::List(values), Some(items), _) => {
                let mut out = Vec::with_capacity(values.len());
                for (index, item) in values.iter().enumerate() {
                    self.at.push(Step::Item(index));
                    let item = match (self.typed(items, item), fields) {
                        (Some(Literal::Dictionary(entries)), Some(fields)) => {
                            self.object(fields, &entries)
                        }
                        (Some(item), _) => self.untyped(&item),
                        (None, _) => item.clone(),
                    };
                    self.at.pop();
                    out.push(item);
                }
                Literal::List(Cow::Owned(out))
            }
            (Literal::Dictionary(entries), _, Some(fields)) => self.object(fields, entries),
            _ => self.untyped(&value),
        }
    }

    /// Reports every constraint of `decl` that the (well-typed) `value` breaks.
    fn constrained(&mut self, decl: &Decl<'_>, value: &Literal) {
        if decl.constraints.is_empty() {
            return;
        }
        let measured = match value {
            Literal::String(s) => Measured::String(s),
            Literal::Integer(i) => Measured::Integer(*i),
            Literal::Float(f) => Measured::Float(*f),
            Literal::List(items) => Measured::List(items.len()),
            _ => return,
        };
        for violation in decl.constraints.violations(measured) {
            let mut message = String::new();
            // Writing to a `String` cannot fail.
            let _ = if violation == Violation::NotInEnum {
                write_enum_miss(&mut message, decl.constraints, value)
            } else {
                write_bound(&mut message, violation, decl.ty)
            };
            self.report(Vec::new(), |name, at| Problem::DefaultBreaksConstraint {
                name,
                at,
                key: violation.key(decl.ty),
                message,
            });
        }
    }

    /// Checks the type of one value, as validation does: an integral float is an integer (and
    /// becomes one where an integer is declared); NaN, infinities and integers outside the
    /// 64-bit range are refused whatever the type. `None` when refused (reported).
    fn typed(&mut self, ty: ParamType, value: &Literal) -> Option<Literal> {
        match value {
            Literal::OutOfRange(_) => {
                self.report(Vec::new(), |name, at| Problem::DefaultOutOfRange {
                    name,
                    at,
                });
                return None;
            }
            Literal::Float(f) if !f.is_finite() => {
                self.report(Vec::new(), |name, at| Problem::DefaultNotFinite {
                    name,
                    at,
                });
                return None;
            }
            Literal::Float(f) if ty == ParamType::Integer && f.fract() == 0.0 => {
                // i64::MIN is exactly an f64; i64::MAX rounds up to 2^63, out of range.
                #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                return if *f >= i64::MIN as f64 && *f < i64::MAX as f64 {
                    Some(Literal::Integer(*f as i64))
                } else {
                    self.report(Vec::new(), |name, at| Problem::DefaultOutOfRange {
                        name,
                        at,
                    });
                    None
                };
            }
            _ => {}
        }
        let got = value.kind();
        if ty.accepts(got) {
            Some(value.clone())
        } else {
            self.report(Vec::new(), |name, at| Problem::DefaultTypeMismatch {
                name,
                at,
                expected: ty,
                got,
            });
            None
        }
    }

    /// A value of no declared shape: taken as it is, but without NaN, infinities or integers
    /// outside the 64-bit range at any depth.
    fn untyped(&mut self, value: &Literal) -> Literal {
        match value {
            Literal::OutOfRange(_) => {
                self.report(Vec::new(), |name, at| Problem::DefaultOutOfRange {
                    name,
                    at,
                });
            }
            Literal::Float(f) if !f.is_finite() => {
                self.report(Vec::new(), |name, at| Problem::DefaultNotFinite {
                    name,
                    at,
                });
            }
            Literal::List(values) => {
                for (index, item) in values.iter().enumerate() {
                    self.at.push(Step::Item(index));
                    self.untyped(item);
                    self.at.pop();
                }
            }
            Literal::Dictionary(entries) => {
                self.duplicates(entries);
                for (key, item) in entries.iter() {
                    self.at.push(Step::Field(key.as_ref().to_owned()));
                    self.untyped(item);
                    self.at.pop();
                }
            }
            _ => {}
        }
        value.clone()
    }

    fn duplicates(&mut self, entries: &[(Cow<'static, str>, Literal)]) {
        for key in find_duplicates(entries.iter().map(|(key, _)| key.as_ref())) {
            self.report(vec![Step::Field(key.to_owned())], |name, at| {
                Problem::DefaultDuplicateField {
                    name,
                    at,
                    field: key.to_owned(),
                }
            });
        }
    }

    /// A dictionary with declared fields, as validation checks an object: each declared field
    /// checked, `null` for an optional one removed, absent ones filled with their default or
    /// reported when required, undeclared keys reported.
    fn object(&mut self, fields: &[Decl<'_>], entries: &[(Cow<'static, str>, Literal)]) -> Literal {
        self.duplicates(entries);
        let mut out: Vec<(Cow<'static, str>, Literal)> = Vec::with_capacity(fields.len());
        // In validation's order: the declared fields, then the undeclared keys.
        for field in fields {
            let given = entries.iter().find(|(key, _)| key.as_ref() == field.name);
            match given {
                // `null` means "not given", as for an argument.
                Some((_, Literal::Null)) if !field.required => {}
                Some((key, value)) => {
                    self.at.push(Step::Field(field.name.to_owned()));
                    let value = self.value(field, value);
                    self.at.pop();
                    out.push((key.clone(), value));
                    continue;
                }
                None => {}
            }
            if field.required {
                self.report(Vec::new(), |name, at| Problem::DefaultMissingField {
                    name,
                    at,
                    field: field.name.to_owned(),
                });
            } else if let Some(default) = field.default {
                let quiet = std::mem::replace(&mut self.quiet, true);
                let value = self.value(field, default);
                self.quiet = quiet;
                out.push((Cow::Owned(field.name.to_owned()), value));
            }
        }
        for (key, _) in entries {
            if !fields.iter().any(|field| field.name == key.as_ref()) {
                self.report(vec![Step::Field(key.as_ref().to_owned())], |name, at| {
                    Problem::DefaultUnknownField {
                        name,
                        at,
                        field: key.as_ref().to_owned(),
                    }
                });
            }
        }
        Literal::Dictionary(Cow::Owned(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::types::{Number, ValueKind};

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
