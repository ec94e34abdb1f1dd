//! Stage 3 of `#[derive(ToolParams)]`: the rules on each field's parameter (the shared ones of
//! [`crate::check`], and those its Rust type adds), on repeated parameter names, and on
//! repeated enum values.

use proc_macro2::Span;
use quote::quote;
use syn::{Ident, Type};

use super::ast::{Container, Data, FieldParam, VariantFields};
use super::kind::Kind;
use crate::ast::{DefaultValue, Param, Str};
use crate::check;
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, Number, Problem};

/// The rules across the type's fields or variants: two fields with one parameter name, two
/// variants with one value. (Each field is checked on its own by [`field`], as it is read.)
pub(crate) fn check(cx: &Ctxt, container: &Container<'_>) {
    match &container.data {
        Data::Struct(fields) => check_names(cx, fields),
        Data::Enum(variants) => check_values(cx, variants, false),
        Data::Tagged(variants) => {
            let values: Vec<(Str, &Ident)> = variants
                .iter()
                .map(|v| {
                    let value = Str {
                        value: v.value.value.clone(),
                        span: v.value.span,
                    };
                    (value, v.ident)
                })
                .collect();
            check_values(cx, &values, true);
            for variant in variants {
                if let VariantFields::Named(fields) = &variant.fields {
                    check_names(cx, fields);
                }
            }
        }
        Data::Unnamed | Data::Union => {}
    }
}

/// The checks of a field's parameter: its name, its constraints (the written ones, and that
/// they stay within what an integer type holds), its default against them. A default of a
/// type of the user's own is returned, with where it is written: only the generated
/// `const`s can check it.
pub(crate) fn field(cx: &Ctxt, param: &Param, kind: Kind, ty: &Type) -> Option<(String, Span)> {
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
        Kind::Json { ty: json_ty } => {
            let ty_text = quote!(#ty).to_string().replace(' ', "");
            for (key, key_span, _) in &param.constraint_spans {
                if json_ty == rules::ParamType::List && key.ends_with("_items") {
                    continue;
                }
                cx.error(
                    *key_span,
                    format_args!(
                        "parameter '{name}': '{key}' cannot be set on a field of type \
                         `{ty_text}`: its schema is its type's"
                    ),
                );
            }
            if json_ty == rules::ParamType::List {
                check::check_constraints(cx, name, param);
            }
            if let Some(default) = &param.default {
                cx.error(
                    default.span,
                    format_args!(
                        "parameter '{name}': a field of type `{ty_text}` takes no default; \
                         make it an `Option` to leave it out"
                    ),
                );
            }
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

/// Two variants with one value (`rename`), or one tag (`tagged`).
fn check_values(cx: &Ctxt, variants: &[(Str, &Ident)], tagged: bool) {
    let (what, either) = if tagged {
        ("tag", "an object with that tag")
    } else {
        ("value", "that value")
    };
    for (index, (value, ident)) in variants.iter().enumerate() {
        if let Some((_, first)) = variants[..index]
            .iter()
            .find(|(v, _)| v.value == value.value)
        {
            cx.error(
                value.span,
                format_args!(
                    "`{ident}` has the {what} '{}' of `{first}` already, so {either} could be \
                     either variant; give one of them another with #[param(rename = \"...\")]",
                    value.value
                ),
            );
        }
    }
}
