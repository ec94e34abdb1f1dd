//! Stage 5: the expansion when the declaration has mistakes.
//!
//! Besides the errors, it emits the struct unchanged, the typed input and output structs
//! with every parameter that could be read, and a `Tool` impl whose `spec` is never reached:
//! so the rest of the user's code (`impl ToolHandler`, `registry.register(..)`) still
//! type-checks, and each mistake shows up as one error rather than twenty (thiserror's
//! `fallback.rs` does the same).

use proc_macro2::TokenStream;
use quote::quote;

use super::ast::Tool;
use super::{imp, typed};

/// The errors, and the stub that keeps the rest of the user's code compiling.
pub(crate) fn expand(tool: &Tool<'_>, item: &TokenStream, errors: &[syn::Error]) -> TokenStream {
    let errors = errors.iter().map(syn::Error::to_compile_error);
    let typed = typed::typed(tool, true);
    // A `Tool` impl needs a non-generic type; for a generic struct the error says so.
    let tool_impl = if tool.has_generics() {
        quote!()
    } else {
        let p = tool.private();
        imp::tool_impl(
            tool,
            &quote!(#p::unreachable!("#[tool] reported errors for this tool")),
        )
    };
    let import = tool.private_import();
    quote! {
        #item
        #import
        #(#errors)*
        #typed
        #tool_impl
    }
}
