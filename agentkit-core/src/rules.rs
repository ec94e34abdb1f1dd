//! The rule set for tool declarations, shared by `agentkit-core` (run time) and
//! `agentkit-derive` (compile time).
//!
//! This file is compiled into both crates: `agentkit-derive/src/rules.rs` is a symbolic link to
//! it (serde shares `serde_derive/src/internals` the same way). It therefore depends on `std`
//! only, and every message a user can see about a malformed declaration is worded here, once.
//! A schema loaded from JSON at run time and a `#[tool(...)]` literal checked by the compiler
//! are refused for the same reasons, in the same words.

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

/// The six parameter types of a tool schema.
///
/// These are the Python original's types; each maps to one JSON Schema type:
///
/// | `ParamType` | name in a schema | JSON Schema |
/// |---|---|---|
/// | [`String`](ParamType::String) | `string` | `string` |
/// | [`Integer`](ParamType::Integer) | `integer` | `integer` |
/// | [`Float`](ParamType::Float) | `float` | `number` |
/// | [`Boolean`](ParamType::Boolean) | `boolean` | `boolean` |
/// | [`List`](ParamType::List) | `list` | `array` |
/// | [`Dictionary`](ParamType::Dictionary) | `dictionary` | `object` |
///
/// ```
/// use agentkit_core::ParamType;
///
/// assert_eq!("integer".parse::<ParamType>().unwrap(), ParamType::Integer);
/// assert_eq!(ParamType::Float.json_schema_type(), "number");
/// assert_eq!(ParamType::List.to_string(), "list");
/// ```
///
/// More types may come (the enum is `#[non_exhaustive]`): a `match` on it needs a `_` arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParamType {
    /// A JSON string.
    String,
    /// A JSON number without a fractional part that fits in an `i64`.
    Integer,
    /// Any JSON number (integers included).
    Float,
    /// `true` or `false`; never a number.
    Boolean,
    /// A JSON array.
    List,
    /// A JSON object.
    Dictionary,
}

impl ParamType {
    /// Every type, in the Python original's order.
    pub const ALL: [ParamType; 6] = [
        ParamType::String,
        ParamType::Integer,
        ParamType::Float,
        ParamType::Boolean,
        ParamType::List,
        ParamType::Dictionary,
    ];

    /// The Python original's name of the type, as written in a schema (`"integer"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Float => "float",
            ParamType::Boolean => "boolean",
            ParamType::List => "list",
            ParamType::Dictionary => "dictionary",
        }
    }

    /// The JSON Schema `type` keyword for this type (`float` is `"number"`).
    pub const fn json_schema_type(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Float => "number",
            ParamType::Boolean => "boolean",
            ParamType::List => "array",
            ParamType::Dictionary => "object",
        }
    }

    /// Looks a type up by its name; `None` if it is not one of the six.
    pub fn from_name(name: &str) -> Option<ParamType> {
        ParamType::ALL.into_iter().find(|ty| ty.as_str() == name)
    }

    /// Whether a value of `kind` is a valid value of this type.
    ///
    /// Integers are valid floats; booleans are never numbers; `null` fits no type.
    pub const fn accepts(self, kind: ValueKind) -> bool {
        matches!(
            (self, kind),
            (ParamType::String, ValueKind::String)
                | (ParamType::Integer, ValueKind::Integer)
                | (ParamType::Float, ValueKind::Integer | ValueKind::Float)
                | (ParamType::Boolean, ValueKind::Boolean)
                | (ParamType::List, ValueKind::List)
                | (ParamType::Dictionary, ValueKind::Dictionary)
        )
    }
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for ParamType {
    type Err = Problem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ParamType::from_name(s).ok_or_else(|| Problem::UnknownType {
            found: s.to_owned(),
            suggestion: suggest(s, ParamType::ALL.iter().map(|ty| ty.as_str())),
        })
    }
}

/// The kind of a JSON value, named in the Python original's vocabulary.
///
/// This is what validation messages report as "got": `Parameter 'units': expected type
/// 'string', got 'integer'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A number without a fractional part.
    Integer,
    /// A number with a fractional part (or too large for an integer).
    Float,
    /// A string.
    String,
    /// An array.
    List,
    /// An object.
    Dictionary,
}

