//! [`FromParam`] and [`IntoParam`]: a parameter's JSON value to and from the Rust type of its
//! field, for the six types and the std types JSON Schema adds (maps, `Value`, `Box`, tuples),
//! and [`ParamTypeError`] when the value does not fit.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use crate::rules::ParamType;
use crate::schema::JsonObject;

/// A parameter's value that is not of the type its Rust field expects.
///
/// The executor validates inputs before conversion, so this only happens when a typed tool
/// is called around the executor, its schema and struct disagree, or a generated type is
/// deserialized from JSON that does not fit it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parameter '{param}' is not a valid {expected}")]
pub struct ParamTypeError {
    param: String,
    expected: ParamType,
}

impl ParamTypeError {
    pub(crate) fn new(param: &str, expected: ParamType) -> Self {
        ParamTypeError {
            param: param.to_owned(),
            expected,
        }
    }

    /// The parameter.
    pub fn param(&self) -> &str {
        &self.param
    }

    /// The type its field expects.
    pub fn expected(&self) -> ParamType {
        self.expected
    }
}

/// A Rust type a parameter value converts to.
///
/// ```
/// use agentkit_core::FromParam;
/// use serde_json::json;
///
/// let inputs = json!({"city": "Paris", "days": 3}).as_object().cloned().unwrap();
/// let city = String::from_param(&inputs, "city")?;
/// let days = i64::from_param(&inputs, "days")?;
/// let units = Option::<String>::from_param(&inputs, "units")?;
/// assert_eq!((city.as_str(), days, units), ("Paris", 3, None));
/// # Ok::<(), agentkit_core::ParamTypeError>(())
/// ```
pub trait FromParam: Sized {
    /// Reads parameter `name` from `inputs`.
    fn from_param(inputs: &JsonObject, name: &str) -> Result<Self, ParamTypeError> {
        // A `match`, not `ok_or_else` and a closure: for each generated type this is compiled
        // in the user's crate, and a closure is one more function there.
        match Self::from_value(inputs.get(name)) {
            Some(value) => Ok(value),
            None => Err(ParamTypeError::new(name, Self::PARAM_TYPE)),
        }
    }

    /// The schema type this Rust type stands for.
    const PARAM_TYPE: ParamType;

    /// Converts a value (`None`: the parameter is absent); `None` if it does not fit.
    fn from_value(value: Option<&Value>) -> Option<Self>;

    /// Like [`from_value`](Self::from_value), taking the value: a string or a list moves
    /// into the Rust value rather than being copied.
    fn from_owned(value: Option<Value>) -> Option<Self> {
        Self::from_value(value.as_ref())
    }
}

/// A Rust type an output value converts from.
pub trait IntoParam {
    /// Converts to a value; `None` leaves the parameter out of the output.
    fn into_value(self) -> Option<Value>;
}

macro_rules! param_impls {
    ($($ty:ty => $param:ident, |$v:ident| $from:expr $(, owned |$o:ident| $owned:expr)?;)*) => {$(
        impl FromParam for $ty {
            const PARAM_TYPE: ParamType = ParamType::$param;

            fn from_value(value: Option<&Value>) -> Option<Self> {
                let $v = value?;
                $from
            }

            $(
                fn from_owned(value: Option<Value>) -> Option<Self> {
                    let $o = value?;
                    $owned
                }
            )?
        }

        impl IntoParam for $ty {
            fn into_value(self) -> Option<Value> {
                Some(Value::from(self))
            }
        }
    )*};
}

param_impls! {
    String => String, |v| v.as_str().map(str::to_owned),
        owned |v| match v { Value::String(s) => Some(s), _ => None };
    i64 => Integer, |v| v.as_i64();
    f64 => Float, |v| v.as_f64();
    bool => Boolean, |v| v.as_bool();
    Map<String, Value> => Dictionary, |v| v.as_object().cloned(),
        owned |v| match v { Value::Object(object) => Some(object), _ => None };
    u64 => Integer, |v| v.as_u64();
    usize => Integer, |v| v.as_u64().and_then(|n| n.try_into().ok());
    isize => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    i32 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    u32 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    i16 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    u16 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    i8 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
    u8 => Integer, |v| v.as_i64().and_then(|n| n.try_into().ok());
}

/// Lists whose items have a declared type (`items = string`, ...), including the generated
/// structs of dictionaries with declared `fields`.
impl<T: FromParam> FromParam for Vec<T> {
    const PARAM_TYPE: ParamType = ParamType::List;

    fn from_value(value: Option<&Value>) -> Option<Self> {
        value?
            .as_array()?
            .iter()
            .map(|item| T::from_value(Some(item)))
            .collect()
    }

    fn from_owned(value: Option<Value>) -> Option<Self> {
        match value? {
            Value::Array(items) => items
                .into_iter()
                .map(|item| T::from_owned(Some(item)))
                .collect(),
            _ => None,
        }
    }
}

