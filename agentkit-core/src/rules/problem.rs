//! Every problem a declaration can have, and all of their wording: the one place where a
//! message a user reads about a malformed declaration is written, for the compiler's errors
//! and the run time's `SemanticError` alike.

use std::fmt;

use super::detail::{ExampleIssue, NameError, OUT_OF_RANGE};
use super::types::{MAX_EXAMPLE_BYTES, MAX_EXAMPLES, NameKind, ParamType, ValueKind};

/// One thing wrong with a tool declaration.
///
/// Both the run-time [`SemanticError`](crate::SemanticError) and the compile errors of
/// `#[tool(...)]` are made of these, so a mistake reads the same wherever it is caught.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// The tool has no name.
    MissingToolName,
    /// A tool or parameter name breaks the naming rules.
    InvalidName {
        /// Which kind of name.
        kind: NameKind,
        /// The name as written.
        name: String,
        /// Why it is refused.
        reason: NameError,
    },
    /// A parameter declaration lacks a key it must have (`name` or `type`).
    MissingKey {
        /// The missing key.
        key: &'static str,
    },
    /// A key that is not part of the declaration's vocabulary.
    UnknownKey {
        /// The key as written.
        found: String,
        /// The closest known key, if one is close.
        suggestion: Option<&'static str>,
        /// Every key allowed at this place.
        allowed: &'static [&'static str],
    },
    /// The same key written twice in one declaration.
    DuplicateKey {
        /// The repeated key.
        key: String,
    },
    /// A `type` that is not one of the six.
    UnknownType {
        /// The type as written.
        found: String,
        /// The closest type name, if one is close.
        suggestion: Option<&'static str>,
    },
    /// A key holds a value of the wrong kind (`required = "yes"`).
    InvalidKeyValue {
        /// The key.
        key: &'static str,
        /// What the key takes.
        expected: &'static str,
    },
    /// Two parameters with one name.
    DuplicateParameter {
        /// The repeated name.
        name: String,
    },
    /// A value in a default (the default itself, or a value nested in it) that is not of its
    /// declared type.
    DefaultTypeMismatch {
        /// The parameter.
        name: String,
        /// Where the value is inside the default: empty for the default itself, else a path
        /// such as `[1].city` (the message prefixes the parameter's name: `stops[1].city`).
        at: String,
        /// The declared type.
        expected: ParamType,
        /// The kind of the value.
        got: ValueKind,
    },
    /// An integer in a default outside the signed 64-bit range, wherever it is.
    DefaultOutOfRange {
        /// The parameter.
        name: String,
        /// Where the value is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
    },
    /// A NaN or an infinity in a default, wherever it is: JSON has no such number.
    DefaultNotFinite {
        /// The parameter.
        name: String,
        /// Where the value is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
    },
    /// `items` on a parameter that is not a list.
    ItemsOnNonList {
        /// The parameter.
        name: String,
        /// Its declared type.
        ty: ParamType,
    },
    /// `fields` on a parameter that is neither a dictionary nor a list of dictionaries.
    FieldsOnNonDictionary {
        /// The parameter.
        name: String,
        /// Its declared type.
        ty: ParamType,
    },
    /// A dictionary in a default without a required field its `fields` declare.
    DefaultMissingField {
        /// The parameter.
        name: String,
        /// Where the dictionary is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
        /// The missing field.
        field: String,
    },
    /// A dictionary in a default with a field its `fields` do not declare.
    DefaultUnknownField {
        /// The parameter.
        name: String,
        /// Where the dictionary is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
        /// The undeclared field.
        field: String,
    },
    /// A dictionary in a default with the same key twice (only a hand-built [`Literal`](crate::Literal) can
    /// have one).
    DefaultDuplicateField {
        /// The parameter.
        name: String,
        /// Where the dictionary is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
        /// The repeated key.
        field: String,
    },
    /// `required = true` together with a default, which could never apply.
    RequiredWithDefault {
        /// The parameter.
        name: String,
    },
    /// A constraint on a type it does not apply to (`minimum` on a string, `min_length` on
    /// a list).
    ConstraintOnWrongType {
        /// The parameter.
        name: String,
        /// The constraint's key (`minimum`).
        key: &'static str,
        /// The parameter's type.
        ty: ParamType,
    },
    /// An `enum` without values: no value would be accepted.
    EmptyEnum {
        /// The parameter.
        name: String,
    },
    /// An `enum` value that is not of the parameter's type.
    EnumValueType {
        /// The parameter.
        name: String,
        /// The value, as written in messages (`'metric'`, `3`).
        value: String,
        /// The parameter's type.
        expected: ParamType,
        /// The kind of the value.
        got: ValueKind,
    },
    /// The same `enum` value listed twice.
    DuplicateEnumValue {
        /// The parameter.
        name: String,
        /// The value, as written in messages.
        value: String,
    },
    /// A lower bound above its upper bound (`minimum` > `maximum`, `min_length` >
    /// `max_length`, `min_items` > `max_items`): no value would be accepted.
    InvertedBounds {
        /// The parameter.
        name: String,
        /// The lower bound's key.
        lower: &'static str,
        /// The upper bound's key.
        upper: &'static str,
        /// The lower bound, as written in messages.
        min: String,
        /// The upper bound, as written in messages.
        max: String,
    },
    /// A `minimum` or `maximum` that is NaN or infinite.
    BoundNotFinite {
        /// The parameter.
        name: String,
        /// The bound's key.
        key: &'static str,
    },
    /// A default (or a value inside it) that breaks one of its parameter's constraints.
    DefaultBreaksConstraint {
        /// The parameter.
        name: String,
        /// Where the value is inside the default (see [`Problem::DefaultTypeMismatch`]).
        at: String,
        /// The constraint's key (`maximum`).
        key: &'static str,
        /// What the value is told, as validation words it: `must be at most 50, got 80`.
        message: String,
    },
    /// A version that is not `MAJOR.MINOR.PATCH`.
    InvalidVersion {
        /// The version as written.
        found: String,
        /// Why it is refused, such as "it has a pre-release tag ('-...'), which a tool's
        /// version does not take".
        reason: &'static str,
    },
    /// A timeout that is not a whole number of `ms`, `s`, `m` or `h`, or is zero.
    InvalidTimeout {
        /// The timeout as written.
        found: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The same credential named twice.
    DuplicateCredential {
        /// The repeated credential name.
        name: String,
    },
    /// An empty credential name.
    EmptyCredentialName,
    /// The same tag key twice.
    DuplicateTag {
        /// The repeated tag key.
        key: String,
    },
    /// A second tool with a name already registered.
    DuplicateTool {
        /// The tool name.
        name: String,
    },
    /// A declaration given as JSON data that is not an object.
    NotAnObject {
        /// What was expected, such as "a tool spec".
        what: &'static str,
        /// An example of the expected shape.
        example: &'static str,
    },
    /// Annotations that contradict each other: a tool both read-only and destructive.
    ConflictingAnnotations {
        /// The first annotation (`read_only`).
        first: &'static str,
        /// The one it contradicts (`destructive`).
        second: &'static str,
    },
    /// An input example that the tool's parameters refuse, as validation would refuse the
    /// same object given as a call's arguments.
    InvalidExample {
        /// The example's position in the tool's list, from 0.
        index: usize,
        /// What is wrong with it.
        issue: ExampleIssue,
    },
    /// More input examples than a tool may have ([`MAX_EXAMPLES`](super::types::MAX_EXAMPLES)).
    TooManyExamples {
        /// How many the tool has.
        count: usize,
    },
    /// An input example longer, as JSON, than an example may be
    /// ([`MAX_EXAMPLE_BYTES`](super::types::MAX_EXAMPLE_BYTES)).
    ExampleTooLarge {
        /// The example's position in the tool's list, from 0.
        index: usize,
        /// Its length as compact JSON text, in bytes.
        bytes: usize,
    },
    /// A declaration given as JSON text that does not parse.
    InvalidJson {
        /// The parser's message.
        message: String,
    },
    /// A JSON Schema the validator cannot take (see `SchemaError`): the problem's location
    /// in the schema and what is wrong there.
    InvalidJsonSchema {
        /// Where in the schema: a JSON pointer.
        pointer: String,
        /// What is wrong there.
        message: String,
    },
}

