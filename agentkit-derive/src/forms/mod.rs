//! What the six types cannot say, in the literal grammar of `#[tool(input = [...])]`: tagged
//! unions, maps, any value, tuples, nullable values, constants, and named definitions that
//! may refer to themselves.
//!
//! ```text
//! { name = "action", type = union, tag = "type", variants = [
//!     { tag = "click", fields = [{ name = "x", type = integer }, { name = "y", type = integer }] },
//!     { tag = "type", fields = [{ name = "text", type = string }] },
//! ] }
//! { name = "labels", type = map, values = string }
//! { name = "payload", type = any }
//! { name = "point", type = tuple, items = [float, float] }
//! { name = "note", type = string, nullable = true }
//! { name = "version", type = integer, const = 2 }
//! #[tool(defs = { node = [{ name = "children", type = list, items = node }] }, ...)]
//! { name = "tree", type = node }
//! ```
//!
//! A list's `items` and a map's `values` may be a union too, its `variants` written on the
//! same declaration, as `fields` are for a list of dictionaries.
//!
//! [`read`] reads the keys into [`Forms`], [`check`] applies the rules, [`schema`] writes the
//! complete JSON Schema as text at compile time and [`rust`] the Rust types; a tool whose
//! literals use none of it keeps the six-type expansion exactly.

pub(crate) mod check;
pub(crate) mod fit;
pub(crate) mod json;
pub(crate) mod read;
pub(crate) mod rust;
pub(crate) mod schema;
#[cfg(test)]
mod tests;

use proc_macro2::Span;

use crate::ast::{DefaultLit, Param, Str};
use crate::rules::ParamType;

/// The keys of a parameter declaration for the forms beyond the six types.
pub(crate) const KEYS: [&str; 5] = ["nullable", "const", "values", "tag", "variants"];

/// The keys of one variant of a union.
pub(crate) const VARIANT_KEYS: [&str; 3] = ["tag", "description", "fields"];

/// The names `type` takes beyond the six types.
pub(crate) const FORM_NAMES: [&str; 4] = ["union", "map", "any", "tuple"];

/// What a type position says: `type`, a list's `items`, a map's `values`, a tuple's items.
#[derive(Clone, PartialEq)]
pub(crate) enum Kind {
    /// One of the six types.
    Six(ParamType),
    /// Any JSON value.
    Any,
    /// A tagged union, its variants on the declaration.
    Union,
    /// An object whose keys are free and whose values share a type.
    Map,
    /// An array of fixed length, each position its own type.
    Tuple,
    /// A named definition of `defs`.
    Def(String),
}

impl Kind {
    /// The kind as written, for messages.
    pub(crate) fn name(&self) -> &str {
        match self {
            Kind::Six(ty) => ty.as_str(),
            Kind::Any => "any",
            Kind::Union => "union",
            Kind::Map => "map",
            Kind::Tuple => "tuple",
            Kind::Def(name) => name,
        }
    }
}

/// One variant of a union: `{ tag = "click", fields = [...] }`.
pub(crate) struct Variant {
    pub(crate) tag: Option<Str>,
    pub(crate) description: Option<String>,
    pub(crate) fields: Vec<Param>,
}

/// A named definition, `defs = { node = [...] }`: an object of fields, or a declaration
/// without a name (`expr = { type = union, ... }`).
pub(crate) struct Def {
    pub(crate) name: Str,
    pub(crate) param: Param,
}

