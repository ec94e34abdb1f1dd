//! Stage 4 of `#[derive(ToolParams)]`: the impls, in one anonymous `const` block, with the
//! parameters as `const` data that `Param::from_shape` builds from each field's Rust type.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;
use syn::spanned::Spanned;

use super::ast::{Container, Data, FieldParam};
use super::kind::{Kind, item_type};
use crate::ast::Str;
use crate::check;
use crate::expand::{constraints_over, enum_conversions, literal};
use crate::rules;

/// The impls of a type without mistakes.
pub(crate) fn expand(container: &Container<'_>) -> TokenStream {
    let p = private();
    let impls = match &container.data {
        Data::Struct(fields) => expand_struct(&p, container.ident, fields),
        Data::Enum(variants) => expand_enum(&p, container.ident, variants),
        // Always reported, so never expanded here.
        Data::Unnamed | Data::Union => TokenStream::new(),
    };
    wrap(&container.krate, &impls)
}

/// The alias through which the impls reach `<crate>::__private`.
pub(crate) fn private() -> Ident {
    Ident::new("__agentkit", Span::call_site())
}

/// `impls` in one anonymous `const` block that imports `<crate>::__private` once, as serde's
/// derives do: one token per path rather than five, and the import seen nowhere else.
pub(crate) fn wrap(krate: &TokenStream, impls: &TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        const _: () = {
            #[allow(unused_imports)]
            use #krate::__private as __agentkit;
            #impls
        };
    }
}

fn expand_struct(p: &Ident, ident: &Ident, fields: &[FieldParam<'_>]) -> TokenStream {
    let params = fields.iter().map(|f| param_value(p, f));
    let checks = fields
        .iter()
        .filter_map(|f| own_default_check(p, f))
        .chain(fields.iter().filter_map(|f| shape_check(p, f)));
    let field_of = |f: &FieldParam<'_>| {
        let ty = f.ty;
        quote_spanned!(ty.span()=> #p::field::<#ty>())
    };
    let reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read(inputs, #name)?,)
    });
    let value_reads = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.read_value(object, #name)?,)
    });
    let value_takes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#field: #of.take_value(&mut object, #name)?,)
    });
    let slot_takes = fields.iter().enumerate().map(|(index, f)| {
        let (field, of) = (f.ident, field_of(f));
        quote!(#field: #of.take_slot(slots, #index)?,)
    });
    let writes = fields.iter().map(|f| {
        let (field, name, of) = (f.ident, name_of(f), field_of(f));
        quote!(#of.write(&mut output, #name, self.#field);)
    });
    let (inputs, object, output, owned, slots) = if fields.is_empty() {
        (quote!(_), quote!(_), quote!(output), quote!(_), quote!(_))
    } else {
        (
            quote!(inputs),
            quote!(object),
            quote!(mut output),
            quote!(mut object),
            quote!(slots),
        )
    };
    quote! {
        #(#checks)*

        #[automatically_derived]
        impl #p::ToolParams for #ident {
            const PARAMS: &'static [#p::Param] = &[#(#params),*];
        }

        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = #p::Shape::dictionary(<Self as #p::ToolParams>::PARAMS);
        }

        #[automatically_derived]
        impl #p::FromParam for #ident {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::Dictionary;

            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                let #object = value?.as_object()?;
                #p::Some(Self { #(#value_reads)* })
            }

            fn from_owned(value: #p::Option<#p::Value>) -> #p::Option<Self> {
                let #p::Value::Object(#owned) = value? else {
                    return #p::None;
                };
                #p::Some(Self { #(#value_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #ident {
            fn into_value(self) -> #p::Option<#p::Value> {
                #p::Some(#p::Value::Object(#p::IntoOutput::into_output(self)))
            }
        }

        #[automatically_derived]
        impl #p::FromInputs for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                #p::Some(<Self as #p::ToolParams>::PARAMS);

            fn from_inputs(#inputs: &#p::JsonObject) -> #p::Result<Self, #p::ParamTypeError> {
                #p::Ok(Self { #(#reads)* })
            }

            fn from_slots(#slots: &mut [#p::Option<#p::Value>]) -> #p::Option<Self> {
                #p::Some(Self { #(#slot_takes)* })
            }
        }

        #[automatically_derived]
        impl #p::IntoOutput for #ident {
            const PARAM_LIST: #p::Option<&'static [#p::Param]> =
                #p::Some(<Self as #p::ToolParams>::PARAMS);

            fn into_output(self) -> #p::JsonObject {
                let #output = #p::JsonObject::new();
                #(#writes)*
                output
            }
        }
    }
}

