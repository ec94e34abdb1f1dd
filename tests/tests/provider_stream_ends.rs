//! How a streamed reply ends, in every API: a stream cut before its terminal event is a
//! `CutStream` keeping the calls that had completed, never a success; an error the provider
//! sends is a `ProviderError` with its code and message, bounded and escaped; a chunk the
//! decoder does not understand is an error, not a quiet success. And what OpenAI-compatible
//! servers send and the official SDK reads is read. (A part of `provider_stream`, for its
//! helpers.)

use agentkit_core::provider::{MAX_CODE_CHARS, MAX_MESSAGE_CHARS, ParseError};

use super::*;

/// The recorded-shaped stream of `api` (calls one after the other).
fn recorded(api: Api) -> Streamed {
    streamed(api, &[vec![5], vec![7], vec![9]], &[])
}

#[test]
fn a_stream_cut_at_any_event_before_its_terminal_event_is_cut_with_the_calls_completed() {
    for api in APIS {
        let streamed = recorded(api);
        let expected = calls_of(api, &streamed.finished);
        let terminal = streamed
            .events
            .iter()
            .position(|event| props::is_terminal(api, event))
            .unwrap();
        for end in 0..=terminal {
            let run = run(api, &streamed.events[..end]);
            let Err(StreamError::Cut(cut)) = &run.finished else {
                panic!("{api:?}: cut after {end} events: {:?}", run.finished)
            };
            // The calls whose completing event came before the cut.
            let before: Vec<ToolCall> = streamed
                .completes
                .iter()
                .zip(&expected)
                .filter(|(at, _)| **at < end)
                .map(|(_, call)| call.clone())
                .collect();
            assert_eq!(cut.completed(), before, "{api:?}: cut after {end}");
            assert_eq!(run.handed.concat(), before, "{api:?}: cut after {end}");
            assert_eq!(cut.api(), api_name(api));
            let message = StreamError::Cut(cut.clone()).to_string();
            assert!(message.contains("stream was cut"), "{message}");
        }
        // With its terminal event, the stream is whole.
        let run = run(api, &streamed.events[..=terminal]);
        assert_eq!(run.finished.unwrap(), expected, "{api:?}");
    }
}

fn api_name(api: Api) -> &'static str {
    match api {
        Api::Chat => "OpenAI Chat Completions",
        Api::Responses => "OpenAI Responses",
        Api::Anthropic => "Anthropic Messages",
        Api::Gemini => "Google Gemini",
    }
}

#[test]
fn a_cut_stream_names_the_calls_it_left_unfinished() {
    for api in APIS {
        let streamed = recorded(api);
        // Cut just before the first call completes: it had started.
        let run = run(api, &streamed.events[..streamed.completes[0]]);
        let Err(StreamError::Cut(cut)) = run.finished else {
            panic!("{api:?}")
        };
        assert!(cut.completed().is_empty(), "{api:?}");
        assert_eq!(cut.unfinished(), ["call_1"], "{api:?}");
    }
}

#[test]
fn openai_chat_ends_at_done_or_at_the_finish_reason() {
    let start = chat_start(json!(0), "a");
    let args = chat_args(0, "{}");
    // `[DONE]` alone (a server that sends no `finish_reason`) ends the stream.
    let mut stream = openai_chat::CallStream::new();
    stream.push(&start).unwrap();
    stream.push(&args).unwrap();
    stream.push_str("[DONE]").unwrap();
    assert_eq!(stream.finish().unwrap().len(), 1);
    // A `finish_reason` alone (a stream read by `push`, which sees no `[DONE]`) does too.
    let mut stream = openai_chat::CallStream::new();
    stream.push(&start).unwrap();
    stream.push(&args).unwrap();
    stream
        .push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
        .unwrap();
    assert_eq!(stream.finish().unwrap().len(), 1);
    // `[DONE]` with a call whose JSON never closed: malformed, not cut.
    let mut stream = openai_chat::CallStream::new();
    stream.push(&start).unwrap();
    stream.push(&chat_args(0, "{\"q\": ")).unwrap();
    stream.push_str("[DONE]").unwrap();
    let error = stream.finish().unwrap_err();
    assert_eq!(error.as_malformed().unwrap().path(), "call 'a'");
}

