//! Stage 3: whether a literal (a default, a `const`, an input example) fits a declaration
//! that uses the forms beyond the six types, checked at compile time. It finds the mistakes a
//! literal makes in the forms' own terms (a union's tag no variant has, a variant's missing
//! field, a tuple of the wrong length, a value of the wrong type or outside its `enum` or
//! bounds, a key not declared); the validator checks the examples of such a tool again, in
//! full, when it is registered.

use super::json::Json;
use super::{Def, Kind, find_def, items_of, kind_of};
use crate::ast::Param;
use std::cmp::Ordering;

use crate::rules::{self, Literal, Number, ParamType, Step, ValueKind};

/// How deep definitions are followed into a literal: deeper than any literal is written.
const MAX_DEPTH: usize = 64;

/// A place where the literal does not fit, and why.
pub(crate) struct Misfit {
    pub(crate) at: Vec<Step>,
    pub(crate) message: String,
    /// Whether the problem is the key at `at` (an undeclared one), not its value.
    pub(crate) on_key: bool,
}

/// Walks a literal against a declaration, collecting [`Misfit`]s.
pub(crate) struct Fit<'d> {
    defs: &'d [Def],
    at: Vec<Step>,
    pub(crate) misfits: Vec<Misfit>,
}

impl<'d> Fit<'d> {
    pub(crate) fn new(defs: &'d [Def]) -> Self {
        Fit {
            defs,
            at: Vec::new(),
            misfits: Vec::new(),
        }
    }

    fn miss(&mut self, message: String) {
        self.misfits.push(Misfit {
            at: self.at.clone(),
            message,
            on_key: false,
        });
    }

    /// `literal` as an object of `params`: every required one present, no other key.
    pub(crate) fn object(&mut self, params: &[Param], literal: &Literal) {
        let Literal::Dictionary(entries) = literal else {
            self.miss(format!("must be a dictionary, got {}", kind_name(literal)));
            return;
        };
        for (key, value) in entries.iter() {
            match params
                .iter()
                .find(|p| p.name.as_ref().is_some_and(|n| n.value == key.as_ref()))
            {
                Some(param) => {
                    self.at.push(Step::Field(key.to_string()));
                    self.param(param, value);
                    self.at.pop();
                }
                None => {
                    let names = params.iter().filter_map(|p| p.name.as_ref());
                    let suggestion = rules::suggest(key, names.map(|n| n.value.as_str()));
                    let mut at = self.at.clone();
                    at.push(Step::Field(key.to_string()));
                    self.misfits.push(Misfit {
                        at,
                        message: match suggestion {
                            Some(meant) => format!("is not declared; did you mean '{meant}'?"),
                            None => "is not declared".to_owned(),
                        },
                        on_key: true,
                    });
                }
            }
        }
        for param in params {
            let Some(name) = &param.name else { continue };
            let given = entries.iter().any(|(key, _)| key.as_ref() == name.value);
            if param.is_required() && !given {
                self.miss(format!("lacks the required '{}'", name.value));
            }
        }
    }

    /// `literal` as the value of `param`: `null` if nullable, its `const`, its kind.
    pub(crate) fn param(&mut self, param: &Param, literal: &Literal) {
        if matches!(literal, Literal::Null) && param.forms.is_nullable() {
            return;
        }
        if let Some(constant) = &param.forms.constant {
            let constant = constant.to_literal();
            if !same(&constant, literal) {
                self.miss(format!(
                    "must be {}, the constant declared",
                    Json::literal(&constant).to_text()
                ));
                return;
            }
        }
        if let Some(values) = &param.constraints.enum_values {
            if !values.iter().any(|value| same(value, literal)) {
                let allowed: Vec<String> =
                    values.iter().map(|v| Json::literal(v).to_text()).collect();
                self.miss(format!(
                    "is {}, not one of the allowed values: {}",
                    Json::literal(literal).to_text(),
                    allowed.join(", ")
                ));
                return;
            }
        }
        self.bounds(&param.constraints, literal);
        if let Some(kind) = kind_of(param) {
            self.kind(&kind, param, literal);
        }
    }

    /// The bounds of the six types: a number's, a string's length, a list's size.
    fn bounds(&mut self, c: &rules::Constraints, literal: &Literal) {
        let number = match literal {
            Literal::Integer(i) => Some(Number::Integer(*i)),
            Literal::Float(f) => Some(Number::Float(*f)),
            _ => None,
        };
        if let Some(n) = number {
            let text = |n: Number| Json::literal(&n.to_literal()).to_text();
            if let Some(min) = c
                .minimum
                .filter(|min| n.compare(*min) == Some(Ordering::Less))
            {
                return self.miss(format!("must be at least {}, got {}", text(min), text(n)));
            }
            if let Some(max) = c
                .maximum
                .filter(|max| n.compare(*max) == Some(Ordering::Greater))
            {
                return self.miss(format!("must be at most {}, got {}", text(max), text(n)));
            }
        }
        let (count, unit, min, max) = match literal {
            Literal::String(s) => (s.chars().count(), "character", c.min_length, c.max_length),
            Literal::List(items) => (items.len(), "item", c.min_items, c.max_items),
            _ => return,
        };
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if let Some(min) = min.filter(|min| count < *min) {
            self.miss(format!(
                "must have at least {min} {unit}{}, got {count}",
                plural(min)
            ));
        } else if let Some(max) = max.filter(|max| count > *max) {
            self.miss(format!(
                "must have at most {max} {unit}{}, got {count}",
                plural(max)
            ));
        }
    }

