//! The `#[tool(...)]` attribute macro for agentkit (placeholder).

use proc_macro::TokenStream;

/// Declares a tool (placeholder).
#[proc_macro_attribute]
pub fn tool(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}
