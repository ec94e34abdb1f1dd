//! The `declarations` example: for each API it knows, the document it prints is that API's
//! strict declarations (where it has a strict mode) of the example's tools, and it parses back
//! as JSON; an unknown API gets no document (the example prints its usage and exits 2).
//!
//! The example's code is compiled into this test (see `provider_fixtures`), so what is
//! checked here is what `cargo run --example declarations -- <provider>` runs.

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use serde_json::{Value, json};

use crate::provider_fixtures::example::{PROVIDERS, declarations};
use crate::provider_fixtures::registry;

#[test]
fn each_provider_gets_its_declarations_as_one_json_document() {
    let registry = registry();
    let specs = || registry.specs();
    let expected = [
        openai_chat::strict_tools(specs()),
        openai_responses::strict_tools(specs()),
        anthropic::strict_tools(specs()),
        gemini::tools(specs()),
        mcp::tools(specs()),
    ];
    for (provider, tools) in PROVIDERS.iter().zip(expected) {
        let document = declarations(provider, &registry).expect(provider);
        assert_eq!(document, json!({"tools": tools}), "{provider}");
        // What `main` prints parses back to the same document.
        let printed = format!("{document:#}");
        assert_eq!(
            serde_json::from_str::<Value>(&printed).unwrap(),
            document,
            "{provider}"
        );
    }
}

#[test]
fn strict_mode_is_on_where_the_api_has_one() {
    let registry = registry();
    let tool = |provider: &str| declarations(provider, &registry).unwrap()["tools"][0].clone();
    assert_eq!(tool("openai-chat")["function"]["strict"], true);
    assert_eq!(tool("openai-responses")["strict"], true);
    assert_eq!(tool("anthropic")["strict"], true);
    assert!(tool("gemini").get("strict").is_none());
    assert!(tool("mcp").get("strict").is_none());
}

#[test]
fn an_unknown_provider_gets_no_document() {
    let registry = registry();
    for provider in ["", "openai", "OpenAI-Chat", "claude", "mcp "] {
        assert_eq!(declarations(provider, &registry), None, "{provider:?}");
    }
}
