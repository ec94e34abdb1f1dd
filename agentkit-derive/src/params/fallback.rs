//! Stage 5 of `#[derive(ToolParams)]`: the errors, and the traits still implemented, with no
//! parameters and conversions never called, so that `#[tool(input = ..)]` and the handler
//! using the type compile, and each mistake is one error.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;

use super::ast::{Container, Data};
use super::expand;
use crate::rules::ParamType;

/// The errors of a type with mistakes, and its impls where it can have them.
pub(crate) fn expand(container: &Container<'_>, errors: &[syn::Error]) -> TokenStream {
    let errors = errors.iter().map(syn::Error::to_compile_error);
    // A generic type or a union cannot have the impls at all: only the error says why.
    if container.generic || matches!(container.data, Data::Union) {
        return quote!(#(#errors)*);
    }
    let ty = match container.data {
        Data::Enum(_) => ParamType::String,
        _ => ParamType::Dictionary,
    };
    let impls = impls(&expand::private(), container.ident, ty);
    let fallback = expand::wrap(&container.krate, &impls);
    quote!(#(#errors)* #fallback)
}

/// The impls, with no parameters and conversions never called, for a type with mistakes.
fn impls(p: &Ident, ident: &Ident, ty: ParamType) -> TokenStream {
    let unreachable =
        quote!(#p::unreachable!("#[derive(ToolParams)] reported errors for this type"));
    let param_type = match ty {
        ParamType::String => quote!(String),
        _ => quote!(Dictionary),
    };
    let common = quote! {
        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::#param_type;

            fn from_value(_: #p::Option<&#p::Value>) -> #p::Option<Self> {
                #unreachable
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            fn into_value(self) -> #p::Option<#p::Value> {
                #unreachable
            }
        }
    };
    if ty == ParamType::String {
        return quote! {
            #common

            #[automatically_derived]
            impl #p::ParamSchema for #ident {
                const SHAPE: #p::Shape = #p::Shape::string_enum(&[]);
            }
        };
    }
    quote! {
        #common

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[];
        }

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = #p::Shape::dictionary(&[]);
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            fn from_inputs(_: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #unreachable
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            fn into_output(self) -> #p::JsonObject {
                #unreachable
            }
        }
    }
}
