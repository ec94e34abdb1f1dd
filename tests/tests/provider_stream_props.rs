//! Properties of every API's `CallStream`: any split of the argument fragments gives the
//! same calls; corruption never panics and never loses or invents a call; hostile streams
//! stay bounded. (A part of `provider_stream`, for its helpers.)

use std::collections::BTreeSet;

use super::*;

fn cuts() -> impl Strategy<Value = Vec<Vec<usize>>> {
    proptest::collection::vec(proptest::collection::vec(0usize..200, 0..12), 3)
}

fn order() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..8, 0..40)
}

fn api() -> impl Strategy<Value = Api> {
    prop_oneof![
        Just(Api::Chat),
        Just(Api::Responses),
        Just(Api::Anthropic),
        Just(Api::Gemini)
    ]
}

/// One way to break a stream.
#[derive(Debug, Clone)]
enum Corruption {
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    /// The `n`th value (in a walk of the event's JSON) gets a value of another type.
    Retype(usize, usize),
    Truncate(usize),
}

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        any::<usize>().prop_map(Corruption::Drop),
        any::<usize>().prop_map(Corruption::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Corruption::Swap(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Corruption::Retype(a, b)),
        any::<usize>().prop_map(Corruption::Truncate),
    ]
}

fn corrupt(events: &mut Vec<Value>, corruption: &Corruption) {
    let n = events.len();
    match *corruption {
        Corruption::Drop(at) => {
            events.remove(at % n);
        }
        Corruption::Duplicate(at) => {
            let event = events[at % n].clone();
            events.insert(at % n, event);
        }
        Corruption::Swap(a, b) => events.swap(a % n, b % n),
        Corruption::Retype(at, value) => {
            let mut count = 0;
            walk(&mut events[at % n], &mut |_| count += 1);
            let target = value % count.max(1);
            let mut seen = 0;
            walk(&mut events[at % n], &mut |value| {
                if seen == target {
                    *value = match value {
                        Value::String(_) => json!(7),
                        Value::Number(_) => json!("7"),
                        Value::Bool(_) | Value::Null => json!("x"),
                        Value::Array(_) | Value::Object(_) => json!(false),
                    };
                }
                seen += 1;
            });
        }
        Corruption::Truncate(at) => events.truncate(at % n),
    }
}

/// Whether `event` is `api`'s terminal event, the one without which a stream was cut.
pub(super) fn is_terminal(api: Api, event: &Value) -> bool {
    match api {
        Api::Chat => event["choices"][0]["finish_reason"].is_string(),
        Api::Responses => event["type"] == "response.completed",
        Api::Anthropic => event["type"] == "message_stop",
        Api::Gemini => event["candidates"][0]["finishReason"].is_string(),
    }
}

/// Visits every value under `value` (itself first), stopping below one that was replaced.
fn walk(value: &mut Value, visit: &mut dyn FnMut(&mut Value)) {
    visit(value);
    match value {
        Value::Array(items) => items.iter_mut().for_each(|item| walk(item, visit)),
        Value::Object(map) => map.values_mut().for_each(|item| walk(item, visit)),
        _ => {}
    }
}

