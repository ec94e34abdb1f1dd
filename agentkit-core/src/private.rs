//! What the code `#[tool(...)]` and `#[derive(ToolParams)]` generate names, through absolute
//! paths (`::agentkit_core::__private::...`), and the generic functions it calls, compiled
//! once here rather than once per tool in the user's crate. Not public API: it changes with
//! the macro, which is always the same version as this crate.
//!
//! Generated code never names a path a user's crate could shadow: every trait, type and macro
//! of `std` it uses comes through here too.

use crate::inputs::parse_into;

/// The declaration rules `#[tool(...)]` shares with the run time (the macro compiles the
/// same file); here for the tests that hold both to them.
pub mod rules {
    pub use crate::rules::*;
}

pub use crate::params::{Field, Shape, field, has_enum_value, has_param};
/// The check that a `#[tool]` struct's fields are `Send` and `Sync`.
pub mod thread_safety {
    pub use crate::thread_safety::*;
}
pub use crate::content::ToolOutput;
pub use crate::context::ToolContext;
pub use crate::credentials::Credentials;
pub use crate::error::BoxError;
pub use crate::inputs::{Inputs, Parsed};
pub use crate::output::{Lazy, OutputFields, OutputValue, Returned, TypedOutput};
pub use crate::params::{ParamSchema, ToolParams};
pub use crate::rules::{Literal, Number, ParamType};
pub use crate::schema::{JsonObject, Param, ToolSchema, UnknownArguments};
pub use crate::schema::{JsonSchema, JsonSchemaOptions, SchemaError};
pub use crate::tool::{
    StaticJsonSchema, static_schema, static_schema_text, static_schema_text_with,
    static_schema_with,
};
pub use crate::tool::{TaskSupport, Tool, ToolAnnotations, ToolSpec, static_spec};
pub use crate::typed::IntoOutput;
pub use crate::typed::{FromInputs, FromParam, IntoParam, ParamTypeError, TypedTool};
pub use crate::typed::{execute_json, execute_typed};
pub use std::sync::OnceLock;
// The generated types implement `Serialize` and `Deserialize` through this path, so
// users need no dependency on serde of their own.
pub use serde;
pub use serde_json::{Map, Value};
pub use std::any::Any;
pub use std::borrow::Cow;
pub use std::boxed::Box;
pub use std::collections::HashMap;
// Traits and their derive macros (one name, two namespaces).
pub use std::clone::Clone;
pub use std::cmp::{Eq, PartialEq};
pub use std::convert::From;
pub use std::fmt::{self, Debug, Display};
pub use std::future::Future;
pub use std::hash::Hash;
pub use std::marker::Copy;
pub use std::marker::{Send, Sync};
pub use std::mem::take;
pub use std::option::Option::{self, None, Some};
// Through `std::primitive`, so that a user's `type i64 = ...` cannot shadow them.
pub use std::primitive::{bool, f64, i64, str, usize};
pub use std::result::Result::{self, Err, Ok};
pub use std::string::String;
pub use std::vec::Vec;
pub use std::{assert, panic, unreachable};

/// The input schema of a tool whose `TypedTool::Input` declares its parameters itself:
/// `#[tool(input = Args)]`'s spec.
pub const fn input_schema<T: TypedTool>() -> Option<ToolSchema> {
    match <T::Input as FromInputs>::PARAM_LIST {
        Some(params) => Some(ToolSchema::from_static(params)),
        None => None,
    }
}

/// The output schema of a tool whose `TypedTool::Output` declares its parameters itself:
/// `#[tool(output = Results)]`'s spec.
pub const fn output_schema<T: TypedTool>() -> Option<ToolSchema> {
    match <T::Output as IntoOutput>::PARAM_LIST {
        Some(params) => Some(ToolSchema::from_static(params)),
        None => None,
    }
}

/// The error of parameter `name`, whose value does not fit its field (of `expected`'s type):
/// what generated code returns where it reads a field without `FromParam::from_param`.
pub fn param_error(name: &str, expected: ParamType) -> ParamTypeError {
    ParamTypeError::new(name, expected)
}

/// The body of the `Tool::parse_typed` that `#[tool(...)]` generates: the argument text
/// straight into the tool's input struct, each argument checked by the validator's rules,
/// with no object built around the arguments; `input` makes the struct from the arguments
/// (it is [`parsed_input`] of the struct). What it cannot decide (invalid JSON, a key given
/// twice, an undeclared argument) it leaves to the full path, which reports it in its usual
/// words; the issues it finds itself are the ones the full path would find, in the same
/// order.
///
/// Not generic: only `input` knows the tool's type, so the rest is compiled once, here,
/// rather than once per tool in the user's crate.
pub fn parse_typed(
    schema: Option<&ToolSchema>,
    text: &str,
    unknown: UnknownArguments,
    max_issues: usize,
    input: fn(&mut [Option<Value>]) -> Parsed,
) -> Parsed {
    parse_into(schema, text, unknown, max_issues, false, &mut |slots| {
        input(slots)
    })
}

