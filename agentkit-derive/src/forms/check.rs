//! Stage 3: the rules of the forms beyond the six types, each problem on the token it is
//! about: keys out of their place, a union without variants or with a tag two variants
//! share, a map without `values`, a tuple without its items, and every default, `const` and
//! input example against the declaration it belongs to.

use proc_macro2::Span;

use super::fit::Fit;
use super::{Def, Kind, kind_of};
use crate::ast::{DefaultLit, Param};
use crate::check::locate;
use crate::ctxt::Ctxt;
use crate::rules::{self, Step};

/// Checks every declaration in each of `literals` (the input's, the output's), at any
/// depth, and the `defs` they share, once.
pub(crate) fn check(cx: &Ctxt, literals: &[&[Param]], defs: &[Def]) {
    for param in literals.iter().copied().flatten() {
        check_param(cx, param, defs);
    }
    for def in defs {
        check_param(cx, &def.param, defs);
    }
    check_alias_cycles(cx, defs);
}

/// Whether a definition is a Rust type alias (a map, a list, a tuple, ...), not a struct or
/// an enum of its own.
pub(crate) fn is_alias(def: &Def) -> bool {
    let param = &def.param;
    match kind_of(param) {
        Some(Kind::Six(rules::ParamType::Dictionary)) => param.fields.is_none(),
        Some(Kind::Union) => false,
        _ => true,
    }
}

