//! Where `#[tool]` is written: on a struct, once. Anything else is one error that says where
//! it goes, read from the item's tokens (parsing every kind of item would need syn's `full`
//! feature, a large part of the macro's build time, for an error message); for an impl block,
//! the tokens also say which struct the fallback stands in for ([`impl_block`]).

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use syn::{Attribute, DeriveInput};

use crate::ctxt::Ctxt;

const SHAPE: &str = "a tool is a struct, such as `pub struct FetchWeather;` or one holding its \
                     state, such as `pub struct FetchWeather { client: Client }`";

/// The error for `#[tool]` on an item that is not a struct, enum or union (those parse as a
/// `DeriveInput`, and their errors are the model's): on its keyword, saying where it goes.
pub(crate) fn not_a_struct(item: &TokenStream, fallback: Span) -> syn::Error {
    let tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let rest = from_keyword(&tokens);
    let Some(TokenTree::Ident(keyword)) = rest.first() else {
        return syn::Error::new(fallback, format!("#[tool] goes on a struct: {SHAPE}"));
    };
    let message = match keyword.to_string().as_str() {
        "impl" => match impl_self_type(&rest[1..]) {
            Some(ty) => format!(
                "#[tool] goes on the struct, not on an impl block: put `#[tool(...)]` on the \
                 struct `{ty}` itself, where it is declared"
            ),
            None => format!("#[tool] goes on the struct, not on an impl block: {SHAPE}"),
        },
        "fn" => format!(
            "#[tool] goes on a struct, not a function: no function is turned into a tool; {SHAPE}, \
             and its logic is `impl ToolHandler` for it"
        ),
        "trait" => format!("#[tool] goes on a struct, not a trait: {SHAPE}"),
        "mod" => format!("#[tool] goes on a struct, not a module: {SHAPE}"),
        "type" => format!("#[tool] goes on a struct, not a type alias: {SHAPE}"),
        "const" | "static" => format!("#[tool] goes on a struct, not a `{keyword}`: {SHAPE}"),
        _ => format!("#[tool] goes on a struct: {SHAPE}"),
    };
    syn::Error::new(keyword.span(), message)
}

/// The item's tokens from its keyword on: outer attributes, doc comments, visibility and
/// qualifiers come before it.
fn from_keyword(tokens: &[TokenTree]) -> &[TokenTree] {
    let mut rest = tokens;
    loop {
        match rest {
            [TokenTree::Punct(hash), TokenTree::Group(group), tail @ ..]
                if hash.as_char() == '#' && group.delimiter() == Delimiter::Bracket =>
            {
                rest = tail;
            }
            [TokenTree::Ident(ident), TokenTree::Group(group), tail @ ..]
                if ident == "pub" && group.delimiter() == Delimiter::Parenthesis =>
            {
                rest = tail;
            }
            [TokenTree::Ident(ident), tail @ ..] if is_qualifier(ident, tail) => rest = tail,
            [TokenTree::Literal(_), tail @ ..] => rest = tail, // `extern "C"`
            _ => return rest,
        }
    }
}

/// The struct an impl block with `#[tool]` on it is for, when the fallback can stand in for
/// what the attribute on that struct would generate: `impl ToolHandler for FetchWeather` or
/// `impl FetchWeather`, the type a lone name (a path or generics say less than the struct's
/// declaration would, so the fallback leaves those alone).
pub(crate) struct ImplBlock {
    /// The struct.
    pub(crate) ty: Ident,
    /// Whether the block is `impl ToolHandler for ...`: the stub `Tool` impl needs it.
    pub(crate) handler: bool,
}

/// The impl block `item` is, if [`ImplBlock`] can stand for it.
pub(crate) fn impl_block(item: &TokenStream) -> Option<ImplBlock> {
    let tokens: Vec<TokenTree> = item.clone().into_iter().collect();
    let (keyword, rest) = from_keyword(&tokens).split_first()?;
    if !matches!(keyword, TokenTree::Ident(ident) if ident == "impl") {
        return None;
    }
    let header: Vec<&TokenTree> = rest
        .iter()
        .take_while(|t| !matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
        .collect();
    let is = |token: &TokenTree, word: &str| matches!(token, TokenTree::Ident(i) if i == word);
    let (tr, ty) = match header.iter().position(|t| is(t, "for")) {
        Some(at) => (&header[..at], &header[at + 1..]),
        None => (&header[..0], &header[..]),
    };
    let [TokenTree::Ident(ty)] = ty else {
        return None;
    };
    // `ToolHandler` or a path to it, without generics.
    let handler = tr.last().is_some_and(|last| is(last, "ToolHandler"));
    (tr.is_empty() || handler).then(|| ImplBlock {
        ty: ty.clone(),
        handler,
    })
}

/// Whether `ident` qualifies the item's keyword (`pub`, `unsafe`, `const fn`), rather than
/// being it.
fn is_qualifier(ident: &Ident, tail: &[TokenTree]) -> bool {
    match ident.to_string().as_str() {
        "pub" | "unsafe" | "async" | "extern" | "default" => true,
        // `const fn`, but `const NAME: ...` is an item of its own.
        "const" => matches!(
            tail.first(),
            Some(TokenTree::Ident(next)) if next == "fn" || next == "unsafe" || next == "async" || next == "extern"
        ),
        _ => false,
    }
}

/// `Foo` in `impl Foo { .. }`, `impl<T> Trait for Foo<T> { .. }` or `impl Trait for path::Foo`.
fn impl_self_type(tokens: &[TokenTree]) -> Option<Ident> {
    // The header, up to the body.
    let header: Vec<&TokenTree> = tokens
        .iter()
        .take_while(|t| !matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
        .collect();
    // After `for` if the impl is of a trait, else after the impl's own generics.
    let start = header
        .iter()
        .position(|t| matches!(t, TokenTree::Ident(i) if i == "for"))
        .map_or_else(|| skip_generics(&header), |at| at + 1);
    // The last path segment before the type's generics or a `where`.
    let mut ty = None;
    for token in &header[start..] {
        match token {
            TokenTree::Ident(ident) if ident == "where" => break,
            TokenTree::Ident(ident) => ty = Some(ident.clone()),
            TokenTree::Punct(p) if p.as_char() == ':' => {}
            _ => break,
        }
    }
    ty
}

/// The index after `<...>` at the start of `header` (the impl's generics), or 0.
fn skip_generics(header: &[&TokenTree]) -> usize {
    if !matches!(header.first(), Some(TokenTree::Punct(p)) if p.as_char() == '<') {
        return 0;
    }
    let mut depth = 0usize;
    for (index, token) in header.iter().enumerate() {
        if let TokenTree::Punct(p) = token {
            match p.as_char() {
                '<' => depth += 1,
                '>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return index + 1;
                    }
                }
                _ => {}
            }
        }
    }
    header.len()
}

