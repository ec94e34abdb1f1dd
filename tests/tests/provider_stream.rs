//! Streamed replies: each API's `CallStream` hands out the calls of a recorded-shaped stream
//! as they complete, equal to `calls(..)` of the finished reply; any split of the fragments
//! gives the same calls; a malformed or hostile stream is a `ParseError`, never a panic or a
//! call lost.

use agentkit_core::ToolCall;
use agentkit_core::provider::{StreamError, anthropic, gemini, openai_chat, openai_responses};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::provider_fixtures::streams::{self, Streamed};

/// The APIs' accumulators behind one face, for tests that run over all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Chat,
    Responses,
    Anthropic,
    Gemini,
}

const APIS: [Api; 4] = [Api::Chat, Api::Responses, Api::Anthropic, Api::Gemini];

enum Acc {
    Chat(openai_chat::CallStream),
    Responses(openai_responses::CallStream),
    Anthropic(anthropic::CallStream),
    Gemini(gemini::CallStream),
}

impl Acc {
    fn new(api: Api) -> Self {
        match api {
            Api::Chat => Acc::Chat(Default::default()),
            Api::Responses => Acc::Responses(Default::default()),
            Api::Anthropic => Acc::Anthropic(Default::default()),
            Api::Gemini => Acc::Gemini(Default::default()),
        }
    }

    fn push(&mut self, event: &Value) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Acc::Chat(s) => s.push(event),
            Acc::Responses(s) => s.push(event),
            Acc::Anthropic(s) => s.push(event),
            Acc::Gemini(s) => s.push(event),
        }
    }

    fn push_str(&mut self, data: &str) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Acc::Chat(s) => s.push_str(data),
            Acc::Responses(s) => s.push_str(data),
            Acc::Anthropic(s) => s.push_str(data),
            Acc::Gemini(s) => s.push_str(data),
        }
    }

    fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Acc::Chat(s) => s.push_bytes(bytes),
            Acc::Responses(s) => s.push_bytes(bytes),
            Acc::Anthropic(s) => s.push_bytes(bytes),
            Acc::Gemini(s) => s.push_bytes(bytes),
        }
    }

    fn completed(&self) -> Vec<ToolCall> {
        match self {
            Acc::Chat(s) => s.completed().cloned().collect(),
            Acc::Responses(s) => s.completed().cloned().collect(),
            Acc::Anthropic(s) => s.completed().cloned().collect(),
            Acc::Gemini(s) => s.completed().cloned().collect(),
        }
    }

    fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Acc::Chat(s) => s.finish(),
            Acc::Responses(s) => s.finish(),
            Acc::Anthropic(s) => s.finish(),
            Acc::Gemini(s) => s.finish(),
        }
    }
}

fn calls_of(api: Api, finished: &Value) -> Vec<ToolCall> {
    match api {
        Api::Chat => openai_chat::calls(finished),
        Api::Responses => openai_responses::calls(finished),
        Api::Anthropic => anthropic::calls(finished),
        Api::Gemini => gemini::calls(finished),
    }
    .expect("the finished reply has the documented shape")
}

/// The recorded-shaped stream of `api`, its calls' fragments cut at `cuts` and interleaved
/// by `order` where the API allows it.
fn streamed(api: Api, cuts: &[Vec<usize>], order: &[usize]) -> Streamed {
    let calls = streams::calls();
    match api {
        Api::Chat => streams::openai_chat(&calls, cuts, order),
        Api::Responses => streams::openai_responses(&calls, cuts, order),
        Api::Anthropic => streams::anthropic(&calls, cuts, order),
        Api::Gemini => streams::vertex(&calls, cuts),
    }
}

/// Everything a run of `events` gives: the calls each event handed out, and `finish`.
struct Run {
    handed: Vec<Vec<ToolCall>>,
    finished: Result<Vec<ToolCall>, StreamError>,
}

fn run(api: Api, events: &[Value]) -> Run {
    let mut acc = Acc::new(api);
    let mut handed = Vec::new();
    for event in events {
        match acc.push(event) {
            Ok(calls) => handed.push(calls),
            Err(error) => {
                return Run {
                    handed,
                    finished: Err(error),
                };
            }
        }
    }
    Run {
        handed,
        finished: acc.finish(),
    }
}

