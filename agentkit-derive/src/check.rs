//! Stage 3: the rules that span several keys, checked on the model from [`crate::ast`]:
//! names, the version, `items` and `fields` in their places, declared `fields` (checked like
//! parameters, as deep as they go), defaults against the whole declaration at any depth and
//! against `required`, and repeated parameters, credentials and tags.
//!
//! Each rule is the shared one from [`crate::rules`], so the compile error and the run-time
//! `SemanticError` for the same mistake read the same.

use proc_macro2::Span;

use crate::ast::{DefaultLit, DefaultValue, Param, Str, Tool};
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, ParamType, Problem};

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

/// `items` only on a list.
fn check_items(cx: &Ctxt, name: &str, param: &Param) {
    let (Some(ty), Some((items, items_span))) = (param.ty, param.items) else {
        return;
    };
    if ty.guessed || items.guessed {
        return;
    }
    if let Err(problem) = rules::check_items(name, ty.ty, Some(items.ty)) {
        cx.error(items_span, problem);
    }
}

/// `fields` only on a dictionary or a list of dictionaries.
fn check_fields(cx: &Ctxt, name: &str, param: &Param) {
    let (Some(ty), Some((_, fields_span))) = (param.ty, &param.fields) else {
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
    }
}

/// The declaration as the shared default rules read it, with its fields at any depth; `None`
/// when a name or type in it could not be read (already reported), since checking a default
/// against a guess would report its entries as undeclared or mistyped too.
pub(crate) fn decl(param: &Param) -> Option<rules::Decl<'_>> {
    let name = param.name.as_ref()?;
    let ty = param.ty.filter(|ty| !ty.guessed)?;
    let items = match param.items {
        Some((items, _)) if items.guessed => return None,
        Some((items, _)) => Some(items.ty),
        None => None,
    };
    let fields = match &param.fields {
        Some((fields, _)) => Some(
            fields
                .iter()
                .map(|field| decl(field).filter(|_| !field.required_unknown))
                .collect::<Option<Vec<_>>>()?,
        ),
        None => None,
    };
    // A default is checked against the constraints only when they are all known and well
    // formed: against a guess, it could be refused for a mistake reported already.
    let constraints = if param.constraints_unknown
        || !rules::check_constraints(&name.value, ty.ty, &param.constraints).is_empty()
    {
        &rules::Constraints::NONE
    } else {
        &param.constraints
    };
    Some(rules::Decl {
        name: &name.value,
        ty: ty.ty,
        required: param.is_required(),
        items,
        fields,
        default: param.default_literal.as_ref(),
        constraints,
    })
}

/// The default against the whole declaration, at any depth, by the shared rules: each problem
/// on the value it is about (an undeclared key on the key; a missing field on the dictionary).
pub(crate) fn check_default(cx: &Ctxt, name: &str, param: &Param) {
    check_default_with(cx, name, param, None);
}

/// [`check_default`], against `constraints` in place of the parameter's own when both are
/// well formed: the bounds in force on a field of `#[derive(ToolParams)]`, its written ones
/// or else those of its integer type.
pub(crate) fn check_default_with(
    cx: &Ctxt,
    name: &str,
    param: &Param,
    constraints: Option<&rules::Constraints>,
) {
    let Some(default) = &param.default else {
        return;
    };
    let required_span = |problem: &Problem| match (problem, param.required) {
        // `required = true` is the mistake when written; when implied, the default is.
        (Problem::RequiredWithDefault { .. }, Some((_, required))) => Some(required),
        (Problem::RequiredWithDefault { .. }, None) => Some(default.span),
        _ => None,
    };
    let Some(decl) = decl(param) else {
        // The value cannot be checked against a type that is not known, but a default on a
        // required parameter is a mistake whatever the type.
        if param.is_required() && !param.required_unknown {
            let problem = Problem::RequiredWithDefault {
                name: name.to_owned(),
            };
            cx.error(required_span(&problem).unwrap_or(default.span), problem);
        }
        return;
    };
    // Whether the parameter is required could not be read (already reported): the default
    // is still checked against its type.
    let in_force = match constraints {
        Some(c)
            if !param.constraints_unknown
                && rules::check_constraints(name, decl.ty, &param.constraints).is_empty()
                && rules::check_constraints(name, decl.ty, c).is_empty() =>
        {
            c
        }
        _ => decl.constraints,
    };
    let decl = rules::Decl {
        required: decl.required && !param.required_unknown,
        constraints: in_force,
        ..decl
    };
    for rules::DefaultProblem { at, problem } in rules::check_default(&decl).problems {
        let span = required_span(&problem).unwrap_or_else(|| locate(default, &at, &problem));
        cx.error(span, problem);
    }
}

/// Where the value at `at` is written inside `default`: for an undeclared or repeated key, the
/// key itself.
fn locate(default: &DefaultLit, at: &[rules::Step], problem: &Problem) -> Span {
    let mut here = default;
    for (index, step) in at.iter().enumerate() {
        let next = match (step, &here.value) {
            (rules::Step::Item(i), DefaultValue::List(items)) => items.get(*i),
            (rules::Step::Field(key), DefaultValue::Dictionary(entries)) => {
                let entry = entries.iter().find(|(k, _)| k.value == *key);
                let last = index + 1 == at.len();
                let on_key = matches!(
                    problem,
                    Problem::DefaultUnknownField { .. } | Problem::DefaultDuplicateField { .. }
                );
                if let (Some((key, _)), true, true) = (entry, last, on_key) {
                    return key.span;
                }
                entry.map(|(_, value)| value)
            }
            _ => None,
        };
        match next {
            Some(next) => here = next,
            None => break,
        }
    }
    here.span
}

/// Checks one parameter's name, `items`, `fields` and default (not the parameters within).
fn check_param(cx: &Ctxt, param: &Param) {
    let Some(name) = &param.name else { return };
    if let Err(problem) = rules::check_name(NameKind::Parameter, &name.value) {
        cx.error(name.span, problem);
    }
    check_items(cx, &name.value, param);
    check_fields(cx, &name.value, param);
    check_constraints(cx, &name.value, param);
    check_default(cx, &name.value, param);
}

/// The constraints by the shared rules, each problem on the token it is about: an `enum`
/// value on the value, a constraint on the wrong type on its key, bounds the wrong way round
/// on the upper bound.
pub(crate) fn check_constraints(cx: &Ctxt, name: &str, param: &Param) {
    let Some(ty) = param.ty.filter(|ty| !ty.guessed) else {
        return;
    };
    let span_of = |key: &str, on_key: bool| {
        param
            .constraint_spans
            .iter()
            .find(|(k, _, _)| *k == key)
            .map_or_else(Span::call_site, |(_, key_span, value_span)| {
                if on_key { *key_span } else { *value_span }
            })
    };
    for rules::ConstraintProblem {
        key,
        index,
        problem,
    } in rules::check_constraints(name, ty.ty, &param.constraints)
    {
        let span = match (index, &problem) {
            (Some(index), _) => param
                .enum_spans
                .get(index)
                .copied()
                .unwrap_or_else(|| span_of(key, false)),
            (None, Problem::ConstraintOnWrongType { .. }) => span_of(key, true),
            (None, _) => span_of(key, false),
        };
        cx.error(span, problem);
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
