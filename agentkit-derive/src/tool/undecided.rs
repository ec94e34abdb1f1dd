//! Stage 4, in the fallback: the types a mistake leaves undecided.
//!
//! When either of two fixes may be meant (`default = null`, which may mean no default or
//! another literal; `type` written twice; `input` written once as a list and once as a
//! type), the handler may be written for either, and any one type given to the field would
//! make the other a second error. Such a type is instead an error type, of which rustc says
//! nothing more: every use of it compiles. It is made by the mistake's own error, as the
//! `const` argument of a projection, `<() as Checked<{ compile_error!(..) }>>::Unit` (the
//! const has no value, so the projection is an error type), in an alias defined once per
//! error and written in the error's place among the others, so the mistake is still reported
//! once, on its token, and in order.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::fields::Gen;
use crate::ctxt::Reported;

impl Gen<'_, '_> {
    /// The type of a field (or of `TypedTool::Input`) that `reported` leaves undecided (see
    /// `Param::undecided`): an error type, which fits every use without a word from rustc.
    /// It is made by the error itself, as the `const` argument of a projection, in an alias
    /// defined once per error, so the error is still reported once, on the token of the
    /// mistake: the fallback writes the alias in the error's place among the others (see
    /// [`Gen::into_undecided`]).
    pub(crate) fn undecided_type(&mut self, reported: &Reported) -> TokenStream {
        if let Some((_, alias, _)) = self.undecided.iter().find(|(i, ..)| *i == reported.index) {
            return quote!(#alias);
        }
        let p = &self.p;
        let vis = &self.tool.item.vis;
        let alias = format_ident!(
            "__{}Undecided{}",
            self.tool.item.ident,
            reported.index,
            span = Span::call_site()
        );
        let error = reported.error.to_compile_error();
        let definition = quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis type #alias = <() as #p::thread_safety::Checked<{ #error }>>::Unit;
        };
        self.undecided
            .push((reported.index, alias.clone(), definition));
        quote!(#alias)
    }

    /// The definitions of the undecided types' aliases, each with the place of its error
    /// among the errors of the attribute.
    pub(crate) fn into_undecided(self) -> Vec<(usize, TokenStream)> {
        self.undecided
            .into_iter()
            .map(|(index, _, definition)| (index, definition))
            .collect()
    }

    /// The type of a parameter named `param` in the struct `parent` that `reported` leaves
    /// undecided; so is the type it may have generated (`{Struct}{Param}`, an enum or a
    /// struct), which the handler may name and whose variants or fields the two fixes may
    /// not agree on: none is generated, and the name is an alias of the undecided type.
    pub(crate) fn undecided_field(
        &mut self,
        parent: &Ident,
        param: &str,
        reported: &Reported,
    ) -> TokenStream {
        let rust = self.undecided_type(reported);
        let nested = self.type_name(parent, param);
        let vis = &self.tool.item.vis;
        self.items.push(quote! {
            #[doc(hidden)]
            #[allow(dead_code)]
            #vis type #nested = #rust;
        });
        rust
    }
}
