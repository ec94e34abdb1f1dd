//! Stage 2: the typed model of a tool declaration, read from the entry tree of
//! [`crate::attr`] and the struct it is attached to.
//!
//! This stage reports what is wrong with a single key: unknown or repeated keys, values of
//! the wrong shape (a timeout the shared rules refuse, a retry count that is not a `u32`, a
//! flag given something other than `true` or `false`, a key that needs a value written
//! alone), unknown types, parameters without `name` or `type`, and structs the macro cannot
//! serve. Rules across several keys live in [`crate::check`].
//!
//! The model is built even when something is wrong, with whatever could be read, so that
//! [`crate::fallback`] can still generate the input and output structs and one mistake does
//! not cascade into errors in the user's `impl ToolHandler`.

use std::borrow::Cow;
use std::time::Duration;

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Expr, ExprLit, Lit, Meta};

use crate::attr::{self, Entry, Key, Value, Written};
use crate::ctxt::Ctxt;
use crate::rules::{self, Literal, NameKind, ParamType, Problem, ValueKind};
use crate::symbol::{
    self, BLOCKING, CRATE, CREDENTIALS, DEFAULT, DESCRIPTION, ENUM, FIELDS, INPUT, ITEMS,
    MAX_ITEMS, MAX_LENGTH, MAXIMUM, MIN_ITEMS, MIN_LENGTH, MINIMUM, NAME, OUTPUT, REQUIRED,
    REQUIRES_APPROVAL, RETRIES, SEQUENTIAL, Symbol, TAGS, TIMEOUT, TYPE, VERSION,
};

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
    /// The path of `agentkit_core` in the user's crate.
    pub(crate) krate: TokenStream,
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

/// A string and where it is written.
pub(crate) struct Str {
    pub(crate) value: String,
    pub(crate) span: Span,
}

/// One parameter declaration `{ name = ..., type = ..., ... }`.
pub(crate) struct Param {
    pub(crate) name: Option<Str>,
    pub(crate) ty: Option<Ty>,
    /// `required = ...`: the value and where it is written.
    pub(crate) required: Option<(bool, Span)>,
    /// Whether `required` could not be read (a value that is not a boolean, or the key
    /// misspelt): rules that depend on it do not run on a guess.
    pub(crate) required_unknown: bool,
    pub(crate) default: Option<DefaultLit>,
    /// The default as the shared rules read it.
    pub(crate) default_literal: Option<Literal>,
    /// Whether a default is written under a misspelt key: the fallback's field is then not an
    /// `Option`, as it would be once the key is fixed.
    pub(crate) default_guessed: bool,
    pub(crate) description: Option<String>,
    /// `items = ...`: the type of a list's items, and where it is written.
    pub(crate) items: Option<(Ty, Span)>,
    /// `fields = [...]`: the declared fields of a dictionary (or of a list's dictionary
    /// items), and where the key `fields` is written.
    pub(crate) fields: Option<(Vec<Param>, Span)>,
    /// The constraints (`enum`, `minimum`, ...) that could be read.
    pub(crate) constraints: rules::Constraints,
    /// Where each constraint read is written: its key, and its value.
    pub(crate) constraint_spans: Vec<(&'static str, Span, Span)>,
    /// Where each `enum` value is written.
    pub(crate) enum_spans: Vec<Span>,
    /// Whether a constraint could not be read (already reported): the default is then not
    /// checked against the others, which may be what was meant.
    pub(crate) constraints_unknown: bool,
}

/// A parameter type as written.
#[derive(Clone, Copy)]
pub(crate) struct Ty {
    pub(crate) ty: ParamType,
    /// Guessed from a misspelling that is already reported; checks that depend on the type
    /// skip a guess, the fallback uses it.
    pub(crate) guessed: bool,
}

/// A default value and where it is written.
pub(crate) struct DefaultLit {
    pub(crate) span: Span,
    pub(crate) value: DefaultValue,
}

/// A default value: the JSON values a literal can spell.
pub(crate) enum DefaultValue {
    String(String),
    Integer(i64),
    /// An integer literal outside the 64-bit range, refused by the shared rules.
    OutOfRange(i128),
    /// Any float literal, infinite ones (`1e400`) included: the shared rules refuse those.
    Float(f64),
    Boolean(bool),
    List(Vec<DefaultLit>),
    /// The entries, each key with where it is written.
    Dictionary(Vec<(Str, DefaultLit)>),
}

impl DefaultLit {
    /// The value as the shared rules (and the generated `Literal`) read it.
    pub(crate) fn to_literal(&self) -> Literal {
        match &self.value {
            DefaultValue::String(s) => Literal::String(Cow::Owned(s.clone())),
            DefaultValue::Integer(i) => Literal::Integer(*i),
            DefaultValue::OutOfRange(i) => Literal::OutOfRange(*i),
            DefaultValue::Float(f) => Literal::Float(*f),
            DefaultValue::Boolean(b) => Literal::Boolean(*b),
            DefaultValue::List(items) => Literal::List(Cow::Owned(
                items.iter().map(DefaultLit::to_literal).collect(),
            )),
            DefaultValue::Dictionary(entries) => Literal::Dictionary(Cow::Owned(
                entries
                    .iter()
                    .map(|(key, value)| (Cow::Owned(key.value.clone()), value.to_literal()))
                    .collect(),
            )),
        }
    }
}

impl Param {
    /// Whether the argument must be present: `required` defaults to `true`, as in the Python original.
    pub(crate) fn is_required(&self) -> bool {
        self.required.is_none_or(|(required, _)| required)
    }

