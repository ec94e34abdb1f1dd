//! Stage 2 of `#[derive(ToolParams)]`: the type it is on, read as a parameter list (a struct's
//! fields) or a string's allowed values (a fieldless enum's variants).
//!
//! Each field's `#[param(...)]` is read by [`crate::decl`] with the keys of a literal
//! parameter, less those the field says itself (name, type, `required`, `items`, `fields`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Fields, Ident, Type, Variant};

use super::kind::{Kind, classify};
use crate::ast::{Param, Str, Ty};
use crate::attr::{self, Entry, Value};
use crate::ctxt::Ctxt;
use crate::decl;
use crate::rules::{ParamType, Problem};
use crate::value::{crate_path, doc_of};

/// A type deriving `ToolParams`, as read.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    /// The path of agentkit-core: `#[param(crate = "...")]` on the type, else
    /// `::agentkit_core`.
    pub(crate) krate: TokenStream,
    /// Whether the type has generic parameters (reported: it cannot have the impls at all).
    pub(crate) generic: bool,
    pub(crate) data: Data<'a>,
}

/// What the type is.
pub(crate) enum Data<'a> {
    /// A struct with named fields: each field a parameter.
    Struct(Vec<FieldParam<'a>>),
    /// A struct without named fields (reported).
    Unnamed,
    /// A fieldless enum: each variant's value, and the variant.
    Enum(Vec<(Str, &'a Ident)>),
    /// A union (reported).
    Union,
}

/// The rules on one field's parameter, applied as soon as the field is read (see
/// [`Container::from_ast`]); returns a default that only the generated `const`s can check.
pub(crate) type CheckField = fn(&Ctxt, &Param, Kind, &Type) -> Option<(String, Span)>;

impl<'a> Container<'a> {
    /// Reads `#[derive(ToolParams)]`'s `input`, reporting every problem of a single key.
    ///
    /// Each field is checked by `check_field` as soon as it is read, before the next field is
    /// read, so that a field's errors come together, in the order of the fields.
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput, check_field: CheckField) -> Self {
        let krate = container(cx, input);
        let generic = !input.generics.params.is_empty();
        if generic {
            cx.error_spanned_by(
                &input.generics,
                "#[derive(ToolParams)] cannot serve a generic type: its parameters are one \
                 `static` list, so they need one concrete type",
            );
        }
        let data = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                Fields::Named(named) => Data::Struct(
                    named
                        .named
                        .iter()
                        .map(|f| field(cx, f, check_field))
                        .collect(),
                ),
                other => {
                    cx.error_spanned_by(
                        other,
                        "#[derive(ToolParams)] needs a struct with named fields: each field is a \
                         parameter, named after it",
                    );
                    Data::Unnamed
                }
            },
            syn::Data::Enum(data) => {
                let variants: Vec<(Str, &Ident)> = data
                    .variants
                    .iter()
                    .filter_map(|v| variant(cx, v))
                    .collect();
                if data.variants.is_empty() {
                    cx.error(
                        input.ident.span(),
                        "#[derive(ToolParams)] on an enum needs at least one variant: its variants \
                         are the values the parameter allows",
                    );
                }
                Data::Enum(variants)
            }
            syn::Data::Union(data) => {
                cx.error(
                    data.union_token.span,
                    "#[derive(ToolParams)] goes on a struct with named fields or a fieldless enum, \
                     not a union",
                );
                Data::Union
            }
        };
        Container {
            ident: &input.ident,
            krate,
            generic,
            data,
        }
    }
}

/// `#[param(crate = "...")]` on the type: the path of agentkit-core.
fn container(cx: &Ctxt, input: &DeriveInput) -> TokenStream {
    let mut krate = quote!(::agentkit_core);
    for entry in param_entries(cx, &input.attrs) {
        let Entry { key, value } = entry;
        if key.text != "crate" {
            cx.error(
                key.span,
                format_args!(
                    "unknown key '{}': #[param(...)] on the type takes only `crate = \"...\"`, \
                     the path of agentkit-core; the parameters' keys go on the fields",
                    key.text
                ),
            );
            continue;
        }
        if let Some(value) = value.value(cx, &key) {
            if let Some(path) = crate_path(cx, value) {
                krate = path;
            }
        }
    }
    krate
}

/// The entries of every `#[param(...)]` in `attrs`.
fn param_entries(cx: &Ctxt, attrs: &[Attribute]) -> Vec<Entry> {
    let mut entries = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("param")) {
        match &attr.meta {
            syn::Meta::List(list) => entries.extend(attr::parse_entries(cx, list.tokens.clone())),
            other => cx.error_spanned_by(
                other,
                "expected `#[param(key = value, ...)]`, such as `#[param(default = 10)]`",
            ),
        }
    }
    entries
}

