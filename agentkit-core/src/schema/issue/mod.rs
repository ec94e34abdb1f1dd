//! What validation reports: a [`ValidationIssue`] per problem, machine-readable and worded
//! like the Python original's messages, and the capped list of them a call collects.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::literal::value_kind;
use crate::rules::{self, Literal, Number, ParamType, ValueKind, Violation};

mod message;
mod record;

/// What kind of problem a [`ValidationIssue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum IssueKind {
    /// A required parameter is absent. (`null` for a required parameter is a
    /// [`WrongType`](IssueKind::WrongType) with `got` = `null`.)
    MissingParameter,
    /// A value of the wrong type.
    WrongType,
    /// An integer outside the signed 64-bit range.
    OutOfRange,
    /// An argument the schema does not declare.
    UnknownParameter,
    /// The argument string is not JSON.
    InvalidJson,
    /// The arguments are JSON, but not an object.
    NotAnObject,
    /// A key given twice in one object of the argument text (`{"q": 5, "q": "a"}`): the
    /// model said two things, and taking either would drop the other.
    DuplicateKey,
    /// A value that is not one of the parameter's `enum` values.
    NotInEnum,
    /// A number below the parameter's `minimum`.
    BelowMinimum,
    /// A number above the parameter's `maximum`.
    AboveMaximum,
    /// A string with fewer characters than `min_length`, or a list with fewer items than
    /// `min_items` ([`expected`](ValidationIssue::expected) says which).
    TooShort,
    /// A string with more characters than `max_length`, or a list with more items than
    /// `max_items`.
    TooLong,
    /// A value that matches none of the forms a union (`anyOf`, `oneOf`) allows.
    NoMatchingVariant,
    /// A value that matches more than one of the forms a `oneOf` allows.
    AmbiguousVariant,
    /// A string that does not match the parameter's `pattern`.
    PatternMismatch,
    /// A string that is not of the parameter's `format` (a date, an email address, ...).
    InvalidFormat,
    /// A number that is not a multiple of the parameter's `multipleOf`.
    NotMultipleOf,
    /// A list whose items must be unique, with an item given twice.
    DuplicateItems,
    /// A list without the item(s) its `contains` asks for, or with too many of them.
    ContainsMismatch,
    /// An object key that its `propertyNames` refuses.
    InvalidKey,
    /// A value the schema refuses outright (`not`, the `false` schema, an item past the
    /// allowed ones).
    NotAllowed,
    /// Validation stopped: the value and schema together need more work than the
    /// validator's limits allow (see [`SchemaLimits`](crate::SchemaLimits)).
    TooComplex,
}

/// One problem found by validation: machine-readable fields, and a `Display` that reads like
/// the Python original's messages.
///
/// | kind | `Display` |
/// |---|---|
/// | `MissingParameter` | `Missing required parameter: 'city'` |
/// | `WrongType` | `Parameter 'units': expected type 'string', got 'integer'` |
/// | `OutOfRange` | `Parameter 'n': expected type 'integer', got an integer outside the 64-bit range` |
/// | `UnknownParameter` | `Unknown parameter: 'citty'; did you mean 'city'?` |
/// | `InvalidJson` | `Arguments are not valid JSON: EOF while parsing an object at line 1 column 9` |
/// | `NotAnObject` | `Arguments must be a JSON object, got 'list'` |
/// | `DuplicateKey` | `Duplicate key: 'q'; each key may appear only once` |
/// | `NotInEnum` | `Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'` |
/// | `BelowMinimum` | `Parameter 'limit': must be at least 1, got 0` |
/// | `AboveMaximum` | `Parameter 'limit': must be at most 50, got 80` |
/// | `TooShort` | `Parameter 'query': must be at least 1 character long, got 0`, `Parameter 'tags': must have at least 1 item, got 0` |
/// | `TooLong` | `Parameter 'query': must be at most 100 characters long, got 250` |
///
/// The message is rendered only when displayed. Names and values that came from the model
/// (undeclared keys, repeated keys, a string outside an `enum`) are kept to a bounded length,
/// and shown escaped: a newline, a quote or a bidirectional override in a key cannot add a
/// line to a message or reorder it. An `enum` of many values lists its first ten.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidationIssue {
    kind: IssueKind,
    param: Option<Cow<'static, str>>,
    expected: Option<ParamType>,
    got: Option<ValueKind>,
    detail: Option<Detail>,
}

