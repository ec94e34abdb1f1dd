//! Streamed replies shaped as each API sends them, built from one list of calls: the
//! events, which event completes each call, and the finished reply the same data makes.
//!
//! A call's arguments text is cut into pieces (`cuts`, positions in the text) and the
//! pieces of several calls may interleave (`order`, which call's next piece comes), where
//! the API allows it; text and other events come between, as the APIs send them.

use serde_json::{Value, json};

/// One call of a reply: its id, tool and arguments as JSON text.
#[derive(Debug, Clone)]
pub struct Call {
    pub id: String,
    pub name: String,
    pub args: String,
}

/// A streamed reply: its events in order, the index of the event that completes each call,
/// and the finished reply.
#[derive(Debug, Clone)]
pub struct Streamed {
    pub events: Vec<Value>,
    pub completes: Vec<usize>,
    pub finished: Value,
}

/// Three calls of the example's tools; the second has braces inside a string.
pub fn calls() -> Vec<Call> {
    let call = |id: &str, name: &str, args: Value| Call {
        id: id.into(),
        name: name.into(),
        args: args.to_string(),
    };
    vec![
        call(
            "call_1",
            "fetch_weather",
            json!({"city": "Paris", "units": "metric"}),
        ),
        call(
            "call_2",
            "fetch_weather",
            json!({"city": "Oslo {north} \"old\\town\""}),
        ),
        call(
            "call_3",
            "plan_trip",
            json!({"cities": ["Paris", "Oslo"], "days": 4, "budget": {"amount": 1200.5}}),
        ),
    ]
}

/// `text` cut at `cuts` (taken modulo its length, moved back to a character boundary).
pub fn pieces(text: &str, cuts: &[usize]) -> Vec<String> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|cut| {
            let mut cut = cut % (text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            cut
        })
        .collect();
    at.push(0);
    at.push(text.len());
    at.sort_unstable();
    at.dedup();
    at.windows(2).map(|w| text[w[0]..w[1]].to_owned()).collect()
}

/// Which call's next piece comes, one entry per piece: calls in turn as `order` picks them
/// (each entry of `order` chooses among the calls with pieces left); calls one after the
/// other when `order` is empty.
pub fn schedule(pieces: &[Vec<String>], order: &[usize]) -> Vec<usize> {
    let mut left: Vec<usize> = pieces.iter().map(Vec::len).collect();
    let mut started = vec![false; pieces.len()];
    let mut out = Vec::new();
    let mut order = order.iter();
    while left.iter().any(|&n| n > 0) {
        // A call starts in order (indexes grow as the model writes them); started ones may
        // go on in any order.
        let mut ready: Vec<usize> = (0..pieces.len())
            .filter(|&k| left[k] > 0 && started[k])
            .collect();
        if let Some(k) = (0..pieces.len()).find(|&k| !started[k]) {
            ready.push(k);
        }
        let pick = match order.next() {
            Some(choice) => ready[choice % ready.len()],
            None => *ready.iter().min().unwrap(),
        };
        started[pick] = true;
        left[pick] -= 1;
        out.push(pick);
    }
    out
}

fn cut_all(calls: &[Call], cuts: &[Vec<usize>]) -> Vec<Vec<String>> {
    calls
        .iter()
        .enumerate()
        .map(|(k, call)| pieces(&call.args, cuts.get(k).map_or(&[][..], Vec::as_slice)))
        .collect()
}

/// The piece numbers of `schedule`: for each entry, which piece of its call it is.
fn numbered(schedule: &[usize], calls: usize) -> Vec<(usize, usize)> {
    let mut seen = vec![0; calls];
    schedule
        .iter()
        .map(|&k| {
            seen[k] += 1;
            (k, seen[k] - 1)
        })
        .collect()
}

pub fn openai_chat(calls: &[Call], cuts: &[Vec<usize>], order: &[usize]) -> Streamed {
    let pieces = cut_all(calls, cuts);
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-9x", "object": "chat.completion.chunk", "created": 1767225600,
               "model": "gpt-4.1-2025-04-14", "system_fingerprint": "fp_1",
               "choices": [{"index": 0, "delta": delta, "logprobs": null,
                            "finish_reason": finish}]})
    };
    let mut events = vec![
        chunk(
            json!({"role": "assistant", "content": "", "refusal": null}),
            Value::Null,
        ),
        chunk(json!({"content": "Checking both cities."}), Value::Null),
    ];
    let mut completes = vec![0; calls.len()];
    for (k, n) in numbered(&schedule(&pieces, order), calls.len()) {
        if n == 0 {
            events.push(chunk(
                json!({"tool_calls": [{"index": k, "id": calls[k].id, "type": "function",
                                       "function": {"name": calls[k].name, "arguments": ""}}]}),
                Value::Null,
            ));
        }
        events.push(chunk(
            json!({"tool_calls": [{"index": k, "function": {"arguments": pieces[k][n]}}]}),
            Value::Null,
        ));
        if n + 1 == pieces[k].len() {
            completes[k] = events.len() - 1;
        }
    }
    events.push(chunk(json!({}), json!("tool_calls")));
    events.push(json!({"id": "chatcmpl-9x", "object": "chat.completion.chunk", "choices": [],
                       "usage": {"prompt_tokens": 82, "completion_tokens": 61, "total_tokens": 143}}));
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|call| {
            json!({"id": call.id, "type": "function",
                           "function": {"name": call.name, "arguments": call.args}})
        })
        .collect();
    let finished = json!({"id": "chatcmpl-9x", "object": "chat.completion", "choices": [{
        "index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": "Checking both cities.",
                    "tool_calls": tool_calls}}]});
    Streamed {
        events,
        completes,
        finished,
    }
}

