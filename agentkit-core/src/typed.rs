//! Typed views of validated inputs and outputs.
//!
//! `#[tool(...)]` generates an input struct and an output struct for each tool, whose fields
//! have the Rust types of the declared parameters, and implements [`TypedTool`] to name them.
//! The author implements [`ToolHandler`] with those types; the generated [`Tool`] impl
//! converts between them and the JSON objects the executor validates.
//!
//! | schema type | required, or an input with a default | optional without a default, or an output with a default |
//! |---|---|---|
//! | `string` | `String` | `Option<String>` |
//! | `integer` | `i64` | `Option<i64>` |
//! | `float` | `f64` | `Option<f64>` |
//! | `boolean` | `bool` | `Option<bool>` |
//! | `list` | `Vec<Value>` | `Option<Vec<Value>>` |
//! | `dictionary` | `Map<String, Value>` | `Option<Map<String, Value>>` |
//!
//! An output with a default is an `Option` so that `run` can leave it out: output validation
//! then fills the default in, as input validation does for an absent input.
//!
//! A list with declared items (`items = string`, ...) is a `Vec` of the item type:
//! `Vec<String>`, `Vec<i64>`, `Vec<f64>`, `Vec<bool>`, `Vec<Vec<Value>>` or
//! `Vec<Map<String, Value>>`.
//!
//! A dictionary with declared `fields` is a struct generated for it, and a string parameter
//! with an `enum` a Rust enum, each named after the struct holding it and the parameter
//! (`PlanTripInputStops`, `FetchWeatherInputUnits`); a list of such dictionaries is a `Vec`
//! of the struct. Every generated type implements serde's `Serialize` and `Deserialize`,
//! with the parameter names as keys and absent optionals left out, so that serializing an
//! input gives back the validated arguments. (They are implemented by glue to generic code
//! in this crate rather than derived, which keeps each tool's expansion small.)
//!
//! The conversions are the [`FromParam`] and [`IntoParam`] traits, which hand-written tools
//! can use too.
//!
//! [`Tool`]: crate::Tool

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::content::ToolOutput;
use crate::context::ToolContext;
use crate::error::BoxError;
use crate::inputs::Inputs;
use crate::output::{Returned, TypedOutput, floats_are_finite};
use crate::rules::ParamType;
use crate::schema::{JsonObject, Param};
use crate::tool::StaticJsonSchema;

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
        Self::from_value(inputs.get(name)).ok_or_else(|| ParamTypeError {
            param: name.to_owned(),
            expected: Self::PARAM_TYPE,
        })
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

/// A struct built from a tool's validated inputs; generated by `#[tool(...)]` and
/// `#[derive(ToolParams)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a parameter list: it does not implement `ToolParams`",
    label = "`#[tool(input = ..)]` takes a struct deriving `ToolParams`",
    note = "add `#[derive(ToolParams)]` to the struct"
)]
pub trait FromInputs: Sized {
    /// The parameters the type declares itself (`#[derive(ToolParams)]`), or `None`.
    ///
    /// `#[tool(input = Args)]` reads its schema here, through [`TypedTool::Input`], rather
    /// than from `<Args as ToolParams>`: a type without the derive then fails one bound, the
    /// one on `TypedTool::Input`, and is one error.
    const PARAM_LIST: Option<&'static [Param]> = None;

    /// The JSON Schema the type declares itself, when it has a form only JSON Schema can
    /// say (an enum with data, a map, ...), or `None`: `#[tool(input = Args)]` declares it
    /// with [`ToolSpec::with_static_json_input`](crate::ToolSpec::with_static_json_input).
    /// At most one of this and [`PARAM_LIST`](Self::PARAM_LIST) is `Some`.
    #[doc(hidden)]
    const JSON_SCHEMA: Option<StaticJsonSchema> = None;

    /// Reads every field from `inputs`.
    fn from_inputs(inputs: &JsonObject) -> Result<Self, ParamTypeError>;