impl<T: IntoParam> IntoParam for Vec<T> {
    fn into_value(self) -> Option<Value> {
        // An item that converts to nothing (`None` in a `Vec<Option<_>>`) is a JSON `null`,
        // so the other items keep their positions.
        Some(Value::Array(
            self.into_iter()
                .map(|item| item.into_value().unwrap_or(Value::Null))
                .collect(),
        ))
    }
}

impl<T: FromParam> FromParam for Option<T> {
    const PARAM_TYPE: ParamType = T::PARAM_TYPE;

    fn from_value(value: Option<&Value>) -> Option<Self> {
        match value {
            None | Some(Value::Null) => Some(None),
            Some(value) => T::from_value(Some(value)).map(Some),
        }
    }

    fn from_owned(value: Option<Value>) -> Option<Self> {
        match value {
            None | Some(Value::Null) => Some(None),
            value => T::from_owned(value).map(Some),
        }
    }
}

impl<T: IntoParam> IntoParam for Option<T> {
    fn into_value(self) -> Option<Value> {
        self.and_then(IntoParam::into_value)
    }
}

/// Any JSON value, as it is (`Vec<Value>` is a list of them). Absent is no value: make the
/// field an `Option<Value>` to allow it.
impl FromParam for Value {
    // A value of any type; only an absent one fails, and validation reports that first.
    const PARAM_TYPE: ParamType = ParamType::Dictionary;

    fn from_value(value: Option<&Value>) -> Option<Self> {
        value.cloned()
    }

    fn from_owned(value: Option<Value>) -> Option<Self> {
        value
    }
}

impl IntoParam for Value {
    fn into_value(self) -> Option<Value> {
        Some(self)
    }
}

macro_rules! map_impls {
    ($($map:ident),*) => {$(
        /// An object of `T`s under any keys (`Option<T>`: a `null` value is `None`).
        impl<T: FromParam> FromParam for $map<String, T> {
            const PARAM_TYPE: ParamType = ParamType::Dictionary;

            fn from_value(value: Option<&Value>) -> Option<Self> {
                value?
                    .as_object()?
                    .iter()
                    .map(|(key, value)| Some((key.clone(), T::from_value(Some(value))?)))
                    .collect()
            }

            fn from_owned(value: Option<Value>) -> Option<Self> {
                match value? {
                    Value::Object(object) => object
                        .into_iter()
                        .map(|(key, value)| Some((key, T::from_owned(Some(value))?)))
                        .collect(),
                    _ => None,
                }
            }
        }

        impl<T: IntoParam> IntoParam for $map<String, T> {
            fn into_value(self) -> Option<Value> {
                // A value that converts to nothing (`None`) is a `null`: the key stays.
                Some(Value::Object(
                    self.into_iter()
                        .map(|(key, value)| (key, value.into_value().unwrap_or(Value::Null)))
                        .collect(),
                ))
            }
        }
    )*};
}

map_impls!(HashMap, BTreeMap);

/// `T`, boxed: how a Rust type contains itself.
impl<T: FromParam> FromParam for Box<T> {
    const PARAM_TYPE: ParamType = T::PARAM_TYPE;

    fn from_value(value: Option<&Value>) -> Option<Self> {
        T::from_value(value).map(Box::new)
    }

    fn from_owned(value: Option<Value>) -> Option<Self> {
        T::from_owned(value).map(Box::new)
    }
}

impl<T: IntoParam> IntoParam for Box<T> {
    fn into_value(self) -> Option<Value> {
        (*self).into_value()
    }
}

macro_rules! tuple_impls {
    ($($len:literal => ($($name:ident $index:tt),+);)*) => {$(
        /// A list of exactly these elements, in order (`Option<T>`: a `null` element is
        /// `None`).
        impl<$($name: FromParam),+> FromParam for ($($name,)+) {
            const PARAM_TYPE: ParamType = ParamType::List;

            fn from_value(value: Option<&Value>) -> Option<Self> {
                let items = value?.as_array()?;
                if items.len() != $len {
                    return None;
                }
                Some(($(<$name as FromParam>::from_value(Some(&items[$index]))?,)+))
            }

            fn from_owned(value: Option<Value>) -> Option<Self> {
                let Value::Array(items) = value? else {
                    return None;
                };
                if items.len() != $len {
                    return None;
                }
                let mut items = items.into_iter();
                Some(($(<$name as FromParam>::from_owned(items.next())?,)+))
            }
        }

        impl<$($name: IntoParam),+> IntoParam for ($($name,)+) {
            fn into_value(self) -> Option<Value> {
                Some(Value::Array(vec![
                    $(self.$index.into_value().unwrap_or(Value::Null)),+
                ]))
            }
        }
    )*};
}

tuple_impls! {
    1 => (A 0);
    2 => (A 0, B 1);
    3 => (A 0, B 1, C 2);
    4 => (A 0, B 1, C 2, D 3);
    5 => (A 0, B 1, C 2, D 3, E 4);
    6 => (A 0, B 1, C 2, D 3, E 4, F 5);
}