pub fn anthropic(calls: &[Call], cuts: &[Vec<usize>], order: &[usize]) -> Streamed {
    let pieces = cut_all(calls, cuts);
    let mut events = vec![
        json!({"type": "message_start", "message": {"id": "msg_01XFD", "type": "message",
               "role": "assistant", "model": "claude-sonnet-4-5", "content": [],
               "stop_reason": null, "stop_sequence": null,
               "usage": {"input_tokens": 472, "output_tokens": 2}}}),
        json!({"type": "content_block_start", "index": 0,
               "content_block": {"type": "text", "text": ""}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "text_delta", "text": "Checking both cities."}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    let mut completes = vec![0; calls.len()];
    for (k, n) in numbered(&schedule(&pieces, order), calls.len()) {
        let index = k + 1;
        if n == 0 {
            events.push(json!({"type": "content_block_start", "index": index,
                "content_block": {"type": "tool_use", "id": calls[k].id,
                                  "name": calls[k].name, "input": {}}}));
        }
        events.push(json!({"type": "content_block_delta", "index": index,
            "delta": {"type": "input_json_delta", "partial_json": pieces[k][n]}}));
        if n + 1 == pieces[k].len() {
            events.push(json!({"type": "content_block_stop", "index": index}));
            completes[k] = events.len() - 1;
        }
    }
    events.push(json!({"type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": null},
        "usage": {"output_tokens": 89}}));
    events.push(json!({"type": "message_stop"}));
    let mut content = vec![json!({"type": "text", "text": "Checking both cities."})];
    content.extend(calls.iter().map(|call| {
        json!({"type": "tool_use", "id": call.id,
        "name": call.name, "input": serde_json::from_str::<Value>(&call.args).unwrap()})
    }));
    let finished = json!({"id": "msg_01XFD", "type": "message", "role": "assistant",
        "content": content, "stop_reason": "tool_use"});
    Streamed {
        events,
        completes,
        finished,
    }
}

pub fn openai_responses(calls: &[Call], cuts: &[Vec<usize>], order: &[usize]) -> Streamed {
    let pieces = cut_all(calls, cuts);
    let message = json!({"type": "message", "id": "msg_1", "status": "completed",
        "role": "assistant", "content": [{"type": "output_text", "annotations": [],
                                          "text": "Checking both cities."}]});
    let item = |k: usize, arguments: &str, status: &str| {
        json!({"type": "function_call", "id": format!("fc_{k}"), "call_id": calls[k].id,
               "name": calls[k].name, "arguments": arguments, "status": status})
    };
    let response = |status: &str, output: Vec<Value>| {
        json!({"id": "resp_1", "object": "response", "created_at": 1767225600,
               "status": status, "model": "gpt-4.1", "output": output})
    };
    let mut events = vec![
        json!({"type": "response.created", "sequence_number": 0,
               "response": response("in_progress", vec![])}),
        json!({"type": "response.in_progress", "sequence_number": 1,
               "response": response("in_progress", vec![])}),
        json!({"type": "response.output_item.added", "output_index": 0, "sequence_number": 2,
               "item": {"type": "message", "id": "msg_1", "status": "in_progress",
                        "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0,
               "content_index": 0, "delta": "Checking both cities.", "sequence_number": 3}),
        json!({"type": "response.output_item.done", "output_index": 0, "sequence_number": 4,
               "item": message}),
    ];
    let mut completes = vec![0; calls.len()];
    for (k, n) in numbered(&schedule(&pieces, order), calls.len()) {
        let index = k + 1;
        if n == 0 {
            events.push(
                json!({"type": "response.output_item.added", "output_index": index,
                               "item": item(k, "", "in_progress")}),
            );
        }
        events.push(json!({"type": "response.function_call_arguments.delta",
            "item_id": format!("fc_{k}"), "output_index": index, "delta": pieces[k][n]}));
        if n + 1 == pieces[k].len() {
            events.push(json!({"type": "response.function_call_arguments.done",
                "item_id": format!("fc_{k}"), "output_index": index,
                "arguments": calls[k].args}));
            completes[k] = events.len() - 1;
            events.push(
                json!({"type": "response.output_item.done", "output_index": index,
                               "item": item(k, &calls[k].args, "completed")}),
            );
        }
    }
    let mut output = vec![message];
    output.extend((0..calls.len()).map(|k| item(k, &calls[k].args, "completed")));
    let finished = response("completed", output);
    events.push(json!({"type": "response.completed", "response": finished}));
    for (n, event) in events.iter_mut().enumerate() {
        event["sequence_number"] = json!(n);
    }
    Streamed {
        events,
        completes,
        finished,
    }
}

/// Gemini's API sends each call whole: `cuts` group the calls' parts into chunks (a cut
/// after part `n` starts a new chunk), and the order is the calls' order.
pub fn gemini(calls: &[Call], cuts: &[usize]) -> Streamed {
    let chunk = |parts: Vec<Value>, finish: Option<&str>| {
        let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
        if let Some(reason) = finish {
            candidate["finishReason"] = json!(reason);
        }
        json!({"candidates": [candidate], "modelVersion": "gemini-3-flash-preview",
               "responseId": "r-1", "usageMetadata": {"promptTokenCount": 120}})
    };
    let part = |call: &Call, first: bool| {
        let mut part = json!({"functionCall": {"name": call.name, "id": call.id,
            "args": serde_json::from_str::<Value>(&call.args).unwrap()}});
        if first {
            // Gemini 3 signs the first call of a turn.
            part["thoughtSignature"] = json!("CiQBjz1rX0==");
        }
        part
    };
    let mut events = vec![chunk(vec![json!({"text": "Checking both cities."})], None)];
    let mut completes = vec![0; calls.len()];
    let mut parts = Vec::new();
    let mut group = Vec::new();
    for (k, call) in calls.iter().enumerate() {
        group.push(part(call, k == 0));
        parts.push(part(call, k == 0));
        if k + 1 == calls.len() || cuts.contains(&k) {
            events.push(chunk(std::mem::take(&mut group), None));
        }
        completes[k] = events.len() - 1 + usize::from(!group.is_empty());
    }
    events.push(chunk(vec![json!({"text": ""})], Some("STOP")));
    let mut all = vec![json!({"text": "Checking both cities."})];
    all.extend(parts);
    all.push(json!({"text": ""}));
    let finished = json!({"candidates": [{"content": {"role": "model", "parts": all},
                                          "finishReason": "STOP", "index": 0}]});
    Streamed {
        events,
        completes,
        finished,
    }
}

/// Vertex AI's Gemini with `streamFunctionCallArguments`: each call starts with its name,
/// its arguments' leaves come as `partialArgs` (strings cut at `cuts`), and an empty
/// `functionCall` ends it. Calls do not interleave.
pub fn vertex(calls: &[Call], cuts: &[Vec<usize>]) -> Streamed {
    let chunk = |call: Value| {
        json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]},
                               "index": 0}]})
    };
    let mut events = vec![json!({"candidates": [{"content": {"role": "model",
        "parts": [{"text": "Checking both cities."}]}, "index": 0}]})];
    let mut completes = Vec::new();
    let mut parts = vec![json!({"text": "Checking both cities."})];
    for (k, call) in calls.iter().enumerate() {
        let args: Value = serde_json::from_str(&call.args).unwrap();
        events.push(chunk(
            json!({"name": call.name, "id": call.id, "willContinue": true}),
        ));
        let mut leaves = Vec::new();
        flatten("$".into(), &args, &mut leaves);
        for (path, leaf) in leaves {
            let piece = match &leaf {
                Value::String(text) => {
                    let mut cut = pieces(text, cuts.get(k).map_or(&[][..], Vec::as_slice));
                    if cut.is_empty() {
                        cut.push(String::new());
                    }
                    let last = cut.len() - 1;
                    for (n, text) in cut.into_iter().enumerate() {
                        events.push(chunk(json!({"willContinue": true, "partialArgs": [
                            {"jsonPath": path, "stringValue": text, "willContinue": n < last}]})));
                    }
                    continue;
                }
                Value::Number(_) => json!({"jsonPath": path, "numberValue": leaf}),
                Value::Bool(_) => json!({"jsonPath": path, "boolValue": leaf}),
                _ => json!({"jsonPath": path, "nullValue": "NULL_VALUE"}),
            };
            events.push(chunk(json!({"willContinue": true, "partialArgs": [piece]})));
        }
        events.push(chunk(json!({})));
        completes.push(events.len() - 1);
        parts.push(json!({"functionCall": {"name": call.name, "id": call.id, "args": args}}));
    }
    events.push(
        json!({"candidates": [{"content": {"role": "model", "parts": []},
                                       "finishReason": "STOP", "index": 0}]}),
    );
    let finished = json!({"role": "model", "parts": parts});
    Streamed {
        events,
        completes,
        finished,
    }
}

fn flatten(path: String, value: &Value, out: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                flatten(format!("{path}.{key}"), value, out);
            }
        }
        Value::Array(items) => {
            for (n, value) in items.iter().enumerate() {
                flatten(format!("{path}[{n}]"), value, out);
            }
        }
        leaf => out.push((path, leaf.clone())),
    }
}
