//! The error accumulator: every stage reports into one [`Ctxt`], so a build shows every
//! mistake in the attribute at once instead of the first.

use std::cell::RefCell;
use std::fmt::Display;
use std::thread;

use proc_macro2::Span;
use quote::ToTokens;

/// Collects errors while the attribute is parsed and checked.
///
/// It must be consumed by [`Ctxt::check`]: dropping it unchecked panics, since that would
/// silently lose errors (serde_derive's `Ctxt` does the same).
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    /// The names of the tool's `defs`, known before any parameter is read: a type position
    /// reads one of them as a reference to its definition.
    defs: RefCell<Vec<String>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
            defs: RefCell::new(Vec::new()),
        }
    }

    /// Sets the names of the tool's `defs`.
    pub(crate) fn set_defs(&self, names: Vec<String>) {
        *self.defs.borrow_mut() = names;
    }

    /// Whether `name` is one of the tool's `defs`.
    pub(crate) fn is_def(&self, name: &str) -> bool {
        self.defs.borrow().iter().any(|def| def == name)
    }

    /// The names of the tool's `defs`.
    pub(crate) fn defs(&self) -> Vec<String> {
        self.defs.borrow().clone()
    }

    /// Reports `message` at `span`.
    pub(crate) fn error(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Reports `message` over the whole of `tokens` (first to last token).
    pub(crate) fn error_spanned_by(&self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// How many errors are reported so far: a stage that reads a part of the attribute can
    /// tell whether all of it could be read.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.borrow().as_ref().map_or(0, Vec::len)
    }

    /// The first error reported since there were `count`: what a stage that just read a
    /// value reported about it, for the fallback to type with it what the value decided.
    pub(crate) fn first_since(&self, count: usize) -> Option<Reported> {
        let error = self.errors.borrow().as_ref()?.get(count).cloned()?;
        Some(Reported {
            index: count,
            error,
        })
    }

    fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Consumes the context: `Err` with every error reported, in order.
    pub(crate) fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// An error reported, and its place among the errors [`Ctxt::check`] returns: the fallback
/// writes such an error into a type it leaves undecided (see `tool::fields::Undecided`), and
/// then not again beside it.
#[derive(Clone)]
pub(crate) struct Reported {
    pub(crate) index: usize,
    pub(crate) error: syn::Error,
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
