//! What a parameter may ask of its values beyond its type: the `items` of a list, the `fields`
//! of a dictionary (where they may be declared), an `enum`, bounds, lengths and item counts;
//! how a value is measured against them, and how a broken one is worded.

use std::borrow::Cow;
use std::fmt;

use super::problem::Problem;
use super::types::{Literal, Number, ParamType};

/// Checks `items` (the type of a list's items): only a list has them.
pub fn check_items(name: &str, ty: ParamType, items: Option<ParamType>) -> Result<(), Problem> {
    match items {
        Some(_) if ty != ParamType::List => Err(Problem::ItemsOnNonList {
            name: name.to_owned(),
            ty,
        }),
        _ => Ok(()),
    }
}

/// Checks that `fields` are declared only on a dictionary, or on a list whose items are
/// dictionaries.
pub fn check_fields_place(
    name: &str,
    ty: ParamType,
    items: Option<ParamType>,
) -> Result<(), Problem> {
    let fits = ty == ParamType::Dictionary
        || (ty == ParamType::List && items == Some(ParamType::Dictionary));
    if fits {
        Ok(())
    } else {
        Err(Problem::FieldsOnNonDictionary {
            name: name.to_owned(),
            ty,
        })
    }
}

/// The constraints of a parameter beyond its type, as JSON Schema names them: `enum`,
/// `minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`.
///
/// Each applies to the parameter's own value: `enum` to a string or integer, the bounds to an
/// integer or float, the lengths (in characters) to a string, the item counts to a list. The
/// items of a list of strings or numbers take none (bound the list with `min_items` and
/// `max_items`; the fields of a list's dictionary items have their own constraints).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Constraints {
    /// The allowed values (`enum`).
    pub enum_values: Option<Cow<'static, [Literal]>>,
    /// The smallest allowed number, inclusive.
    pub minimum: Option<Number>,
    /// The largest allowed number, inclusive.
    pub maximum: Option<Number>,
    /// The fewest characters a string may have.
    pub min_length: Option<usize>,
    /// The most characters a string may have.
    pub max_length: Option<usize>,
    /// The fewest items a list may have.
    pub min_items: Option<usize>,
    /// The most items a list may have.
    pub max_items: Option<usize>,
}

/// A value as a constraint reads it.
#[derive(Debug, Clone, Copy)]
pub enum Measured<'a> {
    /// A string.
    String(&'a str),
    /// An integer.
    Integer(i64),
    /// A float (or an integer given where a float is declared).
    Float(f64),
    /// A list, by its number of items.
    List(usize),
}

/// How a value breaks a constraint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Violation {
    /// Not one of the `enum` values.
    NotInEnum,
    /// Below `minimum`.
    BelowMinimum {
        /// The minimum.
        limit: Number,
        /// The value.
        got: Number,
    },
    /// Above `maximum`.
    AboveMaximum {
        /// The maximum.
        limit: Number,
        /// The value.
        got: Number,
    },
    /// Fewer characters than `min_length`, or fewer items than `min_items`.
    TooShort {
        /// The least allowed.
        limit: usize,
        /// The value's length.
        got: usize,
    },
    /// More characters than `max_length`, or more items than `max_items`.
    TooLong {
        /// The most allowed.
        limit: usize,
        /// The value's length.
        got: usize,
    },
}

impl Violation {
    /// The key of the constraint broken.
    pub const fn key(self, ty: ParamType) -> &'static str {
        let list = matches!(ty, ParamType::List);
        match self {
            Violation::NotInEnum => "enum",
            Violation::BelowMinimum { .. } => "minimum",
            Violation::AboveMaximum { .. } => "maximum",
            Violation::TooShort { .. } if list => "min_items",
            Violation::TooShort { .. } => "min_length",
            Violation::TooLong { .. } if list => "max_items",
            Violation::TooLong { .. } => "max_length",
        }
    }
}

/// `1 character`, `2 items`.
fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// Writes a broken bound as validation words it: `must be at most 50, got 80`, `must be at
/// least 1 character long, got 0`, `must have at most 5 items, got 7`. (A value outside an
/// `enum` is worded by the caller, which knows how to show the value.)
pub fn write_bound(f: &mut dyn fmt::Write, violation: Violation, ty: ParamType) -> fmt::Result {
    let list = matches!(ty, ParamType::List);
    match violation {
        Violation::NotInEnum => f.write_str("must be one of the allowed values"),
        Violation::BelowMinimum { limit, got } => write!(f, "must be at least {limit}, got {got}"),
        Violation::AboveMaximum { limit, got } => write!(f, "must be at most {limit}, got {got}"),
        Violation::TooShort { limit, got } if list => {
            write!(f, "must have at least {}, got {got}", count(limit, "item"))
        }
        Violation::TooShort { limit, got } => write!(
            f,
            "must be at least {} long, got {got}",
            count(limit, "character")
        ),
        Violation::TooLong { limit, got } if list => {
            write!(f, "must have at most {}, got {got}", count(limit, "item"))
        }
        Violation::TooLong { limit, got } => write!(
            f,
            "must be at most {} long, got {got}",
            count(limit, "character")
        ),
    }
}

