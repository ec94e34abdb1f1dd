//! The vocabulary of declarations: the six parameter types, the kinds of JSON values, the
//! kinds of names, and the values a declaration holds (`Literal` defaults, `Number` bounds).
//!
//! A leaf of the rules: it knows no problem and no wording; what is wrong with a declaration is
//! said in [`problem`](super::problem).

use std::borrow::Cow;
use std::fmt;

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

/// The longest tool or parameter name every major provider accepts.
pub const MAX_NAME_LEN: usize = 64;

/// The most input examples a tool may have.
///
/// Every example is sent with every request that declares the tool, so each costs tokens on
/// every turn; Anthropic advises one to five. Ten leaves room for a tool whose cases differ
/// and still keeps a slip (a list generated by mistake) from reaching the model.
pub const MAX_EXAMPLES: usize = 10;

/// The longest an input example may be, as compact JSON text: 4 KiB, about a thousand tokens
/// sent with every request. An example shows the shape of a good call; a long document in
/// one belongs in the tool's description, or nowhere.
pub const MAX_EXAMPLE_BYTES: usize = 4096;

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
