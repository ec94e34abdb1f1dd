//! Content parts in every API's results: real tools, dispatched through an executor, return
//! text, images, audio, links and embedded resources, and each provider module renders them
//! where its API takes them (the exact JSON is written out here by hand). A text result is
//! the bare text everywhere; a failure keeps its error text; OpenAI Chat's images, audio and
//! PDFs follow in one `user` message; a part over the binary limit fails the call; a secret
//! in a text part is redacted in every rendering; a recorded content result replays with
//! the same parts.

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use agentkit_core::{
    BoxError, Content, ContentTooLarge, EmbeddedResource, Error, ErrorKind, ExecutionRecorder,
    InMemoryCredentials, JsonObject, Param, ParamType, RecordedOutcome, Recording, Replay,
    ResourceLink, TextLimits, Tool, ToolCall, ToolContext, ToolExecutor, ToolHandler, ToolOutput,
    ToolRegistry, ToolResult, ToolSchema, ToolSpec, block_on, tool,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------- the parts and their base64

/// A 1x1 transparent PNG: signature, IHDR, IDAT, IEND.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];
const PNG_B64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACklEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==";

const WAV: &[u8] = b"RIFF\x24\x00\x00\x00WAVEfmt ";
const WAV_B64: &str = "UklGRiQAAABXQVZFZm10IA==";
const MP3: &[u8] = b"ID3\x03\x00\x00\x00\x00\x00\x00";
const MP3_B64: &str = "SUQzAwAAAAAAAA==";
const PDF: &[u8] = b"%PDF-1.4\n%%EOF\n";
const PDF_B64: &str = "JVBERi0xLjQKJSVFT0YK";
const CSV: &[u8] = b"id,total\n1,9.50\n";
const CSV_B64: &str = "aWQsdG90YWwKMSw5LjUwCg==";
const GIF: &[u8] = b"GIF89a";
const GIF_B64: &str = "R0lGODlh";

const SENTENCE: &str = "It is sunny in Paris, 22 °C.";
const NOTES: &str = "Standup at 9.\nShip on Friday.";
const SECRET: &str = "sk-live-7f3a9c0e55b1";

fn png() -> Content {
    Content::image(PNG, "image/png")
}

fn link() -> Content {
    ResourceLink::new("https://files.example.com/q3.pdf", "q3.pdf")
        .with_mime_type("application/pdf")
        .with_description("The third quarter's report")
        .into()
}

fn notes() -> Content {
    EmbeddedResource::text("file:///notes/today.txt", NOTES)
        .with_mime_type("text/plain")
        .into()
}

fn pdf() -> Content {
    EmbeddedResource::blob("file:///reports/q3.pdf", PDF)
        .with_mime_type("application/pdf")
        .into()
}

fn csv() -> Content {
    EmbeddedResource::blob("file:///exports/orders.csv", CSV)
        .with_mime_type("text/csv")
        .into()
}

fn obj(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("not an object: {other}"),
    }
}

// ---------------------------------------------------------------- the tools

/// A hand-written tool whose output is made by a function.
struct Returns {
    spec: ToolSpec,
    output: fn(&ToolContext<'_>) -> Result<ToolOutput, BoxError>,
}

impl Tool for Returns {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(&self, _: &JsonObject, ctx: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
        (self.output)(ctx)
    }
}

fn returns(
    spec: ToolSpec,
    output: fn(&ToolContext<'_>) -> Result<ToolOutput, BoxError>,
) -> Returns {
    Returns { spec, output }
}

fn spec(name: &'static str) -> ToolSpec {
    ToolSpec::builder(name).build().expect("a valid spec")
}

/// Describe the weather in a city, in a sentence.
#[tool(
    name = "describe_weather",
    input = [{ name = "city", type = string }],
    output = String,
)]
struct DescribeWeather;

impl ToolHandler for DescribeWeather {
    async fn run(
        &self,
        input: DescribeWeatherInput,
        _: &ToolContext<'_>,
    ) -> Result<String, BoxError> {
        assert_eq!(input.city, "Paris");
        Ok(SENTENCE.to_owned())
    }
}

