//! JSON Schema written from Rust types: for what the six types cannot say (enums with data,
//! maps, any value, tuples, recursive types, nullable items).
//!
//! Each type writes its own schema ([`ParamSchema::write_json_schema`]); a derived type
//! writes itself through [`SchemaDefs::named`], which turns a type met again while it is
//! being written into a `$ref` (to `#` for the root, else into `$defs`), so that recursion
//! is an edge of the schema rather than an endless expansion. A schema is written once per
//! process, the first time a spec asks for it, then compiled by
//! [`JsonSchema`](crate::JsonSchema) like any other.

use std::any::TypeId;
use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value, json};

use super::{ParamSchema, Shape};
use crate::rules::{Number, ParamType};
use crate::schema::json_schema::{Style, export};
use crate::schema::{JsonObject, Param, ToolSchema};
use crate::typed::{FromParam, ParamTypeError};

/// The `$defs` of a JSON Schema being written from Rust types, and the derived types being
/// written, by [`root_json_schema`]. Not public API.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct SchemaDefs {
    defs: Map<String, Value>,
    /// Types written into `defs`, and their names there.
    done: Vec<(TypeId, String)>,
    /// The types being written, outermost first: their name in `defs`, and whether a `$ref`
    /// to it was written (it then goes into `defs` when done).
    open: Vec<(TypeId, String, bool)>,
    root: Option<TypeId>,
}

impl SchemaDefs {
    /// The schema of the derived type `T`, called `name`, that `write` writes; a `$ref` when
    /// `T` is being written already (to `#` for the root type, else to `#/$defs/{name}`,
    /// where it is put when done) or was put in `$defs` before. A type that does not contain
    /// itself is written in place, wherever it is used.
    pub fn named<T: ?Sized + 'static>(
        &mut self,
        name: &str,
        write: impl FnOnce(&mut Self) -> Value,
    ) -> Value {
        let id = TypeId::of::<T>();
        if let Some((_, name)) = self.done.iter().find(|(done, _)| *done == id) {
            return reference(name);
        }
        if let Some(open) = self.open.iter_mut().find(|(open, _, _)| *open == id) {
            if self.root == Some(id) {
                return json!({"$ref": "#"});
            }
            open.2 = true;
            return reference(&open.1);
        }
        let name = self.unique(name);
        self.open.push((id, name, false));
        let schema = write(self);
        let (_, name, referenced) = self.open.pop().expect("pushed above");
        if !referenced {
            return schema;
        }
        self.defs.insert(name.clone(), schema);
        let schema = reference(&name);
        self.done.push((id, name));
        schema
    }

    /// `name`, or `name2`, `name3`, ... if two types share it.
    fn unique(&self, name: &str) -> String {
        let taken = |candidate: &str| {
            self.defs.contains_key(candidate)
                || self.done.iter().any(|(_, n)| n == candidate)
                || self.open.iter().any(|(_, n, _)| n == candidate)
        };
        if !taken(name) {
            return name.to_owned();
        }
        (2..)
            .map(|n| format!("{name}{n}"))
            .find(|candidate| !taken(candidate))
            .expect("some number is free")
    }
}

fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/$defs/{name}")})
}

/// The JSON Schema of `T` as a whole document: `T`'s schema, with the `$defs` of the types
/// that contain themselves. Not public API: [`ToolParams::json_schema`] is.
#[doc(hidden)]
pub fn root_json_schema<T: ParamSchema + 'static>() -> Value {
    let mut defs = SchemaDefs {
        root: Some(TypeId::of::<T>()),
        ..SchemaDefs::default()
    };
    let mut schema = T::write_json_schema(&mut defs);
    if !defs.defs.is_empty() {
        if let Value::Object(object) = &mut schema {
            object.insert("$defs".into(), Value::Object(defs.defs));
        }
    }
    schema
}

/// The schema of a six-type shape: what [`ToolSchema::to_json_schema`] says of such a
/// parameter, in the form models are sent (no 64-bit bounds; optional means not required).
pub(super) fn shape_schema(shape: &Shape) -> Value {
    if let (Some(fields), ParamType::Dictionary) = (shape.fields, shape.ty) {
        return export(&ToolSchema::from_static(fields), Style::Declaration);
    }
    let mut schema = Map::new();
    schema.insert("type".into(), shape.ty.json_schema_type().into());
    if let Some(items) = shape.items {
        let items = match shape.fields {
            Some(fields) => export(&ToolSchema::from_static(fields), Style::Declaration),
            None => json!({"type": items.json_schema_type()}),
        };
        schema.insert("items".into(), items);
    }
    if let Some(values) = shape.enum_values {
        let values = values.iter().map(|v| v.to_value()).collect();
        schema.insert("enum".into(), Value::Array(values));
    }
    let number = |n: Number| n.to_literal().to_value();
    if let Some(minimum) = shape.minimum {
        schema.insert("minimum".into(), number(minimum));
    }
    if let Some(maximum) = shape.maximum {
        schema.insert("maximum".into(), number(maximum));
    }
    Value::Object(schema)
}

