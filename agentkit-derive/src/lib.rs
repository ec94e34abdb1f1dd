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
//! `params::fallback`). Every stage reports into one `ctxt::Ctxt`, so every mistake is
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

/// Declares a tool on a struct: its spec, checked by the compiler and stored as `static` data,
/// and typed input and output structs for its logic, which you write by hand.
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
/// - `impl Tool for FetchWeather`: `spec()` returns a `static` `ToolSpec` (no parsing and no
///   allocation at run time); `execute` converts the validated inputs to `FetchWeatherInput`,
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
/// - a check that every field of `FetchWeather` is `Send` and `Sync`, since a registry shares
///   its tools across threads: a field that is not is an error on its type, saying what it
///   lacks, the first of the build. The `Tool` impl asks for that check rather than for
///   `Send` and `Sync` themselves, so neither it nor the code registering the tool reports
///   the field again; your `ToolHandler` impl still does, once for each of the two the
///   struct lacks, and so does the future of its `run` when the struct is not `Sync` (only
///   an `unsafe impl` would silence them, and the macro writes no `unsafe`).
///
/// The struct itself is left as written. Register the tool with `ToolRegistry::register`
/// and call it through a `ToolExecutor`, which validates inputs (filling defaults), resolves
/// credentials and validates outputs before and after your `run`. An output struct whose
/// types already guarantee its schema (no default to fill, no constraint but a string `enum`,
/// which is a Rust enum) is checked only for floats that are not finite, and is made JSON
/// only when the result's `output()` or model text is asked for.
///
/// # Syntax
///
/// `#[tool(key = value, flag, ...)]`, with these keys, in any order:
///
/// | key | value | if absent |
/// |---|---|---|
/// | `name` | string: `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$` | compile error: a tool needs a name |
/// | `description` | string | the struct's doc comment (lines joined by a space, paragraphs by a blank line), else `""` |
/// | `version` | string, `MAJOR.MINOR.PATCH` | `"1.0.0"` |
/// | `input` | list of parameters `[{ ... }, ...]`, or a struct deriving [`ToolParams`](macro@ToolParams): `input = SearchArgs` | inputs are not validated; `run` gets a `JsonObject` |
/// | `output` | list of parameters, or a type deriving `ToolParams` | outputs are not validated; `run` returns a `JsonObject` |
/// | `tags` | map of strings: `{ category = "weather", "x-team" = "data" }` | no tags |
/// | `credentials` | list of strings: `["weather-api-key"]` | no credentials |
/// | `timeout` | string: a whole number and a unit, `ms`, `s`, `m` or `h`, more than zero and at most a day: `"10s"` | the executor's default |
/// | `blocking` | flag: the tool blocks its thread, so the executor runs it off the async task | not blocking |
/// | `sequential` | flag: the tool never runs alongside another call | may run concurrently |
/// | `requires_approval` | flag: each call is approved before it runs | no approval |
/// | `retries` | whole number, `0` to `u32::MAX`: how often per turn the tool may ask the model to retry | the executor's default |
/// | `title` | string: a human title, for a host to show | no title |
/// | `read_only`, `destructive`, `idempotent`, `open_world` | hint: what the tool's calls do (MCP's tool annotations) | unset |
/// | `examples` | list of maps of literals, each an input a good call would send: `[{ city = "Paris" }]` | no examples |
/// | `crate` | string: the path of agentkit-core in your crate, e.g. `"agentkit"` | `::agentkit_core` |
/// | `defs` | map of named definitions the parameters refer to by name (see [Beyond the six types](#beyond-the-six-types)) | no definitions |
///
/// A flag is written alone (`blocking`); `blocking = true` and `blocking = false` say the same
/// explicitly. So is a hint (`read_only`), but a hint has three values: written alone or
/// `= true` it is set, `= false` says the opposite, and left out it is unset, which a host
/// reads by MCP's defaults (`open_world` unset counts as open, so `open_world = false` is
/// what says a tool stays in a closed world).
///
/// A parameter is `{ key = value, ... }` with the Python original's keys:
///
/// | key | value | if absent |
/// |---|---|---|
/// | `name` | string, same rules as a tool name | compile error |
/// | `type` | `string`, `integer`, `float`, `boolean`, `list` or `dictionary`, without quotes | compile error |
/// | `required` | `true` or `false` | `true` |
/// | `default` | a literal of the parameter's type; only with `required = false` | no default |
/// | `description` | string | `""` |
/// | `items` | with `type = list`: the type of every item, e.g. `items = string` | items are not checked |
/// | `fields` | with `type = dictionary` (or `type = list, items = dictionary`): its fields, a list of parameters `[{ ... }, ...]` with these same keys | the dictionary's entries are not checked |
/// | `enum` | with `type = string` or `type = integer`: the allowed values, `["metric", "imperial"]` | any value of the type |
/// | `minimum`, `maximum` | with `type = integer` or `type = float`: a number, the bound included | unbounded |
/// | `min_length`, `max_length` | with `type = string`: a whole number of characters | any length |
/// | `min_items`, `max_items` | with `type = list`: a whole number of items | any number of items |
///
/// and, for what the six types cannot say, `type = union`, `map`, `any`, `tuple` or the name
/// of a definition, with `tag`, `variants`, `values`, `nullable` and `const` (see [Beyond the
/// six types](#beyond-the-six-types)).
///
/// Each parameter becomes a field of the input or output struct, named after the parameter
/// with `-` replaced by `_` (a keyword becomes a raw identifier: `type` is `r#type`):
///
/// | `type` | required, or an input with a default | optional without a default, or an output with a default |
/// |---|---|---|
/// | `string` | `String` | `Option<String>` |
/// | `integer` | `i64` | `Option<i64>` |
/// | `float` | `f64` | `Option<f64>` |
/// | `boolean` | `bool` | `Option<bool>` |
/// | `list` | `Vec<serde_json::Value>` | `Option<Vec<serde_json::Value>>` |
/// | `dictionary` | `serde_json::Map<String, Value>` | `Option<serde_json::Map<String, Value>>` |
/// | `dictionary` with `fields` | a generated struct, `{Struct}{Param}` | `Option<{Struct}{Param}>` |
/// | `string` with an `enum` | a generated enum, `{Struct}{Param}` | `Option<{Struct}{Param}>` |
///
/// A list with `items` is a `Vec` of the item's type: `items = string` gives `Vec<String>`,
/// `items = integer` gives `Vec<i64>`, and a list of dictionaries with `fields` a `Vec` of
/// the generated struct.
///
/// A generated type is named after the struct that holds it and the parameter in
/// UpperCamelCase: `units` of `FetchWeatherInput` is `FetchWeatherInputUnits`, `hotel` inside
/// the `stops` of `PlanTripInput` is `PlanTripInputStopsHotel` (should two names meet, the
/// second gets a `2`). It has the struct's visibility and the same derives; an enum is also
/// `Copy`, `Eq` and `Hash`, has `as_str()` and `Display` (the value as the model sends it),
/// and (de)serializes as that value. Each variant is its value in UpperCamelCase (`"metric"`
/// is `Metric`, `"fast-track"` is `FastTrack`, `"km/h"` is `KmH`); if a value gives no
/// variant name (`"1st"`, a non-ASCII letter) or two give the same one, the parameter stays a
/// `String`. An integer `enum` stays an `i64`.
///
/// Fields serialize under their parameter names (`max-days`, not `max_days`), and an
/// optional field that is `None` is left out, so serializing the input gives back the
/// validated arguments. Strings are owned (`String`): a view borrowing from the arguments
/// would need a lifetime on `TypedTool::Input`, and so in every handler's signature
/// (`input: FetchWeatherInput<'_>`), for the price of copying a few strings once per call.
///
/// Defaults work the same way on both sides, as the Python original's `validate` fills them:
/// an absent value gets its default. An input with a default is therefore always there when
/// `run` is called, a plain value; an optional output with a default is an `Option`, which
/// `run` may leave `None`, and the executor's output validation fills the default in:
///
/// ```text
/// output = [
///     { name = "city", type = string },
///     { name = "units", type = string, required = false, default = "metric" },
/// ],
/// // `ForecastOutput { city: String, units: Option<String> }`; `units: None` comes back as
/// // "units": "metric".
/// ```
///
/// A dictionary's `fields` declare what its entries must be, with the keys and rules of a
/// parameter, as deep as you like (a field may have `fields` or `items` of its own); on a list
/// with `items = dictionary` they declare every item's. They are part of the spec (its
/// `Param::fields`, `static` data too), so validation and the JSON Schema see them:
///
/// ```text
/// { name = "origin", type = dictionary, fields = [
///     { name = "city", type = string },
///     { name = "country", type = string, required = false, default = "US" },
/// ] },
/// { name = "stops", type = list, items = dictionary, required = false, fields = [
///     { name = "city", type = string },
///     { name = "nights", type = integer, required = false, default = 1 },
/// ] },
/// ```
///
/// Each gets a struct (`origin` above is a `PlanTripInputOrigin { city: String, country:
/// String }`, and `stops` an `Option<Vec<PlanTripInputStops>>`), already validated against
/// its fields, with their defaults filled in, when `run` gets it. A dictionary without
/// `fields` stays a `serde_json::Map<String, Value>`.
///
/// Constraints narrow a parameter's values beyond its type, as JSON Schema's `enum`,
/// `minimum`, `maximum`, `minLength`, `maxLength`, `minItems` and `maxItems` do. The executor
/// refuses a value that breaks one (`Parameter 'units': expected one of 'metric', 'imperial',
/// got 'kelvin'`, `Parameter 'limit': must be at most 50, got 80`), every provider declaration
/// carries them (or states them in the description where a strict mode cannot), and a
/// default must keep them. Each bounds the parameter's own value, in `fields` at any depth
/// too; the items of a list of strings or numbers take none (bound the list with `min_items`
/// and `max_items`):
///
/// ```text
/// { name = "units", type = string, required = false, enum = ["metric", "imperial"], default = "metric" },
/// { name = "limit", type = integer, required = false, minimum = 1, maximum = 50, default = 10 },
/// { name = "query", type = string, min_length = 1, max_length = 200 },
/// { name = "tags", type = list, items = string, min_items = 1, max_items = 5 },
/// ```
///
/// Default literals: strings, integers and floats (negative too; an integer fits a `float`),
/// `true` and `false`, lists `[...]` and dictionaries `{ key = value }` (keys are names or
/// strings), nested as deep as you like. They are `static` data too.
///
/// A default must be what validation accepts for its parameter, at any depth: the type of
/// every item and field, every required field present, no undeclared field, no integer
/// outside the 64-bit range and no infinite float anywhere. The compiler checks this with the
/// rules `ToolSchema::new` applies at run time, and stores the default as validation leaves
/// it (`2.0` for an `integer` as `2`, a missing optional field's own default filled in), so an
/// absent argument gets exactly what the same value given explicitly would give.
///
/// ```rust
/// use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};
///
/// #[tool(
///     name = "plot",
///     input = [
///         { name = "title", type = string, required = false, default = "Untitled" },
///         { name = "offset", type = integer, required = false, default = -1 },
///         { name = "scale", type = float, required = false, default = 2 },
///         { name = "grid", type = boolean, required = false, default = true },
///         { name = "series", type = list, required = false, default = [1, 2.5, "n/a"] },
///         { name = "style", type = dictionary, required = false, default = { color = "red", "line-width" = 2 } },
///     ],
/// )]
/// pub struct Plot;
///
/// impl ToolHandler for Plot {
///     async fn run(&self, input: PlotInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         let _ = (input.title, input.offset, input.scale, input.grid, input.series, input.style);
///         Ok(JsonObject::new())
///     }
/// }
/// ```
///
/// # Beyond the six types
///
/// What the six types cannot say is written in the same style, with JSON Schema's names
/// where it has them:
///
/// | form | written | JSON Schema | Rust type |
/// |---|---|---|---|
/// | tagged union | `type = union, tag = "type", variants = [{ tag = "click", fields = [...] }, ...]` | `{"type": "object", "oneOf": [...]}`, each variant a closed object whose tag is a `const` | a generated enum, one variant per tag (`"click"` is `Click { x, y }`; a variant without fields is a unit variant) |
/// | map | `type = map, values = string` (or `values = dictionary, fields = [...]`, `values = union, variants = [...]`) | `{"type": "object", "additionalProperties": ...}` | `HashMap<String, T>` |
/// | any value | `type = any` | `{}` | `serde_json::Value` |
/// | tuple | `type = tuple, items = [float, float]` | `{"type": "array", "prefixItems": [...], "items": false, "minItems": 2}` | `(f64, f64)` |
/// | nullable | `nullable = true`, on any parameter | `"type": ["string", "null"]` (or `anyOf` with `{"type": "null"}`) | `Option<T>` |
/// | constant | `const = 2` | `"const": 2` | the type's |
/// | definition | `defs = { node = [...fields...] }` on the tool, then `type = node`, `items = node` or `values = node` | `$defs` and `{"$ref": "#/$defs/node"}` | a generated type `{Struct}{Def}`, boxed where it holds itself |
///
/// `tag` is optional (`"type"` unless written). A list of unions is `type = list, items =
/// union` with the `tag` and `variants` on the same parameter, as `fields` are for a list of
/// dictionaries. A definition is a list of fields (an object), or a declaration without a
/// name, `expr = { type = union, variants = [...] }`; definitions may refer to themselves
/// and to each other, and are named like types, so a definition cannot be named `string` or
/// `union`. `null` for a `nullable` parameter is its value, distinct from leaving it out: a
/// required nullable parameter must be sent, `null` or not.
///
/// A tool whose `input` uses any of these declares its arguments as the complete JSON Schema,
/// written at compile time and compiled once on first use
/// ([`ToolSpec::input_json_schema`](https://docs.rs/agentkit-core) shows it), and the executor
/// validates them against it in full: for a union, the problems of the variant its tag names
/// (`Parameter 'action.x': expected type 'integer', got 'string'`). A tool without them keeps
/// the six-type spec and its fast path. The compiler checks what it can (a tag two variants
/// share, a definition that does not exist, a default, a `const` or an input example that fits
/// no variant or no type of its form, a key a variant does not take, a union without variants);
/// the registry checks the input examples again, in full, against the JSON Schema.
///
/// `output = [...]` takes the same forms, and `defs` serve both sides. An output that uses
/// any of them is declared as its complete JSON Schema (MCP's `outputSchema`), compiled as
/// outputs are, exactly as JSON Schema says
/// ([`JsonSchemaOptions::standard`](https://docs.rs/agentkit-core)), and the executor
/// validates the structured output against it, every problem with its path. The output
/// types are generated as the input's; a nullable output's `None` is written as `null`, and
/// an optional output with a default that `run` leaves `None` as its default, as on a
/// six-type output. A definition is one type for both sides, its fields as an input's.
///
/// ```rust
/// use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};
///
/// #[tool(
///     name = "browse",
///     defs = {
///         selector = [
///             { name = "css", type = string },
///             { name = "within", type = selector, required = false },
///         ],
///     },
///     input = [
///         { name = "action", type = union, tag = "type", variants = [
///             { tag = "click", fields = [{ name = "x", type = integer }, { name = "y", type = integer }] },
///             { tag = "type", fields = [{ name = "text", type = string }, { name = "into", type = selector }] },
///             { tag = "wait" },
///         ] },
///         { name = "headers", type = map, values = string, required = false },
///         { name = "viewport", type = tuple, items = [integer, integer], required = false, default = [1280, 720] },
///         { name = "context", type = any, required = false },
///         { name = "reason", type = string, nullable = true },
///     ],
///     examples = [{ action = { type = "click", x = 10, y = 20 }, reason = "open the menu" }],
/// )]
/// pub struct Browse;
///
/// impl ToolHandler for Browse {
///     async fn run(&self, input: BrowseInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         let done = match input.action {
///             BrowseInputAction::Click { x, y } => format!("clicked at {x}, {y}"),
///             BrowseInputAction::Type { text, into } => format!("typed {text:?} into {}", into.css),
///             BrowseInputAction::Wait => "waited".to_owned(),
///         };
///         let (width, height) = input.viewport;
///         let _ = (input.headers, input.context, input.reason, width, height);
///         let mut output = JsonObject::new();
///         output.insert("done".into(), done.into());
///         Ok(output)
///     }
/// }
/// ```
///
/// # State and async logic
///
/// The struct may hold state (a client, a configuration); `run` takes `&self`. It is an
/// `async fn`; logic that never awaits runs to completion on its first poll.
///
/// ```rust
/// use std::sync::Arc;
///
/// use agentkit_core::{BoxError, ToolContext, ToolHandler, tool};
///
/// /// Search the product catalogue.
/// #[tool(
///     name = "search_products",
///     input = [
///         { name = "query", type = string },
///         { name = "limit", type = integer, required = false, default = 10 },
///         { name = "in-stock", type = boolean, required = false },
///     ],
///     output = [{ name = "results", type = list }],
/// )]
/// pub struct SearchProducts {
///     catalogue: Arc<Vec<String>>,
/// }
///
/// impl ToolHandler for SearchProducts {
///     async fn run(
///         &self,
///         input: SearchProductsInput,
///         _: &ToolContext<'_>,
///     ) -> Result<SearchProductsOutput, BoxError> {
///         // `in-stock` is the field `in_stock`; an optional parameter without a default is an `Option`.
///         let _only_in_stock: Option<bool> = input.in_stock;
///         let limit = usize::try_from(input.limit)?;
///         let hits = std::future::ready(self.catalogue.iter().filter(|p| p.contains(&input.query))).await;
///         Ok(SearchProductsOutput { results: hits.take(limit).map(|p| p.as_str().into()).collect() })
///     }
/// }
/// ```
///
/// # Without a schema
///
/// Without `input`, the tool takes any JSON object, unvalidated (the Python original's
/// `INPUT_SCHEMA = None`); without `output`, its output is not validated.
///
/// ```rust
/// use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};
///
/// #[tool(name = "echo", description = "Return the arguments unchanged.")]
/// pub struct Echo;
///
/// impl ToolHandler for Echo {
///     async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         Ok(input)
///     }
/// }
/// ```
///
/// # Execution policy
///
/// `timeout`, `blocking`, `sequential`, `requires_approval` and `retries` tell the executor
/// how to run the tool. They are part of the spec (`ToolSpec::timeout`, `is_blocking`,
/// `is_sequential`, `requires_approval`, `retries`, and the keys of the same names in its
/// JSON shape), checked at compile time like the rest:
///
/// ```rust
/// use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};
///
/// /// Render the monthly report: slow, synchronous, and it sends an email.
/// #[tool(
///     name = "send_report",
///     timeout = "30s",
///     blocking,
///     sequential,
///     requires_approval,
///     retries = 2,
/// )]
/// pub struct SendReport;
///
/// impl ToolHandler for SendReport {
///     async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         Ok(input)
///     }
/// }
/// ```
///
/// # Annotations and input examples
///
/// `title` and the hints say what a call does, for approval policies and MCP hosts to show
/// (`ToolSpec::annotations`); `read_only` together with `destructive` is refused, since a tool
/// that only reads destroys nothing. `examples` are inputs a good call would send, shown to
/// models that take them (Anthropic's `input_examples`; `ToolSpec::examples`). Each is
/// checked against `input` as the executor would check the call: every parameter of its type
/// and within its constraints, none missing, none undeclared, at any depth, every problem a
/// compile error on its token. An example is written as a `default` is: a map of literals,
/// with a name that is not an identifier in quotes (`{ "max-days" = 3 }`). They are kept as
/// written (no default filled in), at most 10, each at most 4096 bytes of JSON, since every
/// example is sent with every request.
///
/// ```rust
/// use agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};
///
/// /// Look up the weather forecast for a city.
/// #[tool(
///     name = "forecast",
///     title = "Weather forecast",
///     read_only,
///     open_world,
///     input = [
///         { name = "city", type = string },
///         { name = "days", type = integer, required = false, minimum = 1, maximum = 7, default = 1 },
///         { name = "units", type = string, required = false, enum = ["metric", "imperial"] },
///     ],
///     examples = [
///         { city = "Paris" },
///         { city = "Denver", days = 3, units = "imperial" },
///     ],
/// )]
/// pub struct Forecast;
///
/// impl ToolHandler for Forecast {
///     async fn run(&self, input: ForecastInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         let mut output = JsonObject::new();
///         output.insert("summary".into(), format!("{} days in {}", input.days, input.city).into());
///         Ok(output)
///     }
/// }
/// ```
///
/// With `input = SearchArgs` (a `#[derive(ToolParams)]` struct), the macro cannot see the
/// parameters, which another macro declares: it checks what it can (maps of literals, few and
/// short), and `ToolRegistry::register` checks each example against `SearchArgs`'
/// parameters, refusing the tool with the same words.
///
/// # Renamed dependency
///
/// The generated code reaches agentkit-core only through absolute paths, by default
/// `::agentkit_core`. If your crate names it differently, say so with `crate`:
///
/// ```rust
/// // Cargo.toml: agentkit = { package = "agentkit-core", version = "0.1", features = ["derive"] }
/// extern crate agentkit_core as agentkit; // (stands in for the renamed dependency)
///
/// use agentkit::{BoxError, JsonObject, ToolContext, ToolHandler};
///
/// #[agentkit::tool(crate = "agentkit", name = "ping")]
/// pub struct Ping;
///
/// impl ToolHandler for Ping {
///     async fn run(&self, input: JsonObject, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
///         Ok(input)
///     }
/// }
/// ```
///
/// # What the compiler catches
///
/// Every mistake in the attribute is a compile error on the token that is wrong, and all of
/// them are reported in one build, several in one parameter too (an invalid name and an
/// unknown type are two errors); a mistake that only follows from another (a misspelt
/// `requred = false` making the default look required) is not reported. The messages are those of the run-time `SemanticError`
/// for a spec loaded from JSON, from the same rule set.
///
/// | mistake | for example | error |
/// |---|---|---|
/// | no tool name | `#[tool(description = "...")]` | a tool name is required |
/// | malformed name | `name = "fetch weather"` | invalid tool name 'fetch weather': ' ' at position 5 is not allowed; ... |
/// | unknown key | `requred = false` | unknown key 'requred'; did you mean 'required'? |
/// | key written twice | `type = string, type = integer` | duplicate key 'type' |
/// | unknown type | `type = intger` | unknown type 'intger'; did you mean 'integer'? |
/// | a word of another schema language | `type = bool` (`object`, `array`, `number`, `int`, `str`), `parameters = [...]`, `desc = "..."` | unknown type 'bool'; did you mean 'boolean'? |
/// | type in quotes | `type = "string"` | 'type' takes one of string, integer, ... written without quotes |
/// | item type in a list | `items = [string]` | 'items' takes one type, written without brackets: write `items = string` |
/// | `required` spelt another way | `required = "false"`, `required = False` | 'required' takes `true` or `false`, without quotes: write `required = false` (in lowercase, for `False`) |
/// | number with a type suffix | `default = 20i64`, `default = 2.5f64` | 'default' takes a number without a type suffix: write `default = 20` |
/// | no comma between two parameters | `{ name = "a", ... } { name = "b", ... }` | expected `,` before `{`: the items of a list are separated by commas (on the second `{`) |
/// | `:` for `=` | `{ name: "city", type: string }` | expected `=` after `name`, found `:`: a key takes its value with `=`, as in `name = "city"`; the same goes for the other key written with `:` here (once per attribute, on the first `:`) |
/// | a parameter in parentheses | `( name = "city", type = string )` | expected `{`, found `(`: a parameter, like any map of `key = value` entries, is written in braces, ... (once per attribute) |
/// | two parameters in one pair of braces | `{ name = "amount", type = float, name = "currency", type = string }` | duplicate key 'name'; if a second parameter starts here, close the first before it: `}, {` |
/// | parameter without `name` or `type` | `{ name = "city" }` | missing 'type': every parameter needs a name and a type |
/// | malformed parameter name | `name = "zip code"` | invalid parameter name 'zip code': ... |
/// | parameter declared twice | two `{ name = "city", ... }` | duplicate parameter 'city' |
/// | two names, one field | `"max-days"` and `"max_days"` | parameters 'max-days' and 'max_days' would both be the field `max_days` ... |
/// | default of the wrong type | `type = integer, default = "3"` | parameter 'days': default of type 'string' does not fit the declared type 'integer' |
/// | default on a required parameter | `required = true, default = "US"` (or no `required`) | parameter 'country' is required and has a default, which would never be used; ... |
/// | not a literal | `default = imperial` | 'default' takes a literal: ... |
/// | `items` on a non-list | `type = string, items = string` | parameter 'city': 'items' declares the type of a list's items, but this parameter is a 'string' |
/// | default item of the wrong type | `items = string, default = ["web", 2]` | parameter 'sources': default value 'sources\[1\]' of type 'integer' does not fit the declared type 'string' |
/// | `fields` on a non-dictionary | `type = string, fields = [...]` | parameter 'origin': 'fields' declares the fields of a dictionary (or of a list's dictionary items), but this parameter is a 'string' |
/// | any mistake above inside `fields` | `fields = [{ name = "nights", type = intger }]` | unknown type 'intger'; did you mean 'integer'? (on the nested token) |
/// | field declared twice | two `{ name = "city", ... }` in one `fields` | duplicate parameter 'city' |
/// | default without a required field | `default = { meal = "veg" }`, `seat` required | parameter 'prefs': the default has no 'seat', a required field |
/// | default with an undeclared field | `default = { seat = "aisle", pet = "cat" }` | parameter 'prefs': the default has a field 'pet' that is not declared |
/// | default field of the wrong type | `default = { bags = "two" }`, `bags` an integer | parameter 'prefs': default value 'prefs.bags' of type 'string' does not fit the declared type 'integer' |
/// | any of these deeper in a default | `default = { stops = [{ city = "Nice", nights = "two" }] }` | parameter 'trip': default value 'trip.stops\[0\].nights' of type 'string' does not fit the declared type 'integer' |
/// | integer out of range | `default = 18446744073709551615` | parameter 'seed': default is an integer outside the 64-bit range |
/// | infinite float | `default = 1e400` | parameter 'scale': default is not a finite number; JSON has no NaN or infinity |
/// | default outside its `enum` | `enum = ["metric", "imperial"], default = "kelvin"` | parameter 'units': default must be one of 'metric', 'imperial', got 'kelvin' |
/// | default outside its bounds, at any depth | `maximum = 50, default = 80` | parameter 'limit': default must be at most 50, got 80 |
/// | empty `enum` | `enum = []` | parameter 'units': 'enum' is empty, so no value would be accepted; ... |
/// | `enum` value of the wrong type | `type = string, enum = ["metric", 3]` | parameter 'units': enum value 3 of type 'integer' does not fit the declared type 'string' |
/// | `enum` value listed twice | `enum = ["metric", "metric"]` | parameter 'units': 'enum' lists 'metric' twice |
/// | lower bound above the upper | `minimum = 50, maximum = 1` (or `min_length`, `min_items`) | parameter 'limit': 'minimum' (50) is greater than 'maximum' (1), so no value would be accepted |
/// | constraint on a type it does not apply to | `type = list, min_length = 1` | parameter 'tags': 'min_length' applies to string parameters, but this parameter is a 'list'; use 'min_items' |
/// | constraint value of the wrong kind | `maximum = "50"`, `min_items = -1` | 'maximum' takes a number, such as `minimum = 1` or `maximum = 0.5` |
/// | malformed version | `version = "1.0"`, `"1.0.0-beta"`, `"01.2.3"` | version '1.0' is not MAJOR.MINOR.PATCH (for example '1.0.0'): it has fewer than three numbers |
/// | credential named twice | `credentials = ["key", "key"]` | duplicate credential 'key' |
/// | malformed timeout | `timeout = "10"`, `"10 sec"`, `"0s"`, `"2d"` | invalid timeout "10": it has no unit; write a whole number followed by `ms`, `s`, `m` or `h`, such as "10s" or "500ms" |
/// | timeout not a string | `timeout = 10` | 'timeout' takes a string: a whole number and a unit (`ms`, `s`, `m` or `h`), ... |
/// | flag given a value that is not a boolean | `blocking = "yes"` | 'blocking' takes no value, or `true` or `false`: it is a flag, set by writing it alone |
/// | key that needs a value written alone | `timeout` | `timeout` is not a flag: it needs a value, such as `timeout = "10s"` |
/// | retries not a `u32` | `retries = -1`, `retries = 1.5`, `retries = 5000000000` | 'retries' takes a whole number from 0 to 4294967295, such as `retries = 2` |
/// | tag set twice | `tags = { team = "a", team = "b" }` | duplicate tag 'team' |
/// | tag two variants share | `variants = [{ tag = "click", ... }, { tag = "click", ... }]` | two variants of the union have the tag "click": ... (on the second) |
/// | definition that does not exist | `type = nod`, with `defs = { node = [...] }` | unknown type 'nod'; did you mean 'node'? |
/// | default or example that fits no variant | `default = { type = "scroll" }` | parameter 'action': the default's 'type' is "scroll", which names no variant of the union: its 'type' is one of "click", "wait" |
/// | unknown key in a variant | `{ tag = "click", feilds = [...] }` | unknown key 'feilds'; did you mean 'fields'? (a variant of a union takes `tag`, `description` and `fields`) |
/// | union without variants | `type = union, variants = []` | a union has at least one variant: ... |
/// | map without `values`, tuple without `items` | `type = map` | a map says the type its values share: add `values = ...`, ... |
/// | read-only and destructive | `read_only, destructive` (or `destructive = true`) | a tool cannot be both 'read_only' and 'destructive': a tool that only reads destroys nothing; drop one of them (on the second of the two) |
/// | hint given a value that is not a boolean | `idempotent = "yes"` | 'idempotent' takes no value, or `true` or `false`: a hint written alone is true, ... |
/// | MCP's name of a hint | `readOnlyHint` (`destructiveHint`, `openWorldHint`, ...) | unknown key 'readOnlyHint'; did you mean 'read_only'? |
/// | title not a string | `title = Delete` | 'title' takes a string, e.g. `title = "Delete a file"` |
/// | examples not a list of maps | `examples = { city = "Paris" }`, `examples = ["Paris"]` | 'examples' takes a list of maps, one per example, ... |
/// | example with an undeclared key | `{ ctiy = "Lyon" }` | input example 0: unknown parameter 'ctiy'; did you mean 'city'? (the `city` it leaves missing is not reported again) |
/// | example value of the wrong type | `{ city = "Lyon", days = "3" }` | input example 0: parameter 'days': a value of type 'string' does not fit the declared type 'integer' |
/// | example without a required parameter | `{ units = "metric" }` | input example 0: missing required parameter 'city' (on the example's braces) |
/// | example value breaking a constraint, at any depth | `{ city = "Lyon", days = 10 }` with `maximum = 7` | input example 0: parameter 'days': the value must be at most 7, got 10 |
/// | too many examples, or one too long | eleven examples | a tool has at most 10 input examples, and this one has 11: ... (on the eleventh) |
/// | not a struct | `#[tool] enum E {}` | #[tool] goes on a struct, not an enum: ... |
/// | on an impl block | `#[tool] impl FetchWeather { ... }` | #[tool] goes on the struct, not on an impl block: put `#[tool(...)]` on the struct `FetchWeather` itself, where it is declared |
/// | written twice | a second `#[tool(...)]` on the struct | #[tool] is repeated on `FetchWeather`: one #[tool(...)] declares the tool; merge the two into one |
/// | without the `derive` feature | `#[tool(...)]` | `#[tool]` needs the `derive` feature of agentkit-core: ... |
/// | generic struct | `struct S<T>` or `struct S<'a>` | #[tool] cannot serve a generic struct: ... |
/// | a field not `Send` and `Sync` | `cache: Rc<Cache>`, `calls: RefCell<i64>` | tools are shared across threads, so a tool's fields must be `Send` and `Sync`: `Rc<Cache>` is neither (on the field's type; your `impl ToolHandler` then reports what the struct lacks too) |
/// | no logic | no `impl ToolHandler for S` | the tool `S` has no logic: `ToolHandler` is not implemented for it |
///
/// When the attribute has a mistake, the struct and its input and output structs are still
/// generated, so the rest of your code compiles and each mistake is one error: every
/// parameter whose name could be read keeps its field, typed as it was meant (from a
/// misspelt key too: `tpye = boolean` still makes a `bool`; from a value refused but plainly
/// meant too: `required = "false"` still makes an `Option`, `items = [string]` a
/// `Vec<String>`); a type that cannot be read is guessed from the default, else it is a
/// `serde_json::Value`, the one type every argument fits. After a slip in the syntax (a
/// missing comma, `:` for `=`, a parameter in parentheses) the rest of the list is still
/// read. `#[tool]` on the `impl ToolHandler` block still gives the struct its input and
/// output structs and impls, and without the `derive` feature the struct still gets the
/// impls your `impl ToolHandler` and `register` need, so the one error says what to do.
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
