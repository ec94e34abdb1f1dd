//! Type-first schemas: a Rust struct as a tool's parameters.
//!
//! `#[derive(ToolParams)]` (with the `derive` feature) turns a struct with named fields into
//! a parameter list, and a fieldless enum into the allowed values of a string; `#[tool(input
//! = SearchArgs, output = SearchResults)]` then takes such a struct in place of the list
//! literal. The spec is the same `static` data the literal form gives, so validation, the
//! JSON Schema and every provider declaration are the same too.
//!
//! Each field's Rust type says what its parameter is, through [`ParamSchema`].

use serde_json::{Map, Value};

use crate::rules::{Literal, Number, ParamType};
use crate::schema::{Param, ToolSchema};
use crate::typed::{FromInputs, FromParam, IntoOutput, IntoParam, ParamTypeError};

/// A struct whose fields are a tool's parameters: implemented by `#[derive(ToolParams)]`.
///
/// ```
/// # #[cfg(feature = "derive")] {
/// use agentkit_core::{ParamType, ToolParams};
///
/// /// Arguments of a product search.
/// #[derive(ToolParams)]
/// pub struct SearchArgs {
///     /// What to look for.
///     #[param(min_length = 1)]
///     pub query: String,
///     /// How many results to return.
///     #[param(default = 10, minimum = 1, maximum = 50)]
///     pub limit: i64,
///     /// Only products in stock.
///     pub in_stock: Option<bool>,
/// }
///
/// let schema = SearchArgs::schema();
/// let limit = &schema.parameters()[1];
/// assert_eq!((limit.name(), limit.param_type(), limit.is_required()), ("limit", ParamType::Integer, false));
/// assert_eq!(limit.description(), "How many results to return.");
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a parameter list: it does not implement `ToolParams`",
    label = "`#[tool(input = ..)]` and `#[tool(output = ..)]` take a struct deriving `ToolParams`",
    note = "add `#[derive(ToolParams)]` to the struct, or declare the parameters as a list: `input = [{{ name = \"city\", type = string }}]`"
)]
pub trait ToolParams: ParamSchema + FromInputs + IntoOutput {
    /// The parameters, one per field, in declaration order.
    const PARAMS: &'static [Param];

    /// The parameters as a schema (no allocation: the schema borrows [`Self::PARAMS`]).
    fn schema() -> ToolSchema {
        ToolSchema::from_static(Self::PARAMS)
    }
}

/// A Rust type that stands for a parameter: the type of a field of a `#[derive(ToolParams)]`
/// struct.
///
/// Each field's Rust type says what its parameter is:
///
/// | Rust type | parameter |
/// |---|---|
/// | `String` | `string` |
/// | `i64`, `u64`, `i32`, `u32`, `i16`, `u16`, `i8`, `u8`, `usize`, `isize` | `integer`, bounded to what the type holds (`u8`: 0 to 255) |
/// | `f64` | `float` |
/// | `bool` | `boolean` |
/// | `Vec<T>` | `list` with `items` of `T`'s type (and `T`'s fields, for a struct) |
/// | `Vec<Value>` | `list`, items unchecked |
/// | `Map<String, Value>` (`JsonObject`) | `dictionary`, entries unchecked |
/// | a struct deriving `ToolParams` | `dictionary` with its fields |
/// | a fieldless enum deriving `ToolParams` | `string` with an `enum` of its values |
/// | `Option<T>` | `T`'s parameter, not required |
///
/// What it says is hidden: implement it with `#[derive(ToolParams)]` on your own struct or
/// fieldless enum.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the type of a parameter",
    label = "a field of a `ToolParams` struct needs a parameter type",
    note = "use `String`, an integer type, `f64`, `bool`, `Vec<T>`, `Option<T>`, `Map<String, Value>`, or a struct or fieldless enum with `#[derive(ToolParams)]`"
)]
pub trait ParamSchema: FromParam + IntoParam {
    /// What the parameter is; read by the generated `const` data.
    #[doc(hidden)]
    const SHAPE: Shape;
}