fn name_of(f: &FieldParam<'_>) -> String {
    f.param
        .name
        .as_ref()
        .map_or_else(String::new, |n| n.value.clone())
}

/// The `const` `Param` of a field.
fn param_value(p: &Ident, f: &FieldParam<'_>) -> TokenStream {
    let ty = f.ty;
    let shape = quote_spanned!(ty.span()=> #p::field::<#ty>().shape);
    let name = name_of(f);
    let description = f.param.description.as_deref().unwrap_or("");
    // The default as validation leaves it (`2.0` for an integer as `2`).
    let normalised = match f.kind {
        Kind::Known { .. } => {
            check::decl(&f.param).and_then(|decl| rules::check_default(&decl).value)
        }
        _ => None,
    };
    let default = match normalised.as_ref().or(f.param.default_literal.as_ref()) {
        Some(default) => {
            let default = literal(p, default);
            quote!(#p::Some(#default))
        }
        None => quote!(#p::None),
    };
    // Bounds the field leaves out are those of its type (`u8`: 0 to 255).
    let constraints = constraints_over(p, &f.param.constraints, Some(&shape));
    quote!(#p::Param::from_shape(#name, #shape, #default, #description) #constraints)
}

/// For a default of a type of the user's own: a `const` that fails to evaluate unless the
/// type is a fieldless enum allowing that value, on the default.
fn own_default_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    let (value, span) = f.own_default.as_ref()?;
    let ty = f.ty;
    let message = format!(
        "parameter '{}': default must be one of the values of `{}`, got '{}'",
        name_of(f),
        quote!(#ty).to_string().replace(' ', ""),
        value
    );
    let mut p = p.clone();
    p.set_span(*span);
    Some(quote_spanned! {*span=>
        const _: () = #p::assert!(#p::has_enum_value::<#ty>(#value), #message);
    })
}

/// For a type of the user's own, or a list of one: a `const` that fails to evaluate, on the
/// field's type, if the type cannot be a parameter (a `Vec` of an enum).
fn shape_check(p: &Ident, f: &FieldParam<'_>) -> Option<TokenStream> {
    if matches!(f.kind, Kind::Known { .. }) {
        return None;
    }
    let ty = f.ty;
    // On the item type of a list: `Units` in `Vec<Units>`.
    let span = match f.kind {
        Kind::ListOfOwn => item_type(ty).map_or_else(|| ty.span(), Spanned::span),
        _ => ty.span(),
    };
    let mut p = p.clone();
    p.set_span(span);
    Some(quote_spanned! {span=>
        const _: () = if let #p::Some(problem) = #p::field::<#ty>().shape.problem {
            #p::panic!("{}", problem)
        };
    })
}

fn expand_enum(p: &Ident, ident: &Ident, variants: &[(Str, &Ident)]) -> TokenStream {
    let values = variants.iter().map(|(value, _)| {
        let value = &value.value;
        quote!(#p::Literal::String(#p::Cow::Borrowed(#value)))
    });
    let pairs: Vec<(&str, &Ident)> = variants
        .iter()
        .map(|(value, variant)| (value.value.as_str(), *variant))
        .collect();
    let conversions = enum_conversions(p, ident, &pairs);
    quote! {
        #[automatically_derived]
        impl #p::ParamSchema for #ident {
            const SHAPE: #p::Shape = {
                const VALUES: &[#p::Literal] = &[#(#values),*];
                #p::Shape::string_enum(VALUES)
            };
        }

        #conversions
    }
}