/// The keywords a field's [`Param`] adds to the schema of its type: what the field says
/// itself (its doc comment, `#[param(...)]`), not its type.
const FIELD_KEYWORDS: [&str; 9] = [
    "description",
    "default",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
];

/// A closed object schema written field by field: a struct's, or a variant's of a tagged
/// enum. Not public API.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct ObjectSchema {
    description: Option<&'static str>,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl ObjectSchema {
    /// An object without properties yet.
    pub fn new() -> Self {
        ObjectSchema::default()
    }

    /// The object of a variant of a tagged enum: its tag property, `{"const": value}`,
    /// required, and the variant's doc comment (if not empty).
    pub fn tagged(tag: &'static str, value: &'static str, description: &'static str) -> Self {
        let mut object = ObjectSchema::new();
        object
            .properties
            .insert(tag.into(), json!({"const": value}));
        object.required.push(tag.into());
        object.description = (!description.is_empty()).then_some(description);
        object
    }

    /// A field the six types can say: its parameter as the six-type export writes it.
    pub fn param(&mut self, param: &'static Param) {
        let property = declared(param);
        self.push(param, property);
    }

    /// A field of type `T`, whose name, description, default, constraints and requiredness
    /// `param` says: `T`'s schema with those on top.
    pub fn field<T: ParamSchema>(&mut self, defs: &mut SchemaDefs, param: &'static Param) {
        self.field_of(&T::SHAPE, T::write_field_json_schema, defs, param);
    }

    /// [`field`](Self::field), of a type said by its `shape` and schema writer.
    pub(super) fn field_of(
        &mut self,
        shape: &Shape,
        write: fn(&mut SchemaDefs) -> Value,
        defs: &mut SchemaDefs,
        param: &'static Param,
    ) {
        if !shape.json {
            return self.param(param);
        }
        let declared = declared(param);
        let mut property = match write(defs) {
            Value::Object(object) => object,
            _ => Map::new(),
        };
        for key in FIELD_KEYWORDS {
            if let Some(value) = declared.get(key) {
                property.insert(key.into(), value.clone());
            }
        }
        self.push(param, property);
    }

    fn push(&mut self, param: &Param, property: Map<String, Value>) {
        if param.is_required() {
            self.required.push(param.name().into());
        }
        self.properties
            .insert(param.name().into(), Value::Object(property));
    }

    /// The schema: `{"type": "object", "properties": .., "required": ..,
    /// "additionalProperties": false}`.
    pub fn finish(self) -> Value {
        let mut schema = Map::new();
        schema.insert("type".into(), "object".into());
        if let Some(description) = self.description {
            schema.insert("description".into(), description.into());
        }
        schema.insert("properties".into(), Value::Object(self.properties));
        schema.insert("required".into(), Value::Array(self.required));
        schema.insert("additionalProperties".into(), false.into());
        Value::Object(schema)
    }
}

/// The property the six-type export writes for `param`, in the form models are sent.
fn declared(param: &'static Param) -> Map<String, Value> {
    let schema = export(
        &ToolSchema::from_static(std::slice::from_ref(param)),
        Style::Declaration,
    );
    match schema {
        Value::Object(mut object) => match object.remove("properties") {
            Some(Value::Object(mut properties)) => match properties.remove(param.name()) {
                Some(Value::Object(property)) => property,
                _ => Map::new(),
            },
            _ => Map::new(),
        },
        _ => Map::new(),
    }
}

/// The schema of a tagged enum: one closed object per variant, each naming its tag, which
/// the validator reads to report the problems of the variant the tag chose. Not public API.
#[doc(hidden)]
pub fn one_of(variants: Vec<Value>) -> Value {
    json!({"type": "object", "oneOf": variants})
}

/// The value of a variant of a tagged enum: `fields` (an object, or nothing for a unit
/// variant) with its tag. Not public API.
#[doc(hidden)]
pub fn tagged_value(tag: &str, value: &str, fields: Option<Value>) -> Option<Value> {
    let mut object = match fields {
        Some(Value::Object(object)) => object,
        None => Map::new(),
        Some(_) => return None,
    };
    object.insert(tag.into(), value.into());
    Some(Value::Object(object))
}

