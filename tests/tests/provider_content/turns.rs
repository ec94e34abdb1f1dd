//! Failures and turns: error text, media after tool messages, order and call ids.

use super::*;

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
