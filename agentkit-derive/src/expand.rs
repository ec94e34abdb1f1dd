//! Stage 4, shared: what both macros write the same way. A value of the rules (a default, a
//! bound, a parameter's constraints) as a `const` expression, and the conversions of a
//! fieldless enum standing for a string's allowed values.
//!
//! `p` is always the alias through which the expansion reaches `<crate>::__private`.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use crate::rules;

/// A default as a `const` `Literal` expression.
pub(crate) fn literal(p: &Ident, default: &rules::Literal) -> TokenStream {
    match default {
        rules::Literal::Null => quote!(#p::Literal::Null),
        rules::Literal::String(s) => {
            let s = s.as_ref();
            quote!(#p::Literal::String(#p::Cow::Borrowed(#s)))
        }
        rules::Literal::Integer(i) => {
            // A `-` and an unsigned literal: a negative literal token is not portable.
            let digits = Literal::u64_unsuffixed(i.unsigned_abs());
            let minus = (*i < 0).then(|| quote!(-));
            quote!(#p::Literal::Integer(#minus #digits))
        }
        // Refused by the rules, so never part of a valid expansion; spelled out all the same.
        rules::Literal::OutOfRange(i) => {
            let digits = Literal::u128_unsuffixed(i.unsigned_abs());
            let minus = (*i < 0).then(|| quote!(-));
            quote!(#p::Literal::OutOfRange(#minus #digits))
        }
        rules::Literal::Float(f) => {
            let digits = Literal::f64_unsuffixed(f.abs());
            let minus = f.is_sign_negative().then(|| quote!(-));
            quote!(#p::Literal::Float(#minus #digits))
        }
        rules::Literal::Boolean(b) => quote!(#p::Literal::Boolean(#b)),
        rules::Literal::List(items) => {
            let items = items.iter().map(|item| literal(p, item));
            quote!(#p::Literal::List(#p::Cow::Borrowed(&[#(#items),*])))
        }
        rules::Literal::Dictionary(entries) => {
            let entries = entries.iter().map(|(key, value)| {
                let key = key.as_ref();
                let value = literal(p, value);
                quote!((#p::Cow::Borrowed(#key), #value))
            });
            quote!(#p::Literal::Dictionary(#p::Cow::Borrowed(&[#(#entries),*])))
        }
    }
}

/// `Some(Number::..)`, a bound as a `const` expression.
pub(crate) fn number(p: &Ident, n: rules::Number) -> TokenStream {
    match n {
        rules::Number::Integer(i) => {
            let digits = Literal::u64_unsuffixed(i.unsigned_abs());
            let minus = (i < 0).then(|| quote!(-));
            quote!(#p::Some(#p::Number::Integer(#minus #digits)))
        }
        rules::Number::Float(f) => {
            let digits = Literal::f64_unsuffixed(f.abs());
            let minus = f.is_sign_negative().then(|| quote!(-));
            quote!(#p::Some(#p::Number::Float(#minus #digits)))
        }
    }
}

/// `.with_static_constraints(..)` when the parameter declares any constraint; nothing
/// otherwise, which keeps the common expansion as it was. An `enum`, `minimum` or `maximum`
/// the declaration leaves out is `shape`'s, if given (a `const` `Shape`: what a field's Rust
/// type says, for `#[derive(ToolParams)]`), else none.
pub(crate) fn constraints_over(
    p: &Ident,
    c: &rules::Constraints,
    shape: Option<&TokenStream>,
) -> Option<TokenStream> {
    if c.is_empty() {
        return None;
    }
    let unset = |field: TokenStream| match shape {
        Some(shape) => quote!(#shape.#field),
        None => quote!(#p::None),
    };
    let enum_values = match &c.enum_values {
        Some(values) => {
            let values = values.iter().map(|value| literal(p, value));
            quote!(#p::Some(&[#(#values),*]))
        }
        None => unset(quote!(enum_values)),
    };
    let number = |n: Option<rules::Number>, field: TokenStream| match n {
        Some(n) => number(p, n),
        None => unset(field),
    };
    let count = |n: Option<usize>| match n {
        Some(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote!(#p::Some(#n))
        }
        None => quote!(#p::None),
    };
    let minimum = number(c.minimum, quote!(minimum));
    let maximum = number(c.maximum, quote!(maximum));
    let (min_length, max_length) = (count(c.min_length), count(c.max_length));
    let (min_items, max_items) = (count(c.min_items), count(c.max_items));
    Some(quote! {
        .with_static_constraints(
            #enum_values, #minimum, #maximum, #min_length, #max_length, #min_items, #max_items
        )
    })
}

/// `FromParam` and `IntoParam` of a fieldless enum whose variants stand for the string values
/// (`#[tool]`'s generated enums, and `#[derive(ToolParams)]` on an enum). Inline, so that each
/// is compiled where it is used: a crate that declares such an enum and converts it one way
/// only (an input's is read, an output's written) compiles only that way.
pub(crate) fn enum_conversions(
    p: &Ident,
    name: &Ident,
    variants: &[(&str, &Ident)],
) -> TokenStream {
    let parses = variants
        .iter()
        .map(|(value, variant)| quote!(#value => #p::Some(Self::#variant),));
    let strs = variants
        .iter()
        .map(|(value, variant)| quote!(Self::#variant => #value,));
    quote! {
        #[automatically_derived]
        impl #p::FromParam for #name {
            const PARAM_TYPE: #p::ParamType = #p::ParamType::String;

            #[inline]
            fn from_value(value: #p::Option<&#p::Value>) -> #p::Option<Self> {
                // No `?`: each is a `Try` impl compiled for `Self`.
                let #p::Some(#p::Value::String(value)) = value else {
                    return #p::None;
                };
                match value.as_str() {
                    #(#parses)*
                    _ => #p::None,
                }
            }
        }

        #[automatically_derived]
        impl #p::IntoParam for #name {
            #[inline]
            fn into_value(self) -> #p::Option<#p::Value> {
                let value: &'static #p::str = match self {
                    #(#strs)*
                };
                #p::Some(#p::Value::String(#p::From::from(value)))
            }
        }
    }
}