/// Reads a value of `T` from the whole argument object (a tagged enum as a tool's input); a
/// value that does not fit is an error naming `name` (the tag). Not public API.
#[doc(hidden)]
pub fn from_object<T: FromParam>(inputs: &JsonObject, name: &str) -> Result<T, ParamTypeError> {
    let value = Value::Object(inputs.clone());
    T::from_owned(Some(value)).ok_or_else(|| ParamTypeError::new(name, T::PARAM_TYPE))
}

/// What a struct deriving `ToolParams` says of its fields, for a newtype variant of a
/// tagged enum: its fields, beside the tag. (A struct that contains the enum is written in
/// place, so the variant stays one closed object.) Not public API.
#[doc(hidden)]
pub fn write_fields<T: ParamSchema>(object: &mut ObjectSchema, defs: &mut SchemaDefs) {
    T::write_fields(object, defs);
}

/// Any JSON value: `{}`. A field of this type is required unless it is an `Option`; a
/// required one may be `null`.
impl ParamSchema for Value {
    const SHAPE: Shape = Shape {
        any: true,
        ..Shape::json(ParamType::Dictionary)
    };

    fn write_json_schema(_: &mut SchemaDefs) -> Value {
        json!({})
    }
}

macro_rules! maps {
    ($($map:ident),*) => {$(
        /// An object whose values are `T`s, under any keys: `{"type": "object",
        /// "additionalProperties": T}`.
        impl<T: ParamSchema> ParamSchema for $map<String, T> {
            const SHAPE: Shape = Shape {
                problem: T::SHAPE.problem,
                ..Shape::json(ParamType::Dictionary)
            };

            fn write_json_schema(defs: &mut SchemaDefs) -> Value {
                json!({"type": "object", "additionalProperties": T::write_json_schema(defs)})
            }
        }
    )*};
}

maps!(HashMap, BTreeMap);

/// `T`'s schema. `Box` is how a Rust type contains itself, so it is always written as JSON
/// Schema, without reading `T`'s `SHAPE` (which may be the one being evaluated).
impl<T: ParamSchema> ParamSchema for Box<T> {
    const SHAPE: Shape = Shape::json(ParamType::Dictionary);

    fn write_json_schema(defs: &mut SchemaDefs) -> Value {
        T::write_json_schema(defs)
    }
}

macro_rules! tuples {
    ($($len:literal => ($($name:ident),+);)*) => {$(
        /// A list of exactly these elements, in order: `{"type": "array", "prefixItems":
        /// [..], "items": false, "minItems": N}`.
        impl<$($name: ParamSchema),+> ParamSchema for ($($name,)+) {
            const SHAPE: Shape = {
                let problems = [$($name::SHAPE.problem),+];
                let mut problem = None;
                let mut i = 0;
                while i < problems.len() {
                    if problems[i].is_some() && problem.is_none() {
                        problem = problems[i];
                    }
                    i += 1;
                }
                Shape {
                    problem,
                    ..Shape::json(ParamType::List)
                }
            };

            fn write_json_schema(defs: &mut SchemaDefs) -> Value {
                let items = vec![$($name::write_json_schema(defs)),+];
                json!({"type": "array", "prefixItems": items, "items": false, "minItems": $len})
            }
        }
    )*};
}