/// The registry every test dispatches to: a tool per kind of part.
fn registry() -> ToolRegistry {
    let size = ToolSchema::new([
        Param::required("width", ParamType::Integer),
        Param::required("height", ParamType::Integer),
    ])
    .expect("a valid schema");
    let screenshot = ToolSpec::builder("screenshot")
        .output(size)
        .build()
        .expect("a valid spec");
    let leaky = ToolSpec::builder("leaky")
        .credential("api-key")
        .build()
        .expect("a valid spec");
    let mut registry = ToolRegistry::new();
    let tools = [
        returns(screenshot, |_| {
            Ok(ToolOutput::from(obj(json!({"width": 1, "height": 1}))).with(png()))
        }),
        returns(spec("record"), |_| {
            Ok(Content::audio(WAV, "audio/wav").into())
        }),
        returns(spec("link"), |_| Ok(link().into())),
        returns(spec("notes"), |_| Ok(notes().into())),
        returns(spec("report"), |_| Ok(pdf().into())),
        returns(spec("export"), |_| Ok(csv().into())),
        returns(spec("mixed"), |_| {
            Ok(ToolOutput::from(obj(json!({"rows": 2})))
                .with("Two charts and the files:")
                .with(Content::image(GIF, "image/gif"))
                .with(Content::image(vec![b'B', b'M'], "image/bmp"))
                .with(Content::audio(MP3, "audio/mpeg"))
                .with(link())
                .with(notes())
                .with(pdf())
                .with(csv()))
        }),
        returns(spec("failing"), |_| Err("the screen is locked".into())),
        returns(spec("huge"), |_| {
            Ok(Content::image(vec![0; 2048], "image/png").into())
        }),
        returns(leaky, |ctx| {
            let key = ctx.credential("api-key")?.expose().to_owned();
            Ok(ToolOutput::from(format!("Signed in with {key}.")).with(png()))
        }),
    ];
    for tool in tools {
        registry.register(tool).expect("unique names");
    }
    registry.register(DescribeWeather).expect("unique names");
    registry
}

fn executor() -> ToolExecutor {
    ToolExecutor::builder(registry())
        .credentials(InMemoryCredentials::new().with("api-key", SECRET))
        .text_limits(TextLimits::default().with_max_binary_bytes(1024))
        .build()
}

fn dispatch(id: &str, name: &str) -> ToolResult {
    let arguments = if name == "describe_weather" {
        r#"{"city": "Paris"}"#
    } else {
        "{}"
    };
    let result = block_on(executor().dispatch(&ToolCall::new(id, name, arguments)));
    assert_eq!(result.call_id(), id);
    result
}

// ---------------------------------------------------------------- what each API is sent

/// The five renderings of one result, each as its API's request carries it.
struct Rendered {
    anthropic: Value,
    responses: Value,
    chat: Vec<Value>,
    gemini: Value,
    mcp: Value,
}

fn render(result: &ToolResult) -> Rendered {
    Rendered {
        anthropic: anthropic::result(result),
        responses: openai_responses::result(result),
        chat: openai_chat::results(std::slice::from_ref(result)),
        gemini: gemini::result(result),
        mcp: mcp::result(result, &registry()),
    }
}

fn tool_message(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

// ---------------------------------------------------------------- one kind of part at a time

#[test]
fn a_text_result_is_the_bare_text_everywhere() {
    let result = dispatch("c1", "describe_weather");
    assert!(result.is_success(), "{result:?}");
    assert_eq!(result.content(), [Content::text(SENTENCE)]);
    assert_eq!(result.to_model_content(), SENTENCE);
    let r = render(&result);
    assert_eq!(
        r.anthropic,
        json!({"type": "tool_result", "tool_use_id": "c1", "content": SENTENCE, "is_error": false})
    );
    assert_eq!(
        r.responses,
        json!({"type": "function_call_output", "call_id": "c1", "output": SENTENCE})
    );
    assert_eq!(r.chat, [tool_message("c1", SENTENCE)]);
    assert_eq!(
        r.gemini,
        json!({"functionResponse": {"id": "c1", "name": "describe_weather",
                                    "response": {"output": SENTENCE}}})
    );
    assert_eq!(
        r.mcp,
        json!({"content": [{"type": "text", "text": SENTENCE}], "isError": false})
    );
}

#[test]
fn structured_output_and_an_image() {
    let result = dispatch("c2", "screenshot");
    assert_eq!(result.output(), Some(&json!({"width": 1, "height": 1})));
    let json = r#"{"height":1,"width":1}"#;
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([
            {"type": "text", "text": json},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}},
        ])
    );
    assert_eq!(r.anthropic["is_error"], false);
    assert_eq!(
        r.responses["output"],
        json!([
            {"type": "input_text", "text": json},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG_B64}"),
             "detail": "auto"},
        ])
    );
    assert_eq!(
        r.chat,
        [
            tool_message("c2", &format!("{json}\n[image: image/png, 67 bytes]")),
            json!({"role": "user", "content": [
                {"type": "text", "text": "Content of tool call 'c2' (screenshot):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG_B64}")}},
            ]}),
        ]
    );
    assert_eq!(
        r.gemini,
        json!({"functionResponse": {
            "id": "c2",
            "name": "screenshot",
            "response": {"output": {"width": 1, "height": 1},
                         "content": "[image: image/png, 67 bytes]"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG_B64}}],
        }})
    );
    // The tool declares its output: MCP has it as structured content too.
    assert_eq!(
        r.mcp,
        json!({
            "content": [
                {"type": "text", "text": json},
                {"type": "image", "data": PNG_B64, "mimeType": "image/png"},
            ],
            "isError": false,
            "structuredContent": {"width": 1, "height": 1},
        })
    );
}