/// The expected calls' ids that appear as a string anywhere in `events`.
fn ids_seen(events: &[Value], expected: &[ToolCall]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for event in events {
        let mut event = event.clone();
        walk(&mut event, &mut |value| {
            if let Value::String(text) = value
                && expected.iter().any(|call| call.id() == text)
            {
                seen.insert(text.clone());
            }
        });
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// However the fragments are cut, and however parallel calls interleave, the calls are
    /// those of the finished reply, each handed out by the event that completed it.
    #[test]
    fn any_split_gives_the_same_calls(api in api(), cuts in cuts(), order in order()) {
        assert_streams_as_finished(api, &streamed(api, &cuts, &order));
    }

    /// Gemini's whole calls, grouped into chunks any way.
    #[test]
    fn any_grouping_of_gemini_calls_gives_the_same_calls(cuts in proptest::collection::vec(0usize..3, 0..3)) {
        assert_streams_as_finished(Api::Gemini, &streams::gemini(&streams::calls(), &cuts));
    }

    /// A broken stream is never a panic. Either it is refused, or: no call the events
    /// started is lost, none is invented, none comes twice, and the calls handed out are
    /// those `finish` gives. A stream cut short gives the calls before the cut, or an error.
    #[test]
    fn corruption_is_an_error_or_loses_no_call(
        api in api(),
        cuts in cuts(),
        order in order(),
        corruptions in proptest::collection::vec(corruption(), 1..4),
    ) {
        let streamed = streamed(api, &cuts, &order);
        let expected = calls_of(api, &streamed.finished);
        let mut events = streamed.events.clone();
        for corruption in &corruptions {
            if events.is_empty() {
                break;
            }
            corrupt(&mut events, corruption);
        }
        let run = run(api, &events);
        let ended = events.iter().any(|event| is_terminal(api, event));
        if let [Corruption::Truncate(_)] = corruptions.as_slice()
            && !ended {
                // Cut before the terminal event: never a success, and the calls completed
                // before the cut are kept, in reply order.
                let Err(StreamError::Cut(cut)) = &run.finished else {
                    panic!("{api:?}: a cut stream read as {:?}", run.finished);
                };
                let kept: Vec<&ToolCall> =
                    expected.iter().filter(|call| cut.completed().contains(call)).collect();
                prop_assert_eq!(cut.completed().iter().collect::<Vec<_>>(), kept);
                let mut handed = run.handed.concat();
                handed.sort_by_key(|call| expected.iter().position(|c| c == call));
                prop_assert_eq!(cut.completed(), &handed[..]);
            }
        let calls = match run.finished {
            Ok(calls) if ended => calls,
            Ok(calls) => panic!("{api:?}: no terminal event, and {} calls as a success", calls.len()),
            Err(StreamError::Cut(cut)) => cut.into_completed(),
            Err(_) => return Ok(()),
        };
        {
            let ids: Vec<String> = calls.iter().map(|c| c.id().to_owned()).collect();
            let unique: BTreeSet<String> = ids.iter().cloned().collect();
            prop_assert_eq!(unique.len(), ids.len(), "a call twice: {:?}", ids);
            let seen = ids_seen(&events, &expected);
            if ended {
                prop_assert_eq!(&unique, &seen, "lost or invented calls");
            } else {
                prop_assert!(unique.is_subset(&seen), "invented calls");
            }
            let mut handed: Vec<ToolCall> = run.handed.concat();
            let mut all = calls.clone();
            handed.sort_by(|a, b| a.id().cmp(b.id()));
            all.sort_by(|a, b| a.id().cmp(b.id()));
            prop_assert_eq!(handed, all);
            if let ([Corruption::Truncate(_)], true) = (corruptions.as_slice(), ended) {
                prop_assert_eq!(&calls[..], &expected[..], "the terminal event came, not every call");
            }
        }
    }
}

// ------------------------------------------------------------------------ hostile streams

#[test]
fn a_huge_number_of_indexes_and_ids_is_bounded_by_the_input() {
    let mut stream = openai_chat::CallStream::new();
    let mut tool_calls = Vec::new();
    for n in 0..50_000u64 {
        let index = if n % 2 == 0 { n } else { u64::MAX - n };
        tool_calls.push(
            json!({"index": index, "id": format!("c{n}"), "type": "function",
                               "function": {"name": "t", "arguments": "{}"}}),
        );
    }
    let handed = stream.push(&chunk(Value::Array(tool_calls))).unwrap();
    assert_eq!(handed.len(), 50_000);
    stream.push_str("[DONE]").unwrap();
    assert_eq!(stream.finish().unwrap().len(), 50_000);

    let mut stream = anthropic::CallStream::new();
    for n in 0..20_000u64 {
        stream
            .push(
                &json!({"type": "content_block_start", "index": n * 1_000_000_007,
                "content_block": {"type": "tool_use", "id": format!("t{n}"), "name": "t",
                                  "input": {}}}),
            )
            .unwrap();
    }
    // None stopped: the first is named, whatever the count.
    let mut cut = stream.clone();
    cut.push(&json!({"type": "message_stop"})).unwrap();
    let error = cut.finish().unwrap_err();
    assert_eq!(error.as_malformed().unwrap().path(), "call 't0'");
    let Err(StreamError::Cut(cut)) = stream.finish() else {
        panic!("not a cut stream")
    };
    assert_eq!(cut.unfinished().len(), 20_000);
    assert_eq!(cut.unfinished()[0], "t0");
}

#[test]
fn enormous_fragments_are_taken_whole_and_scanned_once() {
    let piece = format!("\"{}\", ", "x".repeat(1 << 20));
    let mut stream = openai_chat::CallStream::new();
    stream.push(&chat_start(json!(0), "big")).unwrap();
    stream.push(&chat_args(0, "{\"a\": [")).unwrap();
    for _ in 0..8 {
        assert!(stream.push(&chat_args(0, &piece)).unwrap().is_empty());
    }
    let done = stream.push(&chat_args(0, "1]}")).unwrap();
    let text = done[0].arguments().as_text().unwrap();
    assert_eq!(text.len(), 8 * piece.len() + "{\"a\": [1]}".len());
    assert!(serde_json::from_str::<Value>(text).is_ok());

    let mut stream = anthropic::CallStream::new();
    stream
        .push(&json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "tool_use", "id": "t", "name": "t", "input": {}}}))
        .unwrap();
    let huge = format!("{{\"a\": \"{}\"}}", "y".repeat(8 << 20));
    stream
        .push(&json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": huge}}))
        .unwrap();
    let done = stream
        .push(&json!({"type": "content_block_stop", "index": 0}))
        .unwrap();
    assert_eq!(
        done[0].arguments(),
        &agentkit_core::ToolArguments::Value(serde_json::from_str(&huge).unwrap())
    );
}

#[test]
fn hostile_json_paths_are_refused_not_built() {
    let part =
        |call: Value| json!({"candidates": [{"content": {"parts": [{"functionCall": call}]}}]});
    let start = part(json!({"name": "t", "id": "a", "willContinue": true}));
    let deep = format!("${}", ".a".repeat(100_000));
    for path in [
        deep.as_str(),
        "$.a[18446744073709551615]",
        "$.a[99999999999999999999999]",
    ] {
        let mut stream = gemini::CallStream::new();
        stream.push(&start).unwrap();
        let error = stream
            .push(&part(json!({"willContinue": true,
                "partialArgs": [{"jsonPath": path, "stringValue": "x"}]})))
            .unwrap_err();
        let path = error.as_malformed().unwrap().path();
        assert!(path.ends_with("partialArgs[0].jsonPath"), "{error}");
    }
}

#[test]
fn hostile_ids_are_cut_short_in_messages() {
    let id = "\u{202e}".repeat(10_000);
    let mut stream = openai_chat::CallStream::new();
    stream.push(&chat_start(json!(0), &id)).unwrap();
    stream.push_str("[DONE]").unwrap();
    let error = stream.finish().unwrap_err();
    assert!(error.as_malformed().is_some(), "{error}");
    assert!(
        error.to_string().len() < 1_000,
        "{}",
        error.to_string().len()
    );
    assert!(!error.to_string().contains('\u{202e}'));
}