tuples! {
    1 => (A);
    2 => (A, B);
    3 => (A, B, C);
    4 => (A, B, C, D);
    5 => (A, B, C, D, E);
    6 => (A, B, C, D, E, F);
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use serde_json::{Value, json};

    use super::*;
    use crate::typed::IntoParam;

    fn schema_of<T: ParamSchema + 'static>() -> Value {
        root_json_schema::<T>()
    }

    #[test]
    fn std_types_write_their_json_schema() {
        assert_eq!(
            schema_of::<HashMap<String, Option<i64>>>(),
            json!({"type": "object", "additionalProperties":
                {"anyOf": [{"type": "integer"}, {"type": "null"}]}})
        );
        assert_eq!(
            schema_of::<(String, Vec<u8>)>(),
            json!({"type": "array", "prefixItems": [
                {"type": "string"},
                {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}},
            ], "items": false, "minItems": 2})
        );
        assert_eq!(schema_of::<Box<Value>>(), json!({}));
        assert_eq!(schema_of::<Vec<Value>>(), json!({"type": "array"}));
        assert_eq!(
            schema_of::<BTreeMap<String, bool>>(),
            json!({"type": "object", "additionalProperties": {"type": "boolean"}})
        );
    }

    #[test]
    fn shapes_say_which_types_need_json_schema() {
        // Checked when the test compiles: these are `const`s.
        const {
            assert!(!<Vec<String> as ParamSchema>::SHAPE.json);
            assert!(!<Vec<Value> as ParamSchema>::SHAPE.json);
            assert!(!<Option<i64> as ParamSchema>::SHAPE.json);
            assert!(<Vec<Option<String>> as ParamSchema>::SHAPE.json);
            assert!(<Vec<Vec<String>> as ParamSchema>::SHAPE.json);
            assert!(<Vec<u8> as ParamSchema>::SHAPE.json);
            assert!(<Value as ParamSchema>::SHAPE.json);
            assert!(<Option<(i64, i64)> as ParamSchema>::SHAPE.json);
            assert!(<HashMap<String, i64> as ParamSchema>::SHAPE.json);
            assert!(<Box<String> as ParamSchema>::SHAPE.json);
            assert!(
                <Vec<Option<Option<i64>>> as ParamSchema>::SHAPE
                    .problem
                    .is_some()
            );
        }
    }

    #[test]
    fn std_types_convert_both_ways() {
        let value = json!({"a": [1, null], "b": [2, 3]});
        let map = BTreeMap::<String, (i64, Option<i64>)>::from_value(Some(&value)).unwrap();
        assert_eq!(map["a"], (1, None));
        assert_eq!(map.clone().into_value(), Some(value.clone()));
        let owned = HashMap::<String, (i64, Option<i64>)>::from_owned(Some(value)).unwrap();
        assert_eq!(owned["b"], (2, Some(3)));
        // Wrong length, wrong element, wrong container: no value, never a panic.
        assert_eq!(<(i64, i64)>::from_value(Some(&json!([1]))), None);
        assert_eq!(<(i64, i64)>::from_owned(Some(json!([1, 2, 3]))), None);
        assert_eq!(<(i64, String)>::from_value(Some(&json!([1, 2]))), None);
        assert_eq!(HashMap::<String, i64>::from_value(Some(&json!([1]))), None);
        assert_eq!(Box::<i64>::from_value(Some(&json!(4))), Some(Box::new(4)));
        assert_eq!(Value::from_value(None), None);
        assert_eq!(Value::from_value(Some(&Value::Null)), Some(Value::Null));
        assert_eq!(
            Vec::<Option<String>>::from_value(Some(&json!(["a", null]))),
            Some(vec![Some("a".to_owned()), None])
        );
    }

    #[test]
    fn a_type_met_while_it_is_written_is_a_reference() {
        struct Root;
        struct Inner;
        let mut defs = SchemaDefs {
            root: Some(TypeId::of::<Root>()),
            ..SchemaDefs::default()
        };
        let schema = defs.named::<Root>("Root", |defs| {
            let inner = defs.named::<Inner>("Inner", |defs| {
                let again = defs.named::<Inner>("Inner", |_| unreachable!());
                let root = defs.named::<Root>("Root", |_| unreachable!());
                json!({"inner": again, "root": root})
            });
            let inner_again = defs.named::<Inner>("Inner", |_| unreachable!());
            json!({"a": inner, "b": inner_again})
        });
        assert_eq!(
            schema,
            json!({"a": {"$ref": "#/$defs/Inner"}, "b": {"$ref": "#/$defs/Inner"}})
        );
        assert_eq!(
            Value::Object(defs.defs),
            json!({"Inner": {"inner": {"$ref": "#/$defs/Inner"}, "root": {"$ref": "#"}}})
        );
        // A type written whole is written in place again where it is used again.
        let mut defs = SchemaDefs::default();
        for _ in 0..2 {
            assert_eq!(
                defs.named::<Inner>("Inner", |_| json!({"x": 1})),
                json!({"x": 1})
            );
        }
        assert_eq!(defs.unique("Inner"), "Inner");
    }

    #[test]
    fn a_tagged_value_keeps_its_fields() {
        assert_eq!(
            tagged_value("type", "click", Some(json!({"x": 1}))),
            Some(json!({"type": "click", "x": 1}))
        );
        assert_eq!(
            tagged_value("type", "stop", None),
            Some(json!({"type": "stop"}))
        );
        assert_eq!(tagged_value("type", "x", Some(json!(1))), None);
    }
}