#[test]
fn audio_is_described_where_the_api_takes_none() {
    let result = dispatch("c3", "record");
    let described = "[audio: audio/wav, 16 bytes]";
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([{"type": "text", "text": described}])
    );
    assert_eq!(
        r.responses["output"],
        json!([{"type": "input_text", "text": described}])
    );
    assert_eq!(
        r.chat,
        [
            tool_message("c3", described),
            json!({"role": "user", "content": [
                {"type": "text", "text": "Content of tool call 'c3' (record):"},
                {"type": "input_audio", "input_audio": {"data": WAV_B64, "format": "wav"}},
            ]}),
        ]
    );
    // Function responses take images and documents, not audio.
    assert_eq!(
        r.gemini["functionResponse"],
        json!({"id": "c3", "name": "record", "response": {"output": described}})
    );
    assert_eq!(
        r.mcp["content"],
        json!([{"type": "audio", "data": WAV_B64, "mimeType": "audio/wav"}])
    );
}

#[test]
fn a_resource_link_is_described_to_models_and_linked_in_mcp() {
    let result = dispatch("c4", "link");
    let described = "[resource: q3.pdf <https://files.example.com/q3.pdf>]";
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([{"type": "text", "text": described}])
    );
    assert_eq!(
        r.responses["output"],
        json!([{"type": "input_text", "text": described}])
    );
    // Nothing for a user message: the tool message describes it.
    assert_eq!(r.chat, [tool_message("c4", described)]);
    assert_eq!(
        r.gemini["functionResponse"]["response"],
        json!({"output": described})
    );
    assert!(r.gemini["functionResponse"].get("parts").is_none());
    assert_eq!(
        r.mcp["content"],
        json!([{"type": "resource_link", "uri": "https://files.example.com/q3.pdf",
                "name": "q3.pdf", "mimeType": "application/pdf",
                "description": "The third quarter's report"}])
    );
}

#[test]
fn an_embedded_text_is_a_document_or_its_uri_and_text() {
    let result = dispatch("c5", "notes");
    let described = format!("[resource: <file:///notes/today.txt>]\n{NOTES}");
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([{"type": "document",
                "source": {"type": "text", "media_type": "text/plain", "data": NOTES},
                "title": "file:///notes/today.txt"}])
    );
    assert_eq!(
        r.responses["output"],
        json!([{"type": "input_text", "text": described}])
    );
    assert_eq!(r.chat, [tool_message("c5", &described)]);
    assert_eq!(
        r.gemini["functionResponse"]["response"],
        json!({"output": described})
    );
    assert_eq!(
        r.mcp["content"],
        json!([{"type": "resource", "resource": {"uri": "file:///notes/today.txt",
                "mimeType": "text/plain", "text": NOTES}}])
    );
}

