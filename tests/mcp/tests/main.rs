//! The MCP interoperability tests: one module per feature file, compiled and linked as one test
//! binary, `mcp`, with what they share declared once here.
//!
//! Most need the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it, and
//! `mcp_support` does it on first use when npm is on `PATH`); `mcp_foreign_schemas` also needs
//! a Python venv with the pinned MCP SDK (`python3 -m venv tests/mcp-peers/.venv &&
//! tests/mcp-peers/.venv/bin/pip install -r tests/mcp-peers/requirements.txt`; `.ci/run` does
//! it).

#[path = "../../tests/core_fixtures/mod.rs"]
mod core_fixtures;
mod mcp_support;

mod conformance;
mod mcp_client;
mod mcp_client_caching;
mod mcp_client_reports;
mod mcp_client_results;
mod mcp_client_revisions;
mod mcp_client_sampling;
mod mcp_client_tasks;
mod mcp_executor;
mod mcp_foreign_schemas;
mod mcp_input_rounds;
mod mcp_limits;
mod mcp_oauth;
mod mcp_progress;
mod mcp_replicas;
mod mcp_resources_prompts;
mod mcp_rounds_then_task;
mod mcp_server;
mod mcp_session_memory;
mod mcp_structured_output;
mod mcp_tasks;
