//! Tools that return more than JSON, and what each model API is sent for them.
//!
//! `screenshot` returns a sentence and a PNG; `quarterly_report` returns its figures, the
//! report as an embedded PDF, and a link to the full CSV export. One model turn calls both;
//! the results are printed as each API's module renders them (base64 data shortened):
//!
//! ```sh
//! cargo run --example content_parts
//! ```
//!
//! Where an API takes a part, it gets the part itself (Anthropic `image` and `document`
//! blocks, OpenAI Responses `input_image` and `input_file`, Gemini `inlineData`, MCP content
//! blocks); what it cannot take is described in text. OpenAI Chat's `tool` messages are text,
//! so the image and the PDF follow in one `user` message.

use agentkit_core::provider::{anthropic, gemini, mcp, openai_chat, openai_responses};
use agentkit_core::serde_json::{Value, json};
use agentkit_core::{
    BoxError, Content, EmbeddedResource, ResourceLink, ToolCall, ToolContext, ToolExecutor,
    ToolHandler, ToolOutput, ToolRegistry, block_on, tool,
};

/// A 1x1 transparent PNG: the signature, then the IHDR, IDAT and IEND chunks.
const PIXEL_PNG: [u8; 67] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, // signature
    0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, // IHDR, 13 bytes:
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, //   1x1
    0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, //   8-bit RGBA; CRC
    0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, // IDAT, 10 bytes:
    0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, //   zlib of one pixel
    0x0D, 0x0A, 0x2D, 0xB4, // CRC
    0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82, // IEND
];

/// A blank one-page PDF: three objects, then the table of their byte offsets.
const BLANK_PDF: &str = concat!(
    "%PDF-1.4\n",
    "1 0 obj<</Type/Catalog/Pages 2 0 R>> endobj\n",
    "2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n",
    "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>> endobj\n",
    "xref\n0 4\n",
    "0000000000 65535 f \n",
    "0000000009 00000 n \n",
    "0000000053 00000 n \n",
    "0000000103 00000 n \n",
    "trailer<</Size 4/Root 1 0 R>>\nstartxref\n167\n%%EOF\n",
);

/// Take a screenshot of a web page.
#[tool(name = "screenshot", input = [{ name = "url", type = string }], output = ToolOutput)]
struct Screenshot;

impl ToolHandler for Screenshot {
    async fn run(
        &self,
        input: ScreenshotInput,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let image = Content::image(PIXEL_PNG.to_vec(), "image/png");
        Ok(ToolOutput::from(format!("The page at {}:", input.url)).with(image))
    }
}

/// A quarter's sales figures, with the report and the full export.
#[tool(name = "quarterly_report", input = [{ name = "quarter", type = integer }], output = ToolOutput)]
struct QuarterlyReport;

impl ToolHandler for QuarterlyReport {
    async fn run(
        &self,
        input: QuarterlyReportInput,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        let q = input.quarter;
        let Value::Object(figures) = json!({"quarter": q, "orders": 1284, "revenue_eur": 96_310.5})
        else {
            unreachable!("a JSON object")
        };
        let report =
            EmbeddedResource::blob(format!("file:///reports/q{q}.pdf"), BLANK_PDF.as_bytes())
                .with_mime_type("application/pdf");
        let export = ResourceLink::new(
            format!("https://example.com/exports/q{q}.csv"),
            format!("q{q}.csv"),
        )
        .with_mime_type("text/csv");
        Ok(ToolOutput::from(figures).with(report).with(export))
    }
}

/// `value` with its binary data (base64 and `data:` URLs) shortened.
fn shortened(value: Value) -> Value {
    let short = |s: String| {
        let head: String = s.chars().take(32).collect();
        Value::String(format!("{head}…({} chars)", s.len()))
    };
    match value {
        Value::String(s) if s.starts_with("data:") => short(s),
        Value::Array(items) => Value::Array(items.into_iter().map(shortened).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| match value {
                    Value::String(s) if key == "data" || key == "blob" => (key, short(s)),
                    value => (key, shortened(value)),
                })
                .collect(),
        ),
        other => other,
    }
}

fn main() -> Result<(), BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(Screenshot)?;
    registry.register(QuarterlyReport)?;
    let executor = ToolExecutor::new(registry);

    // The model's calls (here written out), dispatched together; results in call order.
    let calls = [
        ToolCall::new(
            "call_1",
            "screenshot",
            r#"{"url": "https://example.com/login"}"#,
        ),
        ToolCall::new("call_2", "quarterly_report", r#"{"quarter": 3}"#),
    ];
    let results = block_on(executor.dispatch_all(&calls));

    let mcp: Vec<Value> = results
        .iter()
        .map(|result| mcp::result(result, executor.registry()))
        .collect();
    let sent = [
        ("Anthropic Messages", anthropic::results(&results)),
        ("OpenAI Responses", openai_responses::results(&results)),
        ("OpenAI Chat Completions", openai_chat::results(&results)),
        ("Gemini", gemini::results(&results)),
        ("MCP (a CallToolResult per call)", mcp),
    ];
    for (api, messages) in sent {
        println!("== {api}");
        for message in messages {
            println!("{}", shortened(message));
        }
        println!();
    }
    Ok(())
}
