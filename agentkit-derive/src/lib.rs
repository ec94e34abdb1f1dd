//! The `#[tool(...)]` attribute macro for agentkit. Use it through `agentkit-core` with the
//! `derive` feature; see [`macro@tool`].
//!
//! Both macros are built in stages, one module each, as thiserror's and serde_derive's are:
//! `attr` reads an attribute's tokens into a tree of `key = value` entries; each macro's
//! `ast` turns that tree into a typed model (with the shared `decl` reading each parameter
//! into the model of `ast`, and `value` each value); each macro's `check` applies the rules
//! that span several keys (with the shared `check` for one parameter); then the code is
//! written (`tool::{spec, typed, fields, imp, thread_safety}`, `params::expand`, with the
//! shared `expand`), or, when something is wrong, the errors and a stub (`tool::fallback`,
//! with `tool::undecided` for the types a mistake leaves open, and `params::fallback`). Every stage reports into one `ctxt::Ctxt`, so every mistake is
//! reported in one build. The keys are `symbol` constants; the rules and their wording are
//! shared with `agentkit-core` (`rules`, compiled into both crates).

// Without the `expand` feature (agentkit-core's `derive`), none of the macro is built.
#[cfg(feature = "expand")]
mod ast;
#[cfg(feature = "expand")]
mod attr;
#[cfg(feature = "expand")]
mod check;
#[cfg(feature = "expand")]
mod ctxt;
#[cfg(feature = "expand")]
mod decl;
#[cfg(feature = "expand")]
mod expand;
#[cfg(feature = "expand")]
mod forms;
// Without it, `#[tool]` is one error, and what keeps it the only one.
#[cfg(not(feature = "expand"))]
mod needs_derive;
#[cfg(feature = "expand")]
mod params;
// Shared with agentkit-core, which uses more of it than the macro does.
#[cfg(feature = "expand")]
#[allow(dead_code, unreachable_pub)]
mod rules;
#[cfg(feature = "expand")]
mod symbol;
#[cfg(feature = "expand")]
mod tool;
#[cfg(feature = "expand")]
mod value;

use proc_macro::TokenStream;

/// Declares a tool on a struct: its spec, checked by the compiler, and typed input and output
/// structs for its logic, which you write by hand.
///
/// Use it through `agentkit-core` with the `derive` feature
/// (`agentkit-core = { version = "0.1", features = ["derive"] }`), as
/// `agentkit_core::tool`.
///
/// ```rust
/// use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};
///
/// #[tool(
///     name = "fetch_weather",
///     description = "Look up the current weather for a city.",
///     input = [
///         { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
///         { name = "country", type = string, required = false, default = "US" },
///         { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "imperial" },
///     ],
///     output = [
///         { name = "city", type = string },
///         { name = "temperature", type = float },
///         { name = "units", type = string },
///     ],
///     tags = { category = "weather" },
///     credentials = ["weather-api-key"],
/// )]
/// pub struct FetchWeather;
///
/// impl ToolHandler for FetchWeather {
///     async fn run(
///         &self,
///         input: FetchWeatherInput,
///         ctx: &ToolContext<'_>,
///     ) -> Result<FetchWeatherOutput, BoxError> {
///         let _key = ctx.credential("weather-api-key")?;
///         // `units` is the generated enum `FetchWeatherInputUnits`, its values as variants.
///         let temperature = match input.units {
///             FetchWeatherInputUnits::Metric => 22.0,
///             FetchWeatherInputUnits::Imperial => 72.0,
///         };
///         Ok(FetchWeatherOutput { city: input.city, temperature, units: input.units.to_string() })
///     }
/// }
/// ```
///
/// For `FetchWeather`, the attribute generates:
///
/// - `impl Tool for FetchWeather`: `spec()` returns the `ToolSpec`, built once per process
///   the first time it is asked for, from the declaration the compiler checked (which the
///   macro writes into the code as JSON text: far cheaper to compile than the same spec as
///   `static` data); `execute` converts the validated inputs to `FetchWeatherInput`,
///   calls your `ToolHandler::run`, and converts the `FetchWeatherOutput` back to JSON (when
///   nothing else needs the arguments as JSON, the executor has the argument text read
///   straight into `FetchWeatherInput`, validated by the same rules on the way);
/// - `pub struct FetchWeatherInput { pub city: String, pub country: String, pub units:
///   FetchWeatherInputUnits }` and `pub struct FetchWeatherOutput { .. }`, with the struct's
///   visibility, documented fields, `Debug`, `Clone` and `PartialEq`, and serde's
///   `Serialize` and `Deserialize` (implemented through agentkit-core: you need no serde
///   dependency of your own); they serialize to the JSON objects the executor validates,
///   keys in order;
/// - `pub enum FetchWeatherInputUnits { Metric, Imperial }` for the `enum` of `units`;
/// - `impl TypedTool for FetchWeather`, naming the two structs.
/// - a check that every field of `FetchWeather` is `Send` and `Sync`, since an executor
///   shares its tools across tasks and threads: a field that is not is one error, on its
///   type, saying what it lacks. The `Tool` impl asks for that check rather than for `Send`
///   and `Sync` themselves, and `ToolHandler` asks for neither, so nothing else reports the
///   field again (the `Tool` impl also asks that the future of `run` be `Send`: one that
///   holds a value that is not across an `.await` is an error on the struct's name).
///
/// The struct itself is left as written. Register the tool with `ToolRegistry::register`
/// and call it through a `ToolExecutor`, which validates inputs (filling defaults), resolves
/// credentials and validates outputs before and after your `run`. An output struct whose
/// types already guarantee its schema (no default to fill, no constraint but a string `enum`,
/// which is a Rust enum) is checked only for floats that are not finite, and is made JSON
/// only when the result's `output()` or model text is asked for.
///
// The reference (the syntax, the forms beyond the six types, state, policies, annotations and
// what the compiler catches) is a document of its own, so that this file stays the entry point.
#[doc = include_str!("../docs/tool.md")]
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    #[cfg(feature = "expand")]
    {
        tool::tool(args.into(), item.into()).into()
    }
    #[cfg(not(feature = "expand"))]
    {
        needs_derive::tool(&args, item)
    }
}

