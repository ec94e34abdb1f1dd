//! The `#[tool(...)]` attribute macro for agentkit. Use it through `agentkit-core` with the
//! `derive` feature; see [`macro@tool`].
//!
//! The macro is built in stages, one module each: `attr` reads the attribute's tokens
//! into a tree of `key = value` entries, `ast` turns that tree into a typed model of the
//! tool, `check` applies the rules that span several keys, then `expand` writes the code,
//! or `fallback` writes the errors and a stub. Every stage reports into one `ctxt::Ctxt`,
//! so every mistake is reported in one build. The rules and their wording are shared with
//! `agentkit-core` (`rules.rs`, compiled into both crates).

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod fallback;
// Shared with agentkit-core, which uses more of it than the macro does.
#[allow(dead_code, unreachable_pub)]
mod rules;
mod symbol;

use proc_macro::TokenStream;

/// Declares a tool on a struct: its spec, checked by the compiler, and typed input and output
/// structs for its logic.
///
/// See the crate documentation of `agentkit-core` for how tools are registered and run.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(args.into(), item.into()).into()
}
