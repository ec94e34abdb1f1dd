//! The rule set for tool declarations, shared by `agentkit-core` (run time) and
//! `agentkit-derive` (compile time).
//!
//! This file is compiled into both crates: `agentkit-derive/src/rules.rs` is a symbolic link to
//! it (serde shares `serde_derive/src/internals` the same way). It therefore depends on `std`
//! only, and every message a user can see about a malformed declaration is worded here, once.
//! A schema loaded from JSON at run time and a `#[tool(...)]` literal checked by the compiler
//! are refused for the same reasons, in the same words.

use std::fmt;

/// The six parameter types of a tool schema.
///
/// These are the seed's types; each maps to one JSON Schema type:
///
/// | `ParamType` | seed name | JSON Schema |
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// Every type, in the seed's order.
    pub const ALL: [ParamType; 6] = [
        ParamType::String,
        ParamType::Integer,
        ParamType::Float,
        ParamType::Boolean,
        ParamType::List,
        ParamType::Dictionary,
    ];

    /// The seed's name of the type, as written in a schema (`"integer"`).
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

    /// Looks a type up by its seed name; `None` if it is not one of the six.
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

/// The kind of a JSON value, named in the seed's vocabulary.
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

/// The keys a parameter declaration may have, as in the seed.
pub const PARAM_KEYS: &[&str] = &[
    "name",
    "type",
    "required",
    "default",
    "description",
    "items",
    "fields",
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
    /// A default whose value is not of the parameter's type.
    DefaultTypeMismatch {
        /// The parameter.
        name: String,
        /// The declared type.
        expected: ParamType,
        /// The kind of the default.
        got: ValueKind,
    },
    /// `items` on a parameter that is not a list.
    ItemsOnNonList {
        /// The parameter.
        name: String,
        /// Its declared type.
        ty: ParamType,
    },
    /// An item of a list default that is not of the declared item type.
    DefaultItemMismatch {
        /// The parameter.
        name: String,
        /// The item's position in the default.
        index: usize,
        /// The declared item type.
        expected: ParamType,
        /// The kind of the item.
        got: ValueKind,
    },
    /// `fields` on a parameter that is neither a dictionary nor a list of dictionaries.
    FieldsOnNonDictionary {
        /// The parameter.
        name: String,
        /// Its declared type.
        ty: ParamType,
    },
    /// A dictionary default without a required field its `fields` declare.
    DefaultMissingField {
        /// The parameter.
        name: String,
        /// The missing field.
        field: String,
    },
    /// A dictionary default with a field its `fields` do not declare.
    DefaultUnknownField {
        /// The parameter.
        name: String,
        /// The undeclared field.
        field: String,
    },
    /// A field of a dictionary default that is not of the field's declared type.
    DefaultFieldMismatch {
        /// The parameter.
        name: String,
        /// The field.
        field: String,
        /// The field's declared type.
        expected: ParamType,
        /// The kind of the value given.
        got: ValueKind,
    },
    /// `required = true` together with a default, which could never apply.
    RequiredWithDefault {
        /// The parameter.
        name: String,
    },
    /// A version that is not `MAJOR.MINOR.PATCH`.
    InvalidVersion {
        /// The version as written.
        found: String,
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
                expected,
                got,
            } => write!(
                f,
                "parameter '{name}': default of type '{got}' does not fit the declared type '{expected}'"
            ),
            Problem::ItemsOnNonList { name, ty } => write!(
                f,
                "parameter '{name}': 'items' declares the type of a list's items, but this parameter is a '{ty}'"
            ),
            Problem::DefaultItemMismatch {
                name,
                index,
                expected,
                got,
            } => write!(
                f,
                "parameter '{name}': default item {index} of type '{got}' does not fit the declared item type '{expected}'"
            ),
            Problem::FieldsOnNonDictionary { name, ty } => write!(
                f,
                "parameter '{name}': 'fields' declares the fields of a dictionary (or of a list's \
                 dictionary items), but this parameter is a '{ty}'"
            ),
            Problem::DefaultMissingField { name, field } => write!(
                f,
                "parameter '{name}': the default has no '{field}', a required field"
            ),
            Problem::DefaultUnknownField { name, field } => write!(
                f,
                "parameter '{name}': the default has a field '{field}' that is not declared"
            ),
            Problem::DefaultFieldMismatch {
                name,
                field,
                expected,
                got,
            } => write!(
                f,
                "parameter '{name}': the default's '{field}' of type '{got}' does not fit the declared type '{expected}'"
            ),
            Problem::RequiredWithDefault { name } => write!(
                f,
                "parameter '{name}' is required and has a default, which would never be used; \
                 set `required = false` or remove the default"
            ),
            Problem::InvalidVersion { found } => write!(
                f,
                "version '{found}' is not MAJOR.MINOR.PATCH (for example '1.0.0')"
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
    let well_formed = parts.len() == 3
        && parts.iter().all(|part| {
            !part.is_empty()
                && part.bytes().all(|b| b.is_ascii_digit())
                && (part.len() == 1 || !part.starts_with('0'))
        });
    if well_formed {
        Ok(())
    } else {
        Err(Problem::InvalidVersion {
            found: version.to_owned(),
        })
    }
}

/// Checks a parameter's default against its declaration: only an optional parameter may have
/// one, and it must be a value of the declared type.
pub fn check_default(
    name: &str,
    ty: ParamType,
    required: bool,
    default: Option<ValueKind>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(got) = default {
        if required {
            problems.push(Problem::RequiredWithDefault {
                name: name.to_owned(),
            });
        }
        if !ty.accepts(got) {
            problems.push(Problem::DefaultTypeMismatch {
                name: name.to_owned(),
                expected: ty,
                got,
            });
        }
    }
    problems
}

/// Checks a parameter's `items` (the type of a list's items) and the items of its default.
///
/// `default_items` are the kinds of the default's items, when the default is a list.
pub fn check_items(
    name: &str,
    ty: ParamType,
    items: Option<ParamType>,
    default_items: &[ValueKind],
) -> Vec<Problem> {
    let Some(items) = items else {
        return Vec::new();
    };
    if ty != ParamType::List {
        return vec![Problem::ItemsOnNonList {
            name: name.to_owned(),
            ty,
        }];
    }
    default_items
        .iter()
        .enumerate()
        .filter(|(_, got)| !items.accepts(**got))
        .map(|(index, got)| Problem::DefaultItemMismatch {
            name: name.to_owned(),
            index,
            expected: items,
            got: *got,
        })
        .collect()
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

/// A declared field, as [`check_default_fields`] needs it.
#[derive(Debug, Clone, Copy)]
pub struct FieldDecl<'a> {
    /// The field's name.
    pub name: &'a str,
    /// Its type.
    pub ty: ParamType,
    /// Whether a value must have it.
    pub required: bool,
}

/// Checks one dictionary of a default (the default itself, or an item of a list default)
/// against the declared `fields`, one level deep: every required field present, no
/// undeclared field, each value of its field's type (`null` stands for an absent optional
/// field).
pub fn check_default_fields(
    name: &str,
    fields: &[FieldDecl<'_>],
    entries: &[(&str, ValueKind)],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for field in fields {
        let given = entries.iter().find(|(key, _)| *key == field.name);
        match given {
            None if field.required => problems.push(Problem::DefaultMissingField {
                name: name.to_owned(),
                field: field.name.to_owned(),
            }),
            Some((_, ValueKind::Null)) if !field.required => {}
            Some((_, got)) if !field.ty.accepts(*got) => {
                problems.push(Problem::DefaultFieldMismatch {
                    name: name.to_owned(),
                    field: field.name.to_owned(),
                    expected: field.ty,
                    got: *got,
                });
            }
            _ => {}
        }
    }
    for (key, _) in entries {
        if !fields.iter().any(|field| field.name == *key) {
            problems.push(Problem::DefaultUnknownField {
                name: name.to_owned(),
                field: (*key).to_owned(),
            });
        }
    }
    problems
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

/// The candidate closest to `input`, if it is close enough to be what was meant.
///
/// Close enough: an edit distance of at most a third of the input's length (at least 1), or
/// the same word in another case.
pub fn suggest<'a, I>(input: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
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
        for bad in ["1.0", "1.0.0.0", "v1.0.0", "1.0.x", "01.0.0", "", "1..0"] {
            assert!(check_version(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn suggestions_catch_typos_only() {
        let types = || ParamType::ALL.iter().map(|t| t.as_str());
        assert_eq!(suggest("intger", types()), Some("integer"));
        assert_eq!(suggest("strnig", types()), Some("string"));
        assert_eq!(suggest("Boolean", types()), Some("boolean"));
        assert_eq!(suggest("int", types()), None);
        assert_eq!(
            suggest("requred", PARAM_KEYS.iter().copied()),
            Some("required")
        );
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn defaults_must_fit_and_be_optional() {
        assert!(check_default("n", ParamType::Float, false, Some(ValueKind::Integer)).is_empty());
        assert_eq!(
            check_default("n", ParamType::Integer, true, Some(ValueKind::String)),
            vec![
                Problem::RequiredWithDefault { name: "n".into() },
                Problem::DefaultTypeMismatch {
                    name: "n".into(),
                    expected: ParamType::Integer,
                    got: ValueKind::String
                }
            ]
        );
        assert!(!ParamType::Integer.accepts(ValueKind::Boolean));
        assert!(!ParamType::String.accepts(ValueKind::Null));
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
