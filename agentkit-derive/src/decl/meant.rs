//! What a parameter declaration with a mistake still says, for the fallback's field types:
//! the values of misspelt keys, read without a word ([`Guess`]), and the keys written twice
//! ([`repeated`]), which leave what they decide as a guess, or undecided.

use proc_macro2::Span;
use syn::Lit;

use super::param_type;
use crate::ast::{DefaultLit, Param, Str, Ty};
use crate::attr::{Value, Written};
use crate::ctxt::{Ctxt, Reported};
use crate::rules::{ParamType, ValueKind};
use crate::symbol::{DEFAULT, ENUM, FIELDS, ITEMS, NAME, REQUIRED, Symbol, TYPE};
use crate::value::{default, string};

/// What a parameter's misspelt or refused keys would have said, read silently (each is
/// already reported): the fallback gives the field the type it was meant to have, so the
/// handler that uses it still type-checks. Checks never see a guess, except a guessed name.
#[derive(Default)]
pub(super) struct Guess {
    pub(super) name: Option<Str>,
    ty: Option<Ty>,
    items: Option<(Ty, Span)>,
    required: Option<(bool, Span)>,
    default: Option<DefaultLit>,
}

impl Guess {
    /// Reads `value` as the value of `key`, reporting nothing.
    pub(super) fn read(&mut self, key: Symbol, value: Value) {
        let quiet = Ctxt::new();
        let guessed = |ty: Option<Ty>| {
            ty.map(|ty| Ty {
                guessed: true,
                ..ty
            })
        };
        match key {
            NAME => self.name = string(&quiet, NAME, value, ""),
            TYPE => self.ty = guessed(param_type(&quiet, TYPE, value)),
            ITEMS => {
                let span = value.span();
                self.items = guessed(param_type(&quiet, ITEMS, value)).map(|ty| (ty, span));
            }
            REQUIRED => {
                if let Value::Lit(Lit::Bool(b)) = value {
                    self.required = Some((b.value, b.span));
                }
            }
            DEFAULT => self.default = default(&quiet, value),
            _ => {}
        }
        // Errors in a value under a misspelt key are left for after its key is fixed.
        let _ = quiet.check();
    }

    pub(super) fn apply(self, param: &mut Param) {
        // A name is checked like one written correctly: its own mistakes are real ones.
        if param.name.is_none() {
            param.name = self.name;
        }
        if param.ty.is_none() {
            // Without a readable type, the default's says what the parameter is.
            param.ty = self.ty.or_else(|| {
                let default = param.default.as_ref().or(self.default.as_ref())?;
                let ty = match default.to_literal().kind() {
                    ValueKind::Integer => ParamType::Integer,
                    ValueKind::Float => ParamType::Float,
                    ValueKind::String => ParamType::String,
                    ValueKind::Boolean => ParamType::Boolean,
                    ValueKind::List => ParamType::List,
                    ValueKind::Dictionary => ParamType::Dictionary,
                    ValueKind::Null => return None,
                };
                Some(Ty { ty, guessed: true })
            });
        }
        if param.items.is_none() {
            param.items = self.items;
        }
        if param.required.is_none() && self.required.is_some() {
            param.required = self.required;
            param.required_unknown = true;
        }
        if param.default.is_none() && self.default.is_some() {
            param.default_guessed = true;
        }
    }
}

/// A key of a parameter written twice, which `error` reports: the declaration is the first,
/// but the handler may be written for the second. A key that decides the field's type
/// leaves it undecided (the repeat's error types it, in the fallback), and a second `name`
/// names a second field of the same type, so either use compiles.
pub(super) fn repeated(param: &mut Param, key: Symbol, value: Written, error: Option<Reported>) {
    // What the first says is then a guess, which the rules that depend on it do not check:
    // `type = string, type = dictionary, fields = [...]` is not also 'fields' on a string.
    match key {
        TYPE => {
            param.ty = param.ty.map(|ty| Ty {
                guessed: true,
                ..ty
            })
        }
        ITEMS => {
            param.items = param.items.map(|(ty, span)| {
                (
                    Ty {
                        guessed: true,
                        ..ty
                    },
                    span,
                )
            })
        }
        REQUIRED => param.required_unknown = true,
        ENUM => param.constraints_unknown = true,
        _ => {}
    }
    match key {
        TYPE | REQUIRED | DEFAULT | ITEMS | FIELDS | ENUM => param.undecide(error),
        NAME => {
            if let Written::Value(Value::Lit(Lit::Str(s))) = value {
                param.also_named.get_or_insert(Str {
                    value: s.value(),
                    span: s.span(),
                });
            }
        }
        _ => {}
    }
}
