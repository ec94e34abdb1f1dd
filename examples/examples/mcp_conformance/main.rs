//! The tools, resources, prompts and completions of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`), written with agentkit and served over streamable
//! HTTP, so that the suite's server scenarios can be run against agentkit:
//!
//! ```sh
//! cargo run --example mcp_conformance --features mcp -- --http 127.0.0.1:0
//! # listening on http://127.0.0.1:PORT/mcp
//! npx @modelcontextprotocol/conformance@0.2.0-alpha.12 server --requirements 2026-07-28 \
//!     --url http://127.0.0.1:PORT/mcp
//! ```
//!
//! (`cargo test --workspace` does this, with the suite pinned in `tests/mcp-peers`; see
//! `tests/mcp/tests/conformance.rs`.) Without `--http`, it serves one client over stdio.
//!
//! Each scenario calls one tool, named as the suite wants, and checks what comes back. Read
//! as a guide, the file shows how an agentkit tool:
//!
//! - returns text, an image, audio, an embedded resource or several parts at once
//!   ([`ToolOutput`], [`Content`]);
//! - fails in a way the model is told about ([`ToolError`]);
//! - logs to the client and reports progress while it runs ([`ToolContext::log`],
//!   [`ToolContext::report_progress`]);
//! - asks the client's model ([`ToolContext::sample`]) and its user
//!   ([`ToolContext::elicit`]), with defaults and every kind of enum in the form;
//! - declares a JSON Schema 2020-12 of its own, with `$defs`, `$ref`, `$anchor`, `allOf`/`anyOf`
//!   and `if`/`then`/`else`
//!   ([`ToolSpecBuilder::input_json_schema`](agentkit_core::ToolSpecBuilder::input_json_schema)).
//!
//! Most are `#[tool]` structs with a hand-written `ToolHandler`; the JSON Schema one is a
//! hand-written [`Tool`].
//!
//! What the suite also asks of a server beyond tools (resources, resource templates and
//! subscriptions, prompts, argument completion) is in `fixtures.rs`: the application's own
//! handlers, in rmcp's types, which the same `McpServer` serves beside the tools
//! ([`McpServer::with_resources`], [`with_prompts`](McpServer::with_prompts),
//! [`with_completions`](McpServer::with_completions)).

mod fixtures;

use std::sync::Arc;
use std::time::Duration;

// The tools of the suite's 2026-07-28 scenarios, which ask the client in rounds.
mod conformance_2026;
// The tools of the `tasks-*` scenarios, and which of them run as tasks.
mod tasks;

use agentkit_core::mcp::McpServer;
use agentkit_core::serde_json::{Value, json};
use agentkit_core::{
    BoxError, Content, Elicitation, ElicitationRequest, EmbeddedResource, JsonObject, LogLevel,
    Progress, SamplingRequest, Tool, ToolContext, ToolError, ToolExecutor, ToolHandler, ToolOutput,
    ToolRegistry, ToolSpec, tool,
};
use fixtures::Fixtures;

// ---------------------------------------------------------------------------------------
// Content parts
// ---------------------------------------------------------------------------------------

/// A text result: the model is sent the text itself.
#[tool(name = "test_simple_text", input = [], output = String)]
struct SimpleText;

impl ToolHandler for SimpleText {
    async fn run(&self, _: SimpleTextInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        Ok("This is a simple text response for testing.".to_owned())
    }
}

/// Returns a 1x1 red PNG image.
#[tool(name = "test_image_content", input = [], output = ToolOutput)]
struct ImageContent;

impl ToolHandler for ImageContent {
    async fn run(&self, _: ImageContentInput, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(Content::image(RED_PIXEL_PNG, "image/png").into())
    }
}

/// Returns a short WAV clip of silence.
#[tool(name = "test_audio_content", input = [], output = ToolOutput)]
struct AudioContent;

impl ToolHandler for AudioContent {
    async fn run(&self, _: AudioContentInput, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        Ok(Content::audio(silent_wav(), "audio/wav").into())
    }
}

/// Returns a text resource, embedded whole.
#[tool(name = "test_embedded_resource", input = [], output = ToolOutput)]
struct EmbeddedResourceContent;

impl ToolHandler for EmbeddedResourceContent {
    async fn run(
        &self,
        _: EmbeddedResourceContentInput,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let resource = EmbeddedResource::text(
            "test://embedded-resource",
            "This is an embedded resource content.",
        )
        .with_mime_type("text/plain");
        Ok(Content::from(resource).into())
    }
}