#[test]
fn an_embedded_pdf_is_a_document_a_file_or_inline_data() {
    let result = dispatch("c6", "report");
    let described = "[resource: <file:///reports/q3.pdf>, application/pdf, 15 bytes]";
    let data_url = format!("data:application/pdf;base64,{PDF_B64}");
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([{"type": "document",
                "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_B64},
                "title": "file:///reports/q3.pdf"}])
    );
    assert_eq!(
        r.responses["output"],
        json!([{"type": "input_file", "filename": "q3.pdf", "file_data": data_url}])
    );
    assert_eq!(
        r.chat,
        [
            tool_message("c6", described),
            json!({"role": "user", "content": [
                {"type": "text", "text": "Content of tool call 'c6' (report):"},
                {"type": "file", "file": {"filename": "q3.pdf", "file_data": data_url}},
            ]}),
        ]
    );
    assert_eq!(
        r.gemini["functionResponse"],
        json!({"id": "c6", "name": "report", "response": {"output": described},
               "parts": [{"inlineData": {"mimeType": "application/pdf", "data": PDF_B64}}]})
    );
    assert_eq!(
        r.mcp["content"],
        json!([{"type": "resource", "resource": {"uri": "file:///reports/q3.pdf",
                "mimeType": "application/pdf", "blob": PDF_B64}}])
    );
}

/// Only OpenAI Responses takes files of any type; the others describe a CSV.
#[test]
fn an_embedded_file_of_another_type() {
    let result = dispatch("c7", "export");
    let described = "[resource: <file:///exports/orders.csv>, text/csv, 16 bytes]";
    let r = render(&result);
    assert_eq!(
        r.anthropic["content"],
        json!([{"type": "text", "text": described}])
    );
    assert_eq!(
        r.responses["output"],
        json!([{"type": "input_file", "filename": "orders.csv",
                "file_data": format!("data:text/csv;base64,{CSV_B64}")}])
    );
    assert_eq!(r.chat, [tool_message("c7", described)]);
    assert_eq!(
        r.gemini["functionResponse"]["response"],
        json!({"output": described})
    );
    assert!(r.gemini["functionResponse"].get("parts").is_none());
    assert_eq!(
        r.mcp["content"],
        json!([{"type": "resource", "resource": {"uri": "file:///exports/orders.csv",
                "mimeType": "text/csv", "blob": CSV_B64}}])
    );
}

#[test]
fn mixed_parts_keep_their_order_in_every_api() {
    let result = dispatch("c8", "mixed");
    let json = r#"{"rows":2}"#;
    let text = "Two charts and the files:";
    let bmp = "[image: image/bmp, 2 bytes]";
    let mp3 = "[audio: audio/mpeg, 10 bytes]";
    let link = "[resource: q3.pdf <https://files.example.com/q3.pdf>]";
    let notes = format!("[resource: <file:///notes/today.txt>]\n{NOTES}");
    let pdf = "[resource: <file:///reports/q3.pdf>, application/pdf, 15 bytes]";
    let csv = "[resource: <file:///exports/orders.csv>, text/csv, 16 bytes]";
    let gif = "[image: image/gif, 6 bytes]";
    let pdf_url = format!("data:application/pdf;base64,{PDF_B64}");
    let r = render(&result);

    assert_eq!(
        r.anthropic["content"],
        json!([
            {"type": "text", "text": json},
            {"type": "text", "text": text},
            {"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": GIF_B64}},
            {"type": "text", "text": bmp},
            {"type": "text", "text": mp3},
            {"type": "text", "text": link},
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": NOTES},
             "title": "file:///notes/today.txt"},
            {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF_B64},
             "title": "file:///reports/q3.pdf"},
            {"type": "text", "text": csv},
        ])
    );
    assert_eq!(
        r.responses["output"],
        json!([
            {"type": "input_text", "text": json},
            {"type": "input_text", "text": text},
            {"type": "input_image", "image_url": format!("data:image/gif;base64,{GIF_B64}"), "detail": "auto"},
            {"type": "input_text", "text": bmp},
            {"type": "input_text", "text": mp3},
            {"type": "input_text", "text": link},
            {"type": "input_text", "text": notes},
            {"type": "input_file", "filename": "q3.pdf", "file_data": pdf_url},
            {"type": "input_file", "filename": "orders.csv",
             "file_data": format!("data:text/csv;base64,{CSV_B64}")},
        ])
    );
    let lines = [json, text, gif, bmp, mp3, link, &notes, pdf, csv].join("\n");
    assert_eq!(
        r.chat,
        [
            tool_message("c8", &lines),
            json!({"role": "user", "content": [
                {"type": "text", "text": "Content of tool call 'c8' (mixed):"},
                {"type": "image_url", "image_url": {"url": format!("data:image/gif;base64,{GIF_B64}")}},
                {"type": "input_audio", "input_audio": {"data": MP3_B64, "format": "mp3"}},
                {"type": "file", "file": {"filename": "q3.pdf", "file_data": pdf_url}},
            ]}),
        ]
    );
    // Gemini's function responses take PNG, JPEG and WebP images, not GIF.
    let parts_text = [text, gif, bmp, mp3, link, &notes, pdf, csv].join("\n");
    assert_eq!(
        r.gemini["functionResponse"],
        json!({"id": "c8", "name": "mixed",
               "response": {"output": {"rows": 2}, "content": parts_text},
               "parts": [{"inlineData": {"mimeType": "application/pdf", "data": PDF_B64}}]})
    );
    // No output schema declared: no structured content, the JSON as text.
    assert_eq!(
        r.mcp,
        json!({"content": [
            {"type": "text", "text": json},
            {"type": "text", "text": text},
            {"type": "image", "data": GIF_B64, "mimeType": "image/gif"},
            {"type": "image", "data": "Qk0=", "mimeType": "image/bmp"},
            {"type": "audio", "data": MP3_B64, "mimeType": "audio/mpeg"},
            {"type": "resource_link", "uri": "https://files.example.com/q3.pdf", "name": "q3.pdf",
             "mimeType": "application/pdf", "description": "The third quarter's report"},
            {"type": "resource", "resource": {"uri": "file:///notes/today.txt",
             "mimeType": "text/plain", "text": NOTES}},
            {"type": "resource", "resource": {"uri": "file:///reports/q3.pdf",
             "mimeType": "application/pdf", "blob": PDF_B64}},
            {"type": "resource", "resource": {"uri": "file:///exports/orders.csv",
             "mimeType": "text/csv", "blob": CSV_B64}},
        ], "isError": false})
    );
}

