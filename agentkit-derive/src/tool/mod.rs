//! `#[tool(...)]`: where it is written ([`place`]), the declaration read into a model
//! ([`ast`], with the shared [`crate::decl`] for each parameter, and [`repeat`] for a key
//! written twice), the rules across its keys ([`check`]), then either the code ([`spec`],
//! [`typed`] and [`fields`], [`imp`], [`thread_safety`]) or, when something is wrong, the
//! errors and a stub ([`fallback`], with the types a mistake leaves open [`undecided`]).
//! Every stage reports into one [`Ctxt`], so a build shows every mistake in the attribute at
//! once.

mod ast;
mod check;
mod fallback;
pub(crate) mod fields;
mod imp;
mod place;
mod private;
mod repeat;
mod spec;
mod spec_text;
#[cfg(test)]
pub(crate) mod tests;
mod thread_safety;
mod typed;
mod undecided;

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use self::ast::Tool;
use crate::ctxt::Ctxt;

/// `#[tool(args)] item`.
pub(crate) fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let mut input = match syn::parse2::<DeriveInput>(item.clone()) {
        Ok(input) => input,
        Err(error) => {
            let error = place::not_a_struct(&item, error.span());
            if let Some(block) = place::impl_block(&item) {
                return fallback::on_impl_block(args, &item, &block, error);
            }
            let error = error.into_compile_error();
            return quote!(#item #error);
        }
    };
    let cx = Ctxt::new();
    // A second `#[tool]` is removed, so it does not expand again, and is the one error.
    let item = match place::take_repeated(&cx, &mut input) {
        true => quote!(#input),
        false => item,
    };
    let mut tool = Tool::from_ast(&cx, args, &input);
    check::check(&cx, &tool);
    match cx.check() {
        Ok(()) => expand(&tool, &item),
        Err(errors) => {
            tool.merge_repeats();
            fallback::expand(&tool, &item, &errors)
        }
    }
}

/// The expansion of a declaration without mistakes: the struct as written, the import of
/// `<crate>::__private`, the typed structs and the `TypedTool` impl, and the `Tool` impl with
/// its spec and the check of the struct's fields.
fn expand(tool: &Tool<'_>, item: &TokenStream) -> TokenStream {
    let (typed, _) = typed::typed(tool, false);
    let tool_impl = imp::tool_impl(tool, &spec::spec(tool));
    let import = tool.private_import();
    quote!(#item #import #typed #tool_impl)
}
