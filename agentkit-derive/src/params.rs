//! `#[derive(ToolParams)]`: a struct with named fields as a parameter list, a fieldless enum
//! as a string's allowed values.
//!
//! The same stages as `#[tool]`, on a derive: each field's `#[param(...)]` is read by
//! [`crate::attr`] and [`crate::ast`] with the keys of a literal parameter (less those the
//! field says itself: name, type, `required`, `items`, `fields`), checked by the same
//! [`crate::check`] rules, and expanded to `const` data that `Param::from_shape` builds from
//! the field's Rust type. What the macro cannot see (whether a type of the user's own is a
//! struct or an enum) the generated `const`s check when they are evaluated.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type, Variant,
};

use crate::ast::{DefaultValue, Param, Str, Ty};
use crate::attr::{self, Entry, Value};
use crate::check;
use crate::ctxt::Ctxt;
use crate::decl;
use crate::expand;
use crate::rules::{self, NameKind, Number, ParamType, Problem};
use crate::value;

/// `#[derive(ToolParams)] item`.
pub(crate) fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(input) => input,
        Err(error) => return error.into_compile_error(),
    };
    let cx = Ctxt::new();
    let krate = container(&cx, &input);
    // Every impl is written in one anonymous `const` block that imports `<crate>::__private`
    // once, as serde's derives do: one token per path rather than five, and the import seen
    // nowhere else.
    let p = Ident::new("__agentkit", Span::call_site());
    if !input.generics.params.is_empty() {
        cx.error_spanned_by(
            &input.generics,
            "#[derive(ToolParams)] cannot serve a generic type: its parameters are one \
             `static` list, so they need one concrete type",
        );
    }
    let expanded = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => {
                let fields: Vec<FieldParam<'_>> =
                    named.named.iter().map(|f| field(&cx, f)).collect();
                check_names(&cx, &fields);
                expand_struct(&p, &input.ident, &fields)
            }
            other => {
                cx.error_spanned_by(
                    other,
                    "#[derive(ToolParams)] needs a struct with named fields: each field is a \
                     parameter, named after it",
                );
                fallback(&p, &input.ident, ParamType::Dictionary)
            }
        },
        Data::Enum(data) => {
            let variants: Vec<(Str, &Ident)> = data
                .variants
                .iter()
                .filter_map(|v| variant(&cx, v))
                .collect();
            if data.variants.is_empty() {
                cx.error(
                    input.ident.span(),
                    "#[derive(ToolParams)] on an enum needs at least one variant: its variants \
                     are the values the parameter allows",
                );
            }
            check_values(&cx, &variants);
            expand_enum(&p, &input.ident, &variants)
        }
        Data::Union(data) => {
            cx.error(
                data.union_token.span,
                "#[derive(ToolParams)] goes on a struct with named fields or a fieldless enum, \
                 not a union",
            );
            quote!()
        }
    };
    let wrap = |impls: TokenStream| {
        quote! {
            #[doc(hidden)]
            const _: () = {
                #[allow(unused_imports)]
                use #krate::__private as __agentkit;
                #impls
            };
        }
    };
    match cx.check() {
        Ok(()) => wrap(expanded),
        Err(errors) => {
            let errors = errors.iter().map(syn::Error::to_compile_error);
            // A generic type or a union cannot have the impls at all: only the error says why.
            if !input.generics.params.is_empty() || matches!(input.data, Data::Union(_)) {
                return quote!(#(#errors)*);
            }
            // The traits are still implemented, so that `#[tool(input = ..)]` and the
            // handler using the type compile, and each mistake is one error.
            let ty = match &input.data {
                Data::Enum(_) => ParamType::String,
                _ => ParamType::Dictionary,
            };
            let fallback = wrap(fallback(&p, &input.ident, ty));
            quote!(#(#errors)* #fallback)
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
            if let Some(path) = value::crate_path(cx, value) {
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
struct FieldParam<'a> {
    ident: &'a Ident,
    ty: &'a Type,
    /// What the macro knows of the type.
    kind: Kind,
    param: Param,
    /// A default of a type of the user's own (a fieldless enum's value), checked when the
    /// generated `const`s are evaluated.
    own_default: Option<(String, Span)>,
}

/// What the macro can tell from a field's Rust type.
#[derive(Clone, Copy)]
enum Kind {
    /// A standard type: its parameter type, its items' for a `Vec`, and the bounds of an
    /// integer type narrower than `i64`.
    Known {
        ty: ParamType,
        items: Option<ParamType>,
        range: (Option<i64>, Option<i64>),
    },
    /// A type of the user's own: a struct (a dictionary) or a fieldless enum (a string with
    /// allowed values) deriving `ToolParams`.
    Own,
    /// A `Vec` of a type of the user's own.
    ListOfOwn,
}

const fn known(ty: ParamType) -> Kind {
    Kind::Known {
        ty,
        items: None,
        range: (None, None),
    }
}

/// The single type argument of `segment`, if it has exactly one.
fn only_arg(segment: &syn::PathSegment) -> Option<&Type> {
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    match args.args.iter().collect::<Vec<_>>().as_slice() {
        [GenericArgument::Type(ty)] => Some(ty),
        _ => None,
    }
}

/// `(optional, kind)` of a field's type; `None` (reported) when it cannot be a parameter.
fn classify(cx: &Ctxt, ty: &Type) -> Option<(bool, Kind)> {
    let segment = match ty {
        Type::Path(path) if path.qself.is_none() => path.path.segments.last()?,
        Type::Reference(_) => {
            cx.error_spanned_by(
                ty,
                "a parameter's field owns its value: use `String` rather than `&str`, `Vec<T>` \
                 rather than `&[T]`",
            );
            return None;
        }
        _ => {
            cx.error_spanned_by(ty, NOT_A_PARAM_TYPE);
            return None;
        }
    };
    if segment.ident == "Option" {
        if let Some(inner) = only_arg(segment) {
            if is_named(inner, "Option") {
                cx.error_spanned_by(
                    ty,
                    "`Option<Option<T>>` says nothing `Option<T>` does not: an absent argument \
                     and a `null` are both `None`",
                );
                return None;
            }
            return Some((true, classify(cx, inner)?.1));
        }
    }
    Some((false, plain(cx, ty, segment)?))
}

const NOT_A_PARAM_TYPE: &str = "this type cannot be the type of a parameter: use `String`, an \
                                integer type, `f64`, `bool`, `Vec<T>`, `Option<T>`, \
                                `Map<String, Value>`, or a struct or fieldless enum deriving \
                                `ToolParams`";

fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == name))
}

/// The kind of a type that is not an `Option`.
fn plain(cx: &Ctxt, ty: &Type, segment: &syn::PathSegment) -> Option<Kind> {
    let integer = |min: Option<i64>, max: Option<i64>| Kind::Known {
        ty: ParamType::Integer,
        items: None,
        range: (min, max),
    };
    let kind = match segment.ident.to_string().as_str() {
        "String" => known(ParamType::String),
        "i64" => known(ParamType::Integer),
        "u64" | "usize" => integer(Some(0), None),
        "isize" => integer(Some(i64::MIN), Some(i64::MAX)),
        "i32" => integer(Some(i32::MIN.into()), Some(i32::MAX.into())),
        "u32" => integer(Some(0), Some(u32::MAX.into())),
        "i16" => integer(Some(i16::MIN.into()), Some(i16::MAX.into())),
        "u16" => integer(Some(0), Some(u16::MAX.into())),
        "i8" => integer(Some(i8::MIN.into()), Some(i8::MAX.into())),
        "u8" => integer(Some(0), Some(u8::MAX.into())),
        "f64" => known(ParamType::Float),
        "f32" => {
            cx.error_spanned_by(
                ty,
                "`f32` cannot be the type of a parameter: a JSON number the model sends may \
                 not fit one; use `f64`",
            );
            return None;
        }
        "bool" => known(ParamType::Boolean),
        "Map" | "JsonObject" => known(ParamType::Dictionary),
        "Vec" => {
            let item = only_arg(segment)?;
            if is_named(item, "Value") {
                return Some(known(ParamType::List));
            }
            if is_named(item, "Option") {
                cx.error_spanned_by(
                    item,
                    "a list's items cannot be optional: use `Vec<T>`, or `Vec<Value>` for items \
                     that may be null",
                );
                return None;
            }
            let Type::Path(path) = item else {
                cx.error_spanned_by(item, NOT_A_PARAM_TYPE);
                return None;
            };
            let item_segment = path.path.segments.last()?;
            return match plain(cx, item, item_segment)? {
                Kind::Known {
                    ty: ParamType::List,
                    items: Some(_),
                    ..
                } => {
                    cx.error_spanned_by(
                        item,
                        "a list's items cannot be typed lists: use `Vec<Vec<Value>>`",
                    );
                    None
                }
                Kind::Known {
                    range: (None, None),
                    ty,
                    ..
                } => Some(Kind::Known {
                    ty: ParamType::List,
                    items: Some(ty),
                    range: (None, None),
                }),
                Kind::Known { .. } => {
                    cx.error_spanned_by(
                        item,
                        "a list's items cannot be bounded, as a narrow integer type would bound \
                         them: use `Vec<i64>`, and bound the list with `min_items`/`max_items`",
                    );
                    None
                }
                Kind::Own | Kind::ListOfOwn => Some(Kind::ListOfOwn),
            };
        }
        _ => Kind::Own,
    };
    Some(kind)
}

/// Reads one field: its name, its type, and its `#[param(...)]`, checked by the shared rules.
fn field<'a>(cx: &Ctxt, field: &'a syn::Field) -> FieldParam<'a> {
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
        param.description = value::doc_of(&field.attrs);
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