/// Each API's error, as it sends it, and the code and message it carries.
fn provider_errors(api: Api, message: &str) -> Vec<(Value, &'static str)> {
    match api {
        Api::Chat => vec![
            (
                json!({"error": {"message": message, "type": "server_error", "param": null, "code": null}}),
                "server_error",
            ),
            (
                json!({"error": {"message": message, "type": "invalid_request_error", "code": "context_length_exceeded"}}),
                "context_length_exceeded",
            ),
            (
                json!({"object": "error", "error": {"message": message, "code": 503}}),
                "503",
            ),
        ],
        Api::Responses => vec![
            (
                json!({"type": "error", "code": "server_error", "message": message, "param": null, "sequence_number": 3}),
                "server_error",
            ),
            (
                json!({"type": "error", "error": {"type": "invalid_request_error", "code": "rate_limit_exceeded", "message": message}}),
                "rate_limit_exceeded",
            ),
            (
                json!({"type": "response.failed", "sequence_number": 9, "response": {"id": "resp_1",
                       "status": "failed", "output": [],
                       "error": {"code": "server_error", "message": message}}}),
                "server_error",
            ),
            // The JSON body of an error status.
            (
                json!({"error": {"message": message, "type": "invalid_request_error", "code": "invalid_api_key"}}),
                "invalid_api_key",
            ),
        ],
        Api::Anthropic => vec![
            (
                json!({"type": "error", "error": {"type": "overloaded_error", "message": message}}),
                "overloaded_error",
            ),
            (
                json!({"type": "error", "error": {"type": "api_error", "message": message},
                       "request_id": "req_1"}),
                "api_error",
            ),
        ],
        Api::Gemini => vec![
            (
                json!({"error": {"code": 503, "message": message, "status": "UNAVAILABLE"}}),
                "UNAVAILABLE",
            ),
            (json!({"error": {"code": 429, "message": message}}), "429"),
        ],
    }
}

#[test]
fn a_provider_error_mid_stream_ends_it_with_the_providers_code_and_message() {
    for api in APIS {
        let streamed = recorded(api);
        let after_first_call = streamed.completes[0] + 1;
        for (error, code) in provider_errors(api, "The model is overloaded.") {
            let mut events = streamed.events[..after_first_call].to_vec();
            events.push(error.clone());
            events.extend(streamed.events[after_first_call..].iter().cloned());
            let run = run(api, &events);
            let Err(StreamError::Provider(provider)) = &run.finished else {
                panic!("{api:?}: {error}: {:?}", run.finished)
            };
            assert_eq!(provider.code(), code, "{api:?}: {error}");
            assert_eq!(provider.message(), "The model is overloaded.", "{api:?}");
            assert_eq!(provider.api(), api_name(api));
            assert_eq!(
                run.handed.len(),
                after_first_call,
                "{api:?}: the stream ends at the error"
            );
            assert!(
                run.finished
                    .as_ref()
                    .unwrap_err()
                    .to_string()
                    .contains(&format!("{code}: The model is overloaded.")),
                "{api:?}"
            );
        }
    }
}

