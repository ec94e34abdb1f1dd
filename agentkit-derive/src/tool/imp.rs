//! Stage 4: the `Tool` impl, bound by the check of the struct's fields.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::ast::Tool;
use super::thread_safety;

/// The `Tool` impl, with `spec_body` as the body of `spec`.
pub(crate) fn tool_impl(tool: &Tool<'_>, spec_body: &TokenStream) -> TokenStream {
    let ident = &tool.item.ident;
    let p = tool.private();
    // Spanned on the struct's name, so that a missing `impl ToolHandler` is reported there
    // (once: the call and the returned future need it, and identical errors are merged).
    let at = tool.private_at(ident.span());
    let run = quote_spanned!(ident.span()=> #at::execute_typed(self, inputs, ctx));
    let execute = quote_spanned! {ident.span()=>
        // Inline: the executor runs `execute_inputs`, so a crate that only registers its
        // tools never compiles this (a caller of `execute` compiles it where it calls it).
        #[inline]
        fn execute(
            &self,
            inputs: &#p::JsonObject,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::ToolOutput, #p::BoxError>> + #p::Send {
            // Through `execute_inputs`, so that a missing `ToolHandler` is one error, there.
            #p::execute_json(#p::Tool::execute_inputs(self, #p::Inputs::Json(inputs), ctx))
        }

        fn parse_typed(
            &self,
            text: &#p::str,
            unknown: #p::UnknownArguments,
            max_issues: #p::usize,
        ) -> #p::Parsed {
            #p::parse_typed(
                #p::Tool::spec(self).input_schema(),
                text,
                unknown,
                max_issues,
                #p::parsed_input::<Self>,
            )
        }

        fn execute_inputs(
            &self,
            inputs: #p::Inputs<'_>,
            ctx: &#p::ToolContext<'_>,
        ) -> impl #p::Future<Output = #p::Result<#p::Returned, #p::BoxError>> + #p::Send {
            #run
        }
    };
    let bound = thread_safety::bound(tool);
    quote! {
        #[automatically_derived]
        impl #p::Tool for #ident #bound {
            fn spec(&self) -> &#p::ToolSpec {
                #spec_body
            }

            #execute
        }
    }
}