/// The checks of a field's parameter: its name, its constraints (the written ones, and that
/// they stay within what an integer type holds), its default against them.
fn check_field(cx: &Ctxt, param: &Param, kind: Kind, ty: &Type) -> Option<(String, Span)> {
    let name = param.name.as_ref().expect("a field's parameter has a name");
    if let Err(problem) = rules::check_name(NameKind::Parameter, &name.value) {
        cx.error(name.span, problem);
    }
    let name = name.value.as_str();
    match kind {
        Kind::Known { range, .. } => {
            check::check_constraints(cx, name, param);
            check_range(cx, name, param, range, ty);
            // The default against the bounds in force: the written ones, else the type's.
            let (minimum, maximum) = (param.constraints.minimum, param.constraints.maximum);
            let mut c = param.constraints.clone();
            c.minimum = minimum.or(range.0.map(Number::Integer));
            c.maximum = maximum.or(range.1.map(Number::Integer));
            check::check_default_with(cx, name, param, Some(&c));
            None
        }
        Kind::Own | Kind::ListOfOwn => {
            for (key, key_span, _) in &param.constraint_spans {
                if matches!(kind, Kind::ListOfOwn) && key.ends_with("_items") {
                    continue;
                }
                cx.error(
                    *key_span,
                    format_args!(
                        "parameter '{name}': '{key}' cannot be set on a field of type `{}`: a \
                         type deriving `ToolParams` says its own values or fields",
                        quote!(#ty).to_string().replace(' ', "")
                    ),
                );
            }
            if matches!(kind, Kind::ListOfOwn) {
                check::check_constraints(cx, name, param);
            }
            let default = param.default.as_ref()?;
            match (&default.value, kind) {
                (DefaultValue::String(value), Kind::Own) => Some((value.clone(), default.span)),
                (DefaultValue::List(items), Kind::ListOfOwn) if items.is_empty() => None,
                (_, Kind::ListOfOwn) => {
                    cx.error(
                        default.span,
                        format_args!(
                            "parameter '{name}': a list of a type deriving `ToolParams` can \
                             only default to `[]`; make the field an `Option` to leave it out"
                        ),
                    );
                    None
                }
                _ => {
                    cx.error(
                        default.span,
                        format_args!(
                            "parameter '{name}': a field of a type deriving `ToolParams` takes \
                             a default only if the type is a fieldless enum, written as its \
                             value: `default = \"metric\"`; for a struct, make the field an \
                             `Option`"
                        ),
                    );
                    None
                }
            }
        }
    }
}

/// A written bound outside what the field's integer type holds would let through values the
/// conversion refuses.
fn check_range(cx: &Ctxt, name: &str, param: &Param, range: (Option<i64>, Option<i64>), ty: &Type) {
    let c = &param.constraints;
    let ty = quote!(#ty).to_string().replace(' ', "");
    let span_of = |key: &str| {
        param
            .constraint_spans
            .iter()
            .find(|(k, _, _)| *k == key)
            .map_or_else(Span::call_site, |(_, _, value)| *value)
    };
    let holds = match range {
        (Some(min), Some(max)) => format!("{min} to {max}"),
        (Some(min), None) => format!("{min} or more"),
        _ => return,
    };
    for (key, bound) in [("minimum", c.minimum), ("maximum", c.maximum)] {
        let Some(bound) = bound else { continue };
        let below = range.0.is_some_and(|min| {
            bound.compare(Number::Integer(min)) == Some(std::cmp::Ordering::Less)
        });
        let above = range.1.is_some_and(|max| {
            bound.compare(Number::Integer(max)) == Some(std::cmp::Ordering::Greater)
        });
        if below || above {
            cx.error(
                span_of(key),
                format_args!(
                    "parameter '{name}': '{key}' is {bound}, outside what `{ty}` holds \
                     ({holds}); widen the type (`i64`) or narrow the bound"
                ),
            );
        }
    }
}

/// Two fields with one parameter name (`rename`).
fn check_names(cx: &Ctxt, fields: &[FieldParam<'_>]) {
    let names: Vec<&Str> = fields
        .iter()
        .filter_map(|f| f.param.name.as_ref())
        .collect();
    for name in rules::find_duplicates(names.iter().map(|n| n.value.as_str())) {
        let span = names
            .iter()
            .filter(|n| n.value == name)
            .nth(1)
            .map_or_else(Span::call_site, |n| n.span);
        cx.error(
            span,
            Problem::DuplicateParameter {
                name: name.to_owned(),
            },
        );
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

fn check_values(cx: &Ctxt, variants: &[(Str, &Ident)]) {
    for (index, (value, ident)) in variants.iter().enumerate() {
        if let Some((_, first)) = variants[..index]
            .iter()
            .find(|(v, _)| v.value == value.value)
        {
            cx.error(
                value.span,
                format_args!(
                    "`{ident}` has the value '{}' of `{first}` already; give one of them \
                     another with #[param(rename = \"...\")]",
                    value.value
                ),
            );
        }
    }
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

fn expand_struct(p: &Ident, ident: &Ident, fields: &[FieldParam<'_>]) -> TokenStream {
    let params = fields.iter().map(|f| param_value(p, f));
    let checks = fields
        .iter()
        .filter_map(|f| own_default_check(p, f))
        .chain(fields.iter().filter_map(|f| shape_check(p, f)));
    let field_of = |f: &FieldParam<'_>| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> #p::field::<#ty>())
    };
    let reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read(inputs, #name)?,)
    });
    let value_reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read_value(object, #name)?,)
    });
    let value_takes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.take_value(&mut object, #name)?,)
    });
    let slot_takes = fields.iter().enumerate().map(|(index, f)| {
        let (field, of) = (f.ident, field_of(f));
        quote!(#field: #of.take_slot(slots, #index)?,)
    });
    let writes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#of.write(&mut output, #name, self.#field);)
    });
    let (inputs, object, output, owned, slots) = if fields.is_empty() {
        (quote!(_), quote!(_), quote!(output), quote!(_), quote!(_))
    } else {
        (
            quote!(inputs),
            quote!(object),
            quote!(mut output),
            quote!(mut object),
            quote!(slots),
        )
    };
    quote! {
        #(#checks)*

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[#(#params),*];
        }

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = #p::Shape::dictionary(<Self as #p::ToolParams>::PARAMS);
        }

        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::Dictionary;

            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                let #object = value?.as_object()?;
                #p::Some(Self { #(#value_reads)* })
            }

            fn from_owned(value: #p::Option<#p::Value>) -> #p::Option<Self> {
                let #p::Value::Object(#owned) = value? else {
                    return #p::None;
                };
                #p::Some(Self { #(#value_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            fn into_value(self) -> #p::Option<#p::Value> {
                #p::Some(#p::Value::Object(#p::IntoOutput::into_output(self)))
            }
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                #p::Some(<Self as #p::ToolParams>::PARAMS);

            fn from_inputs(#inputs: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #p::Ok(Self { #(#reads)* })
            }

            fn from_slots(#slots: &mut [#p::Option<#p::Value>]) -> #p::Option<Self> {
                #p::Some(Self { #(#slot_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                #p::Some(<Self as #p::ToolParams>::PARAMS);

            fn into_output(self) -> #p::JsonObject {
                let #output = #p::JsonObject::new();
                #(#writes)*
                output
            }
        }
    }
}

