//! Stage 2, shared: one value of the entry tree read as what its key takes (a string, a
//! literal, the path of agentkit-core), and a doc comment read as a description.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Expr, ExprLit, Lit, Meta};

use crate::ast::{DefaultLit, DefaultValue, Str};
use crate::attr::{Entry, Seen, Value};
use crate::ctxt::Ctxt;
use crate::rules::Problem;
use crate::symbol::{CRATE, DEFAULT, EXAMPLES, Symbol};

/// Reports that the value at `span` is not what `key` takes, `expected`.
pub(crate) fn invalid(cx: &Ctxt, span: Span, key: Symbol, expected: &'static str) {
    cx.error(
        span,
        Problem::InvalidKeyValue {
            key: key.as_str(),
            expected,
        },
    );
}

/// Reports that `value` is not what `key` takes, `expected`: on the value, and for a macro
/// call (`concat!(...)`) over the whole call, saying that it is not expanded. An attribute's
/// tokens reach the macro as written, before any macro in them runs, so there is no string
/// to read in `concat!("a", "b")`: what the key takes must be written out.
pub(crate) fn refused(cx: &Ctxt, value: &Value, key: Symbol, expected: &'static str) {
    let message = Problem::InvalidKeyValue {
        key: key.as_str(),
        expected,
    };
    refused_saying(cx, value, message.to_string());
}

/// [`refused`], with `message` in place of the words of the shared rules.
pub(crate) fn refused_saying(cx: &Ctxt, value: &Value, message: String) {
    let Value::Macro(call) = value else {
        cx.error(value.span(), message);
        return;
    };
    let literal = if message.contains("takes a string") {
        "the string literal itself, in quotes"
    } else if message.contains("takes a literal") {
        "the literal itself"
    } else {
        "the value itself"
    };
    cx.error_spanned_by(
        &call.tokens,
        format_args!(
            "{message}; `{}!(...)` is a macro call, and macro calls are not expanded inside an \
             attribute: write {literal}",
            call.path,
        ),
    );
}

/// A string literal.
pub(crate) fn string(cx: &Ctxt, key: Symbol, value: Value, expected: &'static str) -> Option<Str> {
    match value {
        Value::Lit(Lit::Str(s)) => Some(Str {
            value: s.value(),
            span: s.span(),
        }),
        other => {
            refused(cx, &other, key, expected);
            None
        }
    }
}

/// `crate = "..."`: the path of agentkit-core in the user's crate.
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
            refused(cx, &other, CRATE, EXPECTED);
            None
        }
    }
}

/// The literal of `default = ...`.
pub(crate) fn default(cx: &Ctxt, value: Value) -> Option<DefaultLit> {
    default_in(cx, DEFAULT, value)
}

/// A literal written as the value of `key` (a `default`, an `enum` value, or a value in an
/// input example), and every value inside it.
pub(crate) fn default_in(cx: &Ctxt, key: Symbol, value: Value) -> Option<DefaultLit> {
    literal_in(cx, key, value, true)
}

/// [`default_in`], for the whole literal (`whole`) or a value inside it.
fn literal_in(cx: &Ctxt, key: Symbol, value: Value, whole: bool) -> Option<DefaultLit> {
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
        // Every item and entry is read, so each refused one is reported, but a literal with
        // one refused is refused whole: checked without it, it would look short of an item
        // or a field, a second error for the one mistake.
        Value::List(_, items) => DefaultValue::List(
            items
                .into_iter()
                .map(|item| literal_in(cx, key, item, false))
                .collect::<Vec<_>>()
                .into_iter()
                .collect::<Option<_>>()?,
        ),
        Value::Map(_, entries) => {
            let in_key = key;
            let mut seen = Seen::default();
            DefaultValue::Dictionary(
                entries
                    .into_iter()
                    .filter(|entry| seen.first(cx, &entry.key))
                    .map(|Entry { key, value }| {
                        let value = value.value(cx, &key)?;
                        let key = Str {
                            value: key.text,
                            span: key.span,
                        };
                        Some((key, literal_in(cx, in_key, value, false)?))
                    })
                    .collect::<Vec<_>>()
                    .into_iter()
                    .collect::<Option<_>>()?,
            )
        }
        // JSON's `null`, Python's `None`: no literal spells it, and what it stands for is
        // said otherwise.
        Value::Ident(ident) if NULLS.contains(&ident.to_string().as_str()) => {
            let how = if key == EXAMPLES {
                "leave the parameter out of the example"
            } else if key == DEFAULT && whole {
                "for no default, leave `default` out (an optional parameter without a default \
                 is `None` when its argument is absent)"
            } else {
                "leave the value out"
            };
            cx.error(
                ident.span(),
                format_args!(
                    "{}; `{ident}` is not one, so {how}",
                    Problem::InvalidKeyValue {
                        key: key.as_str(),
                        expected: EXPECTED,
                    }
                ),
            );
            return None;
        }
        other => {
            refused(cx, &other, key, EXPECTED);
            return None;
        }
    };
    Some(DefaultLit { span, value })
}

/// The words other languages spell `null` with.
const NULLS: [&str; 5] = ["null", "None", "nil", "Null", "NULL"];

/// An integer literal; one outside the 64-bit range is kept, for the shared rules to refuse
/// in the words validation uses.
pub(crate) fn integer_in(
    cx: &Ctxt,
    key: Symbol,
    lit: &syn::LitInt,
    negative: bool,
) -> Option<DefaultValue> {
    suffixed(
        cx,
        key,
        lit.span(),
        lit.suffix(),
        lit.base10_digits(),
        negative,
    );
    // Beyond `i128`, the exact value no longer matters: it is out of range all the same.
    let n = lit.base10_digits().parse::<i128>().unwrap_or(i128::MAX);
    let n = if negative { -n } else { n };
    Some(i64::try_from(n).map_or(DefaultValue::OutOfRange(n), DefaultValue::Integer))
}

/// A float literal; an infinite one (`1e400`) is kept, for the shared rules to refuse.
pub(crate) fn float_in(cx: &Ctxt, key: Symbol, lit: &syn::LitFloat, negative: bool) -> Option<f64> {
    suffixed(
        cx,
        key,
        lit.span(),
        lit.suffix(),
        lit.base10_digits(),
        negative,
    );
    match lit.base10_parse::<f64>() {
        Ok(f) => Some(if negative { -f } else { f }),
        Err(_) => {
            invalid(cx, lit.span(), key, "a number");
            None
        }
    }
}

/// Reports a number written with a Rust type suffix (`20i64`, `2.5f64`): the parameter's
/// `type` says what kind of number it is. The number is plainly meant, so it is read all the
/// same, and a field that depends on it (an input with a default is not an `Option`) is made
/// as it will be once the suffix is gone.
fn suffixed(cx: &Ctxt, key: Symbol, span: Span, suffix: &str, digits: &str, negative: bool) {
    if suffix.is_empty() {
        return;
    }
    let minus = if negative { "-" } else { "" };
    // A value in an example is written under its parameter's name, not the key's.
    let assign = if key == EXAMPLES {
        String::new()
    } else {
        format!("{key} = ")
    };
    cx.error(
        span,
        format_args!(
            "{}: write `{assign}{minus}{digits}`",
            Problem::InvalidKeyValue {
                key: key.as_str(),
                expected: "a number without a type suffix",
            }
        ),
    );
}

/// The doc comment in `attrs` as a description: lines of a paragraph joined by a space,
/// paragraphs by a blank line, so that the wrapping of the source does not reach the model.
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
