//! Stage 2, shared: a parameter declaration read from its entries into an [`ast::Param`]:
//! `{ name = ..., type = ..., ... }` in `#[tool(...)]`, or a field's `#[param(...)]`.
//!
//! This stage reports what is wrong with a single key: unknown, misspelt or repeated keys,
//! unknown types, values of the wrong shape, and parameters without `name` or `type`. What a
//! misspelt key would have said is still read, silently, so that the fallback's field has
//! the type that was meant. Rules across several keys live in [`crate::check`]. The keys of
//! the forms beyond the six types (`nullable`, `const`, `values`, `tag`, `variants`, and
//! `type = union` and the like) are read by [`crate::forms::read`]; a constraint's value by
//! [`constraint`](fn@constraint).
//!
//! [`ast::Param`]: crate::ast::Param

use proc_macro2::Span;
use syn::Lit;

use crate::ast::{DefaultLit, Param, Str, Ty};
use crate::attr::{Entry, Seen, Value, Written};
use crate::ctxt::Ctxt;
use crate::forms;
use crate::rules::{self, ParamType, Problem};
use crate::symbol::{
    self, DEFAULT, DESCRIPTION, ENUM, FIELDS, ITEMS, NAME, REQUIRED, Symbol, TYPE,
};
use crate::value::{default, invalid, refused, string};

mod constraint;
mod meant;

use self::constraint::constraint;
use self::meant::{Guess, repeated};

/// A list of parameter declarations `[{ ... }, ...]`: the value of `input`, `output` or
/// `fields`.
pub(crate) fn params(cx: &Ctxt, key: Symbol, value: Value) -> Option<Vec<Param>> {
    const EXPECTED: &str = "a list of parameters, e.g. `[{ name = \"city\", type = string }, ...]`";
    let expected = if key == FIELDS {
        EXPECTED
    } else {
        "a list of parameters, e.g. `[{ name = \"city\", type = string }, ...]`, or a struct \
         deriving `ToolParams`, e.g. `input = SearchArgs`"
    };
    let Value::List(_, items) = value else {
        refused(cx, &value, key, expected);
        return None;
    };
    let mut params = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Value::Map(span, entries) => {
                for entries in split_merged(cx, entries) {
                    params.push(param(cx, span, entries));
                }
            }
            other => refused(cx, &other, key, expected),
        }
    }
    Some(params)
}

/// The entries of `{ ... }` as the parameters they declare: more than one when a `name`
/// written again starts a second complete parameter, `{ name = "city", type = string, name =
/// "country", type = string }`, the `}, {` between two of them left out. That is one error,
/// on the second `name`, and both parameters are kept, so that the handler's use of the
/// second still compiles. A `name` written twice in what is one parameter (no `type` on one
/// side of it) is a duplicate key, reported as any other.
fn split_merged(cx: &Ctxt, entries: Vec<Entry>) -> Vec<Vec<Entry>> {
    let is = |entry: &Entry, key: Symbol| entry.key.text == key.as_str();
    let names: Vec<usize> = (0..entries.len())
        .filter(|&at| is(&entries[at], NAME))
        .collect();
    let mut cuts = Vec::new();
    let mut start = 0;
    for (index, &at) in names.iter().enumerate().skip(1) {
        let end = names.get(index + 1).copied().unwrap_or(entries.len());
        let typed = |range: &[Entry]| range.iter().any(|entry| is(entry, TYPE));
        if typed(&entries[start..at]) && typed(&entries[at..end]) {
            cx.error(
                entries[at].key.span,
                format_args!(
                    "{}; if a second parameter starts here, close the first before it: `}}, {{`",
                    Problem::DuplicateKey {
                        key: NAME.as_str().to_owned(),
                    }
                ),
            );
            cuts.push(at);
            start = at;
        }
    }
    let mut parts = Vec::with_capacity(cuts.len() + 1);
    let mut entries = entries;
    for at in cuts.into_iter().rev() {
        parts.push(entries.split_off(at));
    }
    parts.push(entries);
    parts.reverse();
    parts
}

fn param(cx: &Ctxt, span: Span, entries: Vec<Entry>) -> Param {
    read_param(cx, span, entries, Param::empty(), false)
}