/// Takes `rename = "..."` out of `entries`.
fn take_rename(cx: &Ctxt, entries: &mut Vec<Entry>) -> Option<Str> {
    let mut rename = None;
    let mut kept = Vec::new();
    for Entry { key, value } in entries.drain(..) {
        if key.text != "rename" {
            kept.push(Entry { key, value });
            continue;
        }
        if rename.is_some() {
            cx.error(
                key.span,
                Problem::DuplicateKey {
                    key: key.text.clone(),
                },
            );
            continue;
        }
        if let Some(value) = value.value(cx, &key) {
            rename = match value {
                Value::Lit(syn::Lit::Str(s)) => Some(Str {
                    value: s.value(),
                    span: s.span(),
                }),
                other => {
                    cx.error(
                        other.span(),
                        "'rename' takes a string, the name the model sees, such as \
                         `rename = \"max-days\"`",
                    );
                    None
                }
            };
        }
    }
    *entries = kept;
    rename
}

/// A field of the struct, as a parameter.
pub(crate) struct FieldParam<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
    /// What the macro knows of the type.
    pub(crate) kind: Kind,
    pub(crate) param: Param,
    /// A default of a type of the user's own (a fieldless enum's value), checked when the
    /// generated `const`s are evaluated.
    pub(crate) own_default: Option<(String, Span)>,
}

/// Reads one field: its name, its type, and its `#[param(...)]`, then checks it with
/// `check_field` (unless its type could not be read, which is reported already).
fn field<'a>(cx: &Ctxt, field: &'a syn::Field, check_field: CheckField) -> FieldParam<'a> {
    let ident = field.ident.as_ref().expect("named fields have names");
    let mut entries = param_entries(cx, &field.attrs);
    let rename = take_rename(cx, &mut entries);
    let name = rename.unwrap_or_else(|| Str {
        value: ident.unraw().to_string(),
        span: ident.span(),
    });
    let classified = classify(cx, &field.ty);
    let (optional, kind) = classified.unwrap_or((false, Kind::Own));
    let type_span = field.ty.span();
    let mut base = Param::empty();
    base.ty = Some(match kind {
        Kind::Known { ty, .. } => Ty { ty, guessed: false },
        Kind::ListOfOwn => Ty {
            ty: ParamType::List,
            guessed: false,
        },
        // Whether it is a dictionary or a string is not known here: the rules that depend
        // on the type do not run on a guess.
        Kind::Own => Ty {
            ty: ParamType::Dictionary,
            guessed: true,
        },
    });
    base.items = match kind {
        Kind::Known {
            items: Some(items), ..
        } => Some((
            Ty {
                ty: items,
                guessed: false,
            },
            type_span,
        )),
        Kind::ListOfOwn => Some((
            Ty {
                ty: ParamType::Dictionary,
                guessed: true,
            },
            type_span,
        )),
        _ => None,
    };
    base.name = Some(name);
    let mut param = decl::field_param(cx, entries, base);
    // `#[param(description = "...")]` over the doc comment.
    if param.description.is_none() {
        param.description = doc_of(&field.attrs);
    }
    param.required = Some((!optional && param.default.is_none(), type_span));
    let mut own_default = None;
    if classified.is_some() {
        own_default = check_field(cx, &param, kind, &field.ty);
    }
    FieldParam {
        ident,
        ty: &field.ty,
        kind,
        param,
        own_default,
    }
}

/// A variant of an enum: its value (`rename`, else its name in snake_case).
fn variant<'a>(cx: &Ctxt, variant: &'a Variant) -> Option<(Str, &'a Ident)> {
    if !matches!(variant.fields, Fields::Unit) {
        cx.error_spanned_by(
            &variant.fields,
            "a `ToolParams` enum is a string with allowed values: its variants carry no data",
        );
        return None;
    }
    let mut entries = param_entries(cx, &variant.attrs);
    let rename = take_rename(cx, &mut entries);
    for Entry { key, .. } in entries {
        cx.error(
            key.span,
            format_args!(
                "unknown key '{}': #[param(...)] on a variant takes only `rename = \"...\"`, \
                 the value the model sends",
                key.text
            ),
        );
    }
    let value = rename.unwrap_or_else(|| Str {
        value: snake_case(&variant.ident.unraw().to_string()),
        span: variant.ident.span(),
    });
    Some((value, &variant.ident))
}

/// `FastTrack` as `fast_track`, `HTTPServer` as `http_server`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::snake_case;

    #[test]
    fn variants_are_snake_case() {
        assert_eq!(snake_case("Metric"), "metric");
        assert_eq!(snake_case("FastTrack"), "fast_track");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("Utf8Text"), "utf8_text");
        assert_eq!(snake_case("A"), "a");
    }
}