    /// `literal` as a value of `kind`, whose parts `param` declares.
    pub(crate) fn kind(&mut self, kind: &Kind, param: &Param, literal: &Literal) {
        match kind {
            Kind::Six(ParamType::Dictionary) => match &param.fields {
                Some((fields, _)) => self.object(fields, literal),
                None => self.six(ParamType::Dictionary, literal),
            },
            Kind::Six(ParamType::List) => {
                let Literal::List(items) = literal else {
                    return self.six(ParamType::List, literal);
                };
                let Some(kind) = items_of(param) else { return };
                for (index, item) in items.iter().enumerate() {
                    self.at.push(Step::Item(index));
                    self.part(&kind, param, item);
                    self.at.pop();
                }
            }
            Kind::Six(ty) => self.six(*ty, literal),
            Kind::Any => {}
            Kind::Union => self.union(param, literal),
            Kind::Map => {
                let Literal::Dictionary(entries) = literal else {
                    self.miss(format!(
                        "must be a map (a dictionary), got {}",
                        kind_name(literal)
                    ));
                    return;
                };
                let Some((values, _)) = &param.forms.values else {
                    return;
                };
                for (key, value) in entries.iter() {
                    self.at.push(Step::Field(key.to_string()));
                    self.part(values, param, value);
                    self.at.pop();
                }
            }
            Kind::Tuple => {
                let Some((kinds, _)) = &param.forms.tuple else {
                    return;
                };
                let Literal::List(items) = literal else {
                    self.miss(format!(
                        "must be a tuple of {} items, written as a list, got {}",
                        kinds.len(),
                        kind_name(literal)
                    ));
                    return;
                };
                if items.len() != kinds.len() {
                    let plural = if items.len() == 1 { "item" } else { "items" };
                    self.miss(format!(
                        "has {} {plural}; the tuple takes exactly {}",
                        items.len(),
                        kinds.len()
                    ));
                    return;
                }
                for (index, ((kind, _), item)) in kinds.iter().zip(items.iter()).enumerate() {
                    self.at.push(Step::Item(index));
                    self.part(kind, param, item);
                    self.at.pop();
                }
            }
            Kind::Def(name) => {
                if self.at.len() > MAX_DEPTH {
                    return;
                }
                if let Some(def) = find_def(self.defs, name) {
                    self.param(&def.param, literal);
                }
            }
        }
    }

    /// A list's item, a map's value, a tuple's position.
    fn part(&mut self, kind: &Kind, param: &Param, literal: &Literal) {
        match kind {
            Kind::Six(ParamType::Dictionary) => match &param.fields {
                Some((fields, _)) => self.object(fields, literal),
                None => self.six(ParamType::Dictionary, literal),
            },
            Kind::Six(ty) => self.six(*ty, literal),
            Kind::Union => self.union(param, literal),
            other => self.kind(other, param, literal),
        }
    }

    fn six(&mut self, ty: ParamType, literal: &Literal) {
        match literal {
            Literal::OutOfRange(_) => {
                return self.miss("is an integer outside the 64-bit range".to_owned());
            }
            Literal::Float(f) if !f.is_finite() => {
                return self.miss("is not a finite number; JSON has no NaN or infinity".to_owned());
            }
            _ => {}
        }
        if !ty.accepts(literal.kind()) {
            self.miss(format!(
                "must be of type '{ty}', got {}",
                kind_name(literal)
            ));
        }
    }

    /// The variant the tag names, and the literal checked against it.
    fn union(&mut self, param: &Param, literal: &Literal) {
        let tag = param.forms.tag_name();
        let variants = param
            .forms
            .variants
            .as_ref()
            .map_or(&[][..], |(variants, _)| variants);
        let tags: Vec<String> = variants
            .iter()
            .filter_map(|v| v.tag.as_ref().map(|t| format!("\"{}\"", t.value)))
            .collect();
        let Literal::Dictionary(entries) = literal else {
            self.miss(format!(
                "matches no variant of the union: it is {}, where each variant is a dictionary \
                 with a '{tag}' ({})",
                kind_name(literal),
                tags.join(", ")
            ));
            return;
        };
        let Some((_, given)) = entries.iter().find(|(key, _)| key.as_ref() == tag) else {
            self.miss(format!(
                "matches no variant of the union: it has no '{tag}', which names its variant \
                 ({})",
                tags.join(", ")
            ));
            return;
        };
        let chosen = variants.iter().find(|variant| {
            variant
                .tag
                .as_ref()
                .is_some_and(|t| matches!(given, Literal::String(s) if s.as_ref() == t.value))
        });
        let Some(variant) = chosen else {
            self.at.push(Step::Field(tag.to_owned()));
            self.miss(format!(
                "is {}, which names no variant of the union: its '{tag}' is one of {}",
                Json::literal(given).to_text(),
                tags.join(", ")
            ));
            self.at.pop();
            return;
        };
        let rest: Vec<_> = entries
            .iter()
            .filter(|(key, _)| key.as_ref() != tag)
            .cloned()
            .collect();
        self.object(
            &variant.fields,
            &Literal::Dictionary(std::borrow::Cow::Owned(rest)),
        );
    }
}

/// Whether two literals are the same JSON value (an integer equal to a float is).
fn same(a: &Literal, b: &Literal) -> bool {
    match (a, b) {
        #[allow(clippy::cast_precision_loss, clippy::float_cmp)]
        (Literal::Integer(i), Literal::Float(f)) | (Literal::Float(f), Literal::Integer(i)) => {
            *i as f64 == *f
        }
        _ => a == b,
    }
}

/// "a string", "an integer", ...: the kind of a literal, for messages.
fn kind_name(literal: &Literal) -> String {
    let kind = literal.kind();
    let article = match kind {
        ValueKind::Integer => "an",
        _ => "a",
    };
    match kind {
        ValueKind::Null => "null".to_owned(),
        _ => format!("{article} {}", kind.as_str()),
    }
}