// ---------------------------------------------------------------- failures and turns

#[test]
fn a_failure_keeps_the_error_text_shape() {
    let result = dispatch("c9", "failing");
    assert_eq!(result.error_kind(), Some(ErrorKind::Execution));
    // The tool's own error is for the operator; the model is told that the call failed.
    let text = result.to_model_content();
    assert_eq!(text, "Error: tool 'failing' failed.");
    let r = render(&result);
    assert_eq!(
        r.anthropic,
        json!({"type": "tool_result", "tool_use_id": "c9", "content": text, "is_error": true})
    );
    assert_eq!(
        r.responses,
        json!({"type": "function_call_output", "call_id": "c9", "output": text})
    );
    assert_eq!(r.chat, [tool_message("c9", &text)]);
    assert_eq!(
        r.gemini,
        json!({"functionResponse": {"id": "c9", "name": "failing", "response": {"error": text}}})
    );
    assert_eq!(
        r.mcp,
        json!({"content": [{"type": "text", "text": text}], "isError": true})
    );
}

/// A turn of five calls: OpenAI Chat answers each with a `tool` message, in call order, then
/// carries the image, audio and PDF in one `user` message, each after a line naming its call.
#[test]
fn openai_chat_carries_a_turns_media_in_one_user_message_after_the_tool_messages() {
    let calls = [
        ToolCall::new("call_a", "describe_weather", r#"{"city": "Paris"}"#),
        ToolCall::new("call_b", "screenshot", "{}"),
        ToolCall::new("call_c", "failing", "{}"),
        ToolCall::new("call_d", "record", "{}"),
        ToolCall::new("call_e", "report", "{}"),
    ];
    let results = block_on(executor().dispatch_all(&calls));
    let messages = openai_chat::results(&results);
    assert_eq!(messages.len(), 6);
    let ids: Vec<&Value> = messages[..5].iter().map(|m| &m["tool_call_id"]).collect();
    assert_eq!(ids, ["call_a", "call_b", "call_c", "call_d", "call_e"]);
    for (message, result) in messages.iter().zip(&results) {
        assert_eq!(message["role"], "tool");
        assert_eq!(message["content"], result.to_model_content());
    }
    let attachments = json!({"role": "user", "content": [
        {"type": "text", "text": "Content of tool call 'call_b' (screenshot):"},
        {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{PNG_B64}")}},
        {"type": "text", "text": "Content of tool call 'call_d' (record):"},
        {"type": "input_audio", "input_audio": {"data": WAV_B64, "format": "wav"}},
        {"type": "text", "text": "Content of tool call 'call_e' (report):"},
        {"type": "file", "file": {"filename": "q3.pdf",
                                  "file_data": format!("data:application/pdf;base64,{PDF_B64}")}},
    ]});
    assert_eq!(messages[5], attachments);
    assert_eq!(openai_chat::attachments(&results), Some(attachments));

    // Without media, no extra message.
    let plain = &results[..1];
    assert_eq!(openai_chat::attachments(plain), None);
    assert_eq!(openai_chat::results(plain).len(), 1);
    assert!(openai_chat::results(&[]).is_empty());
}

/// The call ids and the order of a turn's results are kept by every API's rendering.
#[test]
fn results_keep_their_order_and_call_ids() {
    let names = [
        "mixed",
        "failing",
        "describe_weather",
        "report",
        "screenshot",
    ];
    let calls: Vec<ToolCall> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let arguments = if *name == "describe_weather" {
                r#"{"city": "Paris"}"#
            } else {
                "{}"
            };
            ToolCall::new(format!("id-{i}"), *name, arguments)
        })
        .collect();
    let results = block_on(executor().dispatch_all(&calls));
    let ids: Vec<String> = (0..names.len()).map(|i| format!("id-{i}")).collect();

    let anthropic = anthropic::results(&results);
    assert_eq!(anthropic.len(), 1);
    let blocks = anthropic[0]["content"].as_array().unwrap();
    let got: Vec<&str> = blocks
        .iter()
        .map(|b| b["tool_use_id"].as_str().unwrap())
        .collect();
    assert_eq!(got, ids);
    assert_eq!(blocks[1]["is_error"], true);
    assert_eq!(blocks[2]["content"], SENTENCE);

    let items = openai_responses::results(&results);
    let got: Vec<&str> = items
        .iter()
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(got, ids);

    let contents = gemini::results(&results);
    let parts = contents[0]["parts"].as_array().unwrap();
    let got: Vec<(&str, &str)> = parts
        .iter()
        .map(|p| {
            let f = &p["functionResponse"];
            (f["id"].as_str().unwrap(), f["name"].as_str().unwrap())
        })
        .collect();
    let expected: Vec<(&str, &str)> = ids.iter().map(String::as_str).zip(names).collect();
    assert_eq!(got, expected);

    for (result, expected) in results.iter().zip(&ids) {
        assert_eq!(result.call_id(), expected);
        assert_eq!(anthropic::result(result)["tool_use_id"], expected.as_str());
    }
}

