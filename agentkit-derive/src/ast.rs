//! Stage 2, shared: the typed model of one parameter declaration, a `{ name = ..., type = ...
//! }` in `#[tool(input = [...])]` or a field's `#[param(...)]` under `#[derive(ToolParams)]`.
//!
//! [`crate::decl`] reads it from the entry tree, [`crate::check`] applies the rules that span
//! its keys. It holds whatever could be read, even when something is wrong, so that the
//! fallback can still give each parameter the field its handler reads.

use std::borrow::Cow;
use std::cell::RefCell;

use proc_macro2::{Ident, Span};
use quote::format_ident;

use crate::ctxt::Reported;
use crate::rules::{self, Literal, NameKind, ParamType};

/// A string and where it is written.
pub(crate) struct Str {
    pub(crate) value: String,
    pub(crate) span: Span,
}

/// One parameter declaration `{ name = ..., type = ..., ... }`.
pub(crate) struct Param {
    pub(crate) name: Option<Str>,
    pub(crate) ty: Option<Ty>,
    /// `required = ...`: the value and where it is written.
    pub(crate) required: Option<(bool, Span)>,
    /// Whether `required` could not be read (a value that is not a boolean, or the key
    /// misspelt): rules that depend on it do not run on a guess.
    pub(crate) required_unknown: bool,
    pub(crate) default: Option<DefaultLit>,
    /// The default as the shared rules read it.
    pub(crate) default_literal: Option<Literal>,
    /// Whether a default is written that could not be read, under a misspelt key or as a
    /// literal refused: the fallback's field is then not an `Option`, as it would be once the
    /// key or the literal is fixed.
    pub(crate) default_guessed: bool,
    pub(crate) description: Option<String>,
    /// `items = ...`: the type of a list's items, and where it is written.
    pub(crate) items: Option<(Ty, Span)>,
    /// `fields = [...]`: the declared fields of a dictionary (or of a list's dictionary
    /// items), and where the key `fields` is written.
    pub(crate) fields: Option<(Vec<Param>, Span)>,
    /// The constraints (`enum`, `minimum`, ...) that could be read.
    pub(crate) constraints: rules::Constraints,
    /// Where each constraint read is written: its key, and its value.
    pub(crate) constraint_spans: Vec<(&'static str, Span, Span)>,
    /// Where each `enum` value is written.
    pub(crate) enum_spans: Vec<Span>,
    /// Whether a constraint could not be read (already reported): the default is then not
    /// checked against the others, which may be what was meant.
    pub(crate) constraints_unknown: bool,
    /// What the six types cannot say (`type = union`, `nullable = true`, ...): see
    /// [`crate::forms`].
    pub(crate) forms: Box<crate::forms::Forms>,
    /// The error that leaves the Rust type of the parameter's field undecided: a default
    /// refused (`default = null`, or of another type than declared, when either may be the
    /// mistake), or a key that decides the type written twice. The fallback types the field
    /// with this error, an error type of which rustc reports nothing more, so no use of the
    /// field in the user's code is reported as well, whatever fix it was written for. Set by
    /// stage 3 too, which reads the model by reference.
    pub(crate) undecided: RefCell<Option<Reported>>,
    /// A second `name` written in the same declaration (an error): the fallback gives the
    /// parameter a second field under it, so a handler written for it still compiles.
    pub(crate) also_named: Option<Str>,
}

/// A parameter type as written.
#[derive(Clone, Copy)]
pub(crate) struct Ty {
    pub(crate) ty: ParamType,
    /// Guessed from a misspelling that is already reported; checks that depend on the type
    /// skip a guess, the fallback uses it.
    pub(crate) guessed: bool,
}

/// A default value and where it is written.
pub(crate) struct DefaultLit {
    pub(crate) span: Span,
    pub(crate) value: DefaultValue,
}

/// A default value: the JSON values a literal can spell.
pub(crate) enum DefaultValue {
    String(String),
    Integer(i64),
    /// An integer literal outside the 64-bit range, refused by the shared rules.
    OutOfRange(i128),
    /// Any float literal, infinite ones (`1e400`) included: the shared rules refuse those.
    Float(f64),
    Boolean(bool),
    List(Vec<DefaultLit>),
    /// The entries, each key with where it is written.
    Dictionary(Vec<(Str, DefaultLit)>),
}

impl DefaultLit {
    /// The value as the shared rules (and the generated `Literal`) read it.
    pub(crate) fn to_literal(&self) -> Literal {
        match &self.value {
            DefaultValue::String(s) => Literal::String(Cow::Owned(s.clone())),
            DefaultValue::Integer(i) => Literal::Integer(*i),
            DefaultValue::OutOfRange(i) => Literal::OutOfRange(*i),
            DefaultValue::Float(f) => Literal::Float(*f),
            DefaultValue::Boolean(b) => Literal::Boolean(*b),
            DefaultValue::List(items) => Literal::List(Cow::Owned(
                items.iter().map(DefaultLit::to_literal).collect(),
            )),
            DefaultValue::Dictionary(entries) => Literal::Dictionary(Cow::Owned(
                entries
                    .iter()
                    .map(|(key, value)| (Cow::Owned(key.value.clone()), value.to_literal()))
                    .collect(),
            )),
        }
    }
}

impl Param {
    /// A parameter of which nothing is known yet.
    pub(crate) fn empty() -> Self {
        Param {
            name: None,
            ty: None,
            required: None,
            required_unknown: false,
            default: None,
            default_literal: None,
            default_guessed: false,
            description: None,
            items: None,
            fields: None,
            constraints: rules::Constraints::NONE,
            constraint_spans: Vec::new(),
            enum_spans: Vec::new(),
            constraints_unknown: false,
            forms: Box::default(),
            undecided: RefCell::new(None),
            also_named: None,
        }
    }