/// What a Rust type says about its parameter, as `const` data. Not public API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub ty: ParamType,
    pub items: Option<ParamType>,
    pub fields: Option<&'static [Param]>,
    pub enum_values: Option<&'static [Literal]>,
    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    /// `Option<T>`: the parameter is not required.
    pub optional: bool,
    /// Why the type cannot be a parameter, if it cannot: a `const` of the generated code
    /// refuses it, on the field.
    pub problem: Option<&'static str>,
}

impl Shape {
    /// A plain value of `ty`.
    pub const fn of(ty: ParamType) -> Self {
        Shape {
            ty,
            items: None,
            fields: None,
            enum_values: None,
            minimum: None,
            maximum: None,
            optional: false,
            problem: None,
        }
    }

    /// A string with these allowed values: a fieldless enum.
    pub const fn string_enum(values: &'static [Literal]) -> Self {
        Shape {
            enum_values: Some(values),
            ..Shape::of(ParamType::String)
        }
    }

    /// A dictionary with these fields: a struct.
    pub const fn dictionary(fields: &'static [Param]) -> Self {
        Shape {
            fields: Some(fields),
            ..Shape::of(ParamType::Dictionary)
        }
    }

    const fn integer(minimum: Option<i64>, maximum: Option<i64>) -> Self {
        Shape {
            minimum: match minimum {
                Some(m) => Some(Number::Integer(m)),
                None => None,
            },
            maximum: match maximum {
                Some(m) => Some(Number::Integer(m)),
                None => None,
            },
            ..Shape::of(ParamType::Integer)
        }
    }
}

impl Param {
    /// The parameter of a field of type `T`, for `#[derive(ToolParams)]`: its type, items,
    /// fields, `enum` and bounds from `T`, required unless `T` is an `Option` or a default
    /// is given. Constraints the field declares are set after, with
    /// `with_static_constraints`.
    #[doc(hidden)]
    pub const fn from_shape(
        name: &'static str,
        shape: Shape,
        default: Option<Literal>,
        description: &'static str,
    ) -> Self {
        let required = !shape.optional && default.is_none();
        let param = match shape.fields {
            Some(fields) => Param::from_static_with_fields(
                name,
                shape.ty,
                required,
                default,
                description,
                fields,
            ),
            None => Param::from_static(name, shape.ty, required, default, description),
        };
        let param = match shape.items {
            Some(items) => param.with_items(items),
            None => param,
        };
        if shape.enum_values.is_none() && shape.minimum.is_none() && shape.maximum.is_none() {
            return param;
        }
        param.with_static_constraints(
            shape.enum_values,
            shape.minimum,
            shape.maximum,
            None,
            None,
            None,
            None,
        )
    }
}

macro_rules! shapes {
    ($($ty:ty => $shape:expr;)*) => {$(
        impl ParamSchema for $ty {
            const SHAPE: Shape = $shape;
        }
    )*};
}

shapes! {
    String => Shape::of(ParamType::String);
    i64 => Shape::of(ParamType::Integer);
    // Beyond `i64::MAX` a JSON integer is refused by validation, so only the lower bound of
    // `u64` and `usize` needs saying.
    u64 => Shape::integer(Some(0), None);
    usize => Shape::integer(Some(0), None);
    isize => Shape::integer(Some(isize::MIN as i64), Some(isize::MAX as i64));
    i32 => Shape::integer(Some(i32::MIN as i64), Some(i32::MAX as i64));
    u32 => Shape::integer(Some(0), Some(u32::MAX as i64));
    i16 => Shape::integer(Some(i16::MIN as i64), Some(i16::MAX as i64));
    u16 => Shape::integer(Some(0), Some(u16::MAX as i64));
    i8 => Shape::integer(Some(i8::MIN as i64), Some(i8::MAX as i64));
    u8 => Shape::integer(Some(0), Some(u8::MAX as i64));
    f64 => Shape::of(ParamType::Float);
    bool => Shape::of(ParamType::Boolean);
    Vec<Value> => Shape::of(ParamType::List);
    Map<String, Value> => Shape::of(ParamType::Dictionary);
}

