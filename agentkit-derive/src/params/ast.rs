//! Stage 2 of `#[derive(ToolParams)]`: the type it is on, read as a parameter list (a struct's
//! fields), a string's allowed values (a fieldless enum's variants), or a tagged union (an
//! enum with data: each variant a closed object naming its tag).
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
use crate::rules::{self, NameKind, ParamType, Problem};
use crate::value::{crate_path, doc_of, refused_saying};

/// A type deriving `ToolParams`, as read.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    /// The path of agentkit-core: `#[param(crate = "...")]` on the type, else
    /// `::agentkit_core`.
    pub(crate) krate: TokenStream,
    /// Whether the type has generic parameters (reported: it cannot have the impls at all).
    pub(crate) generic: bool,
    /// `#[param(tag = "...")]` on an enum: the key naming the variant (else `"type"`).
    pub(crate) tag: Option<Str>,
    pub(crate) data: Data<'a>,
}

/// The key naming the variant of a tagged enum, unless `#[param(tag = "...")]` says another.
pub(crate) const DEFAULT_TAG: &str = "type";

/// What the type is.
pub(crate) enum Data<'a> {
    /// A struct with named fields: each field a parameter.
    Struct(Vec<FieldParam<'a>>),
    /// A struct without named fields (reported).
    Unnamed,
    /// A fieldless enum: each variant's value, and the variant.
    Enum(Vec<(Str, &'a Ident)>),
    /// An enum with data (or with `#[param(tag = "...")]`): a tagged union.
    Tagged(Vec<TaggedVariant<'a>>),
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
        let (krate, tag) = container(cx, input);
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
                        .map(|f| field(cx, f, check_field, Some(&input.ident)))
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
                if data.variants.is_empty() {
                    cx.error(
                        input.ident.span(),
                        "#[derive(ToolParams)] on an enum needs at least one variant: its variants \
                         are the values the parameter allows",
                    );
                }
                let has_data = data
                    .variants
                    .iter()
                    .any(|v| !matches!(v.fields, Fields::Unit));
                if has_data || tag.is_some() {
                    let tag_name = tag.as_ref().map_or(DEFAULT_TAG, |t| t.value.as_str());
                    Data::Tagged(
                        data.variants
                            .iter()
                            .filter_map(|v| tagged_variant(cx, v, tag_name, check_field))
                            .collect(),
                    )
                } else {
                    Data::Enum(
                        data.variants
                            .iter()
                            .filter_map(|v| variant(cx, v))
                            .collect(),
                    )
                }
            }
            syn::Data::Union(data) => {
                cx.error(
                    data.union_token.span,
                    "#[derive(ToolParams)] goes on a struct with named fields or an enum, not a \
                     union",
                );
                Data::Union
            }
        };
        if let (Some(tag), Data::Struct(_)) = (&tag, &data) {
            cx.error(
                tag.span,
                "`tag` goes on an enum: it names the key that says which variant an object is; a \
                 struct is one object, with no variants",
            );
        }
        Container {
            ident: &input.ident,
            krate,
            generic,
            tag,
            data,
        }
    }
}

/// `#[param(crate = "...")]` on the type (the path of agentkit-core) and `#[param(tag =
/// "...")]` (an enum's tag key).
fn container(cx: &Ctxt, input: &DeriveInput) -> (TokenStream, Option<Str>) {
    let mut krate = quote!(::agentkit_core);
    let mut tag = None;
    for entry in param_entries(cx, &input.attrs) {
        let Entry { key, value } = entry;
        match key.text.as_str() {
            "crate" => {
                if let Some(value) = value.value(cx, &key) {
                    if let Some(path) = crate_path(cx, value) {
                        krate = path;
                    }
                }
            }
            "tag" => {
                if tag.is_some() {
                    cx.error(
                        key.span,
                        Problem::DuplicateKey {
                            key: key.text.clone(),
                        },
                    );
                    continue;
                }
                let Some(value) = value.value(cx, &key) else {
                    continue;
                };
                match value {
                    Value::Lit(syn::Lit::Str(s)) => {
                        let name = s.value();
                        if let Err(problem) = rules::check_name(NameKind::Parameter, &name) {
                            cx.error(s.span(), format_args!("'tag': {problem}"));
                        }
                        tag = Some(Str {
                            value: name,
                            span: s.span(),
                        });
                    }
                    other => refused_saying(
                        cx,
                        &other,
                        "'tag' takes a string, the key that names the variant, such as \
                         `tag = \"kind\"`"
                            .to_owned(),
                    ),
                }
            }
            _ => cx.error(
                key.span,
                format_args!(
                    "unknown key '{}': #[param(...)] on the type takes `crate = \"...\"` (the \
                     path of agentkit-core) and, on an enum, `tag = \"...\"` (the key that names \
                     the variant); the parameters' keys go on the fields",
                    key.text
                ),
            ),
        }
    }
    (krate, tag)
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
                    refused_saying(
                        cx,
                        &other,
                        "'rename' takes a string, the name the model sees, such as \
                         `rename = \"max-days\"`"
                            .to_owned(),
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
    /// The type names the type being derived (`children: Vec<Node>` in `Node`): its shape
    /// is not read from the type, whose own `SHAPE` it would need.
    pub(crate) recursive: bool,
    /// The type is an `Option`.
    pub(crate) optional: bool,
}

/// A variant of a tagged enum.
pub(crate) struct TaggedVariant<'a> {
    pub(crate) ident: &'a Ident,
    /// Its tag value: `rename`, else its name in snake_case.
    pub(crate) value: Str,
    pub(crate) description: Option<String>,
    pub(crate) fields: VariantFields<'a>,
}

