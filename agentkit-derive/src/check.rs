//! Stage 3, shared: the rules that span the keys of one parameter, checked on the model from
//! [`crate::ast`]: its name, `items` and `fields` in their places, its constraints, and its
//! default against the whole declaration at any depth and against `required`. `#[tool]`
//! applies them to every parameter and declared field; `#[derive(ToolParams)]` to each field.
//!
//! Each rule is the shared one from [`crate::rules`], so the compile error and the run-time
//! `SemanticError` for the same mistake read the same.

use proc_macro2::Span;

use crate::ast::{DefaultLit, DefaultValue, Param};
use crate::ctxt::Ctxt;
use crate::rules::{self, NameKind, ParamType, Problem};

/// Checks one parameter's name, `items`, `fields` and default (not the parameters within).
pub(crate) fn check_param(cx: &Ctxt, param: &Param) {
    let Some(name) = &param.name else { return };
    if let Err(problem) = rules::check_name(NameKind::Parameter, &name.value) {
        cx.error(name.span, problem);
    }
    check_items(cx, &name.value, param);
    check_fields(cx, &name.value, param);
    check_constraints(cx, &name.value, param);
    check_default(cx, &name.value, param);
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
        let on_key = matches!(
            problem,
            Problem::DefaultUnknownField { .. } | Problem::DefaultDuplicateField { .. }
        );
        let span = required_span(&problem).unwrap_or_else(|| locate(default, &at, on_key));
        // A default of another type than declared: the type or the default is the mistake,
        // so the field's type is not known until it is fixed.
        let undecided = at.is_empty() && matches!(problem, Problem::DefaultTypeMismatch { .. });
        let before = cx.error_count();
        cx.error(span, problem);
        if undecided {
            param.undecide(cx.first_since(before));
        }
    }
}

/// Where the value at `at` is written inside `literal` (a default, or an input example); with
/// `on_key` (a problem with an undeclared or repeated key), the key itself.
pub(crate) fn locate(literal: &DefaultLit, at: &[rules::Step], on_key: bool) -> Span {
    let mut here = literal;
    for (index, step) in at.iter().enumerate() {
        let next = match (step, &here.value) {
            (rules::Step::Item(i), DefaultValue::List(items)) => items.get(*i),
            (rules::Step::Field(key), DefaultValue::Dictionary(entries)) => {
                let entry = entries.iter().find(|(k, _)| k.value == *key);
                let last = index + 1 == at.len();
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
