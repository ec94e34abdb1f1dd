//! The path through which every generated item reaches agentkit-core: `<crate>::__private`,
//! imported once per tool under a name of its own, so the expansion works whatever the user
//! has in scope (`mod core {}`, a `Result` alias) and under a renamed dependency.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::ast::Tool;

impl Tool<'_> {
    /// The path every generated item reaches agentkit-core through: the alias that
    /// [`private_import`](Self::private_import) declares for `<crate>::__private`. One token
    /// in place of the absolute path's five, in each of the expansion's hundred-odd paths:
    /// the compiler parses and resolves every token of every tool on every build. An `Ident`
    /// rather than a `TokenStream`: a token stream interpolated into `quote!` is handed to the
    /// compiler and back each time, an `Ident` is copied in place.
    pub(crate) fn private(&self) -> Ident {
        self.private_at(Span::call_site())
    }

    /// [`private`](Self::private), spanned at `span`: it resolves the same way (both are the
    /// call site's hygiene), but an error in an expression that starts with it points there.
    pub(crate) fn private_at(&self, span: Span) -> Ident {
        let mut alias = self.private_alias();
        alias.set_span(span);
        alias
    }

    /// `use <crate>::__private as __agentkit_<Struct>;`: named after the struct, whose name is
    /// unique in its module, so that two tools in one module import two names.
    pub(crate) fn private_import(&self) -> TokenStream {
        let krate = &self.krate;
        let alias = self.private_alias();
        quote! {
            #[doc(hidden)]
            #[allow(unused_imports)]
            use #krate::__private as #alias;
        }
    }

    fn private_alias(&self) -> Ident {
        format_ident!("__agentkit_{}", self.item.ident, span = Span::call_site())
    }
}