    /// The field of the parameter in the generated struct: its name with `-` as `_`, as a raw
    /// identifier if it is a keyword. `None` if the name is missing or invalid.
    pub(crate) fn field(&self) -> Option<Ident> {
        let name = self.name.as_ref()?;
        rules::check_name(NameKind::Parameter, &name.value).ok()?;
        Some(field_ident(name.value.replace('-', "_")))
    }

    /// For the fallback, the field of a parameter whose name is refused: what the handler
    /// most likely calls it (`zip code` as `zip_code`, `enabled?` as `enabled`), if that is
    /// an identifier.
    pub(crate) fn fallback_field(&self) -> Option<Ident> {
        let name = &self.name.as_ref()?.value;
        let words: Vec<&str> = name
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| !word.is_empty())
            .collect();
        let text = words.join("_");
        text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            .then(|| field_ident(text))
    }
}

/// The identifier for a field named `text` (ASCII letters, digits and `_`, not starting with
/// a digit): a raw identifier if it is a keyword.
fn field_ident(text: String) -> Ident {
    let span = Span::call_site();
    match text.as_str() {
        // Keywords that cannot be raw identifiers, and `_`.
        "_" | "self" | "Self" | "super" | "crate" => format_ident!("{}_", text, span = span),
        // `gen` is reserved in edition 2024 but not a keyword to syn.
        "gen" => Ident::new_raw(&text, span),
        _ if syn::parse_str::<Ident>(&text).is_err() => Ident::new_raw(&text, span),
        _ => Ident::new(&text, span),
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
            krate: quote!(::agentkit_core),
        };
        let mut seen = Seen::default();
        for Entry { key, value } in attr::parse_entries(cx, args) {
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
            if !seen.first(cx, &key) {
                continue;
            }
            if let Some(flag) = tool.policy.flag_mut(symbol) {
                if let Some(set) = flag_value(cx, symbol, value) {
                    *flag = set;
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
                INPUT => match schema_type(value) {
                    Ok(path) => tool.input_type = Some(path),
                    Err(value) => tool.input = params(cx, INPUT, value),
                },
                OUTPUT => match schema_type(value) {
                    Ok(path) => tool.output_type = Some(path),
                    Err(value) => tool.output = params(cx, OUTPUT, value),
                },
                TAGS => tool.tags = tags(cx, value),
                CREDENTIALS => tool.credentials = credentials(cx, value),
                TIMEOUT => tool.policy.timeout = timeout(cx, value),
                RETRIES => tool.policy.retries = retries(cx, value),
                CRATE => {
                    if let Some(path) = crate_path(cx, value) {
                        tool.krate = path;
                    }
                }
                _ => unreachable!("every tool key is handled"),
            }
        }
        if tool.description.is_none() {
            tool.description = doc_comment(item);
        }
        tool
    }

    /// Whether the generated `Tool` impl can be written for the item: the `Tool` trait needs a
    /// `'static`, non-generic type, since its spec is one `static`.
    pub(crate) fn has_generics(&self) -> bool {
        !self.item.generics.params.is_empty()
    }
}