fn name_of(f: &FieldParam<'_>) -> String {
    f.param
        .name
        .as_ref()
        .map_or_else(String::new, |n| n.value.clone())
}

/// The `const` `Param` of a field.
fn param_value(p: &Ident, f: &FieldParam<'_>) -> TokenStream {
    let ty = f.ty;
    let shape = quote_spanned!(ty.span()=> #p::field::<#ty>().shape);
    let name = name_of(f);
    let description = f.param.description.as_deref().unwrap_or("");
    // The default as validation leaves it (`2.0` for an integer as `2`).
    let normalised = match f.kind {
        Kind::Known { .. } => {
            check::decl(&f.param).and_then(|decl| rules::check_default(&decl).value)
        }
        _ => None,
    };
    let default = match normalised.as_ref().or(f.param.default_literal.as_ref()) {
        Some(default) => {
            let default = expand::literal(p, default);
            quote!(#p::Some(#default))
        }
        None => quote!(#p::None),
    };
    // Bounds the field leaves out are those of its type (`u8`: 0 to 255).
    let constraints = expand::constraints_over(p, &f.param.constraints, Some(&shape));
    quote!(#p::Param::from_shape(#name, #shape, #default, #description) #constraints)
}

/// For a default of a type of the user's own: a `const` that fails to evaluate unless the
/// type is a fieldless enum allowing that value, on the default.
fn own_default_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    let (value, span) = f.own_default.as_ref()?;
    let ty = f.ty;
    let message = format!(
        "parameter '{}': default must be one of the values of `{}`, got '{}'",
        name_of(f),
        quote!(#ty).to_string().replace(' ', ""),
        value
    );
    let mut p = p.clone();
    p.set_span(*span);
    Some(quote_spanned! {*span=>
        const _: () = #p::assert!(#p::has_enum_value::<#ty>(#value), #message);
    })
}

/// For a type of the user's own, or a list of one: a `const` that fails to evaluate, on the
/// field's type, if the type cannot be a parameter (a `Vec` of an enum).
fn shape_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    if matches!(f.kind, Kind::Known { .. }) {
        return None;
    }
    let ty = f.ty;
    // On the item type of a list: `Units` in `Vec<Units>`.
    let span = match f.kind {
        Kind::ListOfOwn => item_type(ty).map_or_else(|| ty.span(), Spanned::span),
        _ => ty.span(),
    };
    let mut p = p.clone();
    p.set_span(span);
    Some(quote_spanned! {span=>
        const _: () = if let #p::Some(problem) = #p::field::<#ty>().shape.problem {
            #p::panic!("{}", problem)
        };
    })
}

/// `T` in `Vec<T>` or `Option<Vec<T>>`.
fn item_type(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let segment = path.path.segments.last()?;
    let inner = only_arg(segment)?;
    if segment.ident == "Option" {
        return item_type(inner);
    }
    Some(inner)
}

fn expand_enum(p: &Ident, ident: &Ident, variants: &[(Str, &Ident)]) -> TokenStream {
    let values = variants.iter().map(|(value, _)| {
        let value = &value.value;
        quote!(#p::Literal::String(#p::Cow::Borrowed(#value)))
    });
    let pairs: Vec<(&str, &Ident)> = variants
        .iter()
        .map(|(value, variant)| (value.value.as_str(), *variant))
        .collect();
    let conversions = expand::enum_conversions(p, ident, &pairs);
    quote! {
        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = {
                const VALUES: &[#p::Literal] = &[#(#values),*];
                #p::Shape::string_enum(VALUES)
            };
        }

        #conversions
    }
}

/// The impls, with no parameters and conversions never called, for a type with mistakes.
fn fallback(p: &Ident, ident: &Ident, ty: ParamType) -> TokenStream {
    let unreachable =
        quote!(#p::unreachable!("#[derive(ToolParams)] reported errors for this type"));
    let param_type = match ty {
        ParamType::String => quote!(String),
        _ => quote!(Dictionary),
    };
    let common = quote! {
        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::#param_type;

            fn from_value(_: #p::Option<&#p::Value>) -> #p::Option<Self> {
                #unreachable
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            fn into_value(self) -> #p::Option<#p::Value> {
                #unreachable
            }
        }
    };
    if ty == ParamType::String {
        return quote! {
            #common

            #[automatically_derived]
            impl #p::ParamSchema for #ident {
                const SHAPE: #p::Shape = #p::Shape::string_enum(&[]);
            }
        };
    }
    quote! {
        #common

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[];
        }

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = #p::Shape::dictionary(&[]);
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            fn from_inputs(_: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #unreachable
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            fn into_output(self) -> #p::JsonObject {
                #unreachable
            }
        }
    }
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