#[derive(Debug, Clone)]
enum Detail {
    Suggestion(Cow<'static, str>),
    Json(std::sync::Arc<serde_json::Error>),
    /// A parser message read back from a recording.
    JsonMessage(String),
    /// The allowed values, and the value given (a bounded copy of a string).
    Enum {
        allowed: Cow<'static, [Literal]>,
        got: Literal,
    },
    /// A bound, and the value (or length) given.
    Limit {
        limit: Number,
        got: Number,
    },
    /// What a JSON Schema keyword says of the value, where the six types have no field for
    /// it: the keyword, and the message after the parameter's name.
    Schema {
        keyword: Cow<'static, str>,
        message: Box<str>,
    },
}

impl Detail {
    fn json_message(&self) -> Option<String> {
        match self {
            Detail::Json(e) => Some(e.to_string()),
            Detail::JsonMessage(m) => Some(m.clone()),
            Detail::Suggestion(_)
            | Detail::Enum { .. }
            | Detail::Limit { .. }
            | Detail::Schema { .. } => None,
        }
    }
}

impl PartialEq for Detail {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Detail::Suggestion(a), Detail::Suggestion(b)) => a == b,
            (
                Detail::Enum { allowed, got },
                Detail::Enum {
                    allowed: allowed_b,
                    got: got_b,
                },
            ) => allowed == allowed_b && got == got_b,
            (Detail::Limit { limit, got }, Detail::Limit { limit: l, got: g }) => {
                limit == l && got == g
            }
            (
                Detail::Schema { keyword, message },
                Detail::Schema {
                    keyword: k,
                    message: m,
                },
            ) => keyword == k && message == m,
            (a, b) => a.json_message().is_some() && a.json_message() == b.json_message(),
        }
    }
}

/// The issues of one validation: at most a cap of them kept, the rest counted.
#[derive(Debug)]
pub(crate) struct Issues {
    list: Vec<ValidationIssue>,
    cap: usize,
    omitted: usize,
}

impl Issues {
    pub(crate) const fn with_cap(cap: usize) -> Self {
        Issues {
            list: Vec::new(),
            cap,
            omitted: 0,
        }
    }