/// The calls handed out over the stream equal `finish()` and the finished reply's calls, and
/// each was handed out by the event that completed it.
fn assert_streams_as_finished(api: Api, streamed: &Streamed) {
    let expected = calls_of(api, &streamed.finished);
    assert_eq!(expected.len(), 3, "{api:?}");
    let run = run(api, &streamed.events);
    let finished = run.finished.unwrap_or_else(|e| panic!("{api:?}: {e}"));
    assert_eq!(finished, expected, "{api:?}");
    let mut handed: Vec<(usize, ToolCall)> = run
        .handed
        .iter()
        .enumerate()
        .flat_map(|(n, calls)| calls.iter().map(move |call| (n, call.clone())))
        .collect();
    handed.sort_by_key(|(_, call)| expected.iter().position(|c| c == call));
    let calls: Vec<ToolCall> = handed.iter().map(|(_, call)| call.clone()).collect();
    assert_eq!(calls, expected, "{api:?}: handed out over the stream");
    let by: Vec<usize> = handed.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        by, streamed.completes,
        "{api:?}: the events that completed the calls"
    );
}

#[test]
fn openai_chat_streams_the_calls_of_the_finished_reply() {
    // Calls one after the other, as OpenAI sends them; then parallel calls interleaved.
    let cuts = [vec![3, 9, 17], vec![5, 12, 20, 26], vec![1, 30]];
    assert_streams_as_finished(Api::Chat, &streamed(Api::Chat, &cuts, &[]));
    assert_streams_as_finished(
        Api::Chat,
        &streamed(Api::Chat, &cuts, &[1, 0, 1, 1, 0, 2, 0, 1]),
    );
}

#[test]
fn openai_responses_streams_the_calls_of_the_finished_response() {
    let cuts = [vec![4, 11], vec![2, 22], vec![15]];
    assert_streams_as_finished(Api::Responses, &streamed(Api::Responses, &cuts, &[]));
    assert_streams_as_finished(
        Api::Responses,
        &streamed(Api::Responses, &cuts, &[1, 1, 0, 1]),
    );
}

#[test]
fn anthropic_streams_the_calls_of_the_finished_message() {
    let cuts = [vec![0, 1, 8], vec![10], vec![3, 6, 40]];
    assert_streams_as_finished(Api::Anthropic, &streamed(Api::Anthropic, &cuts, &[]));
    assert_streams_as_finished(Api::Anthropic, &streamed(Api::Anthropic, &cuts, &[1, 1, 1]));
}

#[test]
fn gemini_streams_the_calls_of_the_finished_reply() {
    let calls = streams::calls();
    // Each call whole, in chunks of one and of two calls (the Gemini API)...
    assert_streams_as_finished(Api::Gemini, &streams::gemini(&calls, &[0]));
    assert_streams_as_finished(Api::Gemini, &streams::gemini(&calls, &[0, 1]));
    // ...and arguments in pieces (Vertex AI's `streamFunctionCallArguments`).
    let cuts = [vec![2], vec![1, 4, 9], vec![]];
    assert_streams_as_finished(Api::Gemini, &streams::vertex(&calls, &cuts));
}

#[test]
fn gemini_generates_the_ids_calls_gives_calls_without_one() {
    let mut stream = gemini::CallStream::new();
    let part = |name: &str| {
        json!({"candidates": [{"content": {"role": "model",
        "parts": [{"functionCall": {"name": name, "args": {}}}]}}]})
    };
    let first = stream.push(&part("a")).unwrap();
    let second = stream.push(&part("b")).unwrap();
    stream
        .push(&json!({"candidates": [{"finishReason": "STOP"}]}))
        .unwrap();
    let finished = json!({"role": "model", "parts": [
        {"functionCall": {"name": "a", "args": {}}}, {"functionCall": {"name": "b", "args": {}}}]});
    assert_eq!([first, second].concat(), gemini::calls(&finished).unwrap());
    assert_eq!(stream.finish().unwrap()[1].id(), "agentkit-gemini-1");
}

#[test]
fn the_first_call_is_handed_out_before_the_stream_ends() {
    for api in APIS {
        let streamed = streamed(api, &[vec![5], vec![7], vec![9]], &[]);
        let run = run(api, &streamed.events);
        let first = run
            .handed
            .iter()
            .position(|calls| !calls.is_empty())
            .unwrap();
        assert_eq!(first, streamed.completes[0], "{api:?}");
        assert!(first + 2 < streamed.events.len(), "{api:?}: {first}");
        assert_eq!(run.handed[first][0].id(), "call_1", "{api:?}");
    }
}

