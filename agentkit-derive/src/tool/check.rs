//! Stage 3: the rules that span several keys of `#[tool(...)]`, checked on the model from
//! [`super::ast`]: the tool's name and version, every parameter and declared field by the
//! shared rules of [`crate::check`], repeated parameters, credentials and tags, annotations
//! that contradict each other, and every input example against the parameters.

use proc_macro2::Span;

use super::ast::Tool;
use crate::ast::{Param, Str};
use crate::check::{self as param_check, check_param, locate};
use crate::ctxt::Ctxt;
use crate::forms;
use crate::rules::{self, ExampleIssue, NameKind, Problem};
use crate::symbol::{DESTRUCTIVE, READ_ONLY};

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
    for def in &tool.defs {
        check_params(cx, tool, std::slice::from_ref(&def.param), true);
    }
    // The literals written, input and output, share the `defs`; types given as
    // `input = Args`, `output = Results` say their parts themselves.
    let literals: Vec<&[Param]> = [tool.input.as_deref(), tool.output.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let typed = tool.input_type.is_some() || tool.output_type.is_some();
    match (literals.is_empty() && typed, tool.defs.first()) {
        (true, Some(def)) => cx.error(
            def.name.span,
            "`defs` name the parts of a literal `input = [...]` or `output = [...]`; types \
             given as `input = Args` and `output = Results` say their parts themselves",
        ),
        _ => forms::check::check(cx, &literals, &tool.defs),
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
    check_annotations(cx, tool);
    check_examples(cx, tool);
}

/// Read-only and destructive together, by the shared rule, on the second of the two keys.
fn check_annotations(cx: &Ctxt, tool: &Tool<'_>) {
    let annotations = &tool.annotations;
    let (read_only, destructive) = (annotations.hint(READ_ONLY), annotations.hint(DESTRUCTIVE));
    let value = |hint: Option<(bool, Span)>| hint.map(|(value, _)| value);
    if let Err(problem) = rules::check_annotations(value(read_only), value(destructive)) {
        // Both are set, and the hints are kept in the order written: the later is the second.
        let second = annotations
            .hints
            .iter()
            .rev()
            .find(|(key, _, _)| *key == READ_ONLY || *key == DESTRUCTIVE)
            .map_or_else(Span::call_site, |(_, _, span)| *span);
        cx.error(second, problem);
    }
}

/// The examples by the shared rules: few enough, each short enough, and each accepted by the
/// parameters `input` declares, every problem on the token it is about (a key on the key, a
/// value on the value, a missing parameter on the example's braces).
fn check_examples(cx: &Ctxt, tool: &Tool<'_>) {
    if let Err(problem) = rules::check_example_count(tool.examples_written) {
        // On the first example past the limit: those before it may stay.
        let span = tool
            .examples
            .iter()
            .find(|example| example.index == rules::MAX_EXAMPLES)
            .map_or_else(Span::call_site, |example| example.value.span);
        cx.error(span, problem);
    }
    if tool.uses_forms() {
        for example in &tool.examples {
            let rules::Literal::Dictionary(entries) = example.value.to_literal() else {
                continue;
            };
            let bytes = rules::json_len(&entries, rules::MAX_EXAMPLE_BYTES);
            if let Err(problem) = rules::check_example_size(example.index, bytes) {
                cx.error(example.value.span, problem);
            }
        }
        let examples: Vec<_> = tool
            .examples
            .iter()
            .map(|e| (e.index, &e.value, e.complete))
            .collect();
        let params = tool.input.as_deref().unwrap_or_default();
        forms::check::check_examples(cx, params, &tool.defs, &examples);
        return;
    }
    let params = example_params(tool);
    for example in &tool.examples {
        // Always a dictionary: `examples` keeps only the maps.
        let rules::Literal::Dictionary(entries) = example.value.to_literal() else {
            continue;
        };
        let bytes = rules::json_len(&entries, rules::MAX_EXAMPLE_BYTES);
        if let Err(problem) = rules::check_example_size(example.index, bytes) {
            cx.error(example.value.span, problem);
            continue;
        }
        let Some(params) = &params else { continue };
        if !example.complete {
            continue;
        }
        for found in rules::check_example(example.index, params.as_deref(), &entries) {
            let on_key = matches!(
                found.problem,
                Problem::InvalidExample {
                    issue: ExampleIssue::Unknown { .. } | ExampleIssue::DuplicateKey { .. },
                    ..
                }
            );
            cx.error(locate(&example.value, &found.at, on_key), found.problem);
        }
    }
}

/// What the examples are checked against: `Some(None)` when the tool has no input schema
/// (any object is an example), `None` when they cannot be checked here: the parameters are
/// a type's (`input = Args`: the registry checks them), or one of them could not be read
/// (already reported; checking against a guess would report a good example too).
fn example_params<'t>(tool: &'t Tool<'_>) -> Option<Option<Vec<rules::Decl<'t>>>> {
    if tool.input_type.is_some() {
        return None;
    }
    let Some(params) = &tool.input else {
        return Some(None);
    };
    let names = params.iter().filter_map(|p| p.name.as_ref());
    if !rules::find_duplicates(names.map(|n| n.value.as_str())).is_empty() {
        return None;
    }
    params
        .iter()
        .map(|param| param_check::decl(param).filter(|_| !param.required_unknown))
        .collect::<Option<Vec<_>>>()
        .map(Some)
}

/// Checks one list of parameters: the `input`, the `output`, or the `fields` of a parameter
/// (`nested`), which are checked the same way, except that they make no struct fields.
fn check_params(cx: &Ctxt, tool: &Tool<'_>, params: &[Param], nested: bool) {
    for param in params {
        check_param(cx, param);
        if let Some((fields, _)) = &param.fields {
            check_params(cx, tool, fields, true);
        }
        if let Some((variants, _)) = &param.forms.variants {
            for variant in variants {
                check_params(cx, tool, &variant.fields, true);
            }
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
