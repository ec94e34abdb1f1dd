//! What a Rust type says about its parameter as `const` data ([`Shape`]), and the generic
//! reads and writes of a derived type's fields ([`Field`]).

use serde_json::{Map, Value};

use super::{ObjectSchema, ParamSchema, SchemaDefs};
use crate::rules::{Literal, Number, ParamType};
use crate::schema::Param;
use crate::typed::ParamTypeError;

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
    /// The type has a form only JSON Schema can say (an enum with data, a map, a tuple, a
    /// recursive type, ...): a struct with such a field declares its input as a JSON
    /// Schema, written by [`ParamSchema::write_json_schema`]. The other fields are then
    /// what the six-type parameter can say of it (its name, description, default,
    /// constraints, whether it is required).
    pub json: bool,
    /// The type takes any value (`Value`): a `Vec` of it is a six-type list without items.
    pub any: bool,
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
            json: false,
            any: false,
        }
    }

    /// A value of type `ty` only JSON Schema can say.
    pub const fn json(ty: ParamType) -> Self {
        Shape {
            json: true,
            ..Shape::of(ty)
        }
    }

    /// The shape of a field whose type contains the type being derived (`children:
    /// Vec<Node>` in `Node`): written as JSON Schema, without reading the type's own `SHAPE`,
    /// which is being evaluated. `optional` says whether the field is an `Option`.
    pub const fn recursive(ty: ParamType, optional: bool) -> Self {
        Shape {
            optional,
            ..Shape::json(ty)
        }
    }

    /// This shape, written as JSON Schema if `json` (a derived type with such a field).
    pub const fn with_json(self, json: bool) -> Self {
        Shape {
            json: self.json || json,
            ..self
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
    Map<String, Value> => Shape::of(ParamType::Dictionary);
}

/// A list of `T`: its items have `T`'s type, and `T`'s fields for a struct.
///
/// What a six-type list's items cannot say (an `enum`, bounds, their own items, being
/// nullable, a form beyond the six types) makes the list JSON Schema (`{"type": "array",
/// "items": T}`), so that nothing `T` says is lost.
impl<T: ParamSchema> ParamSchema for Vec<T> {
    const SHAPE: Shape = {
        let item = T::SHAPE;
        if item.problem.is_some() {
            Shape {
                problem: item.problem,
                ..Shape::of(ParamType::List)
            }
        } else if item.any {
            // `Vec<Value>`: a list, its items unchecked, as it always was.
            Shape::of(ParamType::List)
        } else if item.json
            || item.optional
            || item.items.is_some()
            || item.enum_values.is_some()
            || item.minimum.is_some()
            || item.maximum.is_some()
        {
            Shape::json(ParamType::List)
        } else {
            Shape {
                items: Some(item.ty),
                fields: item.fields,
                ..Shape::of(ParamType::List)
            }
        }
    };

    fn write_json_schema(defs: &mut super::SchemaDefs) -> Value {
        if T::SHAPE.any {
            return serde_json::json!({"type": "array"});
        }
        serde_json::json!({"type": "array", "items": T::write_json_schema(defs)})
    }
}

/// `T`'s parameter, not required: absent (or `null`) is `None`. Where absence is impossible
/// (a list item, a map value, a tuple element), `null` is: `{"anyOf": [T, {"type": "null"}]}`.
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

    fn write_json_schema(defs: &mut super::SchemaDefs) -> Value {
        serde_json::json!({"anyOf": [T::write_json_schema(defs), {"type": "null"}]})
    }

    fn write_field_json_schema(defs: &mut super::SchemaDefs) -> Value {
        T::write_json_schema(defs)
    }
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
    schema: fn(&mut SchemaDefs) -> Value,
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

    /// Writes the field's schema into `object`, its name, description, default, constraints
    /// and requiredness those of `param` (see [`ObjectSchema::field`]).
    pub fn write_schema(
        &self,
        object: &mut ObjectSchema,
        defs: &mut SchemaDefs,
        param: &'static Param,
    ) {
        object.field_of(&self.shape, self.schema, defs, param);
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
        schema: T::write_field_json_schema,
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
        if let Literal::String(std::borrow::Cow::Borrowed(allowed)) = &values[i] {
            if str_eq(allowed, value) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Whether `T`, a struct deriving `ToolParams`, has a parameter called `name`: the
/// compile-time check that a newtype variant's fields leave its enum's tag free. Not public
/// API.
#[doc(hidden)]
pub const fn has_param<T: ParamSchema>(name: &str) -> bool {
    let params = match T::SHAPE.fields {
        Some(params) => params,
        None => return false,
    };
    let mut i = 0;
    while i < params.len() {
        if str_eq(params[i].static_name(), name) {
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
