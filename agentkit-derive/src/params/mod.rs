//! `#[derive(ToolParams)]`: a struct with named fields as a parameter list, a fieldless enum
//! as a string's allowed values.
//!
//! The same stages as `#[tool]`, on a derive: the type and each field's `#[param(...)]` read
//! into a model ([`ast`], with the shared [`crate::decl`] and the field's Rust type read by
//! [`kind`]), checked by the same rules ([`check`], with the shared [`crate::check`]), and
//! expanded to `const` data that `Param::from_shape` builds from the field's Rust type
//! ([`expand`]), or to the errors and impls that are never called ([`fallback`]). What the
//! macro cannot see (whether a type of the user's own is a struct or an enum) the generated
//! `const`s check when they are evaluated.

mod ast;
mod check;
mod expand;
mod fallback;
mod kind;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use self::ast::Container;
use crate::ctxt::Ctxt;

/// `#[derive(ToolParams)] item`.
pub(crate) fn derive(item: TokenStream) -> TokenStream {
    let input = match syn::parse2::<DeriveInput>(item) {
        Ok(input) => input,
        Err(error) => return error.into_compile_error(),
    };
    let cx = Ctxt::new();
    let container = Container::from_ast(&cx, &input, check::field);
    check::check(&cx, &container);
    match cx.check() {
        Ok(()) => expand::expand(&container),
        Err(errors) => fallback::expand(&container, &errors),
    }
}