/// Whether `attr` is another `#[tool]` (or `#[agentkit_core::tool]`).
pub(crate) fn is_tool_attr(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "tool")
}

/// Removes a second `#[tool]` from `item`, with one error on it: the attribute written again
/// would expand again, and report every mistake, and generate every item, twice. `true` if
/// there was one.
pub(crate) fn take_repeated(cx: &Ctxt, item: &mut DeriveInput) -> bool {
    let Some(index) = item.attrs.iter().position(is_tool_attr) else {
        return false;
    };
    let repeated = item.attrs.remove(index);
    item.attrs.retain(|attr| !is_tool_attr(attr));
    cx.error_spanned_by(
        repeated,
        format_args!(
            "#[tool] is repeated on `{}`: one #[tool(...)] declares the tool; merge the two \
             into one",
            item.ident
        ),
    );
    true
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    fn message(item: TokenStream) -> String {
        not_a_struct(&item, Span::call_site()).to_string()
    }

    #[test]
    fn an_impl_block_names_its_struct() {
        for item in [
            quote!(impl FetchWeather { fn f(&self) {} }),
            quote!(impl ToolHandler for FetchWeather { }),
            quote!(
                impl<T> Trait<T> for crate::tools::FetchWeather where T: Send {}
            ),
            quote!(
                #[doc = "x"]
                unsafe impl Send for FetchWeather<u8> {}
            ),
        ] {
            let message = message(item);
            assert!(
                message.contains("put `#[tool(...)]` on the struct `FetchWeather` itself"),
                "{message}"
            );
        }
    }

    #[test]
    fn an_impl_block_of_a_named_struct_gets_a_stand_in() {
        let block = |item: TokenStream| impl_block(&item).map(|b| (b.ty.to_string(), b.handler));
        let handler = Some(("FetchWeather".to_owned(), true));
        assert_eq!(block(quote!(impl ToolHandler for FetchWeather {})), handler);
        assert_eq!(
            block(quote!(impl agentkit_core::ToolHandler for FetchWeather {})),
            handler
        );
        assert_eq!(
            block(quote!(impl FetchWeather { fn f(&self) {} })),
            Some(("FetchWeather".to_owned(), false))
        );
        for item in [
            quote!(
                impl<T> ToolHandler for FetchWeather<T> {}
            ),
            quote!(impl ToolHandler for tools::FetchWeather {}),
            quote!(impl Clone for FetchWeather {}),
            quote!(impl ToolHandler for FetchWeather where u8: Copy {}),
            quote!(
                fn f() {}
            ),
        ] {
            assert_eq!(block(item.clone()), None, "{item}");
        }
    }

    #[test]
    fn other_items_say_what_they_are() {
        let cases = [
            (
                quote!(
                    pub async fn f() {}
                ),
                "not a function",
            ),
            (
                quote!(
                    pub(crate) const fn f() {}
                ),
                "not a function",
            ),
            (
                quote!(
                    const X: u8 = 1;
                ),
                "not a `const`",
            ),
            (
                quote!(
                    trait T {}
                ),
                "not a trait",
            ),
            (
                quote!(
                    mod m {}
                ),
                "not a module",
            ),
            (
                quote!(
                    type A = u8;
                ),
                "not a type alias",
            ),
        ];
        for (item, expected) in cases {
            let message = message(item);
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn only_tool_attributes_are_repeats() {
        let item: DeriveInput = syn::parse_quote! {
            #[derive(Debug)]
            #[agentkit_core::tool(name = "x")]
            struct S;
        };
        assert!(!is_tool_attr(&item.attrs[0]));
        assert!(is_tool_attr(&item.attrs[1]));
    }
}