/// The keys already seen in one `{...}` or attribute: the one place that reports a repeated
/// key, at every level.
#[derive(Default)]
struct Seen(Vec<String>);

impl Seen {
    /// `true` the first time `key` is seen; reports it and returns `false` after that.
    fn first(&mut self, cx: &Ctxt, key: &Key) -> bool {
        if self.0.contains(&key.text) {
            cx.error(
                key.span,
                Problem::DuplicateKey {
                    key: key.text.clone(),
                },
            );
            false
        } else {
            self.0.push(key.text.clone());
            true
        }
    }

    fn contains(&self, key: Symbol) -> bool {
        self.0.iter().any(|seen| seen == key.as_str())
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

/// The struct's doc comment as a description: lines of a paragraph joined by a space,
/// paragraphs by a blank line, so that the wrapping of the source does not reach the model.
fn doc_comment(item: &DeriveInput) -> Option<String> {
    doc_of(&item.attrs)
}

/// The doc comment in `attrs`, as [`doc_comment`] joins it.
pub(crate) fn doc_of(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta {
            if nv.path.is_ident("doc") {
                if let Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) = &nv.value
                {
                    lines.extend(s.value().split('\n').map(|line| line.trim().to_owned()));
                }
            }
        }
    }
    let paragraphs: Vec<String> = lines
        .split(String::is_empty)
        .filter(|paragraph| !paragraph.is_empty())
        .map(|paragraph| paragraph.join(" "))
        .collect();
    if paragraphs.is_empty() {
        None
    } else {
        Some(paragraphs.join("\n\n"))
    }
}

fn invalid(cx: &Ctxt, span: Span, key: Symbol, expected: &'static str) {
    cx.error(
        span,
        Problem::InvalidKeyValue {
            key: key.as_str(),
            expected,
        },
    );
}

pub(crate) fn string(cx: &Ctxt, key: Symbol, value: Value, expected: &'static str) -> Option<Str> {
    match value {
        Value::Lit(Lit::Str(s)) => Some(Str {
            value: s.value(),
            span: s.span(),
        }),
        other => {
            invalid(cx, other.span(), key, expected);
            None
        }
    }
}

pub(crate) fn crate_path(cx: &Ctxt, value: Value) -> Option<TokenStream> {
    const EXPECTED: &str = "the path of agentkit-core as your crate names it, \
                            e.g. `crate = \"agentkit\"`";
    match value {
        Value::Lit(Lit::Str(s)) => match s.parse::<syn::Path>() {
            Ok(path) => Some(quote!(#path)),
            Err(_) => {
                invalid(cx, s.span(), CRATE, EXPECTED);
                None
            }
        },
        other => {
            invalid(cx, other.span(), CRATE, EXPECTED);
            None
        }
    }
}

fn tags(cx: &Ctxt, value: Value) -> Vec<(Str, Str)> {
    const EXPECTED: &str = "a map of strings, e.g. `tags = { category = \"weather\" }`";
    let Value::Map(_, entries) = value else {
        invalid(cx, value.span(), TAGS, EXPECTED);
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
        invalid(cx, value.span(), CREDENTIALS, EXPECTED);
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
        CRATE => "crate = \"agentkit\"",
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
            invalid(cx, other.span(), key, EXPECTED);
            None
        }
        Written::Broken => None,
    }
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
            invalid(cx, other.span(), TIMEOUT, EXPECTED);
            None
        }
    }
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
            invalid(cx, other.span(), RETRIES, EXPECTED);
            None
        }
    }
}

