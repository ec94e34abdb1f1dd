//! Type-first schemas: a Rust struct as a tool's parameters.
//!
//! `#[derive(ToolParams)]` (with the `derive` feature) turns a struct with named fields into
//! a parameter list, and a fieldless enum into the allowed values of a string; `#[tool(input
//! = SearchArgs, output = SearchResults)]` then takes such a struct in place of the list
//! literal. The spec is the same `static` data the literal form gives, so validation, the
//! JSON Schema and every provider declaration are the same too.
//!
//! Each field's Rust type says what its parameter is, through [`ParamSchema`]. A type the six
//! types can say keeps that `static` data and the executor's fast path; a type with a form
//! only JSON Schema can say (an enum with data, a map, any value, a tuple, a recursive type,
//! a nullable item) is declared as a JSON Schema instead, written from the Rust types once,
//! the first time it is asked for (`json`), and validated in full.

mod json;
mod shape;

use serde_json::Value;

use crate::schema::{Param, ToolSchema};
use crate::typed::{FromInputs, FromParam, IntoOutput, IntoParam};

pub use json::{
    ObjectSchema, SchemaDefs, from_object, one_of, root_json_schema, tagged_value, write_fields,
};
pub use shape::{Field, Shape, field, has_enum_value, has_param};

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
    ///
    /// For a type with a form only JSON Schema can say (see [`ParamSchema`]), this list
    /// names the parameters without saying their forms: the schema that validates is
    /// [`json_schema`](Self::json_schema).
    fn schema() -> ToolSchema {
        ToolSchema::from_static(Self::PARAMS)
    }

    /// The JSON Schema the executor validates the parameters against, the one
    /// [`ToolSpec::input_json_schema`](crate::ToolSpec::input_json_schema) gives for
    /// `#[tool(input = Self)]`: [`schema`](Self::schema)'s export for a type the six types
    /// can say, else the schema written from the Rust types.
    ///
    /// ```
    /// # #[cfg(feature = "derive")] {
    /// use agentkit_core::ToolParams;
    /// use serde_json::json;
    ///
    /// #[derive(ToolParams)]
    /// pub struct Tally {
    ///     /// Votes per option.
    ///     pub votes: std::collections::BTreeMap<String, u32>,
    /// }
    ///
    /// assert_eq!(Tally::json_schema(), json!({
    ///     "type": "object",
    ///     "properties": {"votes": {
    ///         "type": "object",
    ///         "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
    ///         "description": "Votes per option.",
    ///     }},
    ///     "required": ["votes"],
    ///     "additionalProperties": false,
    /// }));
    /// # }
    /// ```
    fn json_schema() -> Value
    where
        Self: Sized + 'static,
    {
        if Self::SHAPE.json {
            root_json_schema::<Self>()
        } else {
            Self::schema().to_json_schema()
        }
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
/// | `Option<T>` | `T`'s parameter, not required (absent or `null` is `None`) |
///
/// and beyond the six types, written as JSON Schema (a struct with such a field declares its
/// input as a JSON Schema, validated in full):
///
/// | Rust type | JSON Schema |
/// |---|---|
/// | an enum with data deriving `ToolParams` | `oneOf` of closed objects, each with its tag: `{"type": {"const": "click"}, ...}` |
/// | `HashMap<String, T>`, `BTreeMap<String, T>` | `{"type": "object", "additionalProperties": T}` |
/// | `Value` | any value: `{}` |
/// | `Box<T>` | `T` (a type that contains itself is a `$ref`, into `$defs` or to `#`) |
/// | `(A, B)` .. `(A, B, C, D, E, F)` | `{"type": "array", "prefixItems": [A, B], "items": false, "minItems": 2}` |
/// | `Option<T>` as a list item, map value or tuple element | `{"anyOf": [T, {"type": "null"}]}` |
/// | `Vec<T>` of any of these, of `Option<T>`, of a bounded integer or enum, of a typed list | `{"type": "array", "items": T}` |
///
/// A struct that names itself in a field (`children: Vec<Node>`) is seen by the derive; two
/// structs that contain each other need a `Box` on one side (`Box<T>` is written without
/// reading `T`'s constants, which the compiler would otherwise find evaluating themselves).
///
/// What it says is hidden: implement it with `#[derive(ToolParams)]` on your own struct or
/// enum.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the type of a parameter",
    label = "a field of a `ToolParams` struct needs a parameter type",
    note = "use `String`, an integer type, `f64`, `bool`, `Vec<T>`, `Option<T>`, `HashMap<String, T>`, `BTreeMap<String, T>`, `Value`, `Box<T>`, a tuple, or a struct or enum with `#[derive(ToolParams)]`"
)]
pub trait ParamSchema: FromParam + IntoParam {
    /// What the parameter is; read by the generated `const` data.
    #[doc(hidden)]
    const SHAPE: Shape;

    /// Writes the JSON Schema of a value of this type, as a list item, map value or tuple
    /// element (where `Option<T>` is nullable), putting types that contain themselves in
    /// `defs`. The default writes [`SHAPE`](Self::SHAPE)'s six-type schema.
    #[doc(hidden)]
    fn write_json_schema(defs: &mut SchemaDefs) -> Value {
        let _ = defs;
        json::shape_schema(&Self::SHAPE)
    }

    /// Writes the JSON Schema of a struct field of this type: where absence is possible,
    /// `Option<T>` is `T`'s (absent, or `null`, is `None`).
    #[doc(hidden)]
    fn write_field_json_schema(defs: &mut SchemaDefs) -> Value {
        Self::write_json_schema(defs)
    }

    /// Writes the schemas of a struct's fields into `object`: the struct's own object, or a
    /// newtype variant's of a tagged enum (beside the tag). The default writes the six-type
    /// fields of [`SHAPE`](Self::SHAPE), if any; a struct with JSON-only fields writes its
    /// own.
    #[doc(hidden)]
    fn write_fields(object: &mut ObjectSchema, defs: &mut SchemaDefs) {
        let _ = defs;
        for param in Self::SHAPE.fields.unwrap_or(&[]) {
            object.param(param);
        }
    }
}
