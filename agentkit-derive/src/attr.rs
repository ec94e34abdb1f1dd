//! Stage 1: the attribute's tokens as a tree of `key = value` entries (and bare `key` flags).
//!
//! The tree is parsed by hand, one comma-separated entry at a time, instead of with a single
//! `syn::parse::Parse` impl: a syntax error then costs only the entry it is in, and the
//! rest of the attribute is still read and checked, so one build reports every mistake. A
//! slip whose meaning is plain costs nothing at all: after a missing comma the next entry or
//! item is read, and the habits of other languages (`key: value`, a map in `( ... )`) are
//! read as what they mean, each reported once. What the keys mean is the next stage's
//! business ([`crate::decl`], and each macro's own `ast`), except that a key written twice at
//! one level is reported here, by [`Seen`], the one place that does (`decl` reports the one
//! `name` that starts a second parameter run into the first, as it splits them).

use std::cell::RefCell;

use proc_macro2::{Delimiter, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use syn::ext::IdentExt as _;

use crate::ctxt::Ctxt;
use crate::rules::Problem;
use crate::symbol::Symbol;

/// `key = value`, or `key` alone.
pub(crate) struct Entry {
    pub(crate) key: Key,
    pub(crate) value: Written,
}

/// What follows the key of an entry.
///
/// A bare key is not an error here: whether the key is a flag is the next stage's business,
/// which reports a bare key that needs a value in words about that key.
pub(crate) enum Written {
    /// `key = value`.
    Value(Value),
    /// `key` alone.
    Bare,
    /// Something that did not parse; that error is already reported.
    Broken,
}

impl Written {
    /// The value of a key that takes one, reporting a bare key as missing its value.
    pub(crate) fn value(self, cx: &Ctxt, key: &Key) -> Option<Value> {
        match self {
            Written::Value(value) => Some(value),
            Written::Bare => {
                cx.error(
                    key.span,
                    format_args!("expected `= value` after `{}`", key.text),
                );
                None
            }
            Written::Broken => None,
        }
    }
}

/// The key of an entry: an identifier (keywords such as `type` and `crate` included) or a
/// string literal (for tag keys such as `"x-team"`).
pub(crate) struct Key {
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// A value: a literal, an identifier, a list `[...]` or a map `{ key = value, ... }`.
pub(crate) enum Value {
    Lit(syn::Lit),
    /// A negative number: the span of the `-`, and the number.
    Neg(Span, syn::Lit),
    Ident(Ident),
    /// A path of more than one segment, `args::SearchArgs` (a single identifier is an
    /// `Ident`).
    Path(syn::Path),
    /// The span of the whole `[...]`, and the items.
    List(Span, Vec<Value>),
    /// The span of the whole `{...}`, and the entries.
    Map(Span, Vec<Entry>),
    /// A macro call, `concat!("a", "b")`: never what a key takes, since an attribute's tokens
    /// are not expanded, and refused in words that say so ([`crate::value::refused`]).
    Macro(MacroCall),
}

/// A macro call written as a value.
pub(crate) struct MacroCall {
    /// The macro's path, as written (`concat`, `std::concat`).
    pub(crate) path: String,
    /// The whole call, for an error spanned over it.
    pub(crate) tokens: TokenStream,
}

impl Value {
    /// Whether every entry of every map in the value could be parsed: one that could not is
    /// reported already, and leaves a hole in what is read from the value.
    pub(crate) fn is_whole(&self) -> bool {
        match self {
            Value::List(_, items) => items.iter().all(Value::is_whole),
            Value::Map(_, entries) => entries.iter().all(|entry| match &entry.value {
                Written::Value(value) => value.is_whole(),
                Written::Bare => true,
                Written::Broken => false,
            }),
            // Refused, and what it stands for unknown.
            Value::Macro(_) => false,
            _ => true,
        }
    }

    /// Where the value is written; for a negative number, the `-`.
    pub(crate) fn span(&self) -> Span {
        match self {
            Value::Lit(lit) => lit.span(),
            Value::Neg(minus, _) => *minus,
            Value::Ident(ident) => ident.span(),
            Value::Path(path) => syn::spanned::Spanned::span(path),
            Value::List(span, _) | Value::Map(span, _) => *span,
            Value::Macro(call) => call
                .tokens
                .clone()
                .into_iter()
                .next()
                .map_or_else(Span::call_site, |token| token.span()),
        }
    }
}

/// Parses `key = value, key, ...`; entries that do not parse are reported and left out.
pub(crate) fn parse_entries(cx: &Ctxt, tokens: TokenStream) -> Vec<Entry> {
    let habits = Habits::default();
    let entries = Reader {
        cx,
        habits: &habits,
    }
    .entries(tokens);
    habits.report(cx);
    entries
}

/// Reads one attribute, at every depth, remembering the habits of other languages it meets.
struct Reader<'a> {
    cx: &'a Ctxt,
    habits: &'a Habits,
}

impl Reader<'_> {
    fn entries(&self, tokens: TokenStream) -> Vec<Entry> {
        let mut entries = Vec::new();
        for chunk in split_commas(tokens) {
            self.entry(&chunk, &mut entries);
        }
        entries
    }

    /// Parses one entry onto `entries`; an entry written after it without a comma
    /// (`name = "city" type = string`) is reported, then parsed too, so that the missing comma
    /// is the only error.
    fn entry(&self, tokens: &[TokenTree], entries: &mut Vec<Entry>) {
        if let Some(entry) = self.one_entry(tokens, entries) {
            entries.push(entry);
        }
    }

    fn one_entry(&self, tokens: &[TokenTree], entries: &mut Vec<Entry>) -> Option<Entry> {
        let cx = self.cx;
        let key = match &tokens[0] {
            TokenTree::Ident(ident) => Key {
                text: ident.unraw().to_string(),
                span: ident.span(),
            },
            TokenTree::Literal(literal) => match syn::Lit::new(literal.clone()) {
                syn::Lit::Str(s) => Key {
                    text: s.value(),
                    span: s.span(),
                },
                _ => {
                    cx.error(literal.span(), "expected a key, such as `name`");
                    return None;
                }
            },
            other => {
                cx.error(other.span(), "expected a key, such as `name`");
                return None;
            }
        };
        match tokens.get(1) {
            Some(TokenTree::Punct(eq)) if eq.as_char() == '=' || is_colon(eq) => {
                if eq.as_char() == ':' {
                    self.habits.colon(eq.span(), &key.text, tokens.get(2));
                }
                let value = if tokens.len() > 2 {
                    // A value is one token, or two for a negative number.
                    let len = match &tokens[2..] {
                        [TokenTree::Punct(minus), TokenTree::Literal(_), ..]
                            if minus.as_char() == '-' =>
                        {
                            4
                        }
                        _ => 3,
                    };
                    let (value, rest) = tokens.split_at(len.min(tokens.len()));
                    let next_is_entry = matches!(
                        rest,
                        [TokenTree::Ident(_) | TokenTree::Literal(_), TokenTree::Punct(eq), ..]
                            if eq.as_char() == '=' || is_colon(eq)
                    );
                    if next_is_entry {
                        let parsed = self.value(&value[2..]);
                        cx.error(
                            rest[0].span(),
                            format_args!("expected `,` before `{}`", rest[0]),
                        );
                        let value = parsed.map_or(Written::Broken, Written::Value);
                        entries.push(Entry { key, value });
                        self.entry(rest, entries);
                        return None;
                    }
                    self.value(&tokens[2..])
                } else {
                    cx.error(
                        eq.span(),
                        format_args!("expected a value after `{} {eq}`", key.text),
                    );
                    None
                };
                let value = value.map_or(Written::Broken, Written::Value);
                Some(Entry { key, value })
            }
            Some(other) => {
                cx.error(
                    other.span(),
                    format_args!("expected `=` after `{}`", key.text),
                );
                Some(Entry {
                    key,
                    value: Written::Broken,
                })
            }
            None => Some(Entry {
                key,
                value: Written::Bare,
            }),
        }
    }

    /// The value that is all of `tokens`: anything after it is reported as missing its comma.
    fn value(&self, tokens: &[TokenTree]) -> Option<Value> {
        let (value, rest) = self.value_prefix(tokens)?;
        if let Some(extra) = rest.first() {
            self.cx
                .error(extra.span(), format_args!("expected `,` before `{extra}`"));
        }
        Some(value)
    }

    /// The items of a list `[...]`. Two items without the comma between them
    /// (`[{ name = "a", ... } { name = "b", ... }]`) are one error, on the second, and both
    /// items are kept, so that what follows the slip is still read.
    fn items(&self, tokens: TokenStream) -> Vec<Value> {
        let mut items = Vec::new();
        for chunk in split_commas(tokens) {
            let mut rest = chunk.as_slice();
            while let Some((item, tail)) = self.value_prefix(rest) {
                items.push(item);
                let Some(next) = tail.first() else { break };
                let (span, shown) = match next {
                    TokenTree::Group(group) => (group.span_open(), opening(group.delimiter())),
                    other => (other.span(), other.to_string()),
                };
                self.cx.error(
                    span,
                    format_args!(
                        "expected `,` before `{shown}`: the items of a list are separated by \
                         commas"
                    ),
                );
                rest = tail;
            }
        }
        items
    }

    /// The value at the start of `tokens`, and what follows it.
    fn value_prefix<'t>(&self, tokens: &'t [TokenTree]) -> Option<(Value, &'t [TokenTree])> {
        let cx = self.cx;
        if let Some(call) = macro_call(tokens) {
            return Some(call);
        }
        // `args::SearchArgs`, `::my_crate::SearchArgs`: a path is the one value of several
        // tokens joined by `::`.
        let is_path = tokens
            .iter()
            .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':'));
        if is_path {
            if let Ok(path) = syn::parse2::<syn::Path>(tokens.iter().cloned().collect()) {
                return Some((Value::Path(path), &[]));
            }
        }
        let (value, rest) = match tokens {
            [
                TokenTree::Punct(minus),
                TokenTree::Literal(literal),
                rest @ ..,
            ] if minus.as_char() == '-' => (
                Value::Neg(minus.span(), syn::Lit::new(literal.clone())),
                rest,
            ),
            [TokenTree::Literal(literal), rest @ ..] => {
                (Value::Lit(syn::Lit::new(literal.clone())), rest)
            }
            [TokenTree::Ident(ident), rest @ ..] if ident == "true" || ident == "false" => (
                Value::Lit(syn::Lit::Bool(syn::LitBool::new(
                    ident == "true",
                    ident.span(),
                ))),
                rest,
            ),
            [TokenTree::Ident(ident), rest @ ..] => (Value::Ident(ident.clone()), rest),
            [TokenTree::Group(group), rest @ ..] => {
                let span = group.span();
                let value = match group.delimiter() {
                    Delimiter::Bracket => Value::List(span, self.items(group.stream())),
                    Delimiter::Brace => Value::Map(span, self.entries(group.stream())),
                    // An invisible group comes from a `macro_rules!` fragment: look inside.
                    Delimiter::None => {
                        let inner: Vec<TokenTree> = group.stream().into_iter().collect();
                        if inner.is_empty() {
                            cx.error(span, "expected a value");
                            return None;
                        }
                        self.value(&inner)?
                    }
                    // `( name = "city", type = string )`: a map in the wrong brackets, read as
                    // the map it is meant to be.
                    Delimiter::Parenthesis if holds_entries(&group.stream()) => {
                        self.habits.parens(group.span_open());
                        Value::Map(span, self.entries(group.stream()))
                    }
                    Delimiter::Parenthesis => {
                        cx.error(span, EXPECTED_VALUE);
                        return None;
                    }
                };
                (value, rest)
            }
            [other, ..] => {
                cx.error(other.span(), EXPECTED_VALUE);
                return None;
            }
            [] => unreachable!("chunks are never empty"),
        };
        Some((value, rest))
    }
}