impl ValueKind {
    /// The name used in messages (`"integer"`, `"null"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            ValueKind::Null => "null",
            ValueKind::Boolean => "boolean",
            ValueKind::Integer => "integer",
            ValueKind::Float => "float",
            ValueKind::String => "string",
            ValueKind::List => "list",
            ValueKind::Dictionary => "dictionary",
        }
    }
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a name is the name of; names of each kind follow the same character rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// The name of a tool.
    Tool,
    /// The name of a parameter.
    Parameter,
}

impl NameKind {
    const fn noun(self) -> &'static str {
        match self {
            NameKind::Tool => "tool name",
            NameKind::Parameter => "parameter name",
        }
    }
}

/// The longest tool or parameter name every major provider accepts.
pub const MAX_NAME_LEN: usize = 64;

/// The keys a parameter declaration may have, as in the Python original.
pub const PARAM_KEYS: &[&str] = &[
    "name",
    "type",
    "required",
    "default",
    "description",
    "items",
    "fields",
    "enum",
    "minimum",
    "maximum",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
];

/// The keys a `#[tool(...)]` attribute may have.
pub const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "version",
    "input",
    "output",
    "tags",
    "credentials",
    "timeout",
    "blocking",
    "sequential",
    "requires_approval",
    "retries",
    "crate",
];

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
    /// A dictionary in a default with the same key twice (only a hand-built [`Literal`] can
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
    /// A declaration given as JSON text that does not parse.
    InvalidJson {
        /// The parser's message.
        message: String,
    },
}

/// Why a name is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameError {
    /// The name is empty.
    Empty,
    /// Longer than [`MAX_NAME_LEN`] bytes.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// Starts with something other than an ASCII letter or `_`.
    BadStart {
        /// The first character.
        found: char,
    },
    /// Contains a character other than ASCII letters, digits, `_` and `-`.
    BadChar {
        /// The offending character.
        found: char,
        /// Its position (0-based, in characters).
        index: usize,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NameError::Empty => f.write_str("it is empty"),
            NameError::TooLong { len } => {
                write!(f, "it is {len} bytes long, the limit is {MAX_NAME_LEN}")
            }
            NameError::BadStart { found } => write!(
                f,
                "it starts with {found:?}; names start with an ASCII letter or '_'"
            ),
            NameError::BadChar { found, index } => write!(
                f,
                "{found:?} at position {index} is not allowed; use ASCII letters, digits, '_' and '-'"
            ),
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
            Problem::InvalidJson { message } => write!(f, "not valid JSON: {message}"),
            Problem::NotAnObject { what, example } => {
                write!(f, "{what} must be a JSON object, such as {example}")
            }
        }
    }
}

impl std::error::Error for Problem {}

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

/// How validation words an integer outside the signed 64-bit range, wherever one is refused:
/// an argument, an output, or a default.
pub const OUT_OF_RANGE: &str = "an integer outside the 64-bit range";

/// A JSON value that can be built in a `const` context: a parameter's default.
///
/// Defaults of tools declared with `#[tool(...)]` live in `static` data, which
/// `serde_json::Value` cannot; `Literal` can, and converts to a `Value` when a default is
/// filled in. A schema checks its defaults when it is built, so a `Literal` inside a schema
/// holds only what validation would accept: finite numbers, integers in the 64-bit range, and
/// every nested value of its declared type.
///
/// ```
/// use agentkit_core::Literal;
/// use serde_json::json;
///
/// assert_eq!(Literal::from(json!(["a", 1, 2.0])).to_value(), json!(["a", 1, 2.0]));
/// assert_eq!(Literal::from("US").to_value(), json!("US"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null` (only ever nested inside a list or dictionary default).
    Null,
    /// `true` or `false`.
    Boolean(bool),
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    String(Cow<'static, str>),
    /// A list of values.
    List(Cow<'static, [Literal]>),
    /// A dictionary, in declaration order.
    Dictionary(Cow<'static, [(Cow<'static, str>, Literal)]>),
    /// An integer outside the signed 64-bit range, as JSON text can spell one. It is never a
    /// valid default: a schema holding one is refused, rather than the number rounded to a
    /// float.
    OutOfRange(i128),
}

impl Literal {
    /// The kind of this value, as validation messages name it: a float without a fractional
    /// part counts as an integer, as validation counts `2.0`.
    pub fn kind(&self) -> ValueKind {
        match self {
            Literal::Null => ValueKind::Null,
            Literal::Boolean(_) => ValueKind::Boolean,
            Literal::Integer(_) | Literal::OutOfRange(_) => ValueKind::Integer,
            Literal::Float(f) if f.is_finite() && f.fract() == 0.0 => ValueKind::Integer,
            Literal::Float(_) => ValueKind::Float,
            Literal::String(_) => ValueKind::String,
            Literal::List(_) => ValueKind::List,
            Literal::Dictionary(_) => ValueKind::Dictionary,
        }
    }
}

