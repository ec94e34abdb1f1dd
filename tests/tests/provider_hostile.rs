//! Whatever JSON a reply holds, reading its tool calls never panics: it gives calls or a
//! `ParseError` whose message quotes nothing from the reply and stays short. The replies are
//! each API's documented shape with a few of their parts replaced by arbitrary JSON or
//! removed, so that every parser is driven deep, past its first check.

use agentkit_core::provider::{ParseError, anthropic, gemini, mcp, openai_chat, openai_responses};
use proptest::prelude::*;
use serde_json::{Value, json};

/// One well-formed reply per API, each holding two calls.
fn templates() -> Vec<Value> {
    vec![
        json!({"id": "chatcmpl-1", "choices": [{"index": 0, "message": {
            "role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "a", "arguments": "{}"}},
                {"id": "call_2", "type": "function",
                 "function": {"name": "b", "arguments": "{\"x\": [1, 2]}"}},
            ]}, "finish_reason": "tool_calls"}]}),
        json!({"id": "resp_1", "object": "response", "output": [
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "a",
             "arguments": "{}"},
            {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "b",
             "arguments": "{\"x\": 1}"},
        ]}),
        json!({"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "a", "input": {}},
            {"type": "tool_use", "id": "toolu_2", "name": "b", "input": {"x": [1]}},
        ]}),
        json!({"candidates": [{"index": 0, "content": {"role": "model", "parts": [
            {"functionCall": {"name": "a", "args": {}}},
            {"functionCall": {"id": "c2", "name": "b", "args": {"x": {"y": 1}}}},
        ]}}]}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "a", "arguments": {"x": [1, {"y": null}]}}}),
    ]
}

fn arbitrary() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z_]{0,8}".prop_map(Value::from),
        // A secret-looking value, which no error message may quote.
        Just(Value::from("sk-PLANTED-SECRET")),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Replaces (or, for `None`, removes) the `target`-th node of `value` in preorder; the root
/// cannot be removed, only replaced.
fn mutate(value: &mut Value, target: &mut usize, with: &Option<Value>) -> bool {
    if *target == 0 {
        *value = with.clone().unwrap_or(Value::Null);
        return true;
    }
    *target -= 1;
    let children: Vec<&mut Value> = match value {
        Value::Object(map) => map.values_mut().collect(),
        Value::Array(items) => items.iter_mut().collect(),
        _ => return false,
    };
    for (index, child) in children.into_iter().enumerate() {
        if *target == 0 && with.is_none() {
            match value {
                Value::Object(map) => {
                    let key = map.keys().nth(index).cloned().unwrap();
                    map.remove(&key);
                }
                Value::Array(items) => {
                    items.remove(index);
                }
                _ => unreachable!(),
            }
            return true;
        }
        if mutate(child, target, with) {
            return true;
        }
    }
    false
}

fn reply() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(templates()),
        prop::collection::vec(
            (0..40_usize, prop::option::weighted(0.7, arbitrary())),
            1..3,
        ),
    )
        .prop_map(|(mut reply, mutations)| {
            for (target, with) in mutations {
                mutate(&mut reply, &mut target.clone(), &with);
            }
            reply
        })
}

/// How many calls each parser found in `reply`, `None` for a parse error (checked here).
fn parse_all(reply: &Value) -> Result<[Option<usize>; 5], TestCaseError> {
    fn check<T>(outcome: Result<T, ParseError>) -> Result<Option<T>, TestCaseError> {
        match outcome {
            Ok(found) => Ok(Some(found)),
            Err(err) => {
                let message = err.to_string();
                prop_assert!(!message.contains("PLANTED"), "{message}");
                prop_assert!(message.len() < 300, "{message}");
                prop_assert!(message.contains(err.path()), "{message}");
                Ok(None)
            }
        }
    }
    Ok([
        check(openai_chat::calls(reply).map(|c| c.len()))?,
        check(openai_responses::calls(reply).map(|c| c.len()))?,
        check(anthropic::calls(reply).map(|c| c.len()))?,
        check(gemini::calls(reply).map(|c| c.len()))?,
        check(mcp::call(reply).map(|_| 1))?,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn no_reply_makes_a_parser_panic(reply in reply()) {
        parse_all(&reply)?;
    }
}

#[test]
fn every_template_is_read_by_its_parser() {
    for (api, template) in templates().iter().enumerate() {
        let found = parse_all(template).unwrap();
        assert!(found[api].is_some_and(|n| n >= 1), "{api}: {found:?}");
    }
}

/// The mutated replies are read by every parser in some cases and refused in others: the
/// property above covers both paths of each.
#[test]
fn mutated_replies_are_sometimes_read_and_sometimes_refused() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = reply();
    let (mut read, mut refused) = ([0; 5], [0; 5]);
    for _ in 0..3000 {
        let reply = strategy.new_tree(&mut runner).unwrap().current();
        for (api, found) in parse_all(&reply).unwrap().into_iter().enumerate() {
            match found {
                Some(n) if n > 0 => read[api] += 1,
                None => refused[api] += 1,
                Some(_) => {}
            }
        }
    }
    assert!(read.iter().all(|&n| n > 0), "read: {read:?}");
    assert!(refused.iter().all(|&n| n > 0), "refused: {refused:?}");
}