    /// Reads every field from the validated arguments in `slots`, one per parameter in
    /// order, taking them: the typed fast path. `None` where it is not generated.
    fn from_slots(slots: &mut [Option<Value>]) -> Option<Self> {
        let _ = slots;
        None
    }
}

/// A struct turned into a tool's output object; generated by `#[tool(...)]` and
/// `#[derive(ToolParams)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a parameter list: it does not implement `ToolParams`",
    label = "`#[tool(output = ..)]` takes a struct deriving `ToolParams`, or `String` (text) or `ToolOutput` (content parts)",
    note = "add `#[derive(ToolParams)]` to the struct"
)]
pub trait IntoOutput {
    /// The parameters the type declares itself (`#[derive(ToolParams)]`), or `None`; see
    /// [`FromInputs::PARAM_LIST`].
    const PARAM_LIST: Option<&'static [Param]> = None;

    /// The JSON Schema the type declares itself, or `None`; see
    /// [`FromInputs::JSON_SCHEMA`]. Compiled as an output's is, with
    /// [`JsonSchemaOptions::standard`](crate::JsonSchemaOptions::standard):
    /// `#[tool(output = Type)]` declares it with
    /// [`ToolSpec::with_static_json_output`](crate::ToolSpec::with_static_json_output).
    #[doc(hidden)]
    const JSON_SCHEMA: Option<StaticJsonSchema> = None;

    /// Writes every field into an object.
    fn into_output(self) -> JsonObject;

    /// The output as the executor carries it: an object to validate, unless the type
    /// guarantees its schema (`#[tool]` says so for such an output struct), when it stays
    /// typed until something asks for its JSON.
    fn into_returned(self) -> Returned
    where
        Self: Sized,
    {
        Returned::json(self)
    }
}

impl FromInputs for JsonObject {
    fn from_inputs(inputs: &JsonObject) -> Result<Self, ParamTypeError> {
        Ok(inputs.clone())
    }
}

impl IntoOutput for JsonObject {
    fn into_output(self) -> JsonObject {
        self
    }
}

/// `#[tool(output = String)]`: a text result, which the model is sent as the bare text.
impl IntoOutput for String {
    fn into_output(self) -> JsonObject {
        let mut object = JsonObject::new();
        object.insert("text".to_owned(), Value::String(self));
        object
    }

    fn into_returned(self) -> Returned {
        Returned::from(ToolOutput::from(self))
    }
}

/// `#[tool(output = ToolOutput)]`: structured output, text or content parts, or both, as the
/// handler chooses (see [`ToolOutput`]).
impl IntoOutput for ToolOutput {
    /// The structured output when it is an object (else an empty one): what a
    /// [`ToolSchema`](crate::ToolSchema) output can hold. The executor takes a `ToolOutput`
    /// whole, through `into_returned`, any structured value and the parts with it.
    fn into_output(self) -> JsonObject {
        match self.into_parts().0 {
            Some(Value::Object(object)) => object,
            _ => JsonObject::new(),
        }
    }

    fn into_returned(self) -> Returned {
        Returned::from(self)
    }
}

/// Names the typed input and output of a tool; implemented by `#[tool(...)]`.
pub trait TypedTool {
    /// The struct of validated inputs (`{Tool}Input`).
    type Input: FromInputs + Send;
    /// The struct of outputs (`{Tool}Output`; a [`JsonObject`] when no output schema is
    /// declared).
    type Output: IntoOutput;
}