/// The input struct of tool `T` made from the validated arguments in `slots`, for
/// [`parse_typed`]: the one function of the typed fast path each tool compiles. Generic over
/// the tool rather than its input, so that an input type without `FromInputs` is reported
/// once, on the `TypedTool` impl, rather than once more here.
pub fn parsed_input<T: TypedTool>(slots: &mut [Option<Value>]) -> Parsed
where
    T::Input: 'static,
{
    match T::Input::from_slots(slots) {
        Some(input) => Parsed::Input(Box::new(input)),
        None => Parsed::Unparsed,
    }
}

/// The serde glue of the types `#[tool(...)]` generates: their `Serialize` and `Deserialize`
/// impls call these generic functions, compiled once here, rather than carrying serde's
/// derived code, which would be most of each tool's expansion. Not public API.
pub mod serde_glue {
    use serde::de::Error as _;
    use serde::ser::SerializeMap as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value;

    use super::{FromInputs, FromParam, IntoParam};
    use crate::schema::JsonObject;

    /// Serializes a struct as an object of its parameters, field by field. The first error
    /// is kept and returned by [`end`](Self::end), so that the generated code is one call a
    /// field, with no `?` to expand.
    pub struct Fields<S: Serializer> {
        map: S::SerializeMap,
        error: Option<S::Error>,
    }

    impl<S: Serializer> Fields<S> {
        /// Starts the object.
        pub fn new(serializer: S) -> Result<Self, S::Error> {
            Ok(Fields {
                map: serializer.serialize_map(None)?,
                error: None,
            })
        }

        /// A field that is always there.
        pub fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) {
            if self.error.is_none() {
                self.error = self.map.serialize_entry(name, value).err();
            }
        }

        /// An optional field: left out when `None`, as validation leaves an absent argument.
        pub fn optional<T: Serialize>(&mut self, name: &'static str, value: &Option<T>) {
            if let Some(value) = value {
                self.field(name, value);
            }
        }

        /// Ends the object.
        pub fn end(self) -> Result<S::Ok, S::Error> {
            match self.error {
                Some(error) => Err(error),
                None => self.map.end(),
            }
        }
    }

    /// Writes the field `name` of an output into `output`, unless it converts to nothing
    /// (`None`).
    pub fn put<T: IntoParam>(output: &mut JsonObject, name: &'static str, value: T) {
        if let Some(value) = value.into_value() {
            output.insert(name.into(), value);
        }
    }

    /// Writes `value` under `name`, `null` when it converts to nothing: a nullable field,
    /// whose `None` is the value `null`, not its absence.
    pub fn put_or_null<T: IntoParam>(output: &mut JsonObject, name: &'static str, value: T) {
        output.insert(name.into(), value.into_value().unwrap_or(Value::Null));
    }

    /// Writes `value` under `name`, its `default` when it converts to nothing: an output with
    /// a default in an output declared as JSON Schema, whose validation (exact JSON Schema)
    /// fills no default in, gets it as a six-type output does.
    pub fn put_or_default<T: IntoParam>(
        output: &mut JsonObject,
        name: &'static str,
        value: T,
        default: &crate::rules::Literal,
    ) {
        let value = value.into_value().unwrap_or_else(|| default.to_value());
        output.insert(name.into(), value);
    }

    /// Deserializes a struct from an object of its parameters.
    pub fn object<'de, T: FromInputs, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let object = JsonObject::deserialize(deserializer)?;
        T::from_inputs(&object).map_err(D::Error::custom)
    }

    /// Deserializes a value of a generated type (a nested struct, an enum).
    pub fn value<'de, T: FromParam, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let value = Value::deserialize(deserializer)?;
        T::from_value(Some(&value))
            .ok_or_else(|| D::Error::custom(format_args!("expected a valid {}", T::PARAM_TYPE)))
    }
}

pub use crate::params::{
    ObjectSchema, SchemaDefs, from_object, one_of, root_json_schema, tagged_value, write_fields,
};

/// The JSON Schema a tool's `TypedTool::Input` declares itself, if it has a form only JSON
/// Schema can say: `#[tool(input = Args)]`'s spec declares it with
/// [`with_json_input`].
pub const fn input_json_schema<T: TypedTool>() -> Option<StaticJsonSchema> {
    <T::Input as FromInputs>::JSON_SCHEMA
}

/// The JSON Schema a tool's `TypedTool::Output` declares itself, compiled as outputs are
/// ([`JsonSchemaOptions::standard`]); see [`input_json_schema`] and [`with_json_output`].
pub const fn output_json_schema<T: TypedTool>() -> Option<StaticJsonSchema> {
    <T::Output as IntoOutput>::JSON_SCHEMA
}

/// `spec` with its arguments declared by `schema`, if there is one: the generated spec of
/// `#[tool(input = Args)]` works the same whether `Args` is six-type data (`None`, its
/// parameter list in the spec) or JSON Schema.
pub const fn with_json_input(spec: ToolSpec, schema: Option<StaticJsonSchema>) -> ToolSpec {
    match schema {
        Some(schema) => spec.with_static_json_input(schema),
        None => spec,
    }
}

/// `spec` with its output declared by `schema`, if there is one: [`with_json_input`] for
/// `#[tool(output = Type)]`.
pub const fn with_json_output(spec: ToolSpec, schema: Option<StaticJsonSchema>) -> ToolSpec {
    match schema {
        Some(schema) => spec.with_static_json_output(schema),
        None => spec,
    }
}
