//! Stage 2: the typed model of a tool declaration, read from the entry tree of
//! [`crate::attr`] and the struct it is attached to.
//!
//! This stage reports what is wrong with a single key of `#[tool(...)]`: unknown or repeated
//! keys, values of the wrong shape (a timeout the shared rules refuse, a retry count that is
//! not a `u32`, a flag given something other than `true` or `false`, a key that needs a value
//! written alone), and structs the macro cannot serve; [`crate::decl`] reads each parameter.
//! Rules across several keys live in [`super::check`].
//!
//! The model is built even when something is wrong, with whatever could be read, so that
//! [`super::fallback`] can still generate the input and output structs and one mistake does
//! not cascade into errors in the user's `impl ToolHandler`.

use std::time::Duration;

use proc_macro2::{Punct, Spacing, Span, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, Lit};

use crate::ast::{DefaultLit, Param, Str};
use crate::attr::{self, Entry, Seen, Value, Written};
use crate::ctxt::{Ctxt, Reported};
use crate::decl;
use crate::forms::{self, Def};
use crate::rules::{self, Problem};
use crate::symbol::{
    self, BLOCKING, CRATE, CREDENTIALS, DEFS, DESCRIPTION, EXAMPLES, HINTS, INPUT, NAME, OUTPUT,
    REQUIRES_APPROVAL, RETRIES, SEQUENTIAL, Symbol, TAGS, TASK_SUPPORT, TIMEOUT, TITLE, VERSION,
};
use crate::value::{crate_path, default_in, doc_of, invalid, refused, string};

use super::repeat::Repeats;

/// A tool declaration: `#[tool(...)]` and its struct.
pub(crate) struct Tool<'a> {
    pub(crate) item: &'a DeriveInput,
    /// Whether `name = ...` is written (even with a value that did not parse).
    pub(crate) name_written: bool,
    pub(crate) name: Option<Str>,
    pub(crate) description: Option<String>,
    pub(crate) version: Option<Str>,
    pub(crate) input: Option<Vec<Param>>,
    pub(crate) output: Option<Vec<Param>>,
    /// `input = SearchArgs`: a struct deriving `ToolParams` in place of the list.
    pub(crate) input_type: Option<syn::Path>,
    /// `output = SearchResults`.
    pub(crate) output_type: Option<syn::Path>,
    pub(crate) tags: Vec<(Str, Str)>,
    pub(crate) credentials: Vec<Str>,
    pub(crate) policy: Policy,
    pub(crate) annotations: Annotations,
    /// `examples = [{ ... }, ...]`, each that is a map.
    pub(crate) examples: Vec<Example>,
    /// How many examples are written, maps or not.
    pub(crate) examples_written: usize,
    /// The path of `agentkit_core` in the user's crate.
    pub(crate) krate: TokenStream,
    /// `defs = { ... }`: the named definitions the parameters may refer to.
    pub(crate) defs: Vec<Def>,
    /// The error that leaves `TypedTool::Input` undecided, which types it in the fallback:
    /// `input` refused whole, or (set by [`Tool::merge_repeats`]) written twice, once as a
    /// type.
    pub(crate) input_undecided: Option<Reported>,
    /// The same for `output`.
    pub(crate) output_undecided: Option<Reported>,
    /// What the repeats of `input`, `output` and `defs` say, for the fallback.
    pub(crate) repeats: Repeats,
}

/// One input example `{ key = value, ... }`.
pub(crate) struct Example {
    /// Its position in `examples`, from 0, as messages count it.
    pub(crate) index: usize,
    /// The example, a dictionary literal as written.
    pub(crate) value: DefaultLit,
    /// Whether all of it could be read: if not (already reported), it is not checked against
    /// the parameters, where a value left out would look missing.
    pub(crate) complete: bool,
}

/// What the tool says of its effects: `title`, and the hints `read_only`, `destructive`,
/// `idempotent` and `open_world`.
#[derive(Default)]
pub(crate) struct Annotations {
    pub(crate) title: Option<Str>,
    /// Each hint written and read, with its value and where its key is written, in the order
    /// they are written.
    pub(crate) hints: Vec<(Symbol, bool, Span)>,
}