#[test]
fn raw_event_text_is_read_and_openai_chats_done_is_skipped() {
    for api in APIS {
        let streamed = streamed(api, &[vec![5], vec![7], vec![9]], &[]);
        let mut acc = Acc::new(api);
        let mut handed = Vec::new();
        for event in &streamed.events {
            handed.extend(acc.push_str(&format!(" {event}\n")).unwrap());
        }
        assert!(acc.push_str("").unwrap().is_empty(), "{api:?}");
        if api == Api::Chat {
            assert!(acc.push_str("[DONE]").unwrap().is_empty());
        }
        assert_eq!(acc.completed(), handed, "{api:?}");
        assert_eq!(
            acc.finish().unwrap(),
            calls_of(api, &streamed.finished),
            "{api:?}"
        );
    }
}

#[test]
fn a_call_without_arguments_completes_at_the_finish_reason() {
    let chunk = |delta: Value, finish: Value| json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let mut stream = openai_chat::CallStream::new();
    let start = chunk(
        json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                               "function": {"name": "get_time", "arguments": ""}}]}),
        Value::Null,
    );
    assert!(stream.push(&start).unwrap().is_empty());
    let done = stream.push(&chunk(json!({}), json!("tool_calls"))).unwrap();
    let finished = json!({"tool_calls": [{"id": "call_1", "type": "function",
                                          "function": {"name": "get_time", "arguments": ""}}]});
    assert_eq!(done, openai_chat::calls(&finished).unwrap());
}

#[test]
fn several_calls_in_one_chunk_come_out_in_index_order() {
    let mut stream = openai_chat::CallStream::new();
    let calls = stream
        .push(&json!({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 1, "id": "b", "type": "function", "function": {"name": "t", "arguments": "{}"}},
            {"index": 0, "id": "a", "type": "function", "function": {"name": "t", "arguments": "{}"}},
        ]}}]}))
        .unwrap();
    let ids: Vec<&str> = calls.iter().map(ToolCall::id).collect();
    assert_eq!(ids, ["a", "b"]);
}

#[test]
fn anthropic_input_that_is_not_json_goes_on_as_text_for_the_executor() {
    let mut stream = anthropic::CallStream::new();
    for event in [
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "tool_use", "id": "t1", "name": "x", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": "{\"a\": tru"}}),
    ] {
        stream.push(&event).unwrap();
    }
    let calls = stream
        .push(&json!({"type": "content_block_stop", "index": 0}))
        .unwrap();
    assert_eq!(calls[0].arguments().as_text(), Some("{\"a\": tru"));
}

// ------------------------------------------------------------------------ malformed streams

/// Each malformed stream, the path of its error, and whether `finish` (not a push) fails.
fn assert_refused(api: Api, events: &[Value], path: &str) {
    let run = run(api, events);
    let error = run.finished.expect_err(path);
    let error = error
        .as_malformed()
        .unwrap_or_else(|| panic!("{api:?}: {path}: {error}"));
    assert_eq!(error.path(), path, "{api:?}: {error}");
    assert!(error.to_string().starts_with("malformed "), "{error}");
}

fn chunk(tool_calls: Value) -> Value {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": tool_calls}}]})
}

fn chat_start(index: Value, id: &str) -> Value {
    chunk(json!([{"index": index, "id": id, "type": "function",
                  "function": {"name": "t", "arguments": ""}}]))
}

fn chat_args(index: u64, text: &str) -> Value {
    chunk(json!([{"index": index, "function": {"arguments": text}}]))
}