#[test]
fn a_provider_error_as_the_whole_body_is_read_from_bytes() {
    // An error status's body: one JSON object, not an event stream.
    for api in APIS {
        let (error, code) = provider_errors(api, "no").pop().unwrap();
        let mut acc = Acc::new(api);
        let body = serde_json::to_vec_pretty(&error).unwrap();
        let mut result = Ok(Vec::new());
        for piece in body.chunks(3) {
            result = acc.push_bytes(piece);
            if result.is_err() {
                break;
            }
        }
        let Err(StreamError::Provider(provider)) = result else {
            panic!("{api:?}: {result:?}")
        };
        assert_eq!(provider.code(), code, "{api:?}");
        // And as an SSE event (`event: error`, as Anthropic and Responses name it).
        let mut acc = Acc::new(api);
        let body = format!("event: error\ndata: {error}\n\n");
        assert!(
            matches!(
                acc.push_bytes(body.as_bytes()),
                Err(StreamError::Provider(_))
            ),
            "{api:?}"
        );
    }
}

#[test]
fn a_providers_error_text_is_bounded_and_escaped() {
    let hostile = format!("line\nbreak \u{202e}reversed\u{0} {}", "m".repeat(100_000));
    let code = format!("code\r\n{}", "c".repeat(10_000));
    for api in APIS {
        for (mut error, _) in provider_errors(api, &hostile) {
            // Put the hostile code where this shape keeps its code.
            for place in [
                "/error/code",
                "/error/type",
                "/error/status",
                "/code",
                "/response/error/code",
            ] {
                if let Some(value) = error.pointer_mut(place)
                    && (value.is_string() || value.is_number())
                {
                    *value = json!(code);
                }
            }
            let mut acc = Acc::new(api);
            let error = acc.push(&error).unwrap_err();
            let StreamError::Provider(provider) = &error else {
                panic!("{api:?}: {error}")
            };
            let shown = error.to_string();
            assert!(
                shown.len() < 8 * (MAX_CODE_CHARS + MAX_MESSAGE_CHARS),
                "{api:?}: {}",
                shown.len()
            );
            for text in [shown.as_str(), provider.code(), provider.message()] {
                assert!(
                    !text.contains(['\n', '\r', '\u{202e}', '\u{0}']),
                    "{api:?}: {text:?}"
                );
            }
            assert!(
                provider.message().starts_with("line\\nbreak \\u{202e}"),
                "{api:?}"
            );
            assert!(provider.message().ends_with('…'), "{api:?}");
            assert!(provider.message().chars().count() < MAX_MESSAGE_CHARS + 50);
        }
    }
}

#[test]
fn a_chunk_the_decoder_does_not_understand_is_not_a_success() {
    let cases: Vec<(Api, Value)> = vec![
        // No candidates, no error, nothing else a Gemini chunk has.
        (Api::Gemini, json!({"candidatez": []})),
        (Api::Gemini, json!({})),
        // No choices, no usage, no error.
        (
            Api::Chat,
            json!({"id": "chatcmpl-1", "object": "chat.completion.chunk"}),
        ),
        (Api::Chat, json!({"detail": "Internal Server Error"})),
    ];
    for (api, chunk) in cases {
        let streamed = recorded(api);
        let mut events = streamed.events.clone();
        events.insert(2, chunk.clone());
        let run = run(api, &events);
        let error = run.finished.unwrap_err();
        assert_eq!(
            error.as_malformed().map(ParseError::path),
            Some("event 3"),
            "{api:?}: {chunk}: {error}"
        );
    }
    // A prompt Gemini blocked: a chunk with its feedback and no candidates.
    let mut stream = gemini::CallStream::new();
    let error = stream
        .push(&json!({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {}}))
        .unwrap_err();
    let StreamError::Provider(provider) = error else {
        panic!("{error}")
    };
    assert_eq!(provider.code(), "SAFETY");
    // Chunks with usage or metadata alone are read (and skipped).
    let mut stream = gemini::CallStream::new();
    stream
        .push(&json!({"usageMetadata": {"promptTokenCount": 3}, "modelVersion": "m"}))
        .unwrap();
    let mut stream = openai_chat::CallStream::new();
    stream
        .push(&json!({"choices": [], "usage": {"total_tokens": 3}}))
        .unwrap();
    stream.push(&json!({"usage": {"total_tokens": 3}})).unwrap();
}