// ---------------------------------------------------------------- bounds, secrets, replays

#[test]
fn a_part_over_the_binary_limit_fails_the_call() {
    let result = dispatch("big", "huge");
    assert_eq!(result.error_kind(), Some(ErrorKind::Execution));
    let Some(Error::Execution(error)) = result.error() else {
        panic!("an execution error: {result:?}");
    };
    let cause = error
        .cause()
        .downcast_ref::<ContentTooLarge>()
        .expect("the cause is ContentTooLarge");
    assert_eq!((cause.bytes(), cause.limit()), (2048, 1024));
    assert!(result.content().is_empty());
    // Every API is told that the call failed, in its error shape.
    let r = render(&result);
    assert_eq!(r.anthropic["is_error"], true);
    assert!(r.anthropic["content"].is_string());
    assert!(r.responses["output"].is_string());
    assert_eq!(r.chat.len(), 1);
    assert!(r.gemini["functionResponse"]["response"]["error"].is_string());
    assert_eq!(r.mcp["isError"], true);
}

#[test]
fn a_secret_in_a_text_part_is_redacted_in_every_rendering() {
    let result = dispatch("s1", "leaky");
    assert!(result.is_success(), "{result:?}");
    assert_eq!(
        result.content()[0],
        Content::text("Signed in with [redacted].")
    );
    let r = render(&result);
    let renderings = [
        ("anthropic", r.anthropic),
        ("openai_responses", r.responses),
        ("openai_chat", Value::Array(r.chat)),
        ("gemini", r.gemini),
        ("mcp", r.mcp),
    ];
    for (api, rendering) in renderings {
        let text = rendering.to_string();
        assert!(!text.contains(SECRET), "{api} shows the secret: {text}");
        assert!(text.contains("Signed in with [redacted]."), "{api}: {text}");
    }
}

