//! Stage 2: the keys of the forms beyond the six types, read into [`Forms`](super::Forms); and the tool's
//! `defs`, whose names the type positions then know.

use proc_macro2::Span;
use syn::Lit;

use super::{FORM_NAMES, Kind, VARIANT_KEYS, Variant};
use crate::ast::{Param, Str};
use crate::attr::{Entry, Seen, Value};
use crate::ctxt::Ctxt;
use crate::decl;
use crate::rules::{self, ParamType, Problem};
use crate::symbol::{FIELDS, Symbol};
use crate::value::{default_in, invalid, refused, string};

const NULLABLE: Symbol = Symbol::new("nullable");
const CONST: Symbol = Symbol::new("const");
const VALUES: Symbol = Symbol::new("values");
const TAG: Symbol = Symbol::new("tag");
const VARIANTS: Symbol = Symbol::new("variants");
const ITEMS: Symbol = Symbol::new("items");

/// `type = union`, `map`, `any`, `tuple` or the name of a definition; `None` for anything
/// else, which is read as one of the six types.
pub(crate) fn form(cx: &Ctxt, value: &Value) -> Option<(Kind, Span)> {
    let Value::Ident(ident) = value else {
        return None;
    };
    let name = ident.to_string();
    let kind = match name.as_str() {
        "union" => Kind::Union,
        "map" => Kind::Map,
        "any" => Kind::Any,
        "tuple" => Kind::Tuple,
        _ if cx.is_def(&name) => Kind::Def(name),
        _ => return None,
    };
    Some((kind, ident.span()))
}

/// `items = any`, `union` or a definition's name on a list: `None` for anything else, which
/// is read as one of the six types. `map` and `tuple` are refused here: they name their own
/// parts, which a definition can hold.
pub(crate) fn items(cx: &Ctxt, value: &Value) -> Option<(Kind, Span)> {
    let (kind, span) = form(cx, value)?;
    if matches!(kind, Kind::Map | Kind::Tuple) {
        cx.error(span, nested_form(ITEMS, &kind));
    }
    Some((kind, span))
}

fn nested_form(key: Symbol, kind: &Kind) -> String {
    let kind = kind.name();
    format!(
        "`{key} = {kind}` is not written inline: declare it in the tool's `defs`, such as \
         `defs = {{ inner = {{ type = {kind}, ... }} }}`, and write `{key} = inner`"
    )
}

/// An element of a type position that is not `type` (a map's `values`, a tuple's items):
/// one of the six types, `any`, `union` (not in a tuple) or a definition's name.
fn element(cx: &Ctxt, key: Symbol, value: Value, in_tuple: bool) -> Option<(Kind, Span)> {
    const EXPECTED: &str = "a type written without quotes: one of string, integer, float, \
                            boolean, list, dictionary, any, union, or a name in the tool's \
                            `defs`";
    if let Some((kind, span)) = form(cx, &value) {
        let nested = matches!(kind, Kind::Map | Kind::Tuple) || (in_tuple && kind == Kind::Union);
        if nested {
            cx.error(span, nested_form(key, &kind));
            return None;
        }
        return Some((kind, span));
    }
    match value {
        Value::Ident(ident) => match ident.to_string().parse::<ParamType>() {
            Ok(ty) => Some((Kind::Six(ty), ident.span())),
            Err(problem) => {
                unknown_type(cx, &ident.to_string(), ident.span(), problem);
                None
            }
        },
        other => {
            refused(cx, &other, key, EXPECTED);
            None
        }
    }
}

/// What an unknown type name most likely meant, when that is a form or a definition: the
/// fallback gives the field the type it was meant to have. Reports nothing.
pub(crate) fn guess(cx: &Ctxt, value: &Value) -> Option<(Kind, Span)> {
    let Value::Ident(ident) = value else {
        return None;
    };
    let found = ident.to_string();
    // One of the six types (the declaration is then read as written), or a misspelling of
    // one (which it is reported as): no guess, and none of the work of suggesting one.
    if let Ok(_)
    | Err(Problem::UnknownType {
        suggestion: Some(_),
        ..
    }) = found.parse::<ParamType>()
    {
        return None;
    }
    let defs = cx.defs();
    let names = FORM_NAMES
        .iter()
        .copied()
        .chain(defs.iter().map(String::as_str));
    let meant = rules::suggest(&found, names)?;
    let kind = match meant {
        "union" => Kind::Union,
        "map" => Kind::Map,
        "any" => Kind::Any,
        "tuple" => Kind::Tuple,
        def => Kind::Def(def.to_owned()),
    };
    Some((kind, ident.span()))
}