impl Annotations {
    /// The value of the hint `key`, and where its key is written, when it is set.
    pub(crate) fn hint(&self, key: Symbol) -> Option<(bool, Span)> {
        self.hints
            .iter()
            .find(|(hint, _, _)| *hint == key)
            .map(|(_, value, span)| (*value, *span))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.title.is_none() && self.hints.is_empty()
    }
}

/// How the executor runs the tool: `timeout`, the flags, `retries`.
#[derive(Default, PartialEq)]
pub(crate) struct Policy {
    /// Checked by the shared rules: more than zero, whole milliseconds, at most a day.
    pub(crate) timeout: Option<Duration>,
    pub(crate) blocking: bool,
    pub(crate) sequential: bool,
    pub(crate) requires_approval: bool,
    pub(crate) retries: Option<u32>,
    /// `task_support = "..."`: the variant of `TaskSupport` it names (`Optional`).
    pub(crate) task_support: Option<&'static str>,
}

impl Policy {
    /// The flag `key` sets, if `key` is a flag.
    fn flag_mut(&mut self, key: Symbol) -> Option<&mut bool> {
        match key {
            BLOCKING => Some(&mut self.blocking),
            SEQUENTIAL => Some(&mut self.sequential),
            REQUIRES_APPROVAL => Some(&mut self.requires_approval),
            _ => None,
        }
    }
}

impl<'a> Tool<'a> {
    /// Reads the attribute `args` on `item`, reporting every problem with a single key.
    pub(crate) fn from_ast(cx: &Ctxt, args: TokenStream, item: &'a DeriveInput) -> Self {
        check_item(cx, item);
        let mut tool = Tool {
            item,
            name_written: false,
            name: None,
            description: None,
            version: None,
            input: None,
            output: None,
            input_type: None,
            output_type: None,
            tags: Vec::new(),
            credentials: Vec::new(),
            policy: Policy::default(),
            annotations: Annotations::default(),
            examples: Vec::new(),
            examples_written: 0,
            krate: quote!(::agentkit_core),
            defs: Vec::new(),
            input_undecided: None,
            output_undecided: None,
            repeats: Repeats::default(),
        };
        let mut seen = Seen::default();
        let entries = attr::parse_entries(cx, args);
        // The definitions' names first: a parameter written before `defs` may name one.
        cx.set_defs(forms::read::def_names(&entries));
        for Entry { key, value } in entries {
            let symbol = match rules::check_tool_key(&key.text) {
                Ok(known) => Symbol::lookup(&symbol::TOOL_KEYS, known)
                    .expect("symbol::TOOL_KEYS lists every key of rules::TOOL_KEYS"),
                Err(problem) => {
                    cx.error(key.span, problem);
                    continue;
                }
            };
            if symbol == NAME {
                tool.name_written = true;
            }
            let before = cx.error_count();
            if !seen.first(cx, &key) {
                if let (Some(error), Written::Value(value)) = (cx.first_since(before), value) {
                    tool.repeats.read(cx, symbol, value, error);
                }
                continue;
            }
            if let Some(flag) = tool.policy.flag_mut(symbol) {
                if let Some(set) = flag_value(cx, symbol, value) {
                    *flag = set;
                }
                continue;
            }
            if HINTS.contains(&symbol) {
                if let Some(set) = hint_value(cx, symbol, value) {
                    tool.annotations.hints.push((symbol, set, key.span));
                }
                continue;
            }
            let value = match value {
                Written::Value(value) => value,
                Written::Bare => {
                    cx.error(
                        key.span,
                        format_args!(
                            "`{symbol}` is not a flag: it needs a value, such as `{}`",
                            example(symbol)
                        ),
                    );
                    continue;
                }
                Written::Broken => continue,
            };
            match symbol {
                NAME => {
                    tool.name =
                        string(cx, NAME, value, "a string, e.g. `name = \"fetch_weather\"`");
                }
                DESCRIPTION => {
                    tool.description = string(cx, DESCRIPTION, value, "a string").map(|s| s.value);
                }
                VERSION => {
                    tool.version =
                        string(cx, VERSION, value, "a string, e.g. `version = \"1.0.0\"`");
                }
                // Refused whole (`input = params!(..)`, `input = 5`): the handler names a type
                // the fallback cannot tell, so it is left undecided.
                INPUT => match schema_type(value) {
                    Ok(path) => tool.input_type = Some(path),
                    Err(value) => {
                        let before = cx.error_count();
                        tool.input = decl::params(cx, INPUT, value);
                        if tool.input.is_none() {
                            tool.input_undecided = cx.first_since(before);
                        }
                    }
                },
                OUTPUT => match schema_type(value) {
                    Ok(path) => tool.output_type = Some(path),
                    Err(value) => {
                        let before = cx.error_count();
                        tool.output = decl::params(cx, OUTPUT, value);
                        if tool.output.is_none() {
                            tool.output_undecided = cx.first_since(before);
                        }
                    }
                },
                TAGS => tool.tags = tags(cx, value),
                CREDENTIALS => tool.credentials = credentials(cx, value),
                TIMEOUT => tool.policy.timeout = timeout(cx, value),
                RETRIES => tool.policy.retries = retries(cx, value),
                TASK_SUPPORT => tool.policy.task_support = task_support(cx, value),
                TITLE => {
                    tool.annotations.title = string(
                        cx,
                        TITLE,
                        value,
                        "a string, e.g. `title = \"Delete a file\"`",
                    );
                }
                EXAMPLES => {
                    if let Value::List(_, items) = &value {
                        tool.examples_written = items.len();
                    }
                    tool.examples = examples(cx, value);
                }
                CRATE => {
                    if let Some(path) = crate_path(cx, value) {
                        tool.krate = path;
                    }
                }
                DEFS => tool.defs = forms::read::defs(cx, value),
                _ => unreachable!("every tool key is handled"),
            }
        }
        if tool.description.is_none() {
            tool.description = doc_comment(item);
        }
        tool
    }