/// Returns text, an image and an embedded resource in one result.
#[tool(name = "test_multiple_content_types", input = [], output = ToolOutput)]
struct MultipleContentTypes;

impl ToolHandler for MultipleContentTypes {
    async fn run(
        &self,
        _: MultipleContentTypesInput,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let data = EmbeddedResource::text(
            "test://mixed-content-resource",
            json!({"test": "data", "value": 123}).to_string(),
        )
        .with_mime_type("application/json");
        Ok(ToolOutput::content_only([
            Content::text("Multiple content types test:"),
            Content::image(RED_PIXEL_PNG, "image/png"),
            Content::from(data),
        ]))
    }
}

// ---------------------------------------------------------------------------------------
// Failing, logging, reporting progress
// ---------------------------------------------------------------------------------------

/// Always fails, telling the model why.
#[tool(name = "test_error_handling", input = [], output = String)]
struct ErrorHandling;

impl ToolHandler for ErrorHandling {
    async fn run(&self, _: ErrorHandlingInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        // The cause is for operators; the model message is what the client gets, as an
        // `isError` result.
        Err(
            ToolError::failed("the conformance suite asked for an error")
                .with_model_message("This tool intentionally returns an error for testing")
                .into(),
        )
    }
}

/// Logs three messages while it runs, 50 ms apart.
#[tool(name = "test_tool_with_logging", input = [], output = String)]
struct ToolWithLogging;

impl ToolHandler for ToolWithLogging {
    async fn run(
        &self,
        _: ToolWithLoggingInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        // Each message reaches the executor's observers and, served over MCP, the client (as
        // `notifications/message`, when it asked for this level or a lower one).
        ctx.log(LogLevel::Info, "Tool execution started");
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.log(LogLevel::Info, "Tool processing data");
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.log(LogLevel::Info, "Tool execution completed");
        Ok("Tool with logging executed successfully".to_owned())
    }
}

/// Reports progress 0, 50 and 100 of 100, 50 ms apart.
#[tool(name = "test_tool_with_progress", input = [], output = String)]
struct ToolWithProgress;

impl ToolHandler for ToolWithProgress {
    async fn run(
        &self,
        _: ToolWithProgressInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        // A client that sent a progress token gets each report as `notifications/progress`;
        // one that did not gets none, and the tool need not care which.
        for (step, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            ctx.report_progress(Progress::new(done).with_total(100.0));
        }
        Ok("Tool with progress executed successfully".to_owned())
    }
}

/// Takes a little while, then answers (the suite's SSE polling scenario calls it).
#[tool(name = "test_reconnection", input = [], output = String)]
struct Reconnection;

impl ToolHandler for Reconnection {
    async fn run(&self, _: ReconnectionInput, _: &ToolContext<'_>) -> Result<String, BoxError> {
        // The suite checks that the call's SSE stream starts with a priming event (an event
        // id and a `retry` field, which rmcp's streamable HTTP server sends), so that a
        // client whose stream breaks can resume it with `Last-Event-ID`.
        tokio::time::sleep(Duration::from_millis(100)).await;
        Ok("Reconnection test completed".to_owned())
    }
}

// ---------------------------------------------------------------------------------------
// Asking the client's model and user
// ---------------------------------------------------------------------------------------

/// Asks the client's model to answer a prompt.
#[tool(
    name = "test_sampling",
    input = [{ name = "prompt", type = string, description = "The prompt to send to the LLM" }],
    output = String,
)]
struct Sampling;

impl ToolHandler for Sampling {
    async fn run(&self, input: SamplingInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        // Fails (an `isError` result) when the client did not declare sampling.
        let answer = ctx
            .sample(SamplingRequest::new(input.prompt).with_max_tokens(100))
            .await?;
        Ok(format!("LLM response: {}", answer.text()))
    }
}

/// Asks the client's user for a username and an email address.
#[tool(
    name = "test_elicitation",
    input = [{ name = "message", type = string, description = "The message to show the user" }],
    output = String,
)]
struct AskUser;

impl ToolHandler for AskUser {
    async fn run(&self, input: AskUserInput, ctx: &ToolContext<'_>) -> Result<String, BoxError> {
        let form = json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        });
        let answer = ctx
            .elicit(ElicitationRequest::new(input.message, form))
            .await?;
        Ok(format!("User response: {}", describe(&answer)))
    }
}