impl NameKind {
    const fn noun(self) -> &'static str {
        match self {
            NameKind::Tool => "tool name",
            NameKind::Parameter => "parameter name",
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::MissingToolName => f.write_str("a tool name is required"),
            Problem::InvalidName { kind, name, reason } => {
                write!(f, "invalid {} '{name}': {reason}", kind.noun())
            }
            Problem::MissingKey { key } => {
                write!(
                    f,
                    "missing '{key}': every parameter needs a name and a type"
                )
            }
            Problem::UnknownKey {
                found,
                suggestion,
                allowed,
            } => {
                write!(f, "unknown key '{found}'")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean '{s}'?"),
                    None => write!(f, "; expected one of: {}", allowed.join(", ")),
                }
            }
            Problem::DuplicateKey { key } => write!(f, "duplicate key '{key}'"),
            Problem::UnknownType { found, suggestion } => {
                write!(f, "unknown type '{found}'")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean '{s}'?")
                } else {
                    f.write_str(
                        "; expected one of: string, integer, float, boolean, list, dictionary",
                    )
                }
            }
            Problem::InvalidKeyValue { key, expected } => {
                write!(f, "'{key}' takes {expected}")
            }
            Problem::DuplicateParameter { name } => {
                write!(f, "duplicate parameter '{name}'")
            }
            Problem::DefaultTypeMismatch {
                name,
                at,
                expected,
                got,
            } => write!(
                f,
                "parameter '{name}': {} of type '{got}' does not fit the declared type '{expected}'",
                InDefault {
                    name,
                    at,
                    root: "default"
                }
            ),
            Problem::DefaultOutOfRange { name, at } => write!(
                f,
                "parameter '{name}': {} is {OUT_OF_RANGE}",
                InDefault {
                    name,
                    at,
                    root: "default"
                }
            ),
            Problem::DefaultNotFinite { name, at } => write!(
                f,
                "parameter '{name}': {} is not a finite number; JSON has no NaN or infinity",
                InDefault {
                    name,
                    at,
                    root: "default"
                }
            ),
            Problem::ItemsOnNonList { name, ty } => write!(
                f,
                "parameter '{name}': 'items' declares the type of a list's items, but this parameter is a '{ty}'"
            ),
            Problem::FieldsOnNonDictionary { name, ty } => write!(
                f,
                "parameter '{name}': 'fields' declares the fields of a dictionary (or of a list's \
                 dictionary items), but this parameter is a '{ty}'"
            ),
            Problem::DefaultMissingField { name, at, field } => write!(
                f,
                "parameter '{name}': {} has no '{field}', a required field",
                InDefault {
                    name,
                    at,
                    root: "the default"
                }
            ),
            Problem::DefaultUnknownField { name, at, field } => write!(
                f,
                "parameter '{name}': {} has a field '{field}' that is not declared",
                InDefault {
                    name,
                    at,
                    root: "the default"
                }
            ),
            Problem::DefaultDuplicateField { name, at, field } => write!(
                f,
                "parameter '{name}': {} has the field '{field}' twice",
                InDefault {
                    name,
                    at,
                    root: "the default"
                }
            ),
            Problem::RequiredWithDefault { name } => write!(
                f,
                "parameter '{name}' is required and has a default, which would never be used; \
                 set `required = false` or remove the default"
            ),
            Problem::ConstraintOnWrongType { name, key, ty } => {
                write!(
                    f,
                    "parameter '{name}': '{key}' applies to {} parameters, but this parameter is a '{ty}'",
                    constraint_applies_to(key)
                )?;
                match constraint_instead(key, *ty) {
                    Some(instead) => write!(f, "; use '{instead}'"),
                    None => Ok(()),
                }
            }
            Problem::EmptyEnum { name } => write!(
                f,
                "parameter '{name}': 'enum' is empty, so no value would be accepted; list the \
                 allowed values or remove it"
            ),
            Problem::EnumValueType {
                name,
                value,
                expected,
                got,
            } => write!(
                f,
                "parameter '{name}': enum value {value} of type '{got}' does not fit the declared type '{expected}'"
            ),
            Problem::DuplicateEnumValue { name, value } => {
                write!(f, "parameter '{name}': 'enum' lists {value} twice")
            }
            Problem::InvertedBounds {
                name,
                lower,
                upper,
                min,
                max,
            } => write!(
                f,
                "parameter '{name}': '{lower}' ({min}) is greater than '{upper}' ({max}), so no \
                 value would be accepted"
            ),
            Problem::BoundNotFinite { name, key } => write!(
                f,
                "parameter '{name}': '{key}' is not a finite number; JSON has no NaN or infinity"
            ),
            Problem::DefaultBreaksConstraint {
                name, at, message, ..
            } => write!(
                f,
                "parameter '{name}': {} {message}",
                InDefault {
                    name,
                    at,
                    root: "default"
                }
            ),
            Problem::InvalidTimeout { found, reason } => write!(
                f,
                "invalid timeout {found:?}: {reason}; write a whole number followed by `ms`, \
                 `s`, `m` or `h`, such as \"10s\" or \"500ms\""
            ),
            Problem::InvalidVersion { found, reason } => write!(
                f,
                "version '{found}' is not MAJOR.MINOR.PATCH (for example '1.0.0'): {reason}"
            ),
            Problem::DuplicateCredential { name } => {
                write!(f, "duplicate credential '{name}'")
            }
            Problem::EmptyCredentialName => f.write_str("a credential name cannot be empty"),
            Problem::DuplicateTag { key } => write!(f, "duplicate tag '{key}'"),
            Problem::DuplicateTool { name } => write!(
                f,
                "a tool named '{name}' is already registered; tool names must be unique"
            ),
            Problem::ConflictingAnnotations { first, second } => write!(
                f,
                "a tool cannot be both '{first}' and '{second}': a tool that only reads destroys \
                 nothing; drop one of them"
            ),
            Problem::InvalidExample { index, issue } => {
                write!(f, "input example {index}: {issue}")
            }
            Problem::TooManyExamples { count } => write!(
                f,
                "a tool has at most {MAX_EXAMPLES} input examples, and this one has {count}: \
                 each is sent with every request; keep the few that show the most"
            ),
            Problem::ExampleTooLarge { index, bytes } => write!(
                f,
                "input example {index} is {bytes} bytes as JSON, more than the \
                 {MAX_EXAMPLE_BYTES} an example may have: it is sent with every request; \
                 shorten its values"
            ),
            Problem::InvalidJson { message } => write!(f, "not valid JSON: {message}"),
            Problem::InvalidJsonSchema { pointer, message } if pointer.is_empty() => {
                write!(f, "JSON Schema: {message}")
            }
            Problem::InvalidJsonSchema { pointer, message } => {
                write!(f, "JSON Schema, at '{pointer}': {message}")
            }
            Problem::NotAnObject { what, example } => {
                write!(f, "{what} must be a JSON object, such as {example}")
            }
        }
    }
}

impl std::error::Error for Problem {}

fn constraint_applies_to(key: &str) -> &'static str {
    match key {
        "enum" => "string and integer",
        "minimum" | "maximum" => "integer and float",
        "min_length" | "max_length" => "string",
        _ => "list",
    }
}

/// The constraint meant, when one was put on a type it does not apply to.
fn constraint_instead(key: &str, ty: ParamType) -> Option<&'static str> {
    match (key, ty) {
        ("min_length" | "minimum", ParamType::List) => Some("min_items"),
        ("max_length" | "maximum", ParamType::List) => Some("max_items"),
        ("min_items" | "minimum", ParamType::String) => Some("min_length"),
        ("max_items" | "maximum", ParamType::String) => Some("max_length"),
        _ => None,
    }
}

/// Where a value is inside a default, for messages: `default` (or `the default`) for the
/// default itself, `default value 'stops[1].city'` for a value inside it.
struct InDefault<'a> {
    name: &'a str,
    at: &'a str,
    root: &'static str,
}

impl fmt::Display for InDefault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(self.root)
        } else {
            write!(f, "default value '{}{}'", self.name, self.at)
        }
    }
}
