//! Stage 5: the expansion when the declaration has mistakes.
//!
//! Besides the errors, it emits the struct unchanged, the typed input and output structs
//! with every parameter that could be read, and a `Tool` impl whose `spec` is never reached:
//! so the rest of the user's code (`impl ToolHandler`, `registry.register(..)`) still
//! type-checks, and each mistake shows up as one error rather than twenty (thiserror's
//! `fallback.rs` does the same).

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::ast::Tool;
use super::place::ImplBlock;
use super::{check, imp, typed};
use crate::ctxt::Ctxt;

/// The errors, and the stub that keeps the rest of the user's code compiling.
pub(crate) fn expand(tool: &Tool<'_>, item: &TokenStream, errors: &[syn::Error]) -> TokenStream {
    // A `Tool` impl needs a non-generic type; for a generic struct the error says so.
    stub(tool, item, errors, 0, !tool.has_generics())
}

/// `#[tool]` on an impl block rather than on its struct: the block unchanged, `misplaced`
/// (the error that says where the attribute goes) with any mistake in the attribute itself,
/// and what the attribute on the struct would give the block, made for a stand-in of the
/// struct. So the block's `FetchWeatherInput`, `Self::Input` and the `registry.register(..)`
/// of the struct all compile, and the misplaced attribute is one error. The `Tool` impl only
/// for `impl ToolHandler`: for another block, it would ask for the logic it has not seen.
pub(crate) fn on_impl_block(
    args: TokenStream,
    item: &TokenStream,
    block: &ImplBlock,
    misplaced: syn::Error,
) -> TokenStream {
    let ident = &block.ty;
    // `pub`, whatever the struct's visibility: the typed structs are then never less visible
    // than the `TypedTool` impl that names them.
    let stand_in: DeriveInput = syn::parse_quote!(pub struct #ident;);
    let cx = Ctxt::new();
    let mut tool = Tool::from_ast(&cx, args, &stand_in);
    check::check(&cx, &tool);
    let mut errors = vec![misplaced];
    errors.extend(cx.check().err().unwrap_or_default());
    tool.merge_repeats();
    // The attribute's errors come after the one that says where it goes.
    stub(&tool, item, &errors, 1, block.handler)
}

/// The stub, with `errors`, of which those from the attribute's `Ctxt` start at `offset`.
fn stub(
    tool: &Tool<'_>,
    item: &TokenStream,
    errors: &[syn::Error],
    offset: usize,
    tool_impl: bool,
) -> TokenStream {
    // An error written into an undecided type is reported there, once: its alias takes the
    // error's place, so the errors stay in the order of the attribute.
    let (typed, mut in_types) = typed::typed(tool, true);
    let mut errors: Vec<TokenStream> = errors
        .iter()
        .enumerate()
        .map(|(at, error)| {
            let in_type = at.checked_sub(offset).and_then(|index| {
                let found = in_types.iter().position(|(i, _)| *i == index)?;
                Some(in_types.swap_remove(found).1)
            });
            in_type.unwrap_or_else(|| error.to_compile_error())
        })
        .collect();
    // Each is an error's, so none is left; were one, its alias is still defined.
    errors.extend(in_types.into_iter().map(|(_, definition)| definition));
    let tool_impl = tool_impl.then(|| {
        let p = tool.private();
        imp::tool_impl(
            tool,
            &quote!(#p::unreachable!("#[tool] reported errors for this tool")),
        )
    });
    let import = tool.private_import();
    quote! {
        #item
        #import
        #(#errors)*
        #typed
        #tool_impl
    }
}