/// A macro call at the start of `tokens` (`concat!(...)`, `std::stringify!{...}`), and what
/// follows it: read as one value, so that it is one error, in words about the macro, rather
/// than a path followed by a `!` without its comma.
fn macro_call(tokens: &[TokenTree]) -> Option<(Value, &[TokenTree])> {
    // The path, `a::b`: identifiers and `:`, then the `!`.
    let bang = tokens
        .iter()
        .position(|t| !matches!(t, TokenTree::Ident(_) | TokenTree::Punct(_)) || is_bang(t))
        .filter(|&at| at > 0 && is_bang(&tokens[at]))?;
    let (path, rest) = tokens.split_at(bang);
    let [_, TokenTree::Group(_), rest @ ..] = rest else {
        return None;
    };
    let path: TokenStream = path.iter().cloned().collect();
    let path = syn::parse2::<syn::Path>(path).ok()?;
    let call = tokens[..bang + 2].iter().cloned().collect();
    let path = quote::quote!(#path).to_string().replace(' ', "");
    Some((Value::Macro(MacroCall { path, tokens: call }), rest))
}

/// Whether `token` is a `!`.
fn is_bang(token: &TokenTree) -> bool {
    matches!(token, TokenTree::Punct(p) if p.as_char() == '!')
}

const EXPECTED_VALUE: &str =
    "expected a value: a literal, a name, a list `[...]` or a map `{ key = value }`";

/// A lone `:`, as in `name: "city"`, and not the `::` of a path.
fn is_colon(punct: &Punct) -> bool {
    punct.as_char() == ':' && punct.spacing() == Spacing::Alone
}

/// Whether `tokens` start as entries do, `key =` or `key:`.
fn holds_entries(tokens: &TokenStream) -> bool {
    let mut tokens = tokens.clone().into_iter();
    matches!(
        (tokens.next(), tokens.next()),
        (Some(TokenTree::Ident(_) | TokenTree::Literal(_)), Some(TokenTree::Punct(p)))
            if p.as_char() == '=' || is_colon(&p)
    )
}

/// The opening bracket of a group, as written.
fn opening(delimiter: Delimiter) -> String {
    match delimiter {
        Delimiter::Brace => "{",
        Delimiter::Bracket => "[",
        Delimiter::Parenthesis => "(",
        Delimiter::None => "",
    }
    .to_owned()
}

/// The slips of a habit from another language (JSON's and Python's `key: value`, a tuple's
/// `( ... )` for a map's `{ ... }`), read as what they mean. A habit is one mistake however
/// often it recurs, so each is reported once per attribute, at its first occurrence, with how
/// many more there are: fixing them is one edit, and the rest of the attribute is checked as
/// meant meanwhile.
#[derive(Default)]
struct Habits {
    /// Each `key:`: the `:`, the key, and its value written as it would be after `=`.
    colons: RefCell<Vec<(Span, String, Option<String>)>>,
    /// Each `(` opening a map.
    parens: RefCell<Vec<Span>>,
}

impl Habits {
    fn colon(&self, span: Span, key: &str, value: Option<&TokenTree>) {
        // The value in the message only when it is one token: `name = "city"`.
        let value = value.and_then(|value| match value {
            TokenTree::Group(_) => None,
            other => Some(other.to_string()),
        });
        self.colons.borrow_mut().push((span, key.to_owned(), value));
    }

    fn parens(&self, span: Span) {
        self.parens.borrow_mut().push(span);
    }

    fn report(self, cx: &Ctxt) {
        let colons = self.colons.into_inner();
        if let Some((span, key, value)) = colons.first() {
            let value = value.as_deref().unwrap_or("...");
            cx.error(
                *span,
                format_args!(
                    "expected `=` after `{key}`, found `:`: a key takes its value with `=`, \
                     as in `{key} = {value}`{}",
                    more(
                        colons.len(),
                        "key written with `:`",
                        "keys written with `:`"
                    )
                ),
            );
        }
        let parens = self.parens.into_inner();
        if let Some(span) = parens.first() {
            cx.error(
                *span,
                format_args!(
                    "expected `{{`, found `(`: a parameter, like any map of `key = value` \
                     entries, is written in braces, as in `{{ name = \"city\", type = string }}`{}",
                    more(parens.len(), "map in parentheses", "maps in parentheses")
                ),
            );
        }
    }
}

/// `; the same goes for the 2 other keys written with `:` here`, when a habit recurs.
fn more(count: usize, one: &str, several: &str) -> String {
    match count {
        0 | 1 => String::new(),
        2 => format!("; the same goes for the other {one} here"),
        n => format!("; the same goes for the {} other {several} here", n - 1),
    }
}

/// Splits a stream at its top-level commas, dropping empty pieces (a trailing comma).
fn split_commas(tokens: TokenStream) -> Vec<Vec<TokenTree>> {
    let mut chunks = vec![Vec::new()];
    for token in tokens {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => chunks.push(Vec::new()),
            _ => chunks.last_mut().expect("never empty").push(token),
        }
    }
    chunks.retain(|chunk| !chunk.is_empty());
    chunks
}

/// The keys already seen in one `{...}` or attribute: the one place that reports a repeated
/// key, at every level.
#[derive(Default)]
pub(crate) struct Seen(Vec<String>);

impl Seen {
    /// `true` the first time `key` is seen; reports it and returns `false` after that.
    pub(crate) fn first(&mut self, cx: &Ctxt, key: &Key) -> bool {
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

    pub(crate) fn contains(&self, key: Symbol) -> bool {
        self.0.iter().any(|seen| seen == key.as_str())
    }
}