/// The definitions an alias names directly in its parts.
fn named(param: &Param) -> Vec<&str> {
    let forms = &param.forms;
    let mut kinds: Vec<&Kind> = Vec::new();
    kinds.extend(forms.form.iter().map(|(k, _)| k));
    kinds.extend(forms.items.iter().map(|(k, _)| k));
    kinds.extend(forms.values.iter().map(|(k, _)| k));
    kinds.extend(
        forms
            .tuple
            .iter()
            .flat_map(|(items, _)| items.iter().map(|(k, _)| k)),
    );
    kinds
        .into_iter()
        .filter_map(|k| match k {
            Kind::Def(name) => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// A definition that holds itself through aliases only (`tree = { type = map, values = tree
/// }`) has no Rust type: refused, with the way to write it.
fn check_alias_cycles(cx: &Ctxt, defs: &[Def]) {
    for def in defs.iter().filter(|def| is_alias(def)) {
        let mut seen: Vec<&str> = Vec::new();
        let mut todo: Vec<&str> = named(&def.param);
        while let Some(name) = todo.pop() {
            if name == def.name.value {
                cx.error(
                    def.name.span,
                    format_args!(
                        "definition '{0}' holds itself through a map, a list or a tuple only, \
                         which no Rust type can be; make it an object with that part as a \
                         field, such as `{0} = [{{ name = \"children\", type = map, values = \
                         {0} }}]`",
                        def.name.value
                    ),
                );
                // One cycle is one mistake, however many definitions it goes through.
                return;
            }
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            if let Some(next) = super::find_def(defs, name).filter(|d| is_alias(d)) {
                todo.extend(named(&next.param));
            }
        }
    }
}

fn check_param(cx: &Ctxt, param: &Param, defs: &[Def]) {
    let forms = &param.forms;
    let kinds = [
        forms.form.as_ref().map(|(k, _)| k),
        forms.items.as_ref().map(|(k, _)| k),
        forms.values.as_ref().map(|(k, _)| k),
    ];
    let union_at = kinds.iter().flatten().any(|k| **k == Kind::Union);
    let form = forms.form.as_ref().map(|(k, _)| k);
    for (key, span) in &forms.keys {
        let misplaced = match *key {
            "tag" | "variants" => (!union_at).then_some(
                "is for a union: write `type = union` (or `items = union` on a list, `values = \
                 union` on a map) with it",
            ),
            "values" => (form != Some(&Kind::Map))
                .then_some("is for a map, the type its values share: write `type = map` with it"),
            _ => None,
        };
        if let Some(why) = misplaced {
            cx.error(*span, format_args!("`{key}` {why}"));
        }
    }
    if let Some((kind, span)) = &forms.form {
        match kind {
            Kind::Map if forms.values.is_none() && !forms.broken => cx.error(
                *span,
                "a map says the type its values share: add `values = ...`, such as \
                 `values = string`, or `values = any` for any value",
            ),
            Kind::Tuple if forms.tuple.is_none() && !forms.broken => cx.error(
                *span,
                "a tuple says the type of each position: add `items = [...]`, such as \
                 `items = [float, float]`",
            ),
            _ => {}
        }
        if let Some((key, key_span, _)) = param.constraint_spans.first() {
            cx.error(
                *key_span,
                format_args!(
                    "`{key}` constrains a string, a number or a list, not a `{}`",
                    kind.name()
                ),
            );
        }
        let fields_fit = matches!(kind, Kind::Map)
            && matches!(
                forms.values,
                Some((Kind::Six(rules::ParamType::Dictionary), _))
            );
        if let (Some((_, fields_span)), false) = (&param.fields, fields_fit) {
            let why = if *kind == Kind::Union {
                "the fields of a union are its variants': write them in each variant, \
                 `{ tag = \"...\", fields = [...] }`"
            } else {
                "`fields` declares a dictionary's fields: on a map, with `values = dictionary`"
            };
            cx.error(*fields_span, why);
        }
    }
    if union_at && !forms.broken {
        check_variants(cx, param);
    }
    if let Some((fields, _)) = &param.fields {
        for field in fields {
            check_param(cx, field, defs);
        }
    }
    if let Some((variants, _)) = &forms.variants {
        for variant in variants {
            for field in &variant.fields {
                check_param(cx, field, defs);
            }
        }
    }
    check_literals(cx, param, defs);
}

/// A union's variants: at least one, each tag its own, no field named as the tag.
fn check_variants(cx: &Ctxt, param: &Param) {
    let forms = &param.forms;
    let Some((variants, list_span)) = &forms.variants else {
        let span = forms
            .form
            .iter()
            .chain(&forms.items)
            .chain(&forms.values)
            .find(|(k, _)| *k == Kind::Union)
            .map_or_else(Span::call_site, |(_, span)| *span);
        cx.error(
            span,
            "a union lists its variants: add `variants = [{ tag = \"...\", fields = [...] }, \
             ...]`",
        );
        return;
    };
    if variants.is_empty() {
        cx.error(
            *list_span,
            "a union has at least one variant: `variants = [{ tag = \"...\", fields = [...] }]`; \
             a value that can be anything is `type = any`",
        );
        return;
    }
    let tag = forms.tag_name();
    let mut seen: Vec<&str> = Vec::new();
    for variant in variants {
        if let Some(variant_tag) = &variant.tag {
            if seen.contains(&variant_tag.value.as_str()) {
                cx.error(
                    variant_tag.span,
                    format_args!(
                        "two variants of the union have the tag \"{}\": the '{tag}' a value \
                         sends names one variant, so each variant needs a tag of its own",
                        variant_tag.value
                    ),
                );
            } else {
                seen.push(&variant_tag.value);
            }
        }
        for field in &variant.fields {
            if let Some(name) = field.name.as_ref().filter(|n| n.value == tag) {
                cx.error(
                    name.span,
                    format_args!(
                        "'{tag}' is the union's tag, which each variant has already; name the \
                         field otherwise, or name the tag otherwise with `tag = \"...\"` on the \
                         union"
                    ),
                );
            }
        }
    }
}

/// The parameter's default and `const` against its declaration, when the six types' rules
/// cannot check them (the declaration uses a form, at some depth).
fn check_literals(cx: &Ctxt, param: &Param, defs: &[Def]) {
    let Some(name) = &param.name else { return };
    if kind_of(param).is_none() || param.forms.broken {
        return;
    }
    if let (Some(constant), true) = (&param.forms.constant, readable(std::slice::from_ref(param))) {
        // The constant against the declaration's kind (not against itself).
        let mut fit = Fit::new(defs);
        if let Some(kind) = kind_of(param) {
            fit.kind(&kind, param, &constant.to_literal());
        }
        for misfit in fit.misfits {
            cx.error(
                locate(constant, &misfit.at, misfit.on_key),
                format_args!(
                    "parameter '{}': the `const`{} {}",
                    name.value,
                    path(&misfit.at),
                    misfit.message
                ),
            );
        }
    }
    let Some(default) = &param.default else {
        return;
    };
    // The six types' rules check a default that uses no form; one in a declaration with a
    // mistake (already reported) is not checked against a guess.
    let uses_forms = super::uses_forms(std::slice::from_ref(param));
    if !uses_forms || !readable(std::slice::from_ref(param)) || param.default_literal.is_none() {
        return;
    }
    let mut fit = Fit::new(defs);
    fit.param(param, param.default_literal.as_ref().expect("checked"));
    for misfit in fit.misfits {
        cx.error(
            locate(default, &misfit.at, misfit.on_key),
            format_args!(
                "parameter '{}': the default{} {}",
                name.value,
                path(&misfit.at),
                misfit.message
            ),
        );
    }
}

/// `'s 'x'`, `'s '[1].y'`: where inside the literal, after what it is.
fn path(at: &[Step]) -> String {
    if at.is_empty() {
        return String::new();
    }
    let rendered = rules::render_steps(at);
    format!("'s '{}'", rendered.strip_prefix('.').unwrap_or(&rendered))
}

/// Every complete input example against the input, when the input uses a form.
/// Whether every declaration in `params`, at any depth, could be read whole: a name, a kind
/// not guessed, nothing broken, and no name twice in one list. A literal is checked only
/// against such declarations, so that a mistake already reported is not reported again as
/// the literal's.
pub(crate) fn readable(params: &[Param]) -> bool {
    let names: Vec<&str> = params
        .iter()
        .filter_map(|p| p.name.as_ref().map(|n| n.value.as_str()))
        .collect();
    if names.len() != params.len() || !rules::find_duplicates(names).is_empty() {
        return false;
    }
    params.iter().all(|param| {
        let forms = &param.forms;
        let items_ok = param.items.is_none_or(|(items, _)| !items.guessed);
        kind_of(param).is_some()
            && items_ok
            && !forms.broken
            && !param.required_unknown
            && !param.default_guessed
            && param.fields.as_ref().is_none_or(|(f, _)| readable(f))
            && forms
                .variants
                .as_ref()
                .is_none_or(|(variants, _)| variants.iter().all(|v| readable(&v.fields)))
    })
}

/// Each is its index, the literal, and whether all of it could be read.
pub(crate) fn check_examples(
    cx: &Ctxt,
    params: &[Param],
    defs: &[Def],
    examples: &[(usize, &DefaultLit, bool)],
) {
    if !readable(params) {
        return;
    }
    for &(index, value, complete) in examples {
        if !complete {
            continue;
        }
        let mut fit = Fit::new(defs);
        fit.object(params, &value.to_literal());
        for misfit in fit.misfits {
            let at = rules::render_steps(&misfit.at);
            let at = at.strip_prefix('.').unwrap_or(&at);
            let message = if at.is_empty() {
                format!("input example {index}: {}", misfit.message)
            } else {
                format!("input example {index}: '{at}' {}", misfit.message)
            };
            cx.error(locate(value, &misfit.at, misfit.on_key), message);
        }
    }
}