/// A number in a constraint (`minimum`, `maximum`): an integer, or a float.
///
/// Integers stay exact: a bound of `9007199254740993` on an integer parameter is compared as
/// an integer, not rounded to the nearest float.
///
/// ```
/// use agentkit_core::Number;
///
/// assert_eq!(Number::from(50).to_string(), "50");
/// assert_eq!(Number::from(0.5).to_string(), "0.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Float(f64),
}

impl Number {
    /// The number as an `f64` (rounded, for an integer beyond 2^53).
    #[allow(clippy::cast_precision_loss)]
    pub const fn as_f64(self) -> f64 {
        match self {
            Number::Integer(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    /// Whether the number is neither NaN nor infinite.
    pub const fn is_finite(self) -> bool {
        match self {
            Number::Integer(_) => true,
            Number::Float(f) => f.is_finite(),
        }
    }

    /// Compares two numbers by value: exactly when both are integers.
    pub fn compare(self, other: Number) -> Option<std::cmp::Ordering> {
        match (self, other) {
            (Number::Integer(a), Number::Integer(b)) => Some(a.cmp(&b)),
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
        }
    }

    /// The number as a default or enum value.
    pub const fn to_literal(self) -> Literal {
        match self {
            Number::Integer(i) => Literal::Integer(i),
            Number::Float(f) => Literal::Float(f),
        }
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Self {
        Number::Integer(i)
    }
}

impl From<f64> for Number {
    fn from(f: f64) -> Self {
        Number::Float(f)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Number::Integer(i) => write!(f, "{i}"),
            // `{:?}` keeps the `.0` of an integral float and writes huge ones as `1e300`.
            Number::Float(x) => write!(f, "{x:?}"),
        }
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

/// `must be one of 'metric', 'imperial', got 'kelvin'`, for a default.
fn write_enum_miss(f: &mut dyn fmt::Write, c: &Constraints, got: &Literal) -> fmt::Result {
    f.write_str("must be one of ")?;
    for (index, value) in c.enum_values.iter().flat_map(|v| v.iter()).enumerate() {
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
            if let Some(limit) = self.minimum {
                if got.compare(limit) == Some(std::cmp::Ordering::Less) {
                    found.push(Violation::BelowMinimum { limit, got });
                }
            }
            if let Some(limit) = self.maximum {
                if got.compare(limit) == Some(std::cmp::Ordering::Greater) {
                    found.push(Violation::AboveMaximum { limit, got });
                }
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
        if let (true, Some(bound)) = (on(key), bound) {
            if !bound.is_finite() {
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
    }
    if let (true, true, Some(min), Some(max)) = (on("minimum"), on("maximum"), c.minimum, c.maximum)
    {
        if min.compare(max) == Some(std::cmp::Ordering::Greater) {
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
    }
    for (lower, upper, min, max) in [
        ("min_length", "max_length", c.min_length, c.max_length),
        ("min_items", "max_items", c.min_items, c.max_items),
    ] {
        if let (true, true, Some(min), Some(max)) = (on(lower), on(upper), min, max) {
            if min > max {
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
    }
    problems
}

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

/// Looks up a key of a parameter declaration.
pub fn check_param_key(key: &str) -> Result<&'static str, Problem> {
    lookup_key(key, PARAM_KEYS)
}

/// Looks up a key of the `#[tool(...)]` attribute.
pub fn check_tool_key(key: &str) -> Result<&'static str, Problem> {
    lookup_key(key, TOOL_KEYS)
}

fn lookup_key(key: &str, allowed: &'static [&'static str]) -> Result<&'static str, Problem> {
    allowed
        .iter()
        .copied()
        .find(|known| *known == key)
        .ok_or_else(|| Problem::UnknownKey {
            found: key.to_owned(),
            suggestion: suggest(key, allowed.iter().copied()),
            allowed,
        })
}

/// Returns the first name in `names` that occurs again after it, for duplicate checks.
pub fn find_duplicates<'a, I>(names: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut seen: Vec<&str> = Vec::new();
    let mut duplicates = Vec::new();
    for name in names {
        if seen.contains(&name) {
            if !duplicates.contains(&name) {
                duplicates.push(name);
            }
        } else {
            seen.push(name);
        }
    }
    duplicates
}

/// Words other schema languages (JSON Schema, Python, Rust, OpenAPI) use for what a
/// declaration here calls by another name: too far from ours for an edit distance to catch,
/// but what a user coming from one of them writes first.
const SYNONYMS: &[(&str, &str)] = &[
    // Types.
    ("object", "dictionary"),
    ("dict", "dictionary"),
    ("map", "dictionary"),
    ("hashmap", "dictionary"),
    ("array", "list"),
    ("vec", "list"),
    ("number", "float"),
    ("f32", "float"),
    ("f64", "float"),
    ("double", "float"),
    ("bool", "boolean"),
    ("int", "integer"),
    ("i32", "integer"),
    ("i64", "integer"),
    ("u32", "integer"),
    ("u64", "integer"),
    ("usize", "integer"),
    ("str", "string"),
    // Keys: a word stands for the first of its meanings allowed where it is written, so
    // `parameters` is `input` in `#[tool(...)]` and `input_schema` in a spec's JSON shape.
    ("parameters", "input"),
    ("parameters", "input_schema"),
    ("params", "input"),
    ("params", "input_schema"),
    ("input", "input_schema"),
    ("input_schema", "input"),
    ("output", "output_schema"),
    ("output_schema", "output"),
    ("credentials", "credential_names"),
    ("credential_names", "credentials"),
    ("desc", "description"),
];

/// The candidate closest to `input`, if it is close enough to be what was meant.
///
/// Close enough: a known synonym (`object` for `dictionary`, `desc` for `description`), an
/// edit distance of at most a third of the input's length (at least 1), or the same word in
/// another case.
pub fn suggest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    let synonym = SYNONYMS
        .iter()
        .filter(|(word, _)| word.eq_ignore_ascii_case(input))
        .find_map(|(_, meant)| candidates.iter().copied().find(|c| c == meant));
    if synonym.is_some() {
        return synonym;
    }
    let limit = (input.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(input, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= limit || candidate.eq_ignore_ascii_case(input))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance, with a transposition of two neighbours counted as one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the classic table suffice for the transposition rule.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn suggestions_catch_typos_only() {
        let types = || ParamType::ALL.iter().map(|t| t.as_str());
        assert_eq!(suggest("intger", types()), Some("integer"));
        assert_eq!(suggest("strnig", types()), Some("string"));
        assert_eq!(suggest("Boolean", types()), Some("boolean"));
        assert_eq!(suggest("float", ["integer", "string"]), None);
        assert_eq!(
            suggest("requred", PARAM_KEYS.iter().copied()),
            Some("required")
        );
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggestions_know_the_words_of_other_schema_languages() {
        let types = || ParamType::ALL.iter().map(|t| t.as_str());
        for (word, meant) in [
            ("object", "dictionary"),
            ("array", "list"),
            ("number", "float"),
            ("bool", "boolean"),
            ("int", "integer"),
            ("str", "string"),
            ("Object", "dictionary"),
            ("i64", "integer"),
        ] {
            assert_eq!(suggest(word, types()), Some(meant), "{word}");
        }
        let tool_keys = || TOOL_KEYS.iter().copied();
        assert_eq!(suggest("parameters", tool_keys()), Some("input"));
        assert_eq!(suggest("desc", tool_keys()), Some("description"));
        assert_eq!(
            suggest("desc", PARAM_KEYS.iter().copied()),
            Some("description")
        );
        let spec_keys = ["name", "description", "input_schema", "output_schema"];
        assert_eq!(suggest("parameters", spec_keys), Some("input_schema"));
        assert_eq!(suggest("input", spec_keys), Some("input_schema"));
        // A synonym is offered only where the word it stands for is allowed.
        assert_eq!(suggest("parameters", PARAM_KEYS.iter().copied()), None);
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
                Literal::from_str("metric"),
                Literal::Integer(3),
                Literal::from_str("metric"),
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

    #[test]
    fn messages_read_well() {
        let p = "intger".parse::<ParamType>().unwrap_err();
        assert_eq!(
            p.to_string(),
            "unknown type 'intger'; did you mean 'integer'?"
        );
        let p = check_param_key("requred").unwrap_err();
        assert_eq!(
            p.to_string(),
            "unknown key 'requred'; did you mean 'required'?"
        );
        assert_eq!(find_duplicates(["a", "b", "a", "a"]), vec!["a"]);
    }
}