/// Writes a constrained value in a message: a string quoted (`'metric'`), a number as is.
pub fn write_enum_value(f: &mut dyn fmt::Write, value: &Literal) -> fmt::Result {
    match value {
        Literal::String(s) => write!(f, "'{s}'"),
        Literal::Integer(i) => write!(f, "{i}"),
        Literal::OutOfRange(i) => write!(f, "{i}"),
        Literal::Float(x) => write!(f, "{x:?}"),
        Literal::Boolean(b) => write!(f, "{b}"),
        Literal::Null => f.write_str("null"),
        Literal::List(_) => f.write_str("a list"),
        Literal::Dictionary(_) => f.write_str("a dictionary"),
    }
}

/// `must be one of 'metric', 'imperial', got 'kelvin'`, for a default or an example.
pub(crate) fn write_enum_miss(
    f: &mut dyn fmt::Write,
    allowed: &[Literal],
    got: &Literal,
) -> fmt::Result {
    f.write_str("must be one of ")?;
    for (index, value) in allowed.iter().enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        write_enum_value(f, value)?;
    }
    f.write_str(", got ")?;
    write_enum_value(f, got)
}

fn enum_value_text(value: &Literal) -> String {
    let mut out = String::new();
    // Writing to a `String` cannot fail.
    let _ = write_enum_value(&mut out, value);
    out
}

/// The keys of the constraints, in the order a declaration lists them.
pub const CONSTRAINT_KEYS: [&str; 7] = [
    "enum",
    "minimum",
    "maximum",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
];

/// Whether the constraint `key` applies to a parameter of type `ty`.
pub const fn constraint_applies(key: &str, ty: ParamType) -> bool {
    match key.as_bytes() {
        b"enum" => matches!(ty, ParamType::String | ParamType::Integer),
        b"minimum" | b"maximum" => matches!(ty, ParamType::Integer | ParamType::Float),
        b"min_length" | b"max_length" => matches!(ty, ParamType::String),
        b"min_items" | b"max_items" => matches!(ty, ParamType::List),
        _ => false,
    }
}

/// A problem with a declaration's constraints, with the key it is about (and for an `enum`
/// value, its index), so that a compile error can point at it.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintProblem {
    /// The key the problem is about: for bounds the wrong way round, the upper one.
    pub key: &'static str,
    /// For a problem with one `enum` value, its index.
    pub index: Option<usize>,
    /// The problem.
    pub problem: Problem,
}

impl Constraints {
    /// No constraint.
    pub const NONE: Constraints = Constraints {
        enum_values: None,
        minimum: None,
        maximum: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
    };

    /// Whether no constraint is set.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::NONE
    }

    /// The keys set, in [`CONSTRAINT_KEYS`] order.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        let set = [
            self.enum_values.is_some(),
            self.minimum.is_some(),
            self.maximum.is_some(),
            self.min_length.is_some(),
            self.max_length.is_some(),
            self.min_items.is_some(),
            self.max_items.is_some(),
        ];
        CONSTRAINT_KEYS
            .into_iter()
            .zip(set)
            .filter_map(|(key, set)| set.then_some(key))
    }

    /// Every constraint `value` breaks, in key order. Constraints that do not apply to the
    /// kind of value are ignored (a declaration that has them is refused by
    /// [`check_constraints`]).
    pub fn violations(&self, value: Measured<'_>) -> Vec<Violation> {
        let mut found = Vec::new();
        if let Some(allowed) = &self.enum_values {
            let listed = match value {
                Measured::String(s) => Some(
                    allowed
                        .iter()
                        .any(|v| matches!(v, Literal::String(e) if e.as_ref() == s)),
                ),
                Measured::Integer(i) => Some(allowed.iter().any(|v| enum_holds_integer(v, i))),
                Measured::Float(_) | Measured::List(_) => None,
            };
            if listed == Some(false) {
                found.push(Violation::NotInEnum);
            }
        }
        let number = match value {
            Measured::Integer(i) => Some(Number::Integer(i)),
            Measured::Float(f) => Some(Number::Float(f)),
            Measured::String(_) | Measured::List(_) => None,
        };
        if let Some(got) = number {
            if let Some(limit) = self.minimum
                && got.compare(limit) == Some(std::cmp::Ordering::Less)
            {
                found.push(Violation::BelowMinimum { limit, got });
            }
            if let Some(limit) = self.maximum
                && got.compare(limit) == Some(std::cmp::Ordering::Greater)
            {
                found.push(Violation::AboveMaximum { limit, got });
            }
        }
        let (length, min, max) = match value {
            Measured::String(s) => (s.chars().count(), self.min_length, self.max_length),
            Measured::List(n) => (n, self.min_items, self.max_items),
            Measured::Integer(_) | Measured::Float(_) => return found,
        };
        if let Some(limit) = min.filter(|limit| length < *limit) {
            found.push(Violation::TooShort { limit, got: length });
        }
        if let Some(limit) = max.filter(|limit| length > *limit) {
            found.push(Violation::TooLong { limit, got: length });
        }
        found
    }
}

