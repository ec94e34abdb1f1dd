//! Stage 4: the `Tool` impl, and the check that the tool's fields are `Send` and `Sync`.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{quote, quote_spanned};

use super::ast::Tool;
use super::typed::fits_by_type;

/// The `Tool` impl, with `spec_body` as the body of `spec`.
pub(crate) fn tool_impl(tool: &Tool<'_>, spec_body: &TokenStream) -> TokenStream {
    let ident = &tool.item.ident;
    let fits = tool.output_type.is_none() && tool.output.as_deref().is_some_and(fits_by_type);
    let p = tool.private();
    // Spanned on the struct's name, so that a missing `impl ToolHandler` is reported there
    // (once: the call and the returned future need it, and identical errors are merged).
    let at = tool.private_at(ident.span());
    let run = quote_spanned!(ident.span()=> #at::execute_typed(self, inputs, ctx));
    let execute = quote_spanned! {ident.span()=>
        fn execute(
            &self,
            inputs: &#p::JsonObject,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::JsonObject, #p::BoxError>> + #p::Send {
            // Through `execute_inputs`, so that a missing `ToolHandler` is one error, there.
            #p::execute_json(#p::Tool::execute_inputs(self, #p::Inputs::Json(inputs), ctx))
        }

        fn parse_typed(
            &self,
            text: &#p::str,
            unknown: #p::UnknownArguments,
            max_issues: #p::usize,
        ) -> #p::Parsed {
            #p::parse_typed(self, text, unknown, max_issues)
        }

        fn execute_inputs(
            &self,
            inputs: #p::Inputs<'_>,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::Returned, #p::BoxError>> + #p::Send {
            #run
        }
    };
    let fits = fits.then(|| {
        quote! {
            fn output_fits_by_type(&self) -> #p::bool {
                true
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #p::Tool for #ident {
            fn spec(&self) -> &#p::ToolSpec {
                #spec_body
            }

            #execute
            #fits
        }
    }
}

/// One error per field whose type is not `Send` and `Sync`, spanned on that type, and the
/// declaration that the struct is both, so that nothing else fails because of it (see
/// `agentkit_core::__private::thread_safety` for why that is sound).
pub(crate) fn thread_safety(tool: &Tool<'_>) -> TokenStream {
    let syn::Data::Struct(data) = &tool.item.data else {
        return TokenStream::new();
    };
    // A struct without fields is `Send` and `Sync` already: nothing to check or declare.
    if tool.has_generics() || data.fields.is_empty() {
        return TokenStream::new();
    }
    let p = tool.private();
    let checks = data.fields.iter().map(|field| {
        let ty = &field.ty;
        let span = syn::spanned::Spanned::span(ty);
        quote_spanned! {span=>
            (&&&&#p::thread_safety::Probe::<#ty>::NEW).verdict().require();
        }
    });
    // Spanned at the call site, not on the user's tokens: the `unsafe` is the macro's, so a
    // crate under `#![forbid(unsafe_code)]` is not blamed for it.
    let ident = Ident::new(&tool.item.ident.to_string(), Span::call_site());
    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #p::thread_safety::{Level0 as _, Level1 as _, Level2 as _, Level3 as _};
            let _: fn() = || {
                #(#checks)*
            };
        };
        #[doc(hidden)]
        unsafe impl #p::Send for #ident {}
        #[doc(hidden)]
        unsafe impl #p::Sync for #ident {}
    }
}
