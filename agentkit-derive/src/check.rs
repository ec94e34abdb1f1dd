//! Stage 3: the rules that span several keys, checked on the model from [`crate::ast`]:
//! names, the version, defaults against types and `required`, declared `fields` (checked
//! like parameters, as deep as they go) and the defaults that must fit them, and repeated
//! parameters, credentials and tags.
//!
//! Each rule is the shared one from [`crate::rules`], so the compile error and the run-time
//! `SemanticError` for the same mistake read the same.

use proc_macro2::Span;

use crate::ast::{DefaultLit, DefaultValue, Param, Str, Tool};
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, ParamType, Problem, ValueKind};

/// Reports every problem of `tool` that spans several keys.
pub(crate) fn check(cx: &Ctxt, tool: &Tool<'_>) {
    match &tool.name {
        Some(name) => {
            if let Err(problem) = rules::check_name(NameKind::Tool, &name.value) {
                cx.error(name.span, problem);
            }
        }
        // A name whose value did not parse is already reported.
        None if tool.name_written => {}
        None => cx.error(
            Span::call_site(),
            format_args!(
                "{}: add `name = \"...\"` to #[tool(...)]",
                Problem::MissingToolName
            ),
        ),
    }
    if let Some(version) = &tool.version {
        if let Err(problem) = rules::check_version(&version.value) {
            cx.error(version.span, problem);
        }
    }
    for params in [&tool.input, &tool.output].into_iter().flatten() {
        check_params(cx, tool, params, false);
    }
    for name in rules::find_duplicates(tool.credentials.iter().map(|c| c.value.as_str())) {
        cx.error(
            second(&tool.credentials, name),
            Problem::DuplicateCredential {
                name: name.to_owned(),
            },
        );
    }
    for credential in &tool.credentials {
        if credential.value.is_empty() {
            cx.error(credential.span, Problem::EmptyCredentialName);
        }
    }
    let keys: Vec<&Str> = tool.tags.iter().map(|(key, _)| key).collect();
    for key in rules::find_duplicates(keys.iter().map(|k| k.value.as_str())) {
        cx.error(
            second(keys.iter().copied(), key),
            Problem::DuplicateTag {
                key: key.to_owned(),
            },
        );
    }
}

/// `items` only on a list, and a list default whose items are of that type; a wrong item is
/// reported on the item.
fn check_items(cx: &Ctxt, name: &str, param: &Param) {
    let (Some(ty), Some((items, items_span))) = (param.ty, param.items) else {
        return;
    };
    if ty.guessed || items.guessed {
        return;
    }
    let default_items: Vec<(ValueKind, Span)> = match &param.default {
        Some(DefaultLit {
            value: DefaultValue::List(values),
            ..
        }) => values.iter().map(|v| (v.value.kind(), v.span)).collect(),
        _ => Vec::new(),
    };
    let kinds: Vec<ValueKind> = default_items.iter().map(|(kind, _)| *kind).collect();
    for problem in rules::check_items(name, ty.ty, Some(items.ty), &kinds) {
        let span = match &problem {
            Problem::DefaultItemMismatch { index, .. } => default_items[*index].1,
            _ => items_span,
        };
        cx.error(span, problem);
    }
}