/// Whether an integral float is an `i64` (`i64::MAX` rounds up to 2^63, which is not).
#[allow(clippy::cast_precision_loss)]
fn fits_i64(f: f64) -> bool {
    f >= i64::MIN as f64 && f < i64::MAX as f64
}

/// Whether an `enum` value is the integer `i` (an integral float counts, as in validation).
#[allow(clippy::cast_precision_loss, clippy::float_cmp)]
fn enum_holds_integer(value: &Literal, i: i64) -> bool {
    match value {
        Literal::Integer(e) => *e == i,
        Literal::Float(f) => *f == i as f64,
        _ => false,
    }
}

/// Checks a parameter's constraints: each on a type it applies to, an `enum` with values
/// of the parameter's type and none twice, bounds that are finite and the right way round.
pub fn check_constraints(name: &str, ty: ParamType, c: &Constraints) -> Vec<ConstraintProblem> {
    let mut problems = Vec::new();
    let mut push = |key: &'static str, index: Option<usize>, problem: Problem| {
        problems.push(ConstraintProblem {
            key,
            index,
            problem,
        });
    };
    let mut applying: Vec<&'static str> = Vec::new();
    for key in c.keys() {
        if constraint_applies(key, ty) {
            applying.push(key);
        } else {
            push(
                key,
                None,
                Problem::ConstraintOnWrongType {
                    name: name.to_owned(),
                    key,
                    ty,
                },
            );
        }
    }
    let on = |key: &str| applying.contains(&key);
    if let (true, Some(values)) = (on("enum"), &c.enum_values) {
        if values.is_empty() {
            push(
                "enum",
                None,
                Problem::EmptyEnum {
                    name: name.to_owned(),
                },
            );
        }
        let mut seen: Vec<String> = Vec::new();
        for (index, value) in values.iter().enumerate() {
            let text = enum_value_text(value);
            let out_of_range = match value {
                Literal::OutOfRange(_) => true,
                Literal::Float(f) => f.fract() == 0.0 && !fits_i64(*f),
                _ => false,
            };
            if ty == ParamType::Integer && out_of_range {
                push(
                    "enum",
                    Some(index),
                    Problem::InvalidKeyValue {
                        key: "enum",
                        expected: "integers in the signed 64-bit range",
                    },
                );
                continue;
            }
            // An integral float is an integer, as in validation.
            let fits = match (ty, value) {
                (ParamType::String, Literal::String(_))
                | (ParamType::Integer, Literal::Integer(_)) => true,
                (ParamType::Integer, Literal::Float(f)) => f.fract() == 0.0,
                _ => false,
            };
            if !fits {
                push(
                    "enum",
                    Some(index),
                    Problem::EnumValueType {
                        name: name.to_owned(),
                        value: text,
                        expected: ty,
                        got: value.kind(),
                    },
                );
                continue;
            }
            // `2.0` and `2` are one integer.
            let key = match value {
                Literal::Float(f) => Number::Float(*f)
                    .to_string()
                    .trim_end_matches(".0")
                    .to_owned(),
                _ => text.clone(),
            };
            if seen.contains(&key) {
                push(
                    "enum",
                    Some(index),
                    Problem::DuplicateEnumValue {
                        name: name.to_owned(),
                        value: text,
                    },
                );
            } else {
                seen.push(key);
            }
        }
    }
    for (key, bound) in [("minimum", c.minimum), ("maximum", c.maximum)] {
        if let (true, Some(bound)) = (on(key), bound)
            && !bound.is_finite()
        {
            push(
                key,
                None,
                Problem::BoundNotFinite {
                    name: name.to_owned(),
                    key,
                },
            );
        }
    }
    if let (true, true, Some(min), Some(max)) = (on("minimum"), on("maximum"), c.minimum, c.maximum)
        && min.compare(max) == Some(std::cmp::Ordering::Greater)
    {
        push(
            "maximum",
            None,
            Problem::InvertedBounds {
                name: name.to_owned(),
                lower: "minimum",
                upper: "maximum",
                min: min.to_string(),
                max: max.to_string(),
            },
        );
    }
    for (lower, upper, min, max) in [
        ("min_length", "max_length", c.min_length, c.max_length),
        ("min_items", "max_items", c.min_items, c.max_items),
    ] {
        if let (true, true, Some(min), Some(max)) = (on(lower), on(upper), min, max)
            && min > max
        {
            push(
                upper,
                None,
                Problem::InvertedBounds {
                    name: name.to_owned(),
                    lower,
                    upper,
                    min: min.to_string(),
                    max: max.to_string(),
                },
            );
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(s: &'static str) -> Literal {
        Literal::String(Cow::Borrowed(s))
    }

    fn problems(name: &str, ty: ParamType, c: &Constraints) -> Vec<String> {
        check_constraints(name, ty, c)
            .into_iter()
            .map(|p| p.problem.to_string())
            .collect()
    }

    #[test]
    fn constraints_are_checked_where_declared() {
        let units = Constraints {
            enum_values: Some(Cow::Owned(vec![
                string("metric"),
                Literal::Integer(3),
                string("metric"),
            ])),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("units", ParamType::String, &units),
            [
                "parameter 'units': enum value 3 of type 'integer' does not fit the declared type 'string'",
                "parameter 'units': 'enum' lists 'metric' twice",
            ]
        );
        let empty = Constraints {
            enum_values: Some(Cow::Borrowed(&[])),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("units", ParamType::String, &empty),
            [
                "parameter 'units': 'enum' is empty, so no value would be accepted; list the allowed values or remove it"
            ]
        );
        let inverted = Constraints {
            minimum: Some(Number::Integer(50)),
            maximum: Some(Number::Float(1.5)),
            min_items: Some(2),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("limit", ParamType::Integer, &inverted),
            [
                "parameter 'limit': 'min_items' applies to list parameters, but this parameter is a 'integer'",
                "parameter 'limit': 'minimum' (50) is greater than 'maximum' (1.5), so no value would be accepted",
            ]
        );
        let on_list = Constraints {
            min_length: Some(1),
            maximum: Some(Number::Float(f64::NAN)),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("tags", ParamType::List, &on_list),
            [
                "parameter 'tags': 'maximum' applies to integer and float parameters, but this parameter is a 'list'; use 'max_items'",
                "parameter 'tags': 'min_length' applies to string parameters, but this parameter is a 'list'; use 'min_items'",
            ]
        );
        let lengths = Constraints {
            min_length: Some(3),
            max_length: Some(2),
            ..Constraints::NONE
        };
        assert_eq!(
            check_constraints("q", ParamType::String, &lengths)[0].key,
            "max_length"
        );
        let integers = Constraints {
            enum_values: Some(Cow::Owned(vec![Literal::Integer(2), Literal::Float(2.0)])),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("n", ParamType::Integer, &integers),
            ["parameter 'n': 'enum' lists 2.0 twice"]
        );
        let huge = Constraints {
            enum_values: Some(Cow::Owned(vec![
                Literal::Float(1e20),
                Literal::Float(f64::NAN),
            ])),
            ..Constraints::NONE
        };
        assert_eq!(
            problems("n", ParamType::Integer, &huge),
            [
                "'enum' takes integers in the signed 64-bit range",
                "parameter 'n': enum value NaN of type 'float' does not fit the declared type 'integer'",
            ]
        );
    }

    #[test]
    fn values_break_every_constraint_they_break() {
        let c = Constraints {
            enum_values: Some(Cow::Owned(vec![Literal::Integer(1), Literal::Integer(100)])),
            minimum: Some(Number::Integer(1)),
            maximum: Some(Number::Integer(50)),
            ..Constraints::NONE
        };
        assert_eq!(c.violations(Measured::Integer(1)), []);
        assert_eq!(
            c.violations(Measured::Integer(100)),
            [Violation::AboveMaximum {
                limit: Number::Integer(50),
                got: Number::Integer(100)
            }]
        );
        assert_eq!(c.violations(Measured::Integer(0)).len(), 2);
        let s = Constraints {
            min_length: Some(2),
            max_length: Some(3),
            ..Constraints::NONE
        };
        // Characters, not bytes.
        assert_eq!(s.violations(Measured::String("éé")), []);
        assert_eq!(
            s.violations(Measured::String("ab cd")),
            [Violation::TooLong { limit: 3, got: 5 }]
        );
        let mut text = String::new();
        write_bound(
            &mut text,
            Violation::TooShort { limit: 1, got: 0 },
            ParamType::List,
        )
        .unwrap();
        assert_eq!(text, "must have at least 1 item, got 0");
    }
}