/// The logic of a tool declared with `#[tool(...)]`, written by hand on typed values.
///
/// `#[tool(...)]` generates the input and output structs and the [`TypedTool`] impl; what is
/// left to write is this impl. Spelled out without the macro, the pieces are:
///
/// ```
/// use agentkit_core::{
///     BoxError, Credentials, FromInputs, FromParam, IntoOutput, JsonObject, ParamTypeError,
///     ToolContext, ToolHandler, TypedTool,
/// };
///
/// struct Greet;
/// struct GreetInput { name: String, shout: Option<bool> }
///
/// impl FromInputs for GreetInput {
///     fn from_inputs(inputs: &JsonObject) -> Result<Self, ParamTypeError> {
///         Ok(GreetInput {
///             name: FromParam::from_param(inputs, "name")?,
///             shout: FromParam::from_param(inputs, "shout")?,
///         })
///     }
/// }
///
/// impl TypedTool for Greet {
///     type Input = GreetInput;
///     type Output = JsonObject;
/// }
///
/// // The part you write by hand:
/// impl ToolHandler for Greet {
///     async fn run(&self, input: GreetInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         let mut greeting = format!("Hello, {}!", input.name);
///         if input.shout == Some(true) {
///             greeting = greeting.to_uppercase();
///         }
///         let mut output = JsonObject::new();
///         output.insert("greeting".into(), greeting.into());
///         Ok(output)
///     }
/// }
///
/// let inputs = serde_json::json!({"name": "Ada"}).as_object().cloned().unwrap();
/// let output = agentkit_core::block_on(async {
///     let input = GreetInput::from_inputs(&inputs)?;
///     let credentials = Credentials::new();
///     Greet.run(input, &ToolContext::detached("greet", &credentials)).await
/// })?;
/// assert_eq!(output["greeting"], "Hello, Ada!");
/// # Ok::<(), BoxError>(())
/// ```
///
/// A body without `.await` is fine: it runs to completion on the first poll. Blocking work
/// (file or network I/O without async) belongs on a blocking thread of your runtime.
#[diagnostic::on_unimplemented(
    message = "the tool `{Self}` has no logic: `ToolHandler` is not implemented for it",
    label = "`#[tool]` declares this tool, but its logic is missing",
    note = "write the logic in an impl: `impl ToolHandler for {Self} {{ async fn run(&self, _input: Self::Input, _ctx: &ToolContext<'_>) -> Result<Self::Output, BoxError> {{ todo!() }} }}`",
    note = "`Self::Input` is the generated `{Self}Input` with `input = [...]` in #[tool], else a `JsonObject`; likewise `Self::Output`"
)]
pub trait ToolHandler: TypedTool + Send + Sync + 'static {
    /// Runs the tool on its validated, typed inputs; `ctx` holds the call id, the resolved
    /// credentials, the executor's shared dependencies and the cancellation signal.
    fn run(
        &self,
        input: Self::Input,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<Self::Output, BoxError>> + Send;
}

impl Returned {
    /// The output of a tool that must be validated: JSON now.
    pub fn json<O: IntoOutput>(output: O) -> Returned {
        Returned::Json(Value::Object(output.into_output()))
    }

    /// The output of a tool whose output struct fits its schema by its types: kept typed,
    /// unless a float in it is not finite (it would become `null`, which the schema refuses),
    /// in which case it is JSON now, for the validator to report.
    pub fn typed<O: IntoOutput + Serialize + Send + Sync + 'static>(output: O) -> Returned {
        if floats_are_finite(&output) {
            Returned::typed_without_floats(output)
        } else {
            Returned::json(output)
        }
    }

    /// The output of a tool whose output struct fits its schema by its types and holds no
    /// float: kept typed, with nothing to check.
    pub fn typed_without_floats<O: IntoOutput + Serialize + Send + Sync + 'static>(
        output: O,
    ) -> Returned {
        Returned::Typed(Box::new(Lazy {
            typed: output,
            json: OnceLock::new(),
        }))
    }
}

/// The typed output, and its JSON once something asked for it.
///
/// The generic part is kept small: every `#[tool]` output type compiles its own copy of it,
/// in the user's crate, so the once-only conversion lives in non-generic functions.
struct Lazy<O> {
    typed: O,
    json: OnceLock<Value>,
}