#[test]
fn openai_chat_refuses_malformed_streams() {
    let finish = json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
    let cases: Vec<(Vec<Value>, &str)> = vec![
        (
            vec![chat_args(0, "{")],
            "event 1: choices[0].delta.tool_calls[0].id",
        ),
        (
            vec![chat_start(json!("0"), "a")],
            "event 1: choices[0].delta.tool_calls[0].index",
        ),
        (
            vec![chat_start(json!(-1), "a")],
            "event 1: choices[0].delta.tool_calls[0].index",
        ),
        (
            vec![chat_start(json!(0), "a"), chat_start(json!(1), "a")],
            "event 2: choices[0].delta.tool_calls[0].id",
        ),
        (
            vec![chat_start(json!(0), "a"), chat_start(json!(0), "b")],
            "event 2: choices[0].delta.tool_calls[0].id",
        ),
        (
            vec![
                chat_start(json!(0), "a"),
                chat_args(0, "{}"),
                chat_args(0, " \n"),
                chat_args(0, " }"),
            ],
            "event 4: choices[0].delta.tool_calls[0].function.arguments",
        ),
        (
            vec![
                chat_start(json!(0), "a"),
                chat_args(0, "{"),
                chunk(json!([{"index": 0, "function": {"name": "u"}}])),
            ],
            "event 3: choices[0].delta.tool_calls[0].function.name",
        ),
        (
            vec![chat_start(json!(0), "a"), finish.clone(), chat_args(0, "")],
            "event 3: choices[0].delta.tool_calls",
        ),
        (
            vec![json!({"id": "chatcmpl-1", "object": "chat.completion.chunk"})],
            "event 1",
        ),
        (
            vec![json!({"choices": [{"index": 0, "delta": {"tool_calls": {}}}]})],
            "event 1: choices[0].delta.tool_calls",
        ),
        (vec![json!([])], "event 1"),
    ];
    for (events, path) in cases {
        assert_refused(Api::Chat, &events, path);
    }
}

#[test]
fn openai_responses_refuses_malformed_streams() {
    let added = |index: u64, call_id: &str| {
        json!({"type": "response.output_item.added",
        "output_index": index, "item": {"type": "function_call", "id": format!("fc_{index}"),
        "call_id": call_id, "name": "t", "arguments": ""}})
    };
    let delta = |index: u64, item: &str| {
        json!({"type": "response.function_call_arguments.delta",
        "output_index": index, "item_id": item, "delta": "{}"})
    };
    let done = json!({"type": "response.function_call_arguments.done", "output_index": 0,
                      "item_id": "fc_0", "arguments": "{}"});
    let completed = |output: Value| {
        json!({"type": "response.completed",
                                          "response": {"output": output}})
    };
    let cases: Vec<(Vec<Value>, &str)> = vec![
        (vec![delta(0, "fc_0")], "event 1: output_index"),
        (vec![added(0, "a"), delta(0, "fc_9")], "event 2: item_id"),
        (vec![added(0, "a"), added(1, "a")], "event 2: item.call_id"),
        (vec![added(0, "a"), added(0, "b")], "event 2: output_index"),
        (
            vec![added(0, "a"), done.clone(), delta(0, "fc_0")],
            "event 3: output_index",
        ),
        (
            vec![added(0, "a"), done.clone(), completed(json!([]))],
            "event 3: response.output",
        ),
        (
            vec![
                added(0, "a"),
                done.clone(),
                completed(json!([{"type": "function_call",
            "call_id": "a", "name": "t", "arguments": "{\"x\": 1}"}])),
            ],
            "event 3: response.output[0]",
        ),
        (
            vec![added(0, "a"), delta(0, "fc_0"), completed(json!([]))],
            "event 3: response.output",
        ),
    ];
    for (events, path) in cases {
        assert_refused(Api::Responses, &events, path);
    }
}

#[test]
fn anthropic_refuses_malformed_streams() {
    let start = |index: u64, id: &str| {
        json!({"type": "content_block_start", "index": index,
        "content_block": {"type": "tool_use", "id": id, "name": "t", "input": {}}})
    };
    let delta = |index: u64| {
        json!({"type": "content_block_delta", "index": index,
        "delta": {"type": "input_json_delta", "partial_json": "{}"}})
    };
    let stop = |index: u64| json!({"type": "content_block_stop", "index": index});
    let cases: Vec<(Vec<Value>, &str)> = vec![
        (vec![delta(0)], "event 1: index"),
        (vec![start(0, "a"), start(0, "b")], "event 2: content_block"),
        (
            vec![start(0, "a"), start(1, "a")],
            "event 2: content_block.id",
        ),
        (vec![start(0, "a"), stop(0), delta(0)], "event 3: index"),
        (vec![start(0, "a"), stop(0), stop(0)], "event 3: index"),
        (
            vec![start(0, "a"), stop(0), start(0, "b")],
            "event 3: content_block",
        ),
        (
            vec![json!({"type": "message_stop"}), start(0, "a")],
            "event 2: type",
        ),
        (
            vec![
                start(0, "a"),
                json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": 5}}),
            ],
            "event 2: delta.partial_json",
        ),
        (
            vec![start(0, "a"), delta(0), json!({"type": "message_stop"})],
            "call 'a'",
        ),
    ];
    for (events, path) in cases {
        assert_refused(Api::Anthropic, &events, path);
    }
}

