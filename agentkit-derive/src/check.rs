//! Stage 3: the rules that span several keys, checked on the model from [`crate::ast`]:
//! names, the version, defaults against types and `required`, and repeated parameters,
//! credentials and tags.
//!
//! Each rule is the shared one from [`crate::rules`], so the compile error and the run-time
//! `SemanticError` for the same mistake read the same.

use proc_macro2::Span;

use crate::ast::{DefaultLit, DefaultValue, Param, Str, Tool};
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, Problem, ValueKind};

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
        check_params(cx, tool, params);
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

fn check_params(cx: &Ctxt, tool: &Tool<'_>, params: &[Param]) {
    for param in params {
        let Some(name) = &param.name else { continue };
        if let Err(problem) = rules::check_name(NameKind::Parameter, &name.value) {
            cx.error(name.span, problem);
        }
        check_items(cx, &name.value, param);
        let (Some(ty), Some(default)) = (param.ty, &param.default) else {
            continue;
        };
        if ty.guessed {
            continue;
        }
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
