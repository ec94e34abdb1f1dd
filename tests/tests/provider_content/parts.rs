//! One kind of part at a time, and mixed parts, rendered for every API.

use super::*;

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
