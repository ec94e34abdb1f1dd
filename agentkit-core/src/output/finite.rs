//! Whether a typed output holds a float that is not finite (NaN, an infinity), which JSON has
//! no number for: serialized, it would be `null`, which its schema refuses.

use std::fmt;

use serde::Serialize;
use serde::ser;

/// Whether every float in `value`, at any depth, is finite: a typed output with one that is
/// not would become `null` in JSON, which its schema refuses.
pub(crate) fn floats_are_finite<T: Serialize + ?Sized>(value: &T) -> bool {
    value.serialize(FiniteFloats).is_ok()
}

/// A serializer that only looks for a float that is not finite, allocating nothing.
struct FiniteFloats;

/// A float in the output is NaN or infinite.
#[derive(Debug)]
struct NotFinite;

impl fmt::Display for NotFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a float that is not finite")
    }
}

impl std::error::Error for NotFinite {}

impl ser::Error for NotFinite {
    // Any other error a `Serialize` impl raises cannot happen in the generated ones; were it
    // to, the output goes to the validator as JSON, which is always safe.
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotFinite
    }
}

type Done = Result<(), NotFinite>;

fn finite(value: f64) -> Done {
    if value.is_finite() {
        Ok(())
    } else {
        Err(NotFinite)
    }
}

// Every scalar but a float is fine; every compound is looked into.
macro_rules! fine {
    ($($method:ident($($arg:ty),*);)*) => {$(
        fn $method(self, $(_: $arg),*) -> Done {
            Ok(())
        }
    )*};
}

macro_rules! look_into {
    ($($method:ident($($arg:ty),*);)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<Self, NotFinite> {
            Ok(self)
        }
    )*};
}

impl ser::Serializer for FiniteFloats {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fine! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    look_into! {
        serialize_seq(Option<usize>);
        serialize_tuple(usize);
        serialize_tuple_struct(&'static str, usize);
        serialize_tuple_variant(&'static str, u32, &'static str, usize);
        serialize_map(Option<usize>);
        serialize_struct(&'static str, usize);
        serialize_struct_variant(&'static str, u32, &'static str, usize);
    }

    fn serialize_f32(self, value: f32) -> Done {
        finite(f64::from(value))
    }
    fn serialize_f64(self, value: f64) -> Done {
        finite(value)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Done {
        value.serialize(self)
    }
}

// The compound serializers: each element, field or entry is looked at in turn.
macro_rules! compound {
    ($($trait:ident :: $method:ident($($name:ty)?);)*) => {$(
        impl ser::$trait for FiniteFloats {
            type Ok = ();
            type Error = NotFinite;
            fn $method<T: Serialize + ?Sized>(&mut self, $(_: $name,)? value: &T) -> Done {
                value.serialize(FiniteFloats)
            }
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

compound! {
    SerializeSeq::serialize_element();
    SerializeTuple::serialize_element();
    SerializeTupleStruct::serialize_field();
    SerializeTupleVariant::serialize_field();
    SerializeStruct::serialize_field(&'static str);
    SerializeStructVariant::serialize_field(&'static str);
}

impl ser::SerializeMap for FiniteFloats {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Done {
        key.serialize(FiniteFloats)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(FiniteFloats)
    }
    fn end(self) -> Done {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[derive(Serialize)]
    struct Point {
        x: f64,
        label: String,
    }

    #[derive(Serialize)]
    struct Out {
        points: Vec<Point>,
        scale: Option<f64>,
        values: Vec<f64>,
        extra: Value,
    }

    fn out(x: f64, scale: Option<f64>, value: f64) -> Out {
        Out {
            points: vec![Point {
                x,
                label: "a".into(),
            }],
            scale,
            values: vec![1.0, value],
            extra: json!({"n": 1.5, "list": [null, "s"]}),
        }
    }

    #[test]
    fn finds_a_float_that_is_not_finite_at_any_depth() {
        assert!(out(1.0, Some(2.0), 3.0).serialize(FiniteFloats).is_ok());
        assert!(out(1.0, None, 3.0).serialize(FiniteFloats).is_ok());
        assert!(out(f64::NAN, None, 3.0).serialize(FiniteFloats).is_err());
        assert!(
            out(1.0, Some(f64::INFINITY), 3.0)
                .serialize(FiniteFloats)
                .is_err()
        );
        assert!(
            out(1.0, None, f64::NEG_INFINITY)
                .serialize(FiniteFloats)
                .is_err()
        );
    }
}