/// Whatever the size of a link's name and URI or of the structured output, what a renderer
/// writes of its own (descriptions, titles, file names, the output's JSON) stays bounded.
#[test]
fn what_a_renderer_writes_of_its_own_is_bounded() {
    struct Hostile(ToolSpec);
    impl Tool for Hostile {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        async fn execute(
            &self,
            _: &JsonObject,
            _: &ToolContext<'_>,
        ) -> Result<ToolOutput, BoxError> {
            let long = "x".repeat(200_000);
            Ok(ToolOutput::from(obj(json!({"blob": long})))
                .with(ResourceLink::new(format!("https://{long}"), long.clone()))
                .with(Content::audio(WAV, long.clone()))
                .with(Content::from(
                    EmbeddedResource::blob(format!("file:///{long}.pdf"), PDF)
                        .with_mime_type("application/pdf"),
                ))
                .with(Content::from(
                    EmbeddedResource::blob(format!("file:///{long}"), CSV).with_mime_type(long),
                )))
        }
    }
    let mut registry = ToolRegistry::new();
    registry.register(Hostile(spec("hostile"))).unwrap();
    let executor = ToolExecutor::new(registry);
    let result = block_on(executor.dispatch(&ToolCall::new("h1", "hostile", "{}")));
    assert!(result.is_success(), "{result:?}");
    let max = result.text_limits().max_content_bytes();

    // Each string the renderings hold, but the base64 data.
    fn strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::String(s) if !s.starts_with("data:") => out.push(s),
            Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            Value::Object(map) => map
                .iter()
                .filter(|(key, _)| !matches!(key.as_str(), "data" | "file_data"))
                .for_each(|(_, v)| strings(v, out)),
            _ => {}
        }
    }
    // Gemini's `response.output` is the tool's own output object, as the tool returned it.
    let mut gemini = gemini::result(&result);
    let output = gemini["functionResponse"]["response"]
        .as_object_mut()
        .unwrap()
        .remove("output");
    assert_eq!(output.as_ref(), result.output());
    let renderings = [
        anthropic::result(&result),
        openai_responses::result(&result),
        Value::Array(openai_chat::results(std::slice::from_ref(&result))),
        gemini,
    ];
    for rendering in &renderings {
        let mut found = Vec::new();
        strings(rendering, &mut found);
        for s in found {
            assert!(s.len() <= max, "{} bytes in {:.80}", s.len(), s);
        }
    }
    // The output's JSON is cut as in the model text; the descriptions are short.
    let blocks = renderings[0]["content"].as_array().unwrap();
    assert!(blocks[0]["text"].as_str().unwrap().contains("[truncated:"));
    for block in &blocks[1..] {
        if let Some(text) = block["text"].as_str() {
            assert!(text.len() < 1024, "{text:.100}");
        }
        if let Some(title) = block["title"].as_str() {
            assert!(title.len() < 1024, "{title:.100}");
        }
    }
    let items = renderings[1]["output"].as_array().unwrap();
    let file_names: Vec<&str> = items
        .iter()
        .filter_map(|item| item["filename"].as_str())
        .collect();
    assert_eq!(file_names.len(), 2);
    assert!(
        file_names.iter().all(|name| name.len() <= 130),
        "{file_names:?}"
    );
    assert!(file_names[0].ends_with(".pdf"));
    // A media type that is not one goes into a data: URL as application/octet-stream.
    assert!(
        items[4]["file_data"]
            .as_str()
            .unwrap()
            .starts_with("data:application/octet-stream;base64,")
    );
}