    /// The version as the spec has it: `version = ...`, or `1.0.0`.
    pub(crate) fn version(&self) -> &str {
        self.version.as_ref().map_or("1.0.0", |v| v.value.as_str())
    }

    /// The tool's name as its spec has it: `name = ...`, or the struct's name when that could
    /// not be read (the fallback's documentation still names the tool).
    pub(crate) fn tool_name(&self) -> String {
        self.name
            .as_ref()
            .map_or_else(|| self.item.ident.to_string(), |name| name.value.clone())
    }

    /// Whether the input literal says something the six types cannot: its spec then declares
    /// the complete JSON Schema.
    pub(crate) fn uses_forms(&self) -> bool {
        self.input_type.is_none() && self.input.as_deref().is_some_and(forms::uses_forms)
    }

    /// Whether the output literal says something the six types cannot: its spec then
    /// declares the complete JSON Schema of the output.
    pub(crate) fn output_uses_forms(&self) -> bool {
        self.output_type.is_none() && self.output.as_deref().is_some_and(forms::uses_forms)
    }

    /// Whether the generated `Tool` impl can be written for the item: the `Tool` trait needs a
    /// `'static`, non-generic type, since its spec is one `static`.
    pub(crate) fn has_generics(&self) -> bool {
        !self.item.generics.params.is_empty()
    }
}

fn check_item(cx: &Ctxt, item: &DeriveInput) {
    const SHAPE: &str = "a tool is a struct, such as `pub struct FetchWeather;` or one holding \
                         its state, such as `pub struct FetchWeather { client: Client }`";
    match &item.data {
        Data::Struct(_) => {}
        Data::Enum(data) => cx.error(
            data.enum_token.span,
            format_args!("#[tool] goes on a struct, not an enum: {SHAPE}"),
        ),
        Data::Union(data) => cx.error(
            data.union_token.span,
            format_args!("#[tool] goes on a struct, not a union: {SHAPE}"),
        ),
    }
    let generics = &item.generics;
    if generics.lifetimes().next().is_some() {
        cx.error_spanned_by(
            generics,
            "#[tool] cannot serve a struct with a lifetime parameter: a registry keeps its \
             tools for as long as the agent runs, so a tool must own its data; hold a `String`, \
             an `Arc<...>` or another owned value instead of a reference",
        );
    } else if !generics.params.is_empty() {
        cx.error_spanned_by(
            generics,
            "#[tool] cannot serve a generic struct: the tool's spec is one `static` and its \
             input and output structs are generated once, so they need one concrete type; make \
             the fields concrete (a `Box<dyn Trait>` or `Arc<dyn Trait>` field keeps it flexible)",
        );
    }
}

