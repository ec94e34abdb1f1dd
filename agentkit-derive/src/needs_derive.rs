//! `#[tool]` without the `expand` feature (agentkit-core's `derive`): one error that says to
//! enable the feature, and nothing after it.
//!
//! The struct stays, and gets the `TypedTool` and `Tool` impls that the user's
//! `impl ToolHandler` and `registry.register(..)` ask for, so that those are not errors too.
//! Their input and output types are the names the macro would generate (`FetchWeatherInput`
//! for `input = [...]`), left undefined: in a module with a `compile_error!`, the compiler
//! (since 1.95, rust-lang/rust#149484) reports no name that is not found, as one a failed
//! macro would have defined, nor anything about a value of such a type (the handler's
//! `input.city`). None of the macro's parsing is built here: what the impls need (the
//! struct's name, how `input`, `output` and `crate` are given) is read from the tokens.

use proc_macro::{Delimiter, TokenStream, TokenTree};

/// What `#[tool]` expands to without the feature.
const NEEDS_DERIVE: &str = "::core::compile_error!(\"`#[tool]` needs the `derive` feature of \
    agentkit-core: agentkit-core = { version = \\\"0.1\\\", features = [\\\"derive\\\"] }\");";

/// `#[tool(args)] item`, without the feature.
pub(crate) fn tool(args: &TokenStream, item: TokenStream) -> TokenStream {
    let stub = struct_name(&item).map(|name| stub(args, &name));
    let mut out = parse(NEEDS_DERIVE);
    // The item stays, so that its other uses do not fail for want of it.
    out.extend(item);
    if let Some(stub) = stub {
        out.extend(parse(&stub));
    }
    out
}

fn parse(code: &str) -> TokenStream {
    code.parse().expect("the stub is valid tokens")
}

/// The name of the struct `item` declares, if it is a struct without generics (a generic one
/// is refused with the feature too, and gets no impls).
fn struct_name(item: &TokenStream) -> Option<String> {
    let mut tokens = item.clone().into_iter().skip_while(|token| {
        // Attributes, doc comments and the visibility come before `struct`.
        !matches!(token, TokenTree::Ident(ident) if ident.to_string() == "struct")
    });
    tokens.next()?;
    let TokenTree::Ident(name) = tokens.next()? else {
        return None;
    };
    let generic = matches!(tokens.next(), Some(TokenTree::Punct(p)) if p.as_char() == '<');
    (!generic).then(|| name.to_string())
}

/// The `TypedTool` and `Tool` impls for `name`, whose methods are never called.
fn stub(args: &TokenStream, name: &str) -> String {
    let mut krate = "::agentkit_core".to_owned();
    let (mut input, mut output) = (None, None);
    for entry in entries(args) {
        let [TokenTree::Ident(key), TokenTree::Punct(eq), value @ ..] = entry.as_slice() else {
            continue;
        };
        if eq.as_char() != '=' || value.is_empty() {
            continue;
        }
        let key = key.to_string();
        // `input = [...]` is the generated struct. `input = SearchArgs` is a type whose
        // `#[derive(ToolParams)]` is an error too, without the impls the bound on
        // `TypedTool::Input` asks for: a name never defined stands in for it.
        let ty = |suffix: &str| match value {
            [TokenTree::Group(group)] if group.delimiter() == Delimiter::Bracket => {
                format!("{name}{suffix}")
            }
            _ => "__AgentkitNeedsDerive".to_owned(),
        };
        match key.as_str() {
            "input" => input = Some(ty("Input")),
            "output" => output = Some(ty("Output")),
            "crate" => {
                let text = value[0].to_string();
                if let Some(path) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                    krate = path.to_owned();
                }
            }
            _ => {}
        }
    }
    let p = format!("{krate}::__private");
    let object = format!("{p}::JsonObject");
    let input = input.unwrap_or_else(|| object.clone());
    let output = output.unwrap_or_else(|| object.clone());
    format!(
        "#[automatically_derived]
        impl {p}::TypedTool for {name} {{
            type Input = {input};
            type Output = {output};
        }}

        #[automatically_derived]
        impl {p}::Tool for {name} {{
            fn spec(&self) -> &{p}::ToolSpec {{
                {p}::unreachable!(\"#[tool] needs the `derive` feature of agentkit-core\")
            }}

            fn execute(
                &self,
                _: &{object},
                _: &{p}::ToolContext<'_>,
            ) -> impl {p}::Future<Output = {p}::Result<{p}::ToolOutput, {p}::BoxError>> + {p}::Send {{
                ::core::future::pending()
            }}
        }}"
    )
}

/// The attribute's top-level entries, split at its commas.
fn entries(args: &TokenStream) -> Vec<Vec<TokenTree>> {
    let mut entries = vec![Vec::new()];
    for token in args.clone() {
        match &token {
            TokenTree::Punct(p) if p.as_char() == ',' => entries.push(Vec::new()),
            _ => entries.last_mut().expect("never empty").push(token),
        }
    }
    entries
}