/// `input = SearchArgs` (or a path, `args::SearchArgs`): the type whose `ToolParams` are the
/// parameters. Any other value is given back, to be read as a list of parameters.
fn schema_type(value: Value) -> Result<syn::Path, Value> {
    match value {
        Value::Ident(ident) => Ok(syn::Path::from(ident)),
        Value::Path(path) => Ok(path),
        other => Err(other),
    }
}

fn params(cx: &Ctxt, key: Symbol, value: Value) -> Option<Vec<Param>> {
    const EXPECTED: &str = "a list of parameters, e.g. `[{ name = \"city\", type = string }, ...]`";
    let expected = if key == FIELDS {
        EXPECTED
    } else {
        "a list of parameters, e.g. `[{ name = \"city\", type = string }, ...]`, or a struct \
         deriving `ToolParams`, e.g. `input = SearchArgs`"
    };
    let Value::List(_, items) = value else {
        invalid(cx, value.span(), key, expected);
        return None;
    };
    Some(
        items
            .into_iter()
            .filter_map(|item| match item {
                Value::Map(span, entries) => Some(param(cx, span, entries)),
                other => {
                    invalid(cx, other.span(), key, expected);
                    None
                }
            })
            .collect(),
    )
}

fn param(cx: &Ctxt, span: Span, entries: Vec<Entry>) -> Param {
    read_param(cx, span, entries, Param::empty(), false)
}

/// The keys `#[param(...)]` takes on a field of a `#[derive(ToolParams)]` struct: those of a
/// parameter that the field's name and Rust type do not already say, and `rename`.
pub(crate) const FIELD_KEYS: [&str; 10] = [
    "rename",
    "default",
    "description",
    "enum",
    "minimum",
    "maximum",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
];

/// Reads `#[param(...)]` on a field into `base`, whose name, type, `required` and `items`
/// come from the field; `rename` is read by the caller and left out of `entries`.
pub(crate) fn field_param(cx: &Ctxt, entries: Vec<Entry>, base: Param) -> Param {
    read_param(cx, Span::call_site(), entries, base, true)
}

impl Param {
    /// A parameter of which nothing is known yet.
    pub(crate) fn empty() -> Self {
        Param {
            name: None,
            ty: None,
            required: None,
            required_unknown: false,
            default: None,
            default_literal: None,
            default_guessed: false,
            description: None,
            items: None,
            fields: None,
            constraints: rules::Constraints::NONE,
            constraint_spans: Vec::new(),
            enum_spans: Vec::new(),
            constraints_unknown: false,
        }
    }
}

