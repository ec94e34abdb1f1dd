//! The walk of a value through its declaration, as validation walks an argument: its type,
//! its constraints, then the items of a list and the fields of a dictionary, at any depth,
//! normalising as validation does. Two things are walked: a parameter's default
//! ([`defaults`](super::defaults)) and an input example, an object walked through the tool's
//! parameters ([`examples`](super::examples)); what is found is the same, and worded for
//! each.

use std::borrow::Cow;

use super::constraints::{Constraints, Measured, Violation, write_bound, write_enum_miss};
use super::detail::ExampleIssue;
use super::keys::{find_duplicates, suggest};
use super::problem::Problem;
use super::types::{Literal, MAX_NAME_LEN, ParamType, ValueKind};

/// A parameter declaration as the value rules read it: its type and shape, at any depth,
/// and its default (a dictionary that leaves out an optional field gets the field's default,
/// as validation fills it).
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

/// What is walked, which says how a problem found in it is worded.
#[derive(Clone, Copy)]
pub(super) enum Subject<'a> {
    /// The default of the parameter so named; steps start inside the default.
    Default(&'a str),
    /// The input example at this index; steps start at its parameters.
    Example(usize),
}

/// What is wrong with one value, wherever it is.
enum Found {
    TypeMismatch { expected: ParamType, got: ValueKind },
    OutOfRange,
    NotFinite,
    MissingField(String),
    UnknownField(String, Option<String>),
    DuplicateField(String),
    BreaksConstraint { key: &'static str, message: String },
}

/// Walks a value as validation walks an argument, normalising as it goes.
pub(super) struct Walker<'a> {
    subject: Subject<'a>,
    at: Vec<Step>,
    /// Every problem found, with the steps to the value it is about.
    pub(super) problems: Vec<(Vec<Step>, Problem)>,
    /// Set while filling a field's own default: its problems belong to the field's
    /// declaration, which reports them itself.
    quiet: bool,
}

impl<'a> Walker<'a> {
    pub(super) fn new(subject: Subject<'a>) -> Self {
        Walker {
            subject,
            at: Vec::new(),
            problems: Vec::new(),
            quiet: false,
        }
    }

    /// Reports `problem` about the value at `extra` below the current one.
    pub(super) fn report_problem(&mut self, extra: Vec<Step>, problem: Problem) {
        if self.quiet {
            return;
        }
        let mut at = self.at.clone();
        at.extend(extra);
        self.problems.push((at, problem));
    }

    /// Reports what is found at the current value (for a key, `extra` is the entry with it);
    /// the message locates it at the current value, or for a field, at the field.
    fn report(&mut self, extra: Vec<Step>, found: Found) {
        if self.quiet {
            return;
        }
        let problem = match self.subject {
            Subject::Default(name) => default_problem(name, render_steps(&self.at), found),
            Subject::Example(index) => Problem::InvalidExample {
                index,
                issue: example_issue(&self.at, found),
            },
        };
        self.report_problem(extra, problem);
    }

