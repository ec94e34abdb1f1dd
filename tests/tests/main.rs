//! The behaviour tests of agentkit: one module per feature file (`core_*`, `derive_*`,
//! `provider_*`, ...), compiled and linked as one test binary, `behaviour`, with the fixtures
//! they share declared once here.
//!
//! Two groups have binaries of their own, since they cannot share a process with these:
//! `tracing_capture.rs` (the tests that check what `tracing` said, through a subscriber of their
//! own thread) and `perf_alloc.rs` (a counting global allocator); `Cargo.toml` says why.
//!
//! One file's tests: `cargo test -p agentkit-tests --test behaviour core_executor::`.

mod core_fixtures;
mod program_fixtures;
mod provider_fixtures;

mod core_annotations;
mod core_constraints;
mod core_context;
mod core_credentials;
mod core_defaults;
mod core_dictionary_fields;
mod core_dispatch;
mod core_events;
mod core_examples;
mod core_executor;
mod core_json_schema;
mod core_lanes;
mod core_list_items;
mod core_policies;
mod core_registry;
mod core_schema;
mod core_send;
mod core_session;
mod core_spec_policy;
mod core_stream_turn;
mod core_timeout;
mod core_toolset;
mod core_validation;
mod derive_annotations;
mod derive_constraints;
mod derive_crate_path;
mod derive_doc_examples;
mod derive_equivalence;
mod derive_feature;
mod derive_fields;
mod derive_literal_forms;
// `pub`, like the next one: their tools are public and reachable from the crate root, as a
// user's public tool is, so the generated code is checked as public code (documented, and
// without `unreachable_pub`).
pub mod derive_hygiene;
mod derive_json_forms;
mod derive_json_outputs;
mod derive_json_outputs_same;
mod derive_output_defaults;
mod derive_params;
mod derive_pass;
mod derive_policy;
mod derive_spec_text;
mod derive_tagged_unions;
pub mod derive_typed_views;
mod hostile_panic_hook;
mod one_mistake;
mod provider_anthropic;
mod provider_content;
mod provider_example;
mod provider_gemini;
mod provider_hostile;
mod provider_lowering;
mod provider_mcp;
mod provider_openai_chat;
mod provider_openai_responses;
mod provider_round_trip;
mod provider_sdks;
mod provider_stream;
mod schema_differential;
mod schema_hostile;
mod schema_json;
mod schema_suite;
mod typed_fast_path;
mod workspace_msrv;