/// The keys of a parameter written in `entries`, onto `param`. On a field (`on_field`), the
/// keys the field itself says are refused, and none is missing.
fn read_param(cx: &Ctxt, span: Span, entries: Vec<Entry>, base: Param, on_field: bool) -> Param {
    let mut param = base;
    let mut seen = Seen::default();
    // The keys that unknown keys look like misspellings of: reported as such, they are not
    // reported missing too, and what depends on them is not checked on a guess.
    let mut misspelt: Vec<&'static str> = Vec::new();
    // What those keys say, read without a word, for the fallback's field types only.
    let mut guess = Guess::default();
    for Entry { key, value } in entries {
        let symbol = match rules::check_param_key(&key.text) {
            Ok(known) if on_field && !FIELD_KEYS.contains(&known) => {
                cx.error(key.span, field_says(known));
                continue;
            }
            Ok(known) => Symbol::lookup(&symbol::PARAM_KEYS, known)
                .expect("symbol::PARAM_KEYS lists every key of rules::PARAM_KEYS"),
            Err(_) if on_field => {
                let suggestion = rules::suggest(&key.text, FIELD_KEYS.iter().copied());
                cx.error(
                    key.span,
                    Problem::UnknownKey {
                        found: key.text.clone(),
                        suggestion,
                        allowed: &FIELD_KEYS,
                    },
                );
                continue;
            }
            Err(problem) => {
                if let Problem::UnknownKey {
                    suggestion: Some(suggestion),
                    ..
                } = &problem
                {
                    misspelt.push(*suggestion);
                    if let (Some(meant), Written::Value(value)) =
                        (Symbol::lookup(&symbol::PARAM_KEYS, suggestion), value)
                    {
                        guess.read(meant, value);
                    }
                }
                cx.error(key.span, problem);
                continue;
            }
        };
        if !seen.first(cx, &key) {
            continue;
        }
        let Some(value) = value.value(cx, &key) else {
            if symbol == REQUIRED {
                param.required_unknown = true;
            }
            if rules::CONSTRAINT_KEYS.contains(&symbol.as_str()) {
                param.constraints_unknown = true;
            }
            continue;
        };
        if rules::CONSTRAINT_KEYS.contains(&symbol.as_str()) {
            let value_span = value.span();
            if constraint(cx, symbol, value, &mut param) {
                param
                    .constraint_spans
                    .push((symbol.as_str(), key.span, value_span));
            } else {
                param.constraints_unknown = true;
            }
            continue;
        }
        match symbol {
            // `name = city` is refused, but names the field the handler reads.
            NAME => match value {
                Value::Ident(ident) => {
                    cx.error(
                        ident.span(),
                        format_args!("'name' takes a string: write `name = \"{ident}\"`"),
                    );
                    guess.name = Some(Str {
                        value: ident.to_string(),
                        span: ident.span(),
                    });
                }
                value => {
                    param.name = string(cx, NAME, value, "a string, e.g. `name = \"city\"`");
                }
            },
            TYPE => param.ty = param_type(cx, TYPE, value),
            ITEMS => {
                let span = value.span();
                param.items = param_type(cx, ITEMS, value).map(|ty| (ty, span));
            }
            // The same keys and rules as a parameter, as deep as it goes.
            FIELDS => param.fields = params(cx, FIELDS, value).map(|fields| (fields, key.span)),
            REQUIRED => match value {
                Value::Lit(Lit::Bool(b)) => param.required = Some((b.value, b.span)),
                other => {
                    param.required_unknown = true;
                    invalid(cx, other.span(), REQUIRED, "`true` or `false`");
                }
            },
            DEFAULT => {
                param.default = default(cx, value);
                param.default_literal = param.default.as_ref().map(DefaultLit::to_literal);
            }
            DESCRIPTION => {
                param.description = string(cx, DESCRIPTION, value, "a string").map(|s| s.value);
            }
            _ => unreachable!("every parameter key is handled"),
        }
    }
    for key in [NAME, TYPE] {
        if !on_field && !seen.contains(key) && !misspelt.contains(&key.as_str()) {
            cx.error(span, Problem::MissingKey { key: key.as_str() });
        }
    }
    if param.required.is_none() && misspelt.contains(&REQUIRED.as_str()) {
        param.required_unknown = true;
    }
    if misspelt
        .iter()
        .any(|key| rules::CONSTRAINT_KEYS.contains(key))
    {
        param.constraints_unknown = true;
    }
    guess.apply(&mut param);
    param
}

/// Why `#[param(...)]` refuses `key`: the field already says it.
fn field_says(key: &str) -> String {
    let how = match key {
        "name" => {
            "the parameter is named after the field; to name it otherwise, write `rename = \"...\"`"
        }
        "type" => {
            "the parameter's type is the field's Rust type (`String`, `i64`, `f64`, `bool`, `Vec<T>`, ...)"
        }
        "required" => "a field is required unless its type is an `Option<T>` or it has a `default`",
        "items" => "a list's items have the type of the `Vec`'s items (`Vec<String>`)",
        _ => {
            "a dictionary's fields are those of the struct that is the field's type, deriving `ToolParams` too"
        }
    };
    format!("`{key}` is not written in #[param(...)]: {how}")
}