/// The struct's doc comment as the tool's description, as [`doc_of`] reads it.
fn doc_comment(item: &DeriveInput) -> Option<String> {
    doc_of(&item.attrs)
}

fn tags(cx: &Ctxt, value: Value) -> Vec<(Str, Str)> {
    const EXPECTED: &str = "a map of strings, e.g. `tags = { category = \"weather\" }`";
    let Value::Map(_, entries) = value else {
        refused(cx, &value, TAGS, EXPECTED);
        return Vec::new();
    };
    entries
        .into_iter()
        .filter_map(|Entry { key, value }| {
            let value = string(cx, TAGS, value.value(cx, &key)?, EXPECTED)?;
            Some((
                Str {
                    value: key.text,
                    span: key.span,
                },
                value,
            ))
        })
        .collect()
}

fn credentials(cx: &Ctxt, value: Value) -> Vec<Str> {
    const EXPECTED: &str = "a list of credential names, e.g. `credentials = [\"weather-api-key\"]`";
    let Value::List(_, items) = value else {
        refused(cx, &value, CREDENTIALS, EXPECTED);
        return Vec::new();
    };
    items
        .into_iter()
        .filter_map(|item| string(cx, CREDENTIALS, item, EXPECTED))
        .collect()
}

/// How a key that takes a value is written, for the error on the key written alone.
fn example(key: Symbol) -> &'static str {
    match key {
        NAME => "name = \"fetch_weather\"",
        DESCRIPTION => "description = \"Look up the current weather for a city.\"",
        VERSION => "version = \"1.0.0\"",
        INPUT => "input = [{ name = \"city\", type = string }]",
        OUTPUT => "output = [{ name = \"temperature\", type = float }]",
        TAGS => "tags = { category = \"weather\" }",
        CREDENTIALS => "credentials = [\"weather-api-key\"]",
        TIMEOUT => "timeout = \"10s\"",
        RETRIES => "retries = 2",
        TASK_SUPPORT => "task_support = \"optional\"",
        TITLE => "title = \"Delete a file\"",
        EXAMPLES => "examples = [{ city = \"Paris\" }]",
        CRATE => "crate = \"agentkit\"",
        DEFS => "defs = { node = [{ name = \"children\", type = list, items = node }] }",
        _ => unreachable!("every tool key that takes a value has an example"),
    }
}

/// A flag: `key` alone is `true`; `key = true` and `key = false` say it explicitly.
fn flag_value(cx: &Ctxt, key: Symbol, value: Written) -> Option<bool> {
    const EXPECTED: &str = "no value, or `true` or `false`: it is a flag, set by writing it alone";
    match value {
        Written::Bare => Some(true),
        Written::Value(Value::Lit(Lit::Bool(b))) => Some(b.value),
        Written::Value(other) => {
            refused(cx, &other, key, EXPECTED);
            None
        }
        Written::Broken => None,
    }
}

/// A hint: `key` alone is `true`; `key = true` and `key = false` say it explicitly. Unlike a
/// flag's, a hint's `false` is not its absence: MCP's hints are unset, true or false, and an
/// unset one is read by the host's default (`open_world` unset is open).
fn hint_value(cx: &Ctxt, key: Symbol, value: Written) -> Option<bool> {
    const EXPECTED: &str = "no value, or `true` or `false`: a hint written alone is true, and \
                            `= false` says it is not, where leaving it out says nothing";
    match value {
        Written::Bare => Some(true),
        Written::Value(Value::Lit(Lit::Bool(b))) => Some(b.value),
        Written::Value(other) => {
            refused(cx, &other, key, EXPECTED);
            None
        }
        Written::Broken => None,
    }
}