/// Reports a type name that is none of the six, none of the forms and no definition: with the
/// closest of all of them when one is close.
pub(crate) fn unknown_type(cx: &Ctxt, found: &str, span: Span, problem: Problem) {
    if let Problem::UnknownType {
        suggestion: Some(_),
        ..
    } = &problem
    {
        cx.error(span, problem);
        return;
    }
    let defs = cx.defs();
    let names = FORM_NAMES
        .iter()
        .copied()
        .chain(defs.iter().map(String::as_str));
    match rules::suggest(found, names) {
        Some(meant) => cx.error(
            span,
            format_args!("unknown type '{found}'; did you mean '{meant}'?"),
        ),
        None => cx.error(
            span,
            format_args!(
                "unknown type '{found}'; expected one of: string, integer, float, boolean, \
                 list, dictionary, union, map, any, tuple{}",
                if defs.is_empty() {
                    ", or a name declared in the tool's `defs`".to_owned()
                } else {
                    format!(", or a name in `defs` ({})", defs.join(", "))
                }
            ),
        ),
    }
}

/// The key `key` of [`super::KEYS`], written with `value`, onto `param`.
pub(crate) fn key(cx: &Ctxt, key: &'static str, key_span: Span, value: Value, param: &mut Param) {
    let forms = &mut param.forms;
    forms.keys.push((key, key_span));
    let before = cx.error_count();
    match key {
        "nullable" => match value {
            Value::Lit(Lit::Bool(b)) => forms.nullable = Some((b.value, b.span)),
            other => refused(cx, &other, NULLABLE, "`true` or `false`"),
        },
        "const" => forms.constant = default_in(cx, CONST, value),
        "values" => forms.values = element(cx, VALUES, value, false),
        "tag" => {
            forms.tag = string(
                cx,
                TAG,
                value,
                "a string: the name of the property that tells the variants apart, such as \
                 `tag = \"kind\"`",
            );
        }
        "variants" => forms.variants = variants(cx, value),
        _ => unreachable!("every key of forms::KEYS is handled"),
    }
    if cx.error_count() != before {
        param.forms.broken = true;
    }
}

/// `items = [float, float]` on a tuple.
pub(crate) fn tuple(cx: &Ctxt, value: Value) -> Option<(Vec<(Kind, Span)>, Span)> {
    let Value::List(span, items) = value else {
        invalid(
            cx,
            value.span(),
            ITEMS,
            "the type of each position in brackets, such as `items = [float, float]`",
        );
        return None;
    };
    let mut kinds = Vec::with_capacity(items.len());
    for item in items {
        kinds.push(element(cx, ITEMS, item, true)?);
    }
    Some((kinds, span))
}

/// `variants = [{ tag = "click", fields = [...] }, ...]`.
fn variants(cx: &Ctxt, value: Value) -> Option<(Vec<Variant>, Span)> {
    const EXPECTED: &str = "a list of variants, such as `variants = [{ tag = \"click\", fields \
                            = [{ name = \"x\", type = integer }] }, { tag = \"scroll\" }]`";
    let Value::List(span, items) = value else {
        refused(cx, &value, VARIANTS, EXPECTED);
        return None;
    };
    let mut variants = Vec::with_capacity(items.len());
    for item in items {
        let Value::Map(span, entries) = item else {
            refused(cx, &item, VARIANTS, EXPECTED);
            continue;
        };
        variants.push(variant(cx, span, entries));
    }
    Some((variants, span))
}