/// Reads the constraint `key` into `param`; `false` (reported) when its value cannot be read.
fn constraint(cx: &Ctxt, key: Symbol, value: Value, param: &mut Param) -> bool {
    const NUMBER: &str = "a number, such as `minimum = 1` or `maximum = 0.5`";
    const ENUM_VALUES: &str =
        "a list of the allowed values, such as `enum = [\"metric\", \"imperial\"]`";
    let c = &mut param.constraints;
    match key {
        ENUM => {
            let Value::List(_, items) = value else {
                invalid(cx, value.span(), ENUM, ENUM_VALUES);
                return false;
            };
            let mut values = Vec::with_capacity(items.len());
            let mut ok = true;
            for item in items {
                let span = item.span();
                match default_in(cx, ENUM, item) {
                    // A list or a dictionary is no enum value; the shared rules say so in
                    // the words of a type mismatch.
                    Some(lit) => {
                        values.push(lit.to_literal());
                        param.enum_spans.push(span);
                    }
                    None => ok = false,
                }
            }
            // An `enum` with a value that could not be read is not checked on a guess.
            if ok {
                c.enum_values = Some(Cow::Owned(values));
            } else {
                param.enum_spans.clear();
            }
            ok
        }
        MINIMUM | MAXIMUM => {
            let number = match value {
                Value::Lit(Lit::Int(i)) => integer_in(cx, key, &i, false),
                Value::Neg(_, Lit::Int(i)) => integer_in(cx, key, &i, true),
                Value::Lit(Lit::Float(f)) => float_in(cx, key, &f, false).map(DefaultValue::Float),
                Value::Neg(_, Lit::Float(f)) => {
                    float_in(cx, key, &f, true).map(DefaultValue::Float)
                }
                other => {
                    invalid(cx, other.span(), key, NUMBER);
                    return false;
                }
            };
            let number = match number {
                Some(DefaultValue::Integer(i)) => rules::Number::Integer(i),
                #[allow(clippy::cast_precision_loss)]
                Some(DefaultValue::OutOfRange(i)) => rules::Number::Float(i as f64),
                Some(DefaultValue::Float(f)) => rules::Number::Float(f),
                _ => return false,
            };
            if key == MINIMUM {
                c.minimum = Some(number);
            } else {
                c.maximum = Some(number);
            }
            true
        }
        _ => {
            let count = match &value {
                Value::Lit(Lit::Int(n)) if n.suffix().is_empty() => n.base10_parse::<usize>().ok(),
                _ => None,
            };
            let expected = match key {
                MIN_LENGTH => "a whole number, 0 or more, such as `min_length = 1`",
                MAX_LENGTH => "a whole number, 0 or more, such as `max_length = 100`",
                MIN_ITEMS => "a whole number, 0 or more, such as `min_items = 1`",
                _ => "a whole number, 0 or more, such as `max_items = 10`",
            };
            let Some(count) = count else {
                if let Value::Neg(minus, n) = value {
                    let mut minus_token = Punct::new('-', Spacing::Alone);
                    minus_token.set_span(minus);
                    cx.error_spanned_by(
                        quote!(#minus_token #n),
                        Problem::InvalidKeyValue {
                            key: key.as_str(),
                            expected,
                        },
                    );
                } else {
                    invalid(cx, value.span(), key, expected);
                }
                return false;
            };
            let slot = match key {
                MIN_LENGTH => &mut c.min_length,
                MAX_LENGTH => &mut c.max_length,
                MIN_ITEMS => &mut c.min_items,
                MAX_ITEMS => &mut c.max_items,
                _ => unreachable!("every constraint key is handled"),
            };
            *slot = Some(count);
            true
        }
    }
}

/// What a parameter's misspelt or refused keys would have said, read silently (each is
/// already reported): the fallback gives the field the type it was meant to have, so the
/// handler that uses it still type-checks. Checks never see a guess, except a guessed name.
#[derive(Default)]
struct Guess {
    name: Option<Str>,
    ty: Option<Ty>,
    items: Option<(Ty, Span)>,
    required: Option<(bool, Span)>,
    default: Option<DefaultLit>,
}

impl Guess {
    /// Reads `value` as the value of `key`, reporting nothing.
    fn read(&mut self, key: Symbol, value: Value) {
        let quiet = Ctxt::new();
        let guessed = |ty: Option<Ty>| {
            ty.map(|ty| Ty {
                guessed: true,
                ..ty
            })
        };
        match key {
            NAME => self.name = string(&quiet, NAME, value, ""),
            TYPE => self.ty = guessed(param_type(&quiet, TYPE, value)),
            ITEMS => {
                let span = value.span();
                self.items = guessed(param_type(&quiet, ITEMS, value)).map(|ty| (ty, span));
            }
            REQUIRED => {
                if let Value::Lit(Lit::Bool(b)) = value {
                    self.required = Some((b.value, b.span));
                }
            }
            DEFAULT => self.default = default(&quiet, value),
            _ => {}
        }
        // Errors in a value under a misspelt key are left for after its key is fixed.
        let _ = quiet.check();
    }

    fn apply(self, param: &mut Param) {
        // A name is checked like one written correctly: its own mistakes are real ones.
        if param.name.is_none() {
            param.name = self.name;
        }
        if param.ty.is_none() {
            // Without a readable type, the default's says what the parameter is.
            param.ty = self.ty.or_else(|| {
                let default = param.default.as_ref().or(self.default.as_ref())?;
                let ty = match default.to_literal().kind() {
                    ValueKind::Integer => ParamType::Integer,
                    ValueKind::Float => ParamType::Float,
                    ValueKind::String => ParamType::String,
                    ValueKind::Boolean => ParamType::Boolean,
                    ValueKind::List => ParamType::List,
                    ValueKind::Dictionary => ParamType::Dictionary,
                    ValueKind::Null => return None,
                };
                Some(Ty { ty, guessed: true })
            });
        }
        if param.items.is_none() {
            param.items = self.items;
        }
        if param.required.is_none() && self.required.is_some() {
            param.required = self.required;
            param.required_unknown = true;
        }
        if param.default.is_none() && self.default.is_some() {
            param.default_guessed = true;
        }
    }
}

fn param_type(cx: &Ctxt, key: Symbol, value: Value) -> Option<Ty> {
    const EXPECTED: &str = "one of string, integer, float, boolean, list, dictionary, \
                            written without quotes, e.g. `type = string`";
    const EXPECTED_ITEMS: &str = "one of string, integer, float, boolean, list, dictionary, \
                                  written without quotes, e.g. `items = string`";
    let expected = if key == ITEMS {
        EXPECTED_ITEMS
    } else {
        EXPECTED
    };
    match value {
        Value::Ident(ident) => {
            let span = ident.span();
            match ident.to_string().parse::<ParamType>() {
                Ok(ty) => Some(Ty { ty, guessed: false }),
                Err(problem) => {
                    let guess = match &problem {
                        Problem::UnknownType { suggestion, .. } => {
                            suggestion.and_then(ParamType::from_name)
                        }
                        _ => None,
                    };
                    cx.error(span, problem);
                    guess.map(|ty| Ty { ty, guessed: true })
                }
            }
        }
        Value::Lit(Lit::Str(s)) => {
            invalid(cx, s.span(), key, expected);
            // `"string"`, and `"bool"` as what it stands for, give the fallback its type.
            let guess = match s.value().parse::<ParamType>() {
                Ok(ty) => Some(ty),
                Err(Problem::UnknownType { suggestion, .. }) => {
                    suggestion.and_then(ParamType::from_name)
                }
                Err(_) => None,
            };
            guess.map(|ty| Ty { ty, guessed: true })
        }
        other => {
            invalid(cx, other.span(), key, expected);
            None
        }
    }
}

fn default(cx: &Ctxt, value: Value) -> Option<DefaultLit> {
    default_in(cx, DEFAULT, value)
}

/// A literal written as the value of `key` (a `default`, or an `enum` value).
fn default_in(cx: &Ctxt, key: Symbol, value: Value) -> Option<DefaultLit> {
    const EXPECTED: &str = "a literal: a string, a number, `true`, `false`, a list `[...]` \
                            or a dictionary `{ key = value }`";
    let span = value.span();
    let value = match value {
        Value::Lit(Lit::Str(s)) => DefaultValue::String(s.value()),
        Value::Lit(Lit::Bool(b)) => DefaultValue::Boolean(b.value),
        Value::Lit(Lit::Int(i)) => integer_in(cx, key, &i, false)?,
        Value::Neg(_, Lit::Int(i)) => integer_in(cx, key, &i, true)?,
        Value::Lit(Lit::Float(f)) => DefaultValue::Float(float_in(cx, key, &f, false)?),
        Value::Neg(_, Lit::Float(f)) => DefaultValue::Float(float_in(cx, key, &f, true)?),
        Value::List(_, items) => DefaultValue::List(
            items
                .into_iter()
                .filter_map(|item| default_in(cx, key, item))
                .collect(),
        ),
        Value::Map(_, entries) => {
            let mut seen = Seen::default();
            DefaultValue::Dictionary(
                entries
                    .into_iter()
                    .filter(|entry| seen.first(cx, &entry.key))
                    .filter_map(|Entry { key, value }| {
                        let value = value.value(cx, &key)?;
                        let key = Str {
                            value: key.text,
                            span: key.span,
                        };
                        Some((key, default_in(cx, DEFAULT, value)?))
                    })
                    .collect(),
            )
        }
        other => {
            invalid(cx, other.span(), key, EXPECTED);
            return None;
        }
    };
    Some(DefaultLit { span, value })
}

/// An integer literal; one outside the 64-bit range is kept, for the shared rules to refuse
/// in the words validation uses.
fn integer_in(cx: &Ctxt, key: Symbol, lit: &syn::LitInt, negative: bool) -> Option<DefaultValue> {
    if !lit.suffix().is_empty() {
        invalid(cx, lit.span(), key, "a number without a type suffix");
        return None;
    }
    // Beyond `i128`, the exact value no longer matters: it is out of range all the same.
    let n = lit.base10_digits().parse::<i128>().unwrap_or(i128::MAX);
    let n = if negative { -n } else { n };
    Some(i64::try_from(n).map_or(DefaultValue::OutOfRange(n), DefaultValue::Integer))
}

/// A float literal; an infinite one (`1e400`) is kept, for the shared rules to refuse.
fn float_in(cx: &Ctxt, key: Symbol, lit: &syn::LitFloat, negative: bool) -> Option<f64> {
    if !lit.suffix().is_empty() {
        invalid(cx, lit.span(), key, "a number without a type suffix");
        return None;
    }
    match lit.base10_parse::<f64>() {
        Ok(f) => Some(if negative { -f } else { f }),
        Err(_) => {
            invalid(cx, lit.span(), key, "a number");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str) -> Param {
        Param {
            name: Some(Str {
                value: name.to_owned(),
                span: Span::call_site(),
            }),
            ..Param::empty()
        }
    }

    #[test]
    fn fields_are_rust_identifiers() {
        let field = |name: &str| param(name).field().map(|f| f.to_string());
        assert_eq!(field("city").as_deref(), Some("city"));
        assert_eq!(field("max-days").as_deref(), Some("max_days"));
        assert_eq!(field("type").as_deref(), Some("r#type"));
        assert_eq!(field("gen").as_deref(), Some("r#gen"));
        assert_eq!(field("self").as_deref(), Some("self_"));
        assert_eq!(field("_").as_deref(), Some("__"));
        assert_eq!(field("zip code"), None);
    }

    #[test]
    fn a_refused_name_still_makes_the_field_the_handler_reads() {
        let field = |name: &str| param(name).fallback_field().map(|f| f.to_string());
        assert_eq!(field("zip code").as_deref(), Some("zip_code"));
        assert_eq!(field("enabled?").as_deref(), Some("enabled"));
        assert_eq!(field("type?").as_deref(), Some("r#type"));
        assert_eq!(field("1st"), None);
        assert_eq!(field("??"), None);
    }

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