/// What a variant of a tagged enum holds.
pub(crate) enum VariantFields<'a> {
    /// Nothing: `{tag: value}`.
    Unit,
    /// Named fields, beside the tag.
    Named(Vec<FieldParam<'a>>),
    /// One struct deriving `ToolParams`, whose fields sit beside the tag.
    Newtype(&'a Type),
}

/// Reads one field: its name, its type, and its `#[param(...)]`, then checks it with
/// `check_field` (unless its type could not be read, which is reported already).
fn field<'a>(
    cx: &Ctxt,
    field: &'a syn::Field,
    check_field: CheckField,
    // The struct the field is of: a field naming it is recursive. (A tagged enum's `SHAPE`
    // reads none of its fields, so its variants' fields never are.)
    container: Option<&Ident>,
) -> FieldParam<'a> {
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
        Kind::Known { ty, .. } | Kind::Json { ty } => Ty { ty, guessed: false },
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
        recursive: container.is_some_and(|container| mentions(&field.ty, container)),
        optional,
    }
}

/// Whether `ty` names `ident` (or `Self`) anywhere.
fn mentions(ty: &Type, ident: &Ident) -> bool {
    fn walk(tokens: TokenStream, ident: &Ident) -> bool {
        tokens.into_iter().any(|token| match token {
            proc_macro2::TokenTree::Ident(i) => i == *ident || i == "Self",
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(quote!(#ty), ident)
}

/// A variant of a tagged enum: its tag value, doc comment and fields.
fn tagged_variant<'a>(
    cx: &Ctxt,
    variant: &'a Variant,
    tag: &str,
    check_field: CheckField,
) -> Option<TaggedVariant<'a>> {
    let value = variant_value(cx, variant);
    let fields = match &variant.fields {
        Fields::Unit => VariantFields::Unit,
        Fields::Named(named) => {
            let fields: Vec<FieldParam<'a>> = named
                .named
                .iter()
                .map(|f| field(cx, f, check_field, None))
                .collect();
            for f in &fields {
                if let Some(name) = f.param.name.as_ref().filter(|n| n.value == tag) {
                    cx.error(
                        name.span,
                        format_args!(
                            "the field '{tag}' of `{}` has the name of the enum's tag, the key \
                             that says which variant an object is; rename the field \
                             (#[param(rename = \"...\")]) or choose another tag \
                             (#[param(tag = \"...\")] on the enum)",
                            variant.ident
                        ),
                    );
                }
            }
            VariantFields::Named(fields)
        }
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            VariantFields::Newtype(&unnamed.unnamed[0].ty)
        }
        Fields::Unnamed(unnamed) => {
            cx.error_spanned_by(
                unnamed,
                format_args!(
                    "`{}` has {} unnamed fields, which cannot be internally tagged: the variant \
                     is a JSON object, its fields sit beside the tag '{tag}' and need names; name \
                     them (`{} {{ a: .., b: .. }}`) or wrap them in a struct deriving \
                     `ToolParams` (`{}(Args)`)",
                    variant.ident,
                    unnamed.unnamed.len(),
                    variant.ident,
                    variant.ident,
                ),
            );
            return None;
        }
    };
    Some(TaggedVariant {
        ident: &variant.ident,
        value,
        description: doc_of(&variant.attrs),
        fields,
    })
}

/// A variant of a fieldless enum: its value (`rename`, else its name in snake_case).
fn variant<'a>(cx: &Ctxt, variant: &'a Variant) -> Option<(Str, &'a Ident)> {
    Some((variant_value(cx, variant), &variant.ident))
}

/// The value a variant stands for: its `#[param(rename = "...")]`, else its name in
/// snake_case.
fn variant_value(cx: &Ctxt, variant: &Variant) -> Str {
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
    rename.unwrap_or_else(|| Str {
        value: snake_case(&variant.ident.unraw().to_string()),
        span: variant.ident.span(),
    })
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
    use quote::quote;

    use super::snake_case;

    // A macro call for a string is one error over the call, whichever key it is for.
    #[test]
    fn a_macro_call_for_a_string_is_one_error_that_says_so() {
        for item in [
            quote!(
                struct A {
                    #[param(description = concat!("a", "b"))]
                    x: String,
                }
            ),
            quote!(
                struct A {
                    #[param(rename = concat!("a", "b"))]
                    x: String,
                }
            ),
            quote!(
                #[param(tag = stringify!(kind))]
                enum A {
                    B { x: i64 },
                }
            ),
        ] {
            let out = crate::params::derive(item).to_string();
            assert_eq!(out.matches("compile_error").count(), 1, "{out}");
            assert!(out.contains("is a macro call"), "{out}");
        }
    }

    #[test]
    fn variants_are_snake_case() {
        assert_eq!(snake_case("Metric"), "metric");
        assert_eq!(snake_case("FastTrack"), "fast_track");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("Utf8Text"), "utf8_text");
        assert_eq!(snake_case("A"), "a");
    }
}