fn variant(cx: &Ctxt, span: Span, entries: Vec<Entry>) -> Variant {
    let mut variant = Variant {
        tag: None,
        description: None,
        fields: Vec::new(),
    };
    let mut seen = Seen::default();
    for Entry { key, value } in entries {
        let Some(known) = VARIANT_KEYS.iter().copied().find(|k| *k == key.text) else {
            let suggestion = rules::suggest(&key.text, VARIANT_KEYS.iter().copied());
            // What a misspelt `fields` or `tag` says is read silently, so that the fallback's
            // variant is the one the handler matches on.
            if let (Some(meant), crate::attr::Written::Value(value)) = (suggestion, value) {
                let quiet = Ctxt::new();
                quiet.set_defs(cx.defs());
                match meant {
                    "fields" if variant.fields.is_empty() => {
                        variant.fields = decl::params(&quiet, FIELDS, value).unwrap_or_default();
                    }
                    "tag" if variant.tag.is_none() => variant.tag = string(&quiet, TAG, value, ""),
                    _ => {}
                }
                // Errors under a misspelt key are left for after the key is fixed.
                let _ = quiet.check();
            }
            cx.error(
                key.span,
                format_args!(
                    "{} (a variant of a union takes `tag`, `description` and `fields`)",
                    Problem::UnknownKey {
                        found: key.text.clone(),
                        suggestion,
                        allowed: &VARIANT_KEYS,
                    }
                ),
            );
            continue;
        };
        if !seen.first(cx, &key) {
            continue;
        }
        let Some(value) = value.value(cx, &key) else {
            continue;
        };
        match known {
            "tag" => {
                variant.tag = string(
                    cx,
                    TAG,
                    value,
                    "a string: the value of the union's tag for this variant, such as \
                     `tag = \"click\"`",
                );
            }
            "description" => {
                variant.description =
                    string(cx, Symbol::new("description"), value, "a string").map(|s| s.value);
            }
            _ => {
                if let Some(fields) = decl::params(cx, FIELDS, value) {
                    variant.fields = fields;
                }
            }
        }
    }
    if variant.tag.is_none() && !seen.contains(TAG) {
        cx.error(
            span,
            format_args!(
                "{}: each variant says its tag, such as `{{ tag = \"click\", fields = [...] }}`",
                Problem::MissingKey { key: "tag" }
            ),
        );
    }
    variant
}

/// `defs = { node = [...], expr = { type = union, ... } }`: each definition an object of
/// fields, or a declaration without a name. The names are known to `cx` before anything is
/// read, so that the definitions and the parameters can name each other in any order.
pub(crate) fn defs(cx: &Ctxt, value: Value) -> Vec<super::Def> {
    const EXPECTED: &str = "a map of named definitions, such as `defs = { node = [{ name = \
                            \"children\", type = list, items = node }] }`";
    let Value::Map(_, entries) = value else {
        refused(cx, &value, Symbol::new("defs"), EXPECTED);
        return Vec::new();
    };
    let mut defs = Vec::with_capacity(entries.len());
    let mut seen = Seen::default();
    for Entry { key, value } in entries {
        if !seen.first(cx, &key) {
            continue;
        }
        let name = Str {
            value: key.text.clone(),
            span: key.span,
        };
        if let Some(refused) = refused_def_name(&name.value) {
            cx.error(name.span, refused);
            continue;
        }
        let Some(value) = value.value(cx, &key) else {
            continue;
        };
        let param = match value {
            Value::List(..) => {
                let fields = decl::params(cx, FIELDS, value);
                let mut param = Param::empty();
                param.ty = Some(crate::ast::Ty {
                    ty: ParamType::Dictionary,
                    guessed: false,
                });
                param.fields = fields.map(|fields| (fields, key.span));
                param
            }
            Value::Map(span, entries) => decl::unnamed_param(cx, span, entries),
            other => {
                refused(cx, &other, Symbol::new("defs"), EXPECTED);
                continue;
            }
        };
        let mut param = param;
        param.name = Some(Str {
            value: name.value.clone(),
            span: name.span,
        });
        defs.push(super::Def { name, param });
    }
    defs
}

/// Why a definition cannot be named `name`: it is a type's name already, or no Rust
/// identifier can come of it.
fn refused_def_name(name: &str) -> Option<String> {
    if ParamType::from_name(name).is_some() || FORM_NAMES.contains(&name) {
        return Some(format!(
            "a definition cannot be named '{name}': that is a type's name already; choose \
             another, such as '{name}_def'"
        ));
    }
    let ok = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (!ok).then(|| {
        format!(
            "a definition's name is written as a type is, so '{name}' is refused: use ASCII \
             letters, digits and `_`, starting with a letter"
        )
    })
}

/// The names `defs = { ... }` declares among `entries`, read before anything else.
pub(crate) fn def_names(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .filter(|entry| entry.key.text == "defs")
        .filter_map(|entry| match &entry.value {
            crate::attr::Written::Value(Value::Map(_, defs)) => {
                Some(defs.iter().map(|def| def.key.text.clone()))
            }
            _ => None,
        })
        .flatten()
        .filter(|name| refused_def_name(name).is_none())
        .collect()
}