#[test]
fn a_broken_stream_stays_broken() {
    let mut stream = openai_chat::CallStream::new();
    stream.push(&chat_start(json!(0), "a")).unwrap();
    let error = stream.push(&chat_args(7, "{")).unwrap_err();
    assert_eq!(stream.push(&chat_args(0, "{}")).unwrap_err(), error);
    assert_eq!(stream.finish().unwrap_err(), error);
}

#[test]
fn malformed_json_text_is_refused() {
    for api in APIS {
        let mut acc = Acc::new(api);
        let error = acc.push_str("{\"type\": ").unwrap_err();
        assert_eq!(error.as_malformed().unwrap().path(), "event 1", "{api:?}");
    }
}

// ------------------------------------------------------- what OpenAI-compatible servers send

#[test]
fn whitespace_after_the_arguments_closed_is_read() {
    for tail in [" ", "\n", "\r\n", "\t ", "  \n  "] {
        let mut stream = openai_chat::CallStream::new();
        stream.push(&chat_start(json!(0), "a")).unwrap();
        let done = stream.push(&chat_args(0, "{\"q\": 1}")).unwrap();
        assert_eq!(done[0].arguments().as_text(), Some("{\"q\": 1}"));
        // One fragment of whitespace, or several, then the finish reason.
        assert!(stream.push(&chat_args(0, tail)).unwrap().is_empty());
        assert!(stream.push(&chat_args(0, tail)).unwrap().is_empty());
        stream
            .push(&json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}))
            .unwrap();
        stream.push_str("[DONE]").unwrap();
        assert_eq!(stream.finish().unwrap(), done, "{tail:?}");
    }
    // Text after the close that is not whitespace still is refused.
    let mut stream = openai_chat::CallStream::new();
    stream.push(&chat_start(json!(0), "a")).unwrap();
    stream.push(&chat_args(0, "{}")).unwrap();
    let error = stream.push(&chat_args(0, "\n}")).unwrap_err();
    assert_eq!(
        error.as_malformed().unwrap().path(),
        "event 3: choices[0].delta.tool_calls[0].function.arguments"
    );
}

#[test]
fn a_name_in_fragments_is_joined() {
    let name = |index: u64, name: &str, arguments: &str| {
        chunk(json!([{"index": index, "function": {"name": name, "arguments": arguments}}]))
    };
    let first = |name: &str| {
        chunk(json!([{"index": 0, "id": "call_1", "type": "function",
                      "function": {"name": name, "arguments": ""}}]))
    };
    let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]});
    // In two fragments, in three, and repeated whole on every later fragment.
    let streams: Vec<Vec<Value>> = vec![
        vec![first("get_"), name(0, "weather", ""), chat_args(0, "{}")],
        vec![
            first("get"),
            name(0, "_wea", ""),
            name(0, "ther", "{"),
            chat_args(0, "}"),
        ],
        vec![
            first("get_"),
            name(0, "weather", ""),
            name(0, "get_weather", "{"),
            name(0, "get_weather", "}"),
        ],
        vec![first("get_weather"), name(0, "get_weather", "{}")],
    ];
    for events in streams {
        let mut run_events = events.clone();
        run_events.push(finish.clone());
        let run = run(Api::Chat, &run_events);
        let calls = run.finished.unwrap_or_else(|e| panic!("{events:?}: {e}"));
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].name(), "get_weather", "{events:?}");
        assert_eq!(calls[0].arguments().as_text(), Some("{}"));
    }
    // Once the arguments began, another name is another call's: refused.
    let run = run(
        Api::Chat,
        &[first("get_weather"), chat_args(0, "{"), name(0, "x", "")],
    );
    assert_eq!(
        run.finished.unwrap_err().as_malformed().unwrap().path(),
        "event 3: choices[0].delta.tool_calls[0].function.name"
    );
}