/// A declaration without `name`: a definition of the tool's `defs`, named by its key.
pub(crate) fn unnamed_param(cx: &Ctxt, span: Span, entries: Vec<Entry>) -> Param {
    let base = Param {
        name: Some(Str {
            value: String::new(),
            span,
        }),
        ..Param::empty()
    };
    read_param(cx, span, entries, base, false)
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

/// The keys of a parameter written in `entries`, onto `param`. On a field (`on_field`), the
/// keys the field itself says are refused, and none is missing.
fn read_param(cx: &Ctxt, span: Span, entries: Vec<Entry>, base: Param, on_field: bool) -> Param {
    let mut param = base;
    let named = param.name.is_some() && !on_field;
    let mut seen = Seen::default();
    // `items = [...]`, read once the type is known: a tuple's positions, else a mistake.
    let mut items_list: Option<Value> = None;
    // The keys that unknown keys look like misspellings of: reported as such, they are not
    // reported missing too, and what depends on them is not checked on a guess.
    let mut misspelt: Vec<&'static str> = Vec::new();
    // What those keys say, read without a word, for the fallback's field types only.
    let mut guess = Guess::default();
    for Entry { key, value } in entries {
        if let (false, Some(known)) = (
            on_field,
            forms::KEYS.iter().copied().find(|k| *k == key.text),
        ) {
            let before = cx.error_count();
            if seen.first(cx, &key) {
                if let Some(value) = value.value(cx, &key) {
                    forms::read::key(cx, known, key.span, value, &mut param);
                }
                // `nullable = null`: whether the field is an `Option` is the fix's.
                if known == "nullable" {
                    param.undecide(cx.first_since(before));
                }
            } else {
                // Each of these keys decides the field's type: see `repeated` below.
                param.undecide(cx.first_since(before));
            }
            continue;
        }
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
                let problem = with_form_keys(problem);
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
        let before = cx.error_count();
        if !seen.first(cx, &key) {
            repeated(&mut param, symbol, value, cx.first_since(before));
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
            let before = cx.error_count();
            if constraint(cx, symbol, value, &mut param) {
                param
                    .constraint_spans
                    .push((symbol.as_str(), key.span, value_span));
            } else {
                param.constraints_unknown = true;
                // A string `enum` is a generated enum, whose variants only the fix will say.
                if symbol == ENUM {
                    param.undecide(cx.first_since(before));
                }
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
            TYPE => match forms::read::form(cx, &value) {
                Some(form) => param.forms.form = Some(form),
                None => {
                    // `type = nod` for a definition `node`: refused, but plainly meant, so the
                    // fallback's field has the definition's type.
                    let guess = forms::read::guess(cx, &value);
                    let before = cx.error_count();
                    param.ty = param_type(cx, TYPE, value);
                    match (param.ty, guess) {
                        (None, Some(guess)) => {
                            param.forms.form = Some(guess);
                            param.forms.broken = true;
                        }
                        // Refused, and no type in sight (`type = concat!(..)`, `type = 3`):
                        // the field's type is the fix's.
                        (None, None) => param.undecide(cx.first_since(before)),
                        _ => {}
                    }
                }
            },
            ITEMS => match value {
                Value::List(..) => items_list = Some(value),
                value => match forms::read::items(cx, &value) {
                    Some(items) => param.forms.items = Some(items),
                    None => {
                        let span = value.span();
                        let before = cx.error_count();
                        param.items = param_type(cx, ITEMS, value).map(|ty| (ty, span));
                        // Refused, and no type in sight (`items = null`): the items' type,
                        // and so the field's, is the fix's.
                        if param.items.is_none() {
                            param.undecide(cx.first_since(before));
                        }
                    }
                },
            },
            // The same keys and rules as a parameter, as deep as it goes.
            FIELDS => {
                let before = cx.error_count();
                param.fields = params(cx, FIELDS, value).map(|fields| (fields, key.span));
                // Refused whole (`fields = null`): the generated struct's fields are the fix's.
                if param.fields.is_none() {
                    param.undecide(cx.first_since(before));
                }
            }
            REQUIRED => match value {
                Value::Lit(Lit::Bool(b)) => param.required = Some((b.value, b.span)),
                other => {
                    param.required_unknown = true;
                    // `"false"`, or Python's `False`: refused, but plainly meant, so the
                    // field is made as it would be once written `false`. Another value
                    // (`required = null`) leaves open whether the field is an `Option`.
                    let before = cx.error_count();
                    match misspelt_boolean(cx, REQUIRED, &other) {
                        Some(meant) => param.required = Some((meant, other.span())),
                        None => param.undecide(cx.first_since(before)),
                    }
                }
            },
            DEFAULT => {
                let before = cx.error_count();
                param.default = default(cx, value);
                if param.default.is_none() {
                    // `default = null`: the field is an `Option` if no default is meant, a
                    // plain value if another literal is; which one, only the fix will say.
                    param.undecide(cx.first_since(before));
                }
                param.default_literal = param.default.as_ref().map(DefaultLit::to_literal);
                // A default that could not be read is still a default: the field is made as
                // it will be once the literal is fixed.
                param.default_guessed = param.default.is_none();
            }
            DESCRIPTION => {
                param.description = string(cx, DESCRIPTION, value, "a string").map(|s| s.value);
            }
            _ => unreachable!("every parameter key is handled"),
        }
    }
    if let Some(list) = items_list {
        let is_tuple = matches!(param.forms.form, Some((forms::Kind::Tuple, _)));
        if is_tuple {
            param.forms.tuple = forms::read::tuple(cx, list);
        } else {
            let span = list.span();
            param.items = param_type(cx, ITEMS, list).map(|ty| (ty, span));
        }
    }
    for key in [NAME, TYPE] {
        if key == NAME && named {
            continue;
        }
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

/// An unknown key of a `#[tool(...)]` declaration, with the keys of the forms beyond the six
/// types among those it may be a slip of. Without a suggestion, the message lists the shared
/// keys, in the words a spec loaded from JSON gets.
fn with_form_keys(problem: Problem) -> Problem {
    match problem {
        Problem::UnknownKey {
            found,
            suggestion,
            allowed,
        } => {
            let suggestion =
                suggestion.or_else(|| rules::suggest(&found, forms::KEYS.iter().copied()));
            Problem::UnknownKey {
                found,
                suggestion,
                allowed,
            }
        }
        other => other,
    }
}

/// Reports a value of `key` that is not `true` or `false`. One that spells either in another
/// way, `"false"` (a string) or `False` (Python's), is what was meant, returned after the
/// error saying how to write it.
fn misspelt_boolean(cx: &Ctxt, key: Symbol, value: &Value) -> Option<bool> {
    let (text, how) = match value {
        Value::Lit(Lit::Str(s)) => (s.value(), "`true` or `false`, without quotes"),
        Value::Ident(ident) => (ident.to_string(), "`true` or `false`, in lowercase"),
        other => {
            refused(cx, other, key, "`true` or `false`");
            return None;
        }
    };
    let meant = match text.to_ascii_lowercase().as_str() {
        "true" => true,
        "false" => false,
        _ => {
            refused(cx, value, key, "`true` or `false`");
            return None;
        }
    };
    cx.error(
        value.span(),
        format_args!(
            "{}: write `{key} = {meant}`",
            Problem::InvalidKeyValue {
                key: key.as_str(),
                expected: how,
            }
        ),
    );
    Some(meant)
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

pub(super) fn param_type(cx: &Ctxt, key: Symbol, value: Value) -> Option<Ty> {
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
                    forms::read::unknown_type(cx, &ident.to_string(), span, problem);
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
        // `items = [string]`: the type of every item, in the brackets of a list. Refused, but
        // plainly meant, so the fallback's field is the `Vec<String>` it would be once fixed.
        Value::List(span, mut items) if key == ITEMS && items.len() == 1 => {
            let quiet = Ctxt::new();
            let meant = param_type(&quiet, key, items.pop().expect("one item"));
            // The item's own mistakes are left for after the brackets are gone.
            let _ = quiet.check();
            match meant {
                Some(meant) => {
                    cx.error(
                        span,
                        format_args!(
                            "{}: write `{key} = {}`",
                            Problem::InvalidKeyValue {
                                key: key.as_str(),
                                expected: "one type, written without brackets",
                            },
                            meant.ty
                        ),
                    );
                    Some(Ty {
                        guessed: true,
                        ..meant
                    })
                }
                None => {
                    invalid(cx, span, key, expected);
                    None
                }
            }
        }
        other => {
            refused(cx, &other, key, expected);
            None
        }
    }
}