/// A recorded content result, saved as a JSON fixture and replayed, comes back with the
/// same parts, and every API is sent the same.
#[test]
fn a_recorded_content_result_replays_with_the_same_parts() {
    let recorder = ExecutionRecorder::new();
    let executor = ToolExecutor::builder(registry())
        .text_limits(TextLimits::default().with_max_binary_bytes(1024))
        .observer(recorder.clone())
        .build();
    let calls = [
        ToolCall::new("r1", "mixed", "{}"),
        ToolCall::new("r2", "screenshot", "{}"),
        ToolCall::new("r3", "describe_weather", r#"{"city": "Paris"}"#),
    ];
    let originals = block_on(executor.dispatch_all(&calls));

    let fixture = serde_json::to_string(&recorder.recordings()).unwrap();
    let recordings: Vec<Recording> = serde_json::from_str(&fixture).unwrap();
    let mixed = recordings.iter().find(|r| r.call_id == "r1").unwrap();
    let RecordedOutcome::Content { output, content } = &mixed.outcome else {
        panic!("parts are recorded as content: {:?}", mixed.outcome);
    };
    assert_eq!(output.as_ref(), originals[0].output());
    assert_eq!(content.as_slice(), originals[0].content());

    let replayer = ToolExecutor::builder(Replay::new(recordings).registry_for(&registry()))
        .text_limits(TextLimits::default().with_max_binary_bytes(1024))
        .build();
    let replayed = block_on(replayer.dispatch_all(&calls));
    for (original, replayed) in originals.iter().zip(&replayed) {
        assert!(replayed.is_success(), "{replayed:?}");
        assert_eq!(replayed.output(), original.output());
        assert_eq!(replayed.content(), original.content());
        let (a, b) = (render(original), render(replayed));
        assert_eq!(a.anthropic, b.anthropic);
        assert_eq!(a.responses, b.responses);
        assert_eq!(a.chat, b.chat);
        assert_eq!(a.gemini, b.gemini);
        assert_eq!(a.mcp, b.mcp);
    }
}

/// A part's names, URIs, descriptions and media types are the tool's text too: the secrets of
/// the call are scrubbed from them, unsafe characters escaped, their length cut, and a media
/// type that is not `type/subtype` becomes `application/octet-stream`, before any rendering
/// sees them.
#[test]
fn a_parts_names_uris_and_media_types_are_settled_before_any_rendering() {
    let leaky = ToolSpec::builder("leaky_parts")
        .credential("api-key")
        .build()
        .unwrap();
    let mut registry = ToolRegistry::new();
    registry
        .register(returns(leaky, |ctx| {
            let key = ctx.credential("api-key")?.expose().to_owned();
            let long = "y".repeat(100_000);
            Ok(ToolOutput::from(
                ResourceLink::new(
                    format!("https://example.com/?key={key}&{long}"),
                    format!("report {key}\u{202e}"),
                )
                .with_description(format!("made with {key}"))
                .with_mime_type("text/csv\r\nX-Injected: 1"),
            )
            .with(Content::image(PNG, "image/png; name=\"a\u{0}b\""))
            .with(Content::audio(WAV, "audio/wav"))
            .with(Content::from(
                EmbeddedResource::text(format!("file:///{key}/notes.txt"), "fine")
                    .with_mime_type("text/plain; charset=utf-8"),
            )))
        }))
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("api-key", SECRET))
        .build();
    let result = block_on(executor.dispatch(&ToolCall::new("m1", "leaky_parts", "{}")));
    assert!(result.is_success(), "{result:?}");
    let [
        Content::ResourceLink(link),
        Content::Image(image),
        Content::Audio(audio),
        Content::Resource(notes),
    ] = result.content()
    else {
        panic!("four parts: {:?}", result.content());
    };
    assert!(
        link.uri()
            .starts_with("https://example.com/?key=[redacted]&yyy"),
        "{}",
        link.uri()
    );
    assert!(link.uri().chars().count() <= 2_049, "{}", link.uri().len());
    assert!(link.uri().ends_with('…'));
    assert_eq!(link.name(), "report [redacted]\\u{202e}");
    assert_eq!(link.description(), Some("made with [redacted]"));
    assert_eq!(link.mime_type(), Some("application/octet-stream"));
    assert_eq!(image.mime_type(), "application/octet-stream");
    assert_eq!(audio.mime_type(), "audio/wav");
    assert_eq!(notes.uri(), "file:///[redacted]/notes.txt");
    assert_eq!(notes.mime_type(), Some("text/plain; charset=utf-8"));

    let r = render(&result);
    let renderings = [
        ("anthropic", r.anthropic),
        ("openai_responses", r.responses),
        ("openai_chat", Value::Array(r.chat)),
        ("gemini", r.gemini),
        ("mcp", mcp::result(&result, executor.registry())),
    ];
    for (api, rendering) in renderings {
        let text = rendering.to_string();
        assert!(!text.contains(SECRET), "{api} shows the secret");
        assert!(!text.contains("X-Injected"), "{api} keeps a bad media type");
        assert!(
            !text.contains('\u{202e}'),
            "{api} shows a raw bidi override"
        );
    }
}
