//! Streamed replies: what each API's `CallStream` costs on a reply of 32 tool calls (each
//! call's arguments in four fragments, with text and other events between, as the APIs send
//! them), three ways, in the same run:
//!
//! - `push`: the events already parsed (`serde_json::Value`s): the decoder alone;
//! - `push_str`: each event's `data:` text, parsed by the decoder;
//! - `push_bytes`: the HTTP body (server-sent events; for Gemini also its JSON array), in
//!   pieces of 1 460 bytes (one TCP segment), framed by the decoder.
//!
//! `push_bytes` against `push_str` is what framing costs. Run with
//! `cargo bench -p agentkit-core --bench streams`.

use agentkit_core::provider::{anthropic, gemini, openai_chat, openai_responses};
use divan::{Bencher, black_box};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

const CALLS: usize = 32;
const PIECE: usize = 1460;

/// One call's arguments, cut into four fragments.
fn fragments(n: usize) -> (String, Vec<String>) {
    let args = json!({"city": format!("Zürich {n}"), "units": "metric", "days": n % 7,
                      "note": "a longer text, as models write, with \"quotes\" and {braces}"})
    .to_string();
    let cut = [
        0,
        args.len() / 4,
        args.len() / 2,
        3 * args.len() / 4,
        args.len(),
    ];
    let cut: Vec<usize> = cut
        .iter()
        .map(|&at| {
            let mut at = at;
            while !args.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .collect();
    let pieces = cut
        .windows(2)
        .map(|w| args[w[0]..w[1]].to_owned())
        .collect();
    (args, pieces)
}

fn chat_events() -> Vec<Value> {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "gpt-4.1",
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": "Checking."}),
        Value::Null,
    )];
    for n in 0..CALLS {
        let (_, pieces) = fragments(n);
        events.push(chunk(
            json!({"tool_calls": [{"index": n, "id": format!("call_{n}"), "type": "function",
                                   "function": {"name": "fetch_weather", "arguments": ""}}]}),
            Value::Null,
        ));
        for piece in pieces {
            events.push(chunk(
                json!({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}),
                Value::Null,
            ));
        }
    }
    events.push(chunk(json!({}), json!("tool_calls")));
    events
}

fn anthropic_events() -> Vec<Value> {
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
               "role": "assistant", "content": [], "stop_reason": null}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    for n in 0..CALLS {
        let (_, pieces) = fragments(n);
        events.push(json!({"type": "content_block_start", "index": n + 1,
            "content_block": {"type": "tool_use", "id": format!("toolu_{n}"),
                              "name": "fetch_weather", "input": {}}}));
        for piece in pieces {
            events.push(json!({"type": "content_block_delta", "index": n + 1,
                "delta": {"type": "input_json_delta", "partial_json": piece}}));
        }
        events.push(json!({"type": "content_block_stop", "index": n + 1}));
    }
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}));
    events.push(json!({"type": "message_stop"}));
    events
}

fn responses_events() -> Vec<Value> {
    let item = |n: usize, arguments: &str| {
        json!({"type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
               "name": "fetch_weather", "arguments": arguments})
    };
    let mut events =
        vec![json!({"type": "response.created", "response": {"id": "resp_1", "output": []}})];
    let mut output = Vec::new();
    for n in 0..CALLS {
        let (args, pieces) = fragments(n);
        events.push(
            json!({"type": "response.output_item.added", "output_index": n, "item": item(n, "")}),
        );
        for piece in pieces {
            events.push(json!({"type": "response.function_call_arguments.delta",
                "item_id": format!("fc_{n}"), "output_index": n, "delta": piece}));
        }
        events.push(json!({"type": "response.function_call_arguments.done",
            "item_id": format!("fc_{n}"), "output_index": n, "arguments": args}));
        events.push(
            json!({"type": "response.output_item.done", "output_index": n, "item": item(n, &args)}),
        );
        output.push(item(n, &args));
    }
    events.push(
        json!({"type": "response.completed", "response": {"id": "resp_1", "output": output}}),
    );
    events
}

fn gemini_events() -> Vec<Value> {
    let chunk = |parts: Value, finish: Option<&str>| {
        let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
        if let Some(reason) = finish {
            candidate["finishReason"] = json!(reason);
        }
        json!({"candidates": [candidate], "modelVersion": "gemini-3-flash-preview"})
    };
    let mut events = vec![chunk(json!([{"text": "Checking."}]), None)];
    for n in 0..CALLS {
        let (args, _) = fragments(n);
        let args: Value = serde_json::from_str(&args).unwrap();
        events.push(chunk(
            json!([{"functionCall": {"id": format!("fc_{n}"), "name": "fetch_weather", "args": args}}]),
            None,
        ));
    }
    events.push(chunk(json!([{"text": ""}]), Some("STOP")));
    events
}

/// The server-sent event body of `events` (with `event:` lines where the API names events).
fn sse(events: &[Value], done: bool) -> Vec<u8> {
    let mut body = String::new();
    for event in events {
        if let Some(kind) = event["type"].as_str() {
            body.push_str(&format!("event: {kind}\r\n"));
        }
        body.push_str(&format!("data: {event}\r\n\r\n"));
    }
    if done {
        body.push_str("data: [DONE]\r\n\r\n");
    }
    body.into_bytes()
}

struct Reply {
    events: Vec<Value>,
    texts: Vec<String>,
    body: Vec<u8>,
}

fn reply(events: Vec<Value>, done: bool) -> Reply {
    let texts = events.iter().map(Value::to_string).collect();
    let body = sse(&events, done);
    Reply {
        events,
        texts,
        body,
    }
}

macro_rules! api {
    ($name:ident, $module:ident, $events:ident, $done:expr) => {
        mod $name {
            use super::*;

            #[divan::bench]
            fn push(bencher: Bencher<'_, '_>) {
                let reply = reply($events(), $done);
                bencher.bench_local(|| {
                    let mut stream = $module::CallStream::new();
                    for event in &reply.events {
                        black_box(stream.push(event).unwrap());
                    }
                    stream.finish().unwrap().len()
                });
            }

            #[divan::bench]
            fn push_str(bencher: Bencher<'_, '_>) {
                let reply = reply($events(), $done);
                bencher.bench_local(|| {
                    let mut stream = $module::CallStream::new();
                    for text in &reply.texts {
                        black_box(stream.push_str(text).unwrap());
                    }
                    stream.finish().unwrap().len()
                });
            }

            #[divan::bench]
            fn push_bytes(bencher: Bencher<'_, '_>) {
                let reply = reply($events(), $done);
                bencher.bench_local(|| {
                    let mut stream = $module::CallStream::new();
                    for piece in reply.body.chunks(PIECE) {
                        black_box(stream.push_bytes(piece).unwrap());
                    }
                    stream.finish().unwrap().len()
                });
            }
        }
    };
}

api!(chat, openai_chat, chat_events, true);
api!(responses, openai_responses, responses_events, false);
api!(messages, anthropic, anthropic_events, false);
api!(generate, gemini, gemini_events, false);

/// Gemini's JSON array (`streamGenerateContent` without `alt=sse`), framed.
#[divan::bench]
fn gemini_json_array(bencher: Bencher<'_, '_>) {
    let body = serde_json::to_vec(&Value::Array(gemini_events())).unwrap();
    bencher.bench_local(|| {
        let mut stream = gemini::CallStream::new();
        for piece in body.chunks(PIECE) {
            black_box(stream.push_bytes(piece).unwrap());
        }
        stream.finish().unwrap().len()
    });
}
