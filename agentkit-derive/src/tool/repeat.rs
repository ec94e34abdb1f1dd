//! Stage 2, for the fallback only: what a key of `#[tool(...)]` written a second time says.
//!
//! A repeated key is one error, on the repeat ([`crate::attr::Seen`]), and the declaration is
//! the first one. But a handler may be written for either: `input` written twice, once as
//! `[{ name = "city", ... }]` and once as `[{ name = "town", ... }]`, leaves the handler's
//! `input.town` as right as its `input.city`. So the repeat of a key that decides types
//! (`input`, `output`, `defs`) is still read, silently, and when the attribute has mistakes
//! the fallback's types hold what either says: the fields of both lists (one the first also
//! declares keeps its type if both agree on it, else its type is left undecided), the
//! definitions of both, and an `Input` or `Output` left undecided when one of the two is a
//! type and the other a list or another type. Nothing of a repeat reaches a spec: the repeat
//! is an error, so the fallback is all that is expanded.

use crate::ast::Param;
use crate::attr::Value;
use crate::ctxt::{Ctxt, Reported};
use crate::decl;
use crate::forms::{self, Def};
use crate::symbol::{DEFS, INPUT, OUTPUT, Symbol};

use super::ast::{Tool, schema_type};

/// The repeats of `input`, `output` and `defs`, as read.
#[derive(Default)]
pub(crate) struct Repeats {
    input: Vec<Repeat>,
    output: Vec<Repeat>,
    defs: Vec<Def>,
}

/// A repeat of `input` or `output`: a type or a list, and the error that reports it.
struct Repeat {
    ty: Option<syn::Path>,
    params: Option<Vec<Param>>,
    error: Reported,
}

impl Repeats {
    /// Reads `value`, written for `key` again, which `error` reports. Its own mistakes are
    /// not reported: the repeat is the mistake, and goes once fixed.
    pub(crate) fn read(&mut self, cx: &Ctxt, key: Symbol, value: Value, error: Reported) {
        if ![INPUT, OUTPUT, DEFS].contains(&key) {
            return;
        }
        let quiet = Ctxt::new();
        quiet.set_defs(cx.defs());
        match key {
            DEFS => {
                let defs = forms::read::defs(&quiet, value);
                for def in &defs {
                    reown(std::slice::from_ref(&def.param), &error);
                }
                self.defs.extend(defs);
            }
            _ => {
                let repeat = match schema_type(value) {
                    Ok(path) => Repeat {
                        ty: Some(path),
                        params: None,
                        error,
                    },
                    Err(value) => {
                        let params = decl::params(&quiet, key, value);
                        if let Some(params) = &params {
                            reown(params, &error);
                        }
                        Repeat {
                            ty: None,
                            params,
                            error,
                        }
                    }
                };
                match key {
                    INPUT => self.input.push(repeat),
                    _ => self.output.push(repeat),
                }
            }
        }
        // Its errors are dropped: see above.
        let _ = quiet.check();
    }
}

impl Tool<'_> {
    /// Adds what the repeats say to the declaration, for the fallback's types.
    pub(crate) fn merge_repeats(&mut self) {
        let repeats = std::mem::take(&mut self.repeats);
        for repeat in repeats.input {
            merge(
                &mut self.input_type,
                &mut self.input,
                &mut self.input_undecided,
                repeat,
            );
        }
        for repeat in repeats.output {
            merge(
                &mut self.output_type,
                &mut self.output,
                &mut self.output_undecided,
                repeat,
            );
        }
        for def in repeats.defs {
            if !self.defs.iter().any(|d| d.name.value == def.name.value) {
                self.defs.push(def);
            }
        }
    }
}

/// Gives the repeat's error to each parameter of `params`, at any depth, whose type its own
/// mistakes left undecided: their errors, reported to a context that is dropped, are not
/// among those the fallback reports, so they cannot type a field.
fn reown(params: &[Param], error: &Reported) {
    for param in params {
        let mut undecided = param.undecided.borrow_mut();
        if undecided.is_some() {
            *undecided = Some(error.clone());
        }
        drop(undecided);
        if let Some((fields, _)) = &param.fields {
            reown(fields, error);
        }
    }
}

/// Merges `repeat` into one side of the declaration: its type `ty`, its list `params`, and
/// whether the type the handler names is `undecided`.
fn merge(
    ty: &mut Option<syn::Path>,
    params: &mut Option<Vec<Param>>,
    undecided: &mut Option<Reported>,
    repeat: Repeat,
) {
    let Repeat {
        ty: again_ty,
        params: again_params,
        error,
    } = repeat;
    let written = |path: &syn::Path| quote::quote!(#path).to_string();
    // A type, and a list or another type: which of them the handler names is not known.
    let differs = match (&*ty, &again_ty) {
        (Some(first), Some(again)) => written(first) != written(again),
        (Some(_), None) => again_params.is_some(),
        (None, Some(_)) => params.is_some(),
        (None, None) => false,
    };
    if differs && undecided.is_none() {
        *undecided = Some(error.clone());
    }
    if ty.is_none() && params.is_none() {
        *ty = again_ty;
    }
    let Some(again) = again_params else { return };
    let Some(first) = params else {
        *params = Some(again);
        return;
    };
    for param in again {
        let field = param.field().or_else(|| param.fallback_field());
        let same = first
            .iter()
            .find(|p| field.is_some() && p.field().or_else(|| p.fallback_field()) == field);
        match same {
            Some(same) if same_type(same, &param) => {}
            Some(same) => same.undecide(Some(error.clone())),
            None => first.push(param),
        }
    }
}

/// Whether two declarations of one parameter give its field the same Rust type, as far as
/// the keys that decide it tell.
fn same_type(a: &Param, b: &Param) -> bool {
    let ty = |p: &Param| p.ty.map(|ty| ty.ty);
    let items = |p: &Param| p.items.map(|(items, _)| items.ty);
    let has_default = |p: &Param| p.default.is_some() || p.default_guessed;
    ty(a) == ty(b)
        && items(a) == items(b)
        && a.is_required() == b.is_required()
        && has_default(a) == has_default(b)
        && a.constraints.enum_values == b.constraints.enum_values
        && !a.forms.used()
        && !b.forms.used()
        && a.undecided.borrow().is_none()
        && b.undecided.borrow().is_none()
        && match (&a.fields, &b.fields) {
            (None, None) => true,
            (Some((a, _)), Some((b, _))) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_field(a, b))
            }
            _ => false,
        }
}

/// Whether two fields of a dictionary are one field of the same type.
fn same_field(a: &Param, b: &Param) -> bool {
    a.field().is_some() && a.field() == b.field() && same_type(a, b)
}
