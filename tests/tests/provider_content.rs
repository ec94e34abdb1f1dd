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

mod bounds;
mod parts;
mod turns;