impl<O: IntoOutput + Serialize + Send + Sync> TypedOutput for Lazy<O> {
    fn as_json(&self) -> &Value {
        json_once(&self.json, &|| Value::Object(to_object(&self.typed)))
    }

    fn write_json(&self) -> Option<String> {
        serde_json::to_string(&self.typed).ok()
    }

    fn into_json(self: Box<Self>) -> Value {
        let Lazy { typed, json } = *self;
        match json.into_inner() {
            Some(json) => json,
            None => Value::Object(typed.into_output()),
        }
    }
}

/// The value in `cell`, made by `make` on the first call.
fn json_once<'a>(cell: &'a OnceLock<Value>, make: &dyn Fn() -> Value) -> &'a Value {
    cell.get_or_init(make)
}

/// `value` as an object, by its `Serialize` impl, which for a `#[tool]` output writes the same
/// object as its `into_output` (left as it is, for `into_json`).
fn to_object<O: Serialize>(value: &O) -> JsonObject {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// The body of the `Tool::execute_inputs` that `#[tool(...)]` generates, which its
/// `Tool::execute` runs too (see [`execute_json`]): one function for both, so that a tool
/// without `ToolHandler` is one error, not one per method, and each tool compiles one future.
pub async fn execute_typed<T: ToolHandler>(
    tool: &T,
    inputs: Inputs<'_>,
    ctx: &ToolContext<'_>,
) -> Result<Returned, BoxError>
where
    T::Input: 'static,
{
    let input = match inputs {
        Inputs::Json(inputs) => T::Input::from_inputs(inputs)?,
        Inputs::Parsed(input) => *input
            .downcast::<T::Input>()
            .map_err(|_| "the parsed input is not this tool's")?,
    };
    Ok(tool.run(input, ctx).await?.into_returned())
}

/// The body of the `Tool::execute` that `#[tool(...)]` generates: the run of its
/// `Tool::execute_inputs`, as a [`ToolOutput`].
pub async fn execute_json<F: Future<Output = Result<Returned, BoxError>>>(
    run: F,
) -> Result<ToolOutput, BoxError> {
    Ok(run.await?.into_output())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    struct Reading {
        temperature: f64,
    }

    impl IntoOutput for Reading {
        fn into_output(self) -> JsonObject {
            let mut object = JsonObject::new();
            object.insert("temperature".into(), self.temperature.into());
            object
        }
    }

    #[test]
    fn a_typed_output_is_made_json_once_when_first_asked() {
        let returned = Returned::typed(Reading { temperature: 21.5 });
        assert!(matches!(returned, Returned::Typed(_)));
        let first = returned.structured().unwrap();
        assert_eq!(first, &json!({"temperature": 21.5}));
        assert!(
            std::ptr::eq(first, returned.structured().unwrap()),
            "converted twice"
        );
        assert_eq!(
            returned.into_output().into_parts().0.unwrap(),
            json!({"temperature": 21.5})
        );
        // Taken without being read first.
        let returned = Returned::typed(Reading { temperature: -3.0 });
        assert_eq!(
            returned.into_output().into_parts().0.unwrap(),
            json!({"temperature": -3.0})
        );
    }

    #[test]
    fn readers_on_several_threads_see_one_conversion() {
        let returned = Returned::typed(Reading { temperature: 1.0 });
        let addresses: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| std::ptr::from_ref(returned.structured().unwrap()) as usize)
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(addresses.windows(2).all(|w| w[0] == w[1]), "{addresses:?}");
        assert_eq!(returned.structured().unwrap(), &json!({"temperature": 1.0}));
    }

    #[test]
    fn a_typed_output_with_a_float_that_is_not_finite_is_json_at_once() {
        // JSON now, so that the executor's validator refuses the `null` it became.
        let returned = Returned::typed(Reading {
            temperature: f64::NAN,
        });
        assert!(matches!(returned, Returned::Json(_)));
        assert_eq!(returned.structured().unwrap()["temperature"], Value::Null);
    }
}
