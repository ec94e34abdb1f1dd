//! Stage 4: the check that every field of the tool's struct is `Send` and `Sync`, written as
//! the bound of its `Tool` impl, which needs both of the struct: without `unsafe`, a field
//! that is not is one error on its type, and neither the impl nor the code registering the
//! tool reports it again. How: `agentkit_core::__private::thread_safety`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::ast::Tool;

/// The `where` clause of the `Tool` impl, with the check of each field. Nothing for a
/// struct without fields, which is `Send` and `Sync` already (so the common expansion stays
/// as it was), nor for a generic one, which is an error already, with no `Tool` impl.
pub(crate) fn bound(tool: &Tool<'_>) -> Option<TokenStream> {
    let syn::Data::Struct(data) = &tool.item.data else {
        return None;
    };
    if tool.has_generics() || data.fields.is_empty() {
        return None;
    }
    let p = tool.private();
    let checks = data.fields.iter().map(|field| {
        let ty = &field.ty;
        let span = syn::spanned::Spanned::span(ty);
        quote_spanned! {span=>
            (&&&&#p::thread_safety::Probe::<#ty>::NEW).verdict().require();
        }
    });
    // The checks are in a closure, never called: type-checked with the block, so that an
    // error in them leaves the block without a value, and not evaluated, since they call
    // methods that are not `const`. The `Level` traits a struct's fields do not need are
    // unused imports, which the compiler does not report in a macro's expansion.
    Some(quote! {
        where <() as #p::thread_safety::Checked<{
            use #p::thread_safety::{Level0 as _, Level1 as _, Level2 as _, Level3 as _};
            let _ = || {
                #(#checks)*
            };
            true
        }>>::Unit: #p::Send + #p::Sync
    })
}