/// Derives `ToolParams`: a struct with named fields becomes a parameter list, a fieldless enum
/// the allowed values of a string parameter, an enum with data a tagged union.
///
/// Use it through `agentkit-core` with the `derive` feature, as `agentkit_core::ToolParams`,
/// and name the struct in `#[tool(input = SearchArgs, output = SearchResults)]` in place of a
/// list of parameters. The spec is the one the same list written out would give.
///
/// ```rust
/// use agentkit_core::{BoxError, ToolContext, ToolHandler, ToolParams, tool};
///
/// #[derive(ToolParams)]
/// pub enum Units {
///     Metric,
///     Imperial,
/// }
///
/// #[derive(ToolParams)]
/// pub struct WeatherArgs {
///     /// City name (e.g., 'San Francisco')
///     pub city: String,
///     #[param(default = "US")]
///     pub country: String,
///     #[param(default = "imperial")]
///     pub units: Units,
/// }
///
/// #[derive(ToolParams)]
/// pub struct Weather {
///     pub city: String,
///     pub temperature: f64,
/// }
///
/// /// Look up the current weather for a city.
/// #[tool(name = "fetch_weather", input = WeatherArgs, output = Weather)]
/// pub struct FetchWeather;
///
/// impl ToolHandler for FetchWeather {
///     async fn run(&self, input: WeatherArgs, _: &ToolContext<'_>) -> Result<Weather, BoxError> {
///         let temperature = match input.units {
///             Units::Metric => 22.0,
///             Units::Imperial => 72.0,
///         };
///         Ok(Weather { city: input.city, temperature })
///     }
/// }
/// ```
///
/// # Fields
///
/// Each field is a parameter named after it (`#[param(rename = "max-days")]` names it
/// otherwise), described by its doc comment (or `#[param(description = "...")]`), with the
/// type its Rust type says:
///
/// | Rust type | parameter |
/// |---|---|
/// | `String` | `string` |
/// | `i64`, `u64`, `i32`, `u32`, `i16`, `u16`, `i8`, `u8`, `usize`, `isize` | `integer`, with the `minimum` and `maximum` the type holds (none for `i64`) |
/// | `f64` | `float` |
/// | `bool` | `boolean` |
/// | `Vec<T>` | `list` with `items` of `T`'s type; a `Vec` of a struct deriving `ToolParams` is a list of dictionaries with its fields |
/// | `Vec<Value>`, `Map<String, Value>` | `list`, `dictionary`, their contents unchecked |
/// | a struct deriving `ToolParams` | `dictionary` with its `fields` |
/// | a fieldless enum deriving `ToolParams` | `string` with an `enum` of its values |
/// | `Option<T>` | `T`'s, not required |
///
/// and beyond the six types, written as JSON Schema (a struct with such a field declares its
/// input, or as `output = Type` its output, as a JSON Schema, validated in full; one without
/// keeps its six-type `static` data):
///
/// | Rust type | JSON Schema |
/// |---|---|
/// | an enum with data deriving `ToolParams` | a tagged union (see Enums) |
/// | `HashMap<String, T>`, `BTreeMap<String, T>` | `{"type": "object", "additionalProperties": T}` |
/// | `Value` | any value, `{}` |
/// | `Box<T>` | `T`'s |
/// | `(A, B)`, up to six elements | `{"type": "array", "prefixItems": [A, B], "items": false, "minItems": 2}` |
/// | `Option<T>` as a list item, map value or tuple element | `{"anyOf": [T, {"type": "null"}]}` |
/// | `Vec<T>` of any of these, or of a bounded integer, an enum, a typed list | `{"type": "array", "items": T}` |
///
/// A type that contains itself (`struct Node { children: Vec<Node> }`, `enum Expr { And {
/// items: Vec<Expr> }, .. }`) is a `$ref` (to `#` for the input itself, else into `$defs`).
/// Two structs that contain each other need a `Box` on one side (`Box<T>` is written without
/// reading `T`'s constants, which are being evaluated).
///
/// A field is required unless it is an `Option` or has a default. `#[param(...)]` takes the
/// other keys of a parameter, with the same compile-time checks as in `#[tool]`: `default`,
/// `description`, `enum`, `minimum`, `maximum`, `min_length`, `max_length`, `min_items`,
/// `max_items`. A default of an enum field is its value as the model sends it (`default =
/// "metric"`); a struct field takes none (make it an `Option`).
///
/// # Enums
///
/// Each variant is a value: its name in snake_case (`FastTrack` is `"fast_track"`), or
/// `#[param(rename = "fast-track")]`. A fieldless enum is a string with those values.
///
/// An enum with data is a tagged union, internally tagged: each variant one closed object
/// whose tag property (`"type"`, or `#[param(tag = "kind")]` on the enum) is `{"const":
/// value}`, with the variant's doc comment as its description, and the schema a `oneOf` of
/// them, so that validation reports the problems of the variant the tag chose. A struct
/// variant's fields sit beside the tag (with `#[param(...)]` as a struct's); a newtype variant
/// holds a struct deriving `ToolParams`, whose fields sit beside the tag; a unit variant is
/// `{tag: value}`. A tuple variant of two or more fields, two variants with one tag, and a
/// field named like the tag are compile errors. (A fieldless enum with `#[param(tag = "..")]`
/// is a union of such objects too.) An enum with data may be a tool's whole input (`input =
/// Action`) or output (`output = Outcome`: `run` returns a variant, the executor validates
/// the tagged object it becomes).
///
/// ```rust
/// use agentkit_core::ToolParams;
///
/// #[derive(ToolParams)]
/// pub struct Scroll {
///     pub dy: i64,
/// }
///
/// #[derive(ToolParams)]
/// #[param(tag = "kind")]
/// pub enum Action {
///     /// Click at a point.
///     Click { x: u32, y: u32 },
///     Scroll(Scroll),
///     #[param(rename = "idle")]
///     Wait,
/// }
///
/// let schema = Action::json_schema();
/// assert_eq!(schema["oneOf"][0]["properties"]["kind"], agentkit_core::serde_json::json!({"const": "click"}));
/// assert_eq!(schema["oneOf"][1]["required"], agentkit_core::serde_json::json!(["kind", "dy"]));
/// assert_eq!(schema["oneOf"][2]["properties"]["kind"], agentkit_core::serde_json::json!({"const": "idle"}));
/// ```
///
/// # Renamed dependency
///
/// `#[param(crate = "agentkit")]` on the type, as `crate` in `#[tool]`.
#[proc_macro_derive(ToolParams, attributes(param))]
pub fn derive_tool_params(item: TokenStream) -> TokenStream {
    #[cfg(feature = "expand")]
    {
        params::derive(item.into()).into()
    }
    #[cfg(not(feature = "expand"))]
    {
        let _ = item;
        NEEDS_DERIVE_PARAMS
            .parse()
            .expect("a `compile_error!` invocation is valid tokens")
    }
}

/// What `#[derive(ToolParams)]` expands to without agentkit-core's `derive` feature.
#[cfg(not(feature = "expand"))]
const NEEDS_DERIVE_PARAMS: &str = "::core::compile_error!(\"`#[derive(ToolParams)]` needs the \
    `derive` feature of agentkit-core: agentkit-core = { version = \\\"0.1\\\", features = \
    [\\\"derive\\\"] }\");";