#[test]
fn gemini_refuses_malformed_streams() {
    let part =
        |call: Value| json!({"candidates": [{"content": {"parts": [{"functionCall": call}]}}]});
    let piece = |path: &str| {
        part(json!({"willContinue": true,
        "partialArgs": [{"jsonPath": path, "stringValue": "x"}]}))
    };
    let start = part(json!({"name": "t", "id": "a", "willContinue": true}));
    let at = "candidates[0].content.parts[0].functionCall";
    let cases: Vec<(Vec<Value>, String)> = vec![
        (vec![piece("$.a")], format!("event 1: {at}.name")),
        (
            vec![
                start.clone(),
                part(json!({"name": "u", "willContinue": true})),
            ],
            format!("event 2: {at}.name"),
        ),
        (
            vec![
                part(json!({"name": "t", "id": "a"})),
                part(json!({"name": "t", "id": "a"})),
            ],
            format!("event 2: {at}.id"),
        ),
        (
            vec![start.clone(), piece("a.b")],
            format!("event 2: {at}.partialArgs[0].jsonPath"),
        ),
        (
            vec![start.clone(), piece("$[0]")],
            format!("event 2: {at}.partialArgs[0].jsonPath"),
        ),
        (
            vec![start.clone(), piece("$.a[5]")],
            format!("event 2: {at}.partialArgs[0].jsonPath"),
        ),
        (
            vec![start.clone(), piece("$.a"), piece("$.a.b")],
            format!("event 3: {at}.partialArgs[0].jsonPath"),
        ),
        (
            vec![part(json!({"name": "t", "willContinue": "yes"}))],
            format!("event 1: {at}.willContinue"),
        ),
        (
            vec![
                start.clone(),
                piece("$.a"),
                json!({"candidates": [{"content": {"parts": []}, "finishReason": "STOP"}]}),
            ],
            "call 'a'".to_owned(),
        ),
        (
            vec![json!({"candidates": [{"content": {"parts": []}, "finishReason": 1}]})],
            "event 1: candidates[0].finishReason".to_string(),
        ),
        (vec![json!({"usage": {}})], "event 1".to_owned()),
    ];
    for (events, path) in cases {
        assert_refused(Api::Gemini, &events, &path);
    }
}

#[path = "provider_stream_props.rs"]
mod props;

#[path = "provider_stream_bytes.rs"]
mod bytes;

#[path = "provider_stream_ends.rs"]
mod ends;

/// The `streaming_turn` example's code, compiled into this test: its recorded streams are
/// checked here as `cargo run --example streaming_turn -- <api>` replays them.
#[allow(dead_code, unreachable_pub)]
#[path = "../../examples/examples/streaming_turn.rs"]
mod example;

#[test]
fn the_streaming_examples_bodies_hand_out_each_call_before_they_end() {
    for api in example::APIS {
        let body = example::body(api).expect(api);
        let mut reply = example::Reply::new(api).expect(api);
        let mut handed = Vec::new();
        for (n, piece) in body.chunks(61).enumerate() {
            for call in reply
                .push_bytes(piece)
                .unwrap_or_else(|e| panic!("{api}: {e}"))
            {
                handed.push((n, call));
            }
        }
        let pieces = body.chunks(61).count();
        assert_eq!(handed.len(), 3, "{api}");
        assert!(
            handed[0].0 < handed[2].0 && handed[2].0 + 1 < pieces,
            "{api}: the calls came together, or at the end"
        );
        assert!(
            handed
                .iter()
                .all(|(_, call)| call.name() == "fetch_weather"),
            "{api}"
        );
        let calls: Vec<ToolCall> = handed.into_iter().map(|(_, call)| call).collect();
        assert_eq!(reply.finish().unwrap(), calls, "{api}");
    }
    assert!(example::body("openai").is_none());
    assert!(example::Reply::new("").is_none());
}