    /// Leaves the field's type undecided by `error` (the first such error is kept).
    pub(crate) fn undecide(&self, error: Option<Reported>) {
        let mut undecided = self.undecided.borrow_mut();
        if undecided.is_none() {
            *undecided = error;
        }
    }
}

impl Param {
    /// The default as the spec stores it: as validation leaves it, as a schema built at run
    /// time stores it (filling it in then gives exactly what validating it as the argument
    /// gives), else as written.
    pub(crate) fn stored_default(&self) -> Option<Literal> {
        crate::check::decl(self)
            .and_then(|decl| rules::check_default(&decl).value)
            .or_else(|| self.default_literal.clone())
    }

    /// Whether the argument must be present: `required` defaults to `true`, as in the Python original.
    pub(crate) fn is_required(&self) -> bool {
        self.required.is_none_or(|(required, _)| required)
    }

    /// The field of the parameter in the generated struct: its name with `-` as `_`, as a raw
    /// identifier if it is a keyword. `None` if the name is missing or invalid.
    pub(crate) fn field(&self) -> Option<Ident> {
        let name = self.name.as_ref()?;
        rules::check_name(NameKind::Parameter, &name.value).ok()?;
        Some(field_ident(name.value.replace('-', "_")))
    }

    /// For the fallback, the field of a parameter whose name is refused: what the handler
    /// most likely calls it (`zip code` as `zip_code`, `enabled?` as `enabled`), if that is
    /// an identifier.
    pub(crate) fn fallback_field(&self) -> Option<Ident> {
        let name = &self.name.as_ref()?.value;
        let words: Vec<&str> = name
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|word| !word.is_empty())
            .collect();
        let text = words.join("_");
        text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            .then(|| field_ident(text))
    }
}

/// The identifier for a field named `text` (ASCII letters, digits and `_`, not starting with
/// a digit): a raw identifier if it is a keyword.
fn field_ident(text: String) -> Ident {
    let span = Span::call_site();
    match text.as_str() {
        // Keywords that cannot be raw identifiers, and `_`.
        "_" | "self" | "Self" | "super" | "crate" => format_ident!("{}_", text, span = span),
        // `gen` is reserved in edition 2024 but not a keyword to syn.
        "gen" => Ident::new_raw(&text, span),
        _ if syn::parse_str::<Ident>(&text).is_err() => Ident::new_raw(&text, span),
        _ => Ident::new(&text, span),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str) -> Param {
        Param {
            name: Some(Str {
                value: name.to_owned(),
                span: Span::call_site(),
            }),
            ..Param::empty()
        }
    }

    #[test]
    fn fields_are_rust_identifiers() {
        let field = |name: &str| param(name).field().map(|f| f.to_string());
        assert_eq!(field("city").as_deref(), Some("city"));
        assert_eq!(field("max-days").as_deref(), Some("max_days"));
        assert_eq!(field("type").as_deref(), Some("r#type"));
        assert_eq!(field("gen").as_deref(), Some("r#gen"));
        assert_eq!(field("self").as_deref(), Some("self_"));
        assert_eq!(field("_").as_deref(), Some("__"));
        assert_eq!(field("zip code"), None);
    }

    #[test]
    fn a_refused_name_still_makes_the_field_the_handler_reads() {
        let field = |name: &str| param(name).fallback_field().map(|f| f.to_string());
        assert_eq!(field("zip code").as_deref(), Some("zip_code"));
        assert_eq!(field("enabled?").as_deref(), Some("enabled"));
        assert_eq!(field("type?").as_deref(), Some("r#type"));
        assert_eq!(field("1st"), None);
        assert_eq!(field("??"), None);
    }
}