/// Asks the client's user for a form whose every field has a default (SEP-1034).
#[tool(name = "test_elicitation_sep1034_defaults", input = [], output = String)]
struct ElicitationDefaults;

impl ToolHandler for ElicitationDefaults {
    async fn run(
        &self,
        _: ElicitationDefaultsInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        let form = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "User name", "default": "John Doe"},
                "age": {"type": "integer", "description": "User age", "default": 30},
                "score": {"type": "number", "description": "User score", "default": 95.5},
                "status": {
                    "type": "string",
                    "description": "User status",
                    "enum": ["active", "inactive", "pending"],
                    "default": "active",
                },
                "verified": {"type": "boolean", "description": "Verified", "default": true},
            },
        });
        let request = ElicitationRequest::new("Please review and update the form fields", form);
        let answer = ctx.elicit(request).await?;
        Ok(format!("Elicitation completed: {}", describe(&answer)))
    }
}

/// Asks the client's user to choose, in each of the five forms of enum MCP has (SEP-1330).
#[tool(name = "test_elicitation_sep1330_enums", input = [], output = String)]
struct ElicitationEnums;

impl ToolHandler for ElicitationEnums {
    async fn run(
        &self,
        _: ElicitationEnumsInput,
        ctx: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        let titled = |pairs: &[(&str, &str)]| -> Vec<Value> {
            pairs
                .iter()
                .map(|(value, title)| json!({"const": value, "title": title}))
                .collect()
        };
        let options = titled(&[
            ("value1", "First Option"),
            ("value2", "Second Option"),
            ("value3", "Third Option"),
        ]);
        let choices = titled(&[
            ("value1", "First Choice"),
            ("value2", "Second Choice"),
            ("value3", "Third Choice"),
        ]);
        let form = json!({
            "type": "object",
            "properties": {
                // One choice of plain values.
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                // One choice, each value with a title to show.
                "titledSingle": {
                    "type": "string",
                    "oneOf": options,
                },
                // The older way of giving titles (deprecated, still served).
                "legacyEnum": {
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                // Several choices of plain values.
                "untitledMulti": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                },
                // Several choices with titles.
                "titledMulti": {
                    "type": "array",
                    "items": {"anyOf": choices},
                },
            },
        });
        let answer = ctx
            .elicit(ElicitationRequest::new("Please choose your options", form))
            .await?;
        Ok(format!("Elicitation completed: {}", describe(&answer)))
    }
}

/// The user's answer, in a line.
fn describe(answer: &Elicitation) -> String {
    match answer {
        Elicitation::Accept(content) => {
            format!("action=accept, content={}", Value::from(content.clone()))
        }
        Elicitation::Decline => "action=decline".to_owned(),
        Elicitation::Cancel => "action=cancel".to_owned(),
        // `Elicitation` may grow.
        _ => "action=unknown".to_owned(),
    }
}

// ---------------------------------------------------------------------------------------
// A JSON Schema 2020-12 of the tool's own
// ---------------------------------------------------------------------------------------

/// A tool written by hand, without `#[tool]`: its spec is built at run time, with an input
/// schema in JSON Schema 2020-12 that MCP clients are shown as written (`$schema`, `$defs`,
/// `$ref`, `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`, `additionalProperties`: every
/// keyword SEP-2106 lets an `inputSchema` have), and the executor validates in full.
struct JsonSchema2020 {
    spec: ToolSpec,
}

impl JsonSchema2020 {
    fn new() -> Result<Self, BoxError> {
        let spec = ToolSpec::builder("json_schema_2020_12_tool")
            .description("Tool with JSON Schema 2020-12 features")
            .input_json_schema(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {
                    "address": {
                        "$anchor": "addressDef",
                        "type": "object",
                        "properties": {
                            "street": {"type": "string"},
                            "city": {"type": "string"},
                        },
                    },
                },
                "properties": {
                    "name": {"type": "string"},
                    "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"},
                    "email": {"type": "string"},
                },
                // A way to reach the person, and the one `contactMethod` names.
                "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                "if": {
                    "properties": {"contactMethod": {"const": "phone"}},
                    "required": ["contactMethod"],
                },
                "then": {"required": ["phone"]},
                "else": {"required": ["email"]},
                "additionalProperties": false,
            }))
            .build()?;
        Ok(JsonSchema2020 { spec })
    }
}