    /// The value at the current step, checked against the declaration's type and
    /// constraints and, below it, its `items` and `fields`.
    pub(super) fn value(&mut self, decl: &Decl<'_>, value: &Literal) -> Literal {
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
            let _ = match (&violation, &decl.constraints.enum_values) {
                (Violation::NotInEnum, Some(allowed)) => {
                    write_enum_miss(&mut message, allowed, value)
                }
                _ => write_bound(&mut message, violation, decl.ty),
            };
            let key = violation.key(decl.ty);
            self.report(Vec::new(), Found::BreaksConstraint { key, message });
        }
    }

    /// Checks the type of one value, as validation does: an integral float is an integer (and
    /// becomes one where an integer is declared); NaN, infinities and integers outside the
    /// 64-bit range are refused whatever the type. `None` when refused (reported).
    fn typed(&mut self, ty: ParamType, value: &Literal) -> Option<Literal> {
        match value {
            Literal::OutOfRange(_) => {
                self.report(Vec::new(), Found::OutOfRange);
                return None;
            }
            Literal::Float(f) if !f.is_finite() => {
                self.report(Vec::new(), Found::NotFinite);
                return None;
            }
            Literal::Float(f) if ty == ParamType::Integer && f.fract() == 0.0 => {
                // i64::MIN is exactly an f64; i64::MAX rounds up to 2^63, out of range.
                #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
                return if *f >= i64::MIN as f64 && *f < i64::MAX as f64 {
                    Some(Literal::Integer(*f as i64))
                } else {
                    self.report(Vec::new(), Found::OutOfRange);
                    None
                };
            }
            _ => {}
        }
        let got = value.kind();
        if ty.accepts(got) {
            Some(value.clone())
        } else {
            self.report(Vec::new(), Found::TypeMismatch { expected: ty, got });
            None
        }
    }

    /// A value of no declared shape: taken as it is, but without NaN, infinities or integers
    /// outside the 64-bit range at any depth.
    pub(super) fn untyped(&mut self, value: &Literal) -> Literal {
        match value {
            Literal::OutOfRange(_) => self.report(Vec::new(), Found::OutOfRange),
            Literal::Float(f) if !f.is_finite() => self.report(Vec::new(), Found::NotFinite),
            Literal::List(values) => {
                for (index, item) in values.iter().enumerate() {
                    self.at.push(Step::Item(index));
                    self.untyped(item);
                    self.at.pop();
                }
            }
            Literal::Dictionary(entries) => self.untyped_object(entries),
            _ => {}
        }
        value.clone()
    }

    /// The entries of a dictionary of no declared fields, each [`untyped`](Self::untyped).
    pub(super) fn untyped_object(&mut self, entries: &[(Cow<'static, str>, Literal)]) {
        self.duplicates(entries);
        for (key, item) in entries {
            self.at.push(Step::Field(key.as_ref().to_owned()));
            self.untyped(item);
            self.at.pop();
        }
    }

    fn duplicates(&mut self, entries: &[(Cow<'static, str>, Literal)]) {
        for key in find_duplicates(entries.iter().map(|(key, _)| key.as_ref())) {
            let found = Found::DuplicateField(key.to_owned());
            self.report(vec![Step::Field(key.to_owned())], found);
        }
    }

    /// A dictionary with declared fields, as validation checks an object: each declared field
    /// checked, `null` for an optional one removed, absent ones filled with their default or
    /// reported when required, undeclared keys reported.
    pub(super) fn object(
        &mut self,
        fields: &[Decl<'_>],
        entries: &[(Cow<'static, str>, Literal)],
    ) -> Literal {
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
                self.report(Vec::new(), Found::MissingField(field.name.to_owned()));
            } else if let Some(default) = field.default {
                let quiet = std::mem::replace(&mut self.quiet, true);
                let value = self.value(field, default);
                self.quiet = quiet;
                out.push((Cow::Owned(field.name.to_owned()), value));
            }
        }
        for (key, _) in entries {
            if !fields.iter().any(|field| field.name == key.as_ref()) {
                let key = key.as_ref();
                // As validation suggests: a key much longer than any name is no typo of one.
                let suggestion = match self.subject {
                    Subject::Example(_) if key.len() <= 2 * MAX_NAME_LEN => {
                        suggest(key, fields.iter().map(|field| field.name)).map(str::to_owned)
                    }
                    _ => None,
                };
                let found = Found::UnknownField(key.to_owned(), suggestion);
                self.report(vec![Step::Field(key.to_owned())], found);
            }
        }
        Literal::Dictionary(Cow::Owned(out))
    }
}

/// A problem found in the default of `name`, `at` the rendered steps inside it.
fn default_problem(name: &str, at: String, found: Found) -> Problem {
    let name = name.to_owned();
    match found {
        Found::TypeMismatch { expected, got } => Problem::DefaultTypeMismatch {
            name,
            at,
            expected,
            got,
        },
        Found::OutOfRange => Problem::DefaultOutOfRange { name, at },
        Found::NotFinite => Problem::DefaultNotFinite { name, at },
        Found::MissingField(field) => Problem::DefaultMissingField { name, at, field },
        Found::UnknownField(field, _) => Problem::DefaultUnknownField { name, at, field },
        Found::DuplicateField(field) => Problem::DefaultDuplicateField { name, at, field },
        Found::BreaksConstraint { key, message } => Problem::DefaultBreaksConstraint {
            name,
            at,
            key,
            message,
        },
    }
}

/// A problem found in an input example, at the value `at` (for a key, the dictionary that
/// holds it), named as validation names an argument: `stops[0].city`.
fn example_issue(at: &[Step], found: Found) -> ExampleIssue {
    let path = render_steps(at);
    let path = path.strip_prefix('.').unwrap_or(&path);
    let member = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    let at = path.to_owned();
    match found {
        Found::TypeMismatch { expected, got } => ExampleIssue::WrongType { at, expected, got },
        Found::OutOfRange => ExampleIssue::OutOfRange { at },
        Found::NotFinite => ExampleIssue::NotFinite { at },
        Found::MissingField(field) => ExampleIssue::Missing { at: member(&field) },
        Found::UnknownField(field, suggestion) => ExampleIssue::Unknown {
            at: member(&field),
            suggestion,
        },
        Found::DuplicateField(field) => ExampleIssue::DuplicateKey { at: member(&field) },
        Found::BreaksConstraint { key, message } => {
            ExampleIssue::BreaksConstraint { at, key, message }
        }
    }
}
