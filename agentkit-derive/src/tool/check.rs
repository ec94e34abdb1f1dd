//! Stage 3: the rules that span several keys of `#[tool(...)]`, checked on the model from
//! [`super::ast`]: the tool's name and version, every parameter and declared field by the
//! shared rules of [`crate::check`], and repeated parameters, credentials and tags.

use proc_macro2::Span;

use super::ast::Tool;
use crate::ast::{Param, Str};
use crate::check::check_param;
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, Problem};

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