impl Tool for JsonSchema2020 {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let name = inputs
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("world");
        Ok(ToolOutput::from(format!("Hello, {name}!")))
    }
}

/// A tool one of whose parameters travels in a header too (MCP 2026-07-28, SEP-2243): its
/// schema says `"x-mcp-header": "Region"`, so a client sends the region in `Mcp-Param-Region`
/// as well, for proxies that route on headers, and the server refuses a call whose header
/// and body disagree before the tool runs.
struct RegionLookup {
    spec: ToolSpec,
}

impl RegionLookup {
    fn new() -> Result<Self, BoxError> {
        let spec = ToolSpec::builder("test_custom_header")
            .description("Looks a key up in a region, named in a header too")
            .input_json_schema(json!({
                "type": "object",
                "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "key": {"type": "string"},
                },
                "required": ["region"],
            }))
            .build()?;
        Ok(RegionLookup { spec })
    }
}

impl Tool for RegionLookup {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let region = inputs.get("region").and_then(Value::as_str).unwrap_or("");
        Ok(ToolOutput::from(format!("looked up in {region}")))
    }
}

// ---------------------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------------------

/// A PNG image of one red pixel.
const RED_PIXEL_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A tenth of a second of silence as a WAV file: 8 kHz, mono, 8-bit PCM.
fn silent_wav() -> Vec<u8> {
    const RATE: u32 = 8_000;
    let samples = vec![0x80_u8; RATE as usize / 10]; // 8-bit PCM is unsigned: 0x80 is silence
    let mut wav = Vec::with_capacity(44 + samples.len());
    let len = u32::try_from(samples.len()).expect("a short clip");
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16_u32.to_le_bytes()); // the size of the format chunk
    wav.extend_from_slice(&1_u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1_u16.to_le_bytes()); // one channel
    wav.extend_from_slice(&RATE.to_le_bytes()); // samples per second
    wav.extend_from_slice(&RATE.to_le_bytes()); // bytes per second
    wav.extend_from_slice(&1_u16.to_le_bytes()); // bytes per frame
    wav.extend_from_slice(&8_u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&len.to_le_bytes());
    wav.extend_from_slice(&samples);
    wav
}

// ---------------------------------------------------------------------------------------
// Serving
// ---------------------------------------------------------------------------------------

fn registry() -> Result<ToolRegistry, BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(SimpleText)?;
    registry.register(ImageContent)?;
    registry.register(AudioContent)?;
    registry.register(EmbeddedResourceContent)?;
    registry.register(MultipleContentTypes)?;
    registry.register(ErrorHandling)?;
    registry.register(ToolWithLogging)?;
    registry.register(ToolWithProgress)?;
    registry.register(Reconnection)?;
    registry.register(Sampling)?;
    registry.register(AskUser)?;
    registry.register(ElicitationDefaults)?;
    registry.register(ElicitationEnums)?;
    registry.register(JsonSchema2020::new()?)?;
    registry.register(RegionLookup::new()?)?;
    conformance_2026::register(&mut registry)?;
    tasks::register(&mut registry)?;
    Ok(registry)
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let executor = ToolExecutor::new(registry()?);
    // One value serves resources, prompts and completions: each handler gets it shared.
    let fixtures = Arc::new(Fixtures::default());
    let server = McpServer::new(Arc::new(executor))
        .with_name("agentkit-conformance", env!("CARGO_PKG_VERSION"))
        .with_timeout(Duration::from_secs(30))
        .with_resources(Arc::clone(&fixtures))
        .with_prompts(Arc::clone(&fixtures))
        .with_completions(fixtures)
        .with_input_before_task(tasks::INPUT_BEFORE_TASK);

    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, address] if flag == "--http" => {
            let listener = tokio::net::TcpListener::bind(address.as_str()).await?;
            // The bound address (port 0 picks one), once the socket accepts connections.
            println!("listening on http://{}/mcp", listener.local_addr()?);
            server.serve_http(listener).await;
        }
        // Over stdio too, for a host that starts it as a child process (stdout carries the
        // protocol).
        [] => server.serve_stdio().await?,
        _ => return Err("usage: mcp_conformance [--http ADDRESS:PORT]".into()),
    }
    Ok(())
}