/// A list of `T`: its items have `T`'s type, and `T`'s fields for a struct.
///
/// What a list's items cannot say (an `enum`, bounds, their own items, being optional) would
/// be lost, so that the executor would accept an argument the conversion then refuses: such
/// item types are refused when the schema is built, at compile time.
impl<T: ParamSchema> ParamSchema for Vec<T> {
    const SHAPE: Shape = {
        let item = T::SHAPE;
        let problem = if item.problem.is_some() {
            item.problem
        } else if item.optional {
            Some(
                "a list's items cannot be optional (`Vec<Option<T>>`): use `Vec<T>`, or `Vec<Value>` for items that may be null",
            )
        } else if item.items.is_some() {
            Some("a list's items cannot be typed lists (`Vec<Vec<T>>`): use `Vec<Vec<Value>>`")
        } else if item.enum_values.is_some() {
            Some(
                "a list's items cannot have allowed values (a `Vec` of a `ToolParams` enum): use `Vec<String>` and check the values in the tool",
            )
        } else if item.minimum.is_some() || item.maximum.is_some() {
            Some("a list's items cannot be bounded (`Vec<u8>`, `Vec<u32>`): use `Vec<i64>`")
        } else {
            None
        };
        Shape {
            items: Some(item.ty),
            fields: item.fields,
            problem,
            ..Shape::of(ParamType::List)
        }
    };
}

/// `T`'s parameter, not required: absent (or `null`) is `None`.
impl<T: ParamSchema> ParamSchema for Option<T> {
    const SHAPE: Shape = {
        let problem = if T::SHAPE.optional {
            Some("`Option<Option<T>>` says nothing `Option<T>` does not: use `Option<T>`")
        } else {
            T::SHAPE.problem
        };
        Shape {
            optional: true,
            problem,
            ..T::SHAPE
        }
    };
}

/// What the code `#[derive(ToolParams)]` generates needs of a field's type `T`, through one
/// bound: a type that is no parameter type is then one error, however often it is used.
/// Not public API.
#[doc(hidden)]
pub struct Field<T> {
    /// What the parameter is.
    pub shape: Shape,
    read: fn(Option<&Value>) -> Option<T>,
    take: fn(Option<Value>) -> Option<T>,
    write: fn(T) -> Option<Value>,
}

impl<T> Field<T> {
    /// Reads the parameter `name` from an object of validated values.
    pub fn read(&self, object: &Map<String, Value>, name: &str) -> Result<T, ParamTypeError> {
        (self.read)(object.get(name)).ok_or_else(|| ParamTypeError::new(name, self.shape.ty))
    }

    /// Reads the value of a dictionary's field; `None` if it does not fit.
    pub fn read_value(&self, object: &Map<String, Value>, name: &str) -> Option<T> {
        (self.read)(object.get(name))
    }

    /// Takes the value of a dictionary's field out of it; `None` if it does not fit.
    pub fn take_value(&self, object: &mut Map<String, Value>, name: &str) -> Option<T> {
        (self.take)(object.remove(name))
    }

    /// Takes the argument in slot `index`, for the typed fast path.
    pub fn take_slot(&self, slots: &mut [Option<Value>], index: usize) -> Option<T> {
        (self.take)(slots.get_mut(index)?.take())
    }

    /// Writes `value` under `name`, unless it converts to nothing (`None`).
    pub fn write(&self, object: &mut Map<String, Value>, name: &'static str, value: T) {
        if let Some(value) = (self.write)(value) {
            object.insert(name.into(), value);
        }
    }
}

/// The [`Field`] of type `T`. Not public API.
#[doc(hidden)]
pub const fn field<T: ParamSchema>() -> Field<T> {
    Field {
        shape: T::SHAPE,
        read: T::from_value,
        take: T::from_owned,
        write: T::into_value,
    }
}

/// Whether `value` is one of the allowed values of `T` (a fieldless enum deriving
/// `ToolParams`), for the compile-time check of a default. Not public API.
#[doc(hidden)]
pub const fn has_enum_value<T: ParamSchema>(value: &str) -> bool {
    let Some(values) = T::SHAPE.enum_values else {
        return false;
    };
    let mut i = 0;
    while i < values.len() {
        if let Literal::String(std::borrow::Cow::Borrowed(allowed)) = &values[i]
            && str_eq(allowed, value)
        {
            return true;
        }
        i += 1;
    }
    false
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