    /// Adds the issue `make` builds, or only counts it once the cap is reached, so that past
    /// the cap no message, path or suggestion is computed.
    #[inline]
    pub(crate) fn push(&mut self, make: impl FnOnce() -> ValidationIssue) {
        if self.list.len() < self.cap {
            self.list.push(make());
        } else {
            self.omitted += 1;
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    /// An empty list with the same cap.
    pub(crate) const fn sibling(&self) -> Self {
        Issues::with_cap(self.cap)
    }

    /// Adds what `other` collected, as if pushed here.
    pub(crate) fn append(&mut self, other: Issues) {
        for issue in other.list {
            self.push(|| issue);
        }
        self.omitted += other.omitted;
    }

    #[cfg(test)]
    pub(crate) fn list(&self) -> &[ValidationIssue] {
        &self.list
    }

    #[cfg(test)]
    pub(crate) fn omitted(&self) -> usize {
        self.omitted
    }

    pub(crate) fn into_list(self) -> Vec<ValidationIssue> {
        self.list
    }

    pub(crate) fn into_parts(self) -> (Vec<ValidationIssue>, usize) {
        (self.list, self.omitted)
    }

    /// Replaces every occurrence of `secrets` in the names the issues echo: an output's keys
    /// are the tool's own text, and may hold a credential it was handed.
    pub(crate) fn scrub(&mut self, secrets: &[&str]) {
        for issue in &mut self.list {
            if let Some(param) = &issue.param {
                let scrubbed = crate::model_text::scrub_cut(param.to_string(), secrets);
                if scrubbed != **param {
                    issue.param = Some(Cow::Owned(scrubbed));
                }
            }
            // A JSON Schema message may echo the tool's own values.
            if let Some(Detail::Schema { message, .. }) = &mut issue.detail {
                let scrubbed = crate::model_text::scrub_cut(message.to_string(), secrets);
                if *scrubbed != **message {
                    *message = scrubbed.into_boxed_str();
                }
            }
            // A string outside an `enum` is the tool's own value too.
            if let Some(Detail::Enum {
                got: Literal::String(got),
                ..
            }) = &mut issue.detail
            {
                let scrubbed = crate::model_text::scrub_cut(got.to_string(), secrets);
                if scrubbed != **got {
                    *got = Cow::Owned(scrubbed);
                }
            }
        }
    }
}

impl ValidationIssue {
    pub(super) fn missing(param: Cow<'static, str>, expected: ParamType) -> Self {
        ValidationIssue {
            kind: IssueKind::MissingParameter,
            param: Some(param),
            expected: Some(expected),
            got: None,
            detail: None,
        }
    }

    pub(super) fn wrong_type(
        param: Cow<'static, str>,
        expected: ParamType,
        got: ValueKind,
    ) -> Self {
        ValidationIssue {
            kind: IssueKind::WrongType,
            param: Some(param),
            expected: Some(expected),
            got: Some(got),
            detail: None,
        }
    }

    pub(super) fn out_of_range(param: Cow<'static, str>) -> Self {
        ValidationIssue {
            kind: IssueKind::OutOfRange,
            param: Some(param),
            expected: Some(ParamType::Integer),
            got: Some(ValueKind::Integer),
            detail: None,
        }
    }

    /// An undeclared argument, with the declared name closest to it, if any.
    pub(crate) fn unknown(path: Cow<'static, str>, suggestion: Option<Cow<'static, str>>) -> Self {
        ValidationIssue {
            kind: IssueKind::UnknownParameter,
            param: Some(path),
            expected: None,
            got: None,
            detail: suggestion.map(Detail::Suggestion),
        }
    }

    /// A value of a parameter of type `ty` that breaks a constraint; `allowed` is its `enum`.
    pub(super) fn constraint(
        param_name: Cow<'static, str>,
        ty: ParamType,
        allowed: Option<&Cow<'static, [Literal]>>,
        violation: Violation,
        value: &Value,
    ) -> Self {
        let length = |n: usize| Number::Integer(i64::try_from(n).unwrap_or(i64::MAX));
        let (kind, detail) = match violation {
            Violation::NotInEnum => {
                let got = match value {
                    // The value is the model's: keep a bounded copy of it.
                    Value::String(s) => Literal::String(Cow::Owned(crate::model_text::capture(s))),
                    Value::Number(n) => n.as_i64().map_or(Literal::Null, Literal::Integer),
                    _ => Literal::Null,
                };
                let allowed = allowed.cloned().unwrap_or(Cow::Borrowed(&[]));
                (IssueKind::NotInEnum, Detail::Enum { allowed, got })
            }
            Violation::BelowMinimum { limit, got } => {
                (IssueKind::BelowMinimum, Detail::Limit { limit, got })
            }
            Violation::AboveMaximum { limit, got } => {
                (IssueKind::AboveMaximum, Detail::Limit { limit, got })
            }
            Violation::TooShort { limit, got } => (
                IssueKind::TooShort,
                Detail::Limit {
                    limit: length(limit),
                    got: length(got),
                },
            ),
            Violation::TooLong { limit, got } => (
                IssueKind::TooLong,
                Detail::Limit {
                    limit: length(limit),
                    got: length(got),
                },
            ),
        };
        ValidationIssue {
            kind,
            param: Some(param_name),
            expected: Some(ty),
            got: Some(value_kind(value)),
            detail: Some(detail),
        }
    }

    /// An issue a JSON Schema keyword reports: `message` is what follows the parameter's
    /// name (`must match the pattern '^a+$'`), rendered escaped and bounded.
    pub(crate) fn schema(
        kind: IssueKind,
        param: Option<Cow<'static, str>>,
        keyword: &'static str,
        got: Option<ValueKind>,
        message: String,
    ) -> Self {
        ValidationIssue {
            kind,
            param,
            expected: None,
            got,
            detail: Some(Detail::Schema {
                keyword: Cow::Borrowed(keyword),
                message: message.into_boxed_str(),
            }),
        }
    }

    /// A required property absent, for a JSON Schema: like [`missing`](Self::missing), with
    /// the type when the schema names one of the six.
    pub(crate) fn missing_property(param: Cow<'static, str>, expected: Option<ParamType>) -> Self {
        ValidationIssue {
            kind: IssueKind::MissingParameter,
            param: Some(param),
            expected,
            got: None,
            detail: None,
        }
    }

    /// A value of the wrong type where the schema names exactly one of the six types.
    pub(crate) fn wrong_type_at(
        param: Option<Cow<'static, str>>,
        expected: ParamType,
        got: ValueKind,
    ) -> Self {
        ValidationIssue {
            kind: IssueKind::WrongType,
            param,
            expected: Some(expected),
            got: Some(got),
            detail: None,
        }
    }

    pub(crate) fn invalid_json(error: serde_json::Error) -> Self {
        ValidationIssue {
            kind: IssueKind::InvalidJson,
            param: None,
            expected: None,
            got: None,
            detail: Some(Detail::Json(std::sync::Arc::new(error))),
        }
    }

    pub(crate) fn duplicate_key(path: &str) -> Self {
        ValidationIssue {
            kind: IssueKind::DuplicateKey,
            param: Some(Cow::Owned(crate::model_text::capture(path))),
            expected: None,
            got: None,
            detail: None,
        }
    }

    pub(crate) fn not_an_object(got: &Value) -> Self {
        ValidationIssue {
            kind: IssueKind::NotAnObject,
            param: None,
            expected: Some(ParamType::Dictionary),
            got: Some(value_kind(got)),
            detail: None,
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> IssueKind {
        self.kind
    }

    /// The parameter concerned, with the item's index for an item of a list (`tags[1]`);
    /// `None` for problems with the whole argument string.
    ///
    /// A key the model made up (an unknown or repeated key) is kept to its first 256 bytes,
    /// followed by `…` when it was longer, whatever its length in the arguments.
    pub fn param(&self) -> Option<&str> {
        self.param.as_deref()
    }

    /// The type that was expected, when there is one.
    pub fn expected(&self) -> Option<ParamType> {
        self.expected
    }

    /// The kind of value that was given instead, when there was one.
    pub fn got(&self) -> Option<ValueKind> {
        self.got
    }

    /// For an unknown parameter, the declared parameter whose name is closest.
    pub fn suggestion(&self) -> Option<&str> {
        match &self.detail {
            Some(Detail::Suggestion(s)) => Some(s),
            _ => None,
        }
    }

    /// For a value outside an `enum`, the values allowed.
    pub fn allowed(&self) -> Option<&[Literal]> {
        match &self.detail {
            Some(Detail::Enum { allowed, .. }) => Some(allowed),
            _ => None,
        }
    }

    /// For a broken bound, the bound: the `minimum` or `maximum`, or the least or most
    /// characters or items allowed.
    pub fn limit(&self) -> Option<Number> {
        match &self.detail {
            Some(Detail::Limit { limit, .. }) => Some(*limit),
            _ => None,
        }
    }

    /// For a broken bound, what was given: the number, or the string's characters or the
    /// list's items counted.
    pub fn measured(&self) -> Option<Number> {
        match &self.detail {
            Some(Detail::Limit { got, .. }) => Some(*got),
            _ => None,
        }
    }

    /// The JSON Schema keyword that reported the issue (`pattern`, `anyOf`, `format`, ...), for
    /// an issue of a [`JsonSchema`](crate::JsonSchema) the six types have no field for.
    pub fn keyword(&self) -> Option<&str> {
        match &self.detail {
            Some(Detail::Schema { keyword, .. }) => Some(keyword),
            _ => None,
        }
    }

    /// For a broken constraint, its key and what the value is told, in the shared rules'
    /// words (`must be at most 50, got 80`): how a spec words an input example that breaks
    /// one.
    pub(crate) fn constraint_words(&self) -> Option<(&'static str, String)> {
        let mut message = String::new();
        // Writing to a `String` cannot fail.
        let key = match (&self.detail, self.expected) {
            (Some(Detail::Enum { allowed, got }), _) => {
                let _ = rules::write_enum_miss(&mut message, allowed, got);
                "enum"
            }
            (_, Some(ty)) => {
                let violation = self.violation()?;
                let _ = rules::write_bound(&mut message, violation, ty);
                violation.key(ty)
            }
            _ => return None,
        };
        Some((key, message))
    }

    /// The violation a bound issue stands for, to word it as the shared rules do.
    fn violation(&self) -> Option<Violation> {
        let Some(Detail::Limit { limit, got }) = &self.detail else {
            return None;
        };
        let count = |n: Number| match n {
            Number::Integer(i) => usize::try_from(i).unwrap_or(usize::MAX),
            Number::Float(_) => usize::MAX,
        };
        let (limit, got) = (*limit, *got);
        Some(match self.kind {
            IssueKind::BelowMinimum => Violation::BelowMinimum { limit, got },
            IssueKind::AboveMaximum => Violation::AboveMaximum { limit, got },
            IssueKind::TooShort => Violation::TooShort {
                limit: count(limit),
                got: count(got),
            },
            IssueKind::TooLong => Violation::TooLong {
                limit: count(limit),
                got: count(got),
            },
            _ => return None,
        })
    }
}