/// `examples = [{ city = "Paris" }, ...]`: each example a map of literals, as a `default`
/// is written; a key written twice in one is reported by [`Seen`], as anywhere.
fn examples(cx: &Ctxt, value: Value) -> Vec<Example> {
    const EXPECTED: &str = "a list of maps, one per example, each giving parameters their \
                            values: `examples = [{ city = \"Paris\" }, { city = \"Lyon\", \
                            units = \"metric\" }]`";
    let Value::List(_, items) = value else {
        refused(cx, &value, EXAMPLES, EXPECTED);
        return Vec::new();
    };
    let mut examples = Vec::with_capacity(items.len());
    for (index, item) in items.into_iter().enumerate() {
        if !matches!(item, Value::Map(..)) {
            refused(cx, &item, EXAMPLES, EXPECTED);
            continue;
        }
        // Whether it is read whole: without an entry that did not parse, and without an
        // error while its values are read.
        let whole = item.is_whole();
        let before = cx.error_count();
        if let Some(value) = default_in(cx, EXAMPLES, item) {
            let complete = whole && cx.error_count() == before;
            examples.push(Example {
                index,
                value,
                complete,
            });
        }
    }
    examples
}

/// `timeout = "10s"`, read by the shared rules, so it is refused in the words a spec loaded
/// from JSON gets.
fn timeout(cx: &Ctxt, value: Value) -> Option<Duration> {
    const EXPECTED: &str = "a string: a whole number and a unit (`ms`, `s`, `m` or `h`), \
                            such as `timeout = \"10s\"` or `timeout = \"500ms\"`";
    match value {
        Value::Lit(Lit::Str(s)) => match rules::parse_timeout(&s.value()) {
            Ok(timeout) => Some(timeout),
            Err(problem) => {
                cx.error(s.span(), problem);
                None
            }
        },
        other => {
            refused(cx, &other, TIMEOUT, EXPECTED);
            None
        }
    }
}

/// `task_support = "optional"`: whether the tool runs as a task when served over MCP; the
/// variant of `TaskSupport` the value names.
fn task_support(cx: &Ctxt, value: Value) -> Option<&'static str> {
    const EXPECTED: &str = "\"forbidden\", \"optional\" or \"required\", \
                            such as `task_support = \"optional\"`";
    let written = string(cx, TASK_SUPPORT, value, EXPECTED)?;
    let variant = match written.value.as_str() {
        "forbidden" => "Forbidden",
        "optional" => "Optional",
        "required" => "Required",
        _ => {
            invalid(cx, written.span, TASK_SUPPORT, EXPECTED);
            return None;
        }
    };
    Some(variant)
}

/// `retries = 2`: how many times per turn the tool may ask the model to retry, a `u32`.
fn retries(cx: &Ctxt, value: Value) -> Option<u32> {
    const EXPECTED: &str = "a whole number from 0 to 4294967295, such as `retries = 2`";
    match value {
        Value::Lit(Lit::Int(n)) if n.suffix().is_empty() => match n.base10_parse::<u32>() {
            Ok(n) => Some(n),
            Err(_) => {
                invalid(cx, n.span(), RETRIES, EXPECTED);
                None
            }
        },
        // The whole `-1` is the mistake, not its `-`.
        Value::Neg(minus, n) => {
            let mut minus_token = Punct::new('-', Spacing::Alone);
            minus_token.set_span(minus);
            cx.error_spanned_by(
                quote!(#minus_token #n),
                Problem::InvalidKeyValue {
                    key: RETRIES.as_str(),
                    expected: EXPECTED,
                },
            );
            None
        }
        other => {
            refused(cx, &other, RETRIES, EXPECTED);
            None
        }
    }
}

/// `input = SearchArgs` (or a path, `args::SearchArgs`): the type whose `ToolParams` are the
/// parameters. Any other value is given back, to be read as a list of parameters.
pub(super) fn schema_type(value: Value) -> Result<syn::Path, Value> {
    match value {
        Value::Ident(ident) => Ok(syn::Path::from(ident)),
        Value::Path(path) => Ok(path),
        other => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use syn::DeriveInput;

    use super::*;

    #[test]
    fn doc_comments_join_lines_and_keep_paragraphs() {
        let item: DeriveInput = syn::parse_quote! {
            /// First line
            /// continues.
            ///
            /// Second paragraph.
            struct S;
        };
        assert_eq!(
            doc_comment(&item).as_deref(),
            Some("First line continues.\n\nSecond paragraph.")
        );
    }
}