/// A parameter's keys beyond the six types: each `None` when not written.
#[derive(Default)]
pub(crate) struct Forms {
    /// `type = union`, `map`, `any`, `tuple` or a definition's name, and where it is written.
    pub(crate) form: Option<(Kind, Span)>,
    /// `items = any`, `union` or a definition's name, on a list.
    pub(crate) items: Option<(Kind, Span)>,
    /// `items = [float, float]` on a tuple; the whole list's span.
    pub(crate) tuple: Option<(Vec<(Kind, Span)>, Span)>,
    /// `values = ...` on a map.
    pub(crate) values: Option<(Kind, Span)>,
    pub(crate) nullable: Option<(bool, Span)>,
    /// `const = ...`.
    pub(crate) constant: Option<DefaultLit>,
    /// `tag = "..."`: the name of the property that tells the variants apart.
    pub(crate) tag: Option<Str>,
    /// `variants = [...]` and its span.
    pub(crate) variants: Option<(Vec<Variant>, Span)>,
    /// Where each key of these is written, for the rules about their places.
    pub(crate) keys: Vec<(&'static str, Span)>,
    /// Whether something here could not be read (already reported).
    pub(crate) broken: bool,
}

impl Forms {
    /// Whether the declaration says anything the six types cannot.
    pub(crate) fn used(&self) -> bool {
        self.form.is_some()
            || self.items.is_some()
            || self.tuple.is_some()
            || self.values.is_some()
            || self.nullable.is_some()
            || self.constant.is_some()
            || self.tag.is_some()
            || self.variants.is_some()
    }

    /// The tag property of the union, `"type"` unless written.
    pub(crate) fn tag_name(&self) -> &str {
        self.tag.as_ref().map_or("type", |tag| tag.value.as_str())
    }

    /// Whether `nullable = true`.
    pub(crate) fn is_nullable(&self) -> bool {
        self.nullable.is_some_and(|(nullable, _)| nullable)
    }
}

/// Whether `params` (and anything in them, at any depth) use a form beyond the six types.
pub(crate) fn uses_forms(params: &[Param]) -> bool {
    params.iter().any(|param| {
        param.forms.used()
            || param
                .fields
                .as_ref()
                .is_some_and(|(fields, _)| uses_forms(fields))
    })
}

/// The definitions `params` refer to, directly or through other definitions, in the order
/// `defs` declares them: those a schema of `params` puts in its `$defs`.
pub(crate) fn reachable_defs<'d>(params: &[Param], defs: &'d [Def]) -> Vec<&'d Def> {
    let mut names: Vec<&str> = Vec::new();
    let mut todo: Vec<&Param> = params.iter().collect();
    while let Some(param) = todo.pop() {
        for name in def_names(param) {
            if names.contains(&name) {
                continue;
            }
            if let Some(def) = find_def(defs, name) {
                names.push(name);
                todo.push(&def.param);
            }
        }
        todo.extend(param.fields.iter().flat_map(|(fields, _)| fields));
        let variants = param
            .forms
            .variants
            .iter()
            .flat_map(|(variants, _)| variants);
        todo.extend(variants.flat_map(|variant| &variant.fields));
    }
    defs.iter()
        .filter(|def| names.contains(&def.name.value.as_str()))
        .collect()
}

/// The definitions a declaration names in its own type positions (`type`, `items`,
/// `values`, a tuple's items), not in its fields or variants.
fn def_names(param: &Param) -> impl Iterator<Item = &str> {
    let forms = &param.forms;
    let tuple = forms.tuple.iter().flat_map(|(items, _)| items);
    forms
        .form
        .iter()
        .chain(&forms.items)
        .chain(&forms.values)
        .chain(tuple)
        .filter_map(|(kind, _)| match kind {
            Kind::Def(name) => Some(name.as_str()),
            _ => None,
        })
}

/// The definition named `name`.
pub(crate) fn find_def<'d>(defs: &'d [Def], name: &str) -> Option<&'d Def> {
    defs.iter().find(|def| def.name.value == name)
}

/// The kind of the values `param` holds at its top: its form, else its six type.
pub(crate) fn kind_of(param: &Param) -> Option<Kind> {
    match (&param.forms.form, param.ty) {
        (Some((kind, _)), _) => Some(kind.clone()),
        (None, Some(ty)) if !ty.guessed => Some(Kind::Six(ty.ty)),
        _ => None,
    }
}

/// The kind of a list's items: a form (`items = union`) or one of the six.
pub(crate) fn items_of(param: &Param) -> Option<Kind> {
    match (&param.forms.items, param.items) {
        (Some((kind, _)), _) => Some(kind.clone()),
        (None, Some((ty, _))) if !ty.guessed => Some(Kind::Six(ty.ty)),
        _ => None,
    }
}