/// `fields` only on a dictionary or a list of dictionaries, and a default that fits them: each
/// of its dictionaries (the default itself, or each item of a list default) has every required
/// field, no undeclared one, and values of the fields' types, one level deep.
fn check_fields(cx: &Ctxt, name: &str, param: &Param) {
    let (Some(ty), Some((fields, fields_span))) = (param.ty, &param.fields) else {
        return;
    };
    let items = match param.items {
        Some((items, _)) if items.guessed => return,
        Some((items, _)) => Some(items.ty),
        None => None,
    };
    if ty.guessed {
        return;
    }
    if let Err(problem) = rules::check_fields_place(name, ty.ty, items) {
        if ty.ty == ParamType::List {
            cx.error(
                *fields_span,
                format_args!("{problem}; declare its items with `items = dictionary`"),
            );
        } else {
            cx.error(*fields_span, problem);
        }
        return;
    }
    let Some(default) = &param.default else {
        return;
    };
    // A field without a name or a known type is already reported; checking the default
    // against the others would report its entry as undeclared too.
    let Some(decls) = fields
        .iter()
        .map(|field| {
            let (name, ty) = (field.name.as_ref()?, field.ty?);
            (!ty.guessed).then(|| rules::FieldDecl {
                name: &name.value,
                ty: ty.ty,
                required: field.is_required(),
            })
        })
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    // The dictionaries to check; a default of the wrong kind is reported elsewhere.
    let dictionaries: Vec<&DefaultLit> = match (&default.value, ty.ty) {
        (DefaultValue::Dictionary(_), ParamType::Dictionary) => vec![default],
        (DefaultValue::List(values), ParamType::List) => values.iter().collect(),
        _ => Vec::new(),
    };
    for dictionary in dictionaries {
        let DefaultValue::Dictionary(entries) = &dictionary.value else {
            continue;
        };
        let kinds: Vec<(&str, ValueKind)> = entries
            .iter()
            .map(|(key, value)| (key.value.as_str(), value.value.kind()))
            .collect();
        for problem in rules::check_default_fields(name, &decls, &kinds) {
            let entry = |field: &str| entries.iter().find(|(key, _)| key.value == field);
            let span = match &problem {
                // The undeclared key, or the value of the wrong type; a missing field is
                // missing from the whole dictionary.
                Problem::DefaultUnknownField { field, .. } => entry(field).map(|(key, _)| key.span),
                Problem::DefaultFieldMismatch { field, .. } => {
                    entry(field).map(|(_, value)| value.span)
                }
                _ => None,
            };
            cx.error(span.unwrap_or(dictionary.span), problem);
        }
    }
}

/// Checks one parameter's name, `items`, default and `fields` (not the parameters within).
fn check_param(cx: &Ctxt, param: &Param) {
    let Some(name) = &param.name else { return };
    if let Err(problem) = rules::check_name(NameKind::Parameter, &name.value) {
        cx.error(name.span, problem);
    }
    check_items(cx, &name.value, param);
    if let (Some(ty), Some(default)) = (param.ty, &param.default) {
        if !ty.guessed {
            let problems = rules::check_default(
                &name.value,
                ty.ty,
                param.is_required(),
                Some(default.value.kind()),
            );
            for problem in problems {
                let span = match (&problem, param.required) {
                    // `required = true` is the mistake when written; when implied, the default is.
                    (Problem::RequiredWithDefault { .. }, Some((_, required))) => required,
                    _ => default.span,
                };
                cx.error(span, problem);
            }
        }
    }
    check_fields(cx, &name.value, param);
}

/// Checks one list of parameters: the `input`, the `output`, or the `fields` of a parameter
/// (`nested`), which are checked the same way, except that they make no struct fields.
fn check_params(cx: &Ctxt, tool: &Tool<'_>, params: &[Param], nested: bool) {
    for param in params {
        check_param(cx, param);
        if let Some((fields, _)) = &param.fields {
            check_params(cx, tool, fields, true);
        }
    }
    let names = params.iter().filter_map(|p| p.name.as_ref());
    let names: Vec<&Str> = names.collect();
    let duplicates = rules::find_duplicates(names.iter().map(|n| n.value.as_str()));
    for name in &duplicates {
        cx.error(
            second(names.iter().copied(), name),
            Problem::DuplicateParameter {
                name: (*name).to_owned(),
            },
        );
    }
    if nested {
        return;
    }
    // Distinct names can still make one Rust field (`max-days`, `max_days`).
    let mut fields: Vec<(String, &Str)> = Vec::new();
    for param in params {
        let (Some(field), Some(name)) = (param.field(), &param.name) else {
            continue;
        };
        let field = field.to_string();
        match fields.iter().find(|(f, _)| *f == field) {
            Some((_, first)) if first.value != name.value => cx.error(
                name.span,
                format_args!(
                    "parameters '{}' and '{}' would both be the field `{field}` of the \
                     generated struct of `{}`; rename one of them",
                    first.value, name.value, tool.item.ident
                ),
            ),
            Some(_) => {}
            None => fields.push((field, name)),
        }
    }
}

/// Where `value` occurs for the second time: a duplicate is reported where it is repeated.
fn second<'a>(items: impl IntoIterator<Item = &'a Str>, value: &str) -> Span {
    items
        .into_iter()
        .filter(|item| item.value == value)
        .nth(1)
        .map_or_else(Span::call_site, |item| item.span)
}
