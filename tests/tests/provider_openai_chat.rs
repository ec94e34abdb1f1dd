//! OpenAI Chat Completions: declarations in the documented `tools` shape, tool calls read from
//! a documented response, `tool` messages out, a round trip, and malformed replies refused.

use agentkit_core::provider::openai_chat;
use agentkit_core::{ToolArguments, ToolCall, block_on};
use serde_json::{Value, json};

use crate::provider_fixtures::*;

#[test]
fn strict_declarations_are_the_documented_tools() {
    assert_eq!(
        openai_chat::strict_tools(registry().specs()),
        json!([
            {"type": "function", "function": {
                "name": "fetch_weather",
                "description": WEATHER_DESCRIPTION,
                "parameters": weather_strict_parameters(),
                "strict": true,
            }},
            {"type": "function", "function": {
                "name": "plan_trip",
                "description": TRIP_DESCRIPTION,
                "parameters": trip_strict_parameters(),
                "strict": true,
            }},
        ])
    );
}

/// What OpenAI's strict mode demands of every object, nested ones included: closed, every
/// property required; and no keyword it refuses (`default`, `minimum`, `maximum`).
#[test]
fn strict_schemas_meet_strict_mode_rules_at_every_depth() {
    let tools = openai_chat::strict_tools(registry().specs());
    for tool in tools.as_array().unwrap() {
        for schema in subschemas(&tool["function"]["parameters"]) {
            for keyword in ["default", "minimum", "maximum"] {
                assert!(schema.get(keyword).is_none(), "{keyword} in {schema}");
            }
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                assert_eq!(schema["additionalProperties"], false, "{schema}");
                let required: Vec<&str> = schema["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                let mut declared: Vec<&str> = properties.keys().map(String::as_str).collect();
                let mut sorted = required.clone();
                sorted.sort_unstable();
                declared.sort_unstable();
                assert_eq!(sorted, declared, "{schema}");
            }
        }
    }
}

#[test]
fn non_strict_declarations_keep_defaults_and_leave_optionals_unrequired() {
    assert_eq!(
        openai_chat::tools(registry().specs()),
        json!([
            {"type": "function", "function": {
                "name": "fetch_weather",
                "description": WEATHER_DESCRIPTION,
                "parameters": weather_parameters(),
                "strict": false,
            }},
            {"type": "function", "function": {
                "name": "plan_trip",
                "description": TRIP_DESCRIPTION,
                "parameters": trip_parameters(),
                "strict": false,
            }},
        ])
    );
}

#[test]
fn a_tag_filtered_subset_is_declared_alone() {
    let registry = registry();
    let none: Vec<_> = registry.lookup_by_tags(&[("team", "x")]).collect();
    assert_eq!(openai_chat::tools(none), json!([]));
    let one = registry.lookup("plan_trip");
    assert_eq!(
        openai_chat::tools(one)[0]["function"]["name"],
        json!("plan_trip")
    );
}

/// A complete response as the API documents it, with two parallel calls.
fn documented_response() -> Value {
    json!({
        "id": "chatcmpl-AbC123",
        "object": "chat.completion",
        "created": 1_727_000_000,
        "model": "gpt-4o-2024-08-06",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [
                    {"id": "call_DdmNo8", "type": "function", "function": {
                        "name": "fetch_weather",
                        "arguments": "{\"city\":\"Paris\",\"country\":null,\"units\":\"metric\"}",
                    }},
                    {"id": "call_Z4j1Rq", "type": "function", "function": {
                        "name": "plan_trip",
                        "arguments": "{\"cities\":[\"Rome\",\"Florence\"],\"days\":null,\"budget\":null}",
                    }},
                ],
                "refusal": null,
                "annotations": [],
            },
            "logprobs": null,
            "finish_reason": "tool_calls",
        }],
        "usage": {"prompt_tokens": 152, "completion_tokens": 58, "total_tokens": 210},
        "system_fingerprint": "fp_7f6be3efb0",
    })
}

#[test]
fn calls_are_read_from_the_response_or_the_message_with_their_ids() {
    let response = documented_response();
    let expected = vec![
        ToolCall::new(
            "call_DdmNo8",
            "fetch_weather",
            r#"{"city":"Paris","country":null,"units":"metric"}"#,
        ),
        ToolCall::new(
            "call_Z4j1Rq",
            "plan_trip",
            r#"{"cities":["Rome","Florence"],"days":null,"budget":null}"#,
        ),
    ];
    assert_eq!(openai_chat::calls(&response).unwrap(), expected);
    let message = &response["choices"][0]["message"];
    assert_eq!(openai_chat::calls(message).unwrap(), expected);
    // The arguments stay the model's text, for the executor to parse.
    assert!(matches!(expected[0].arguments(), ToolArguments::Text(_)));
}

#[test]
fn a_reply_without_tool_calls_has_none_and_custom_calls_are_left_out() {
    let text_reply = json!({"role": "assistant", "content": "It is sunny.", "refusal": null});
    assert_eq!(openai_chat::calls(&text_reply).unwrap(), []);
    let null_calls = json!({"role": "assistant", "content": "Hi", "tool_calls": null});
    assert_eq!(openai_chat::calls(&null_calls).unwrap(), []);
    let mixed = json!({"role": "assistant", "tool_calls": [
        {"id": "call_c", "type": "custom", "custom": {"name": "grammar", "input": "x"}},
        {"id": "call_f", "type": "function",
         "function": {"name": "fetch_weather", "arguments": "{}"}},
    ]});
    let calls = openai_chat::calls(&mixed).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].id(), "call_f");
}

#[test]
fn results_are_tool_messages_with_the_call_ids() {
    let executor = executor();
    let calls = openai_chat::calls(&documented_response()).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(
        openai_chat::results(&results),
        [
            json!({"role": "tool", "tool_call_id": "call_DdmNo8",
                   "content": text(&json!({"city": "Paris", "temperature": 22.0, "units": "metric"}))}),
            json!({"role": "tool", "tool_call_id": "call_Z4j1Rq",
                   "content": text(&trip_result())}),
        ]
    );
}

#[test]
fn round_trip() {
    let executor = executor();
    let tools = openai_chat::strict_tools(executor.registry().specs());
    let name = |i: usize| tools[i]["function"]["name"].as_str().unwrap().to_owned();
    // The model's reply, calling the declared tools.
    let reply = json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
    "role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": name(0), "arguments": weather_arguments().to_string()}},
        {"id": "call_2", "type": "function",
         "function": {"name": name(1), "arguments": trip_arguments().to_string()}},
        {"id": "call_3", "type": "function",
         "function": {"name": name(0), "arguments": bad_arguments().to_string()}},
    ]}}]});
    let calls = openai_chat::calls(&reply).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_scripted_outcomes(&results);
    assert_eq!(
        openai_chat::results(&results),
        [
            json!({"role": "tool", "tool_call_id": "call_1", "content": text(&weather_result())}),
            json!({"role": "tool", "tool_call_id": "call_2", "content": text(&trip_result())}),
            json!({"role": "tool", "tool_call_id": "call_3", "content": BAD_CALL_TEXT}),
        ]
    );
}

#[test]
fn malformed_replies_are_errors_naming_the_place() {
    let cases = [
        (json!(null), ""),
        (json!("tool_calls"), ""),
        (json!({"choices": []}), "choices"),
        (json!({"choices": {}}), "choices"),
        (
            json!({"choices": [{"message": "hi"}]}),
            "choices[0].message",
        ),
        (json!({"tool_calls": {}}), "tool_calls"),
        (json!({"tool_calls": [7]}), "tool_calls[0]"),
        (
            json!({"tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{}"}}]}),
            "tool_calls[0].id",
        ),
        (
            json!({"tool_calls": [{"id": "c", "type": 1, "function": {}}]}),
            "tool_calls[0].type",
        ),
        (
            json!({"tool_calls": [{"id": "c", "type": "function"}]}),
            "tool_calls[0].function",
        ),
        (
            json!({"tool_calls": [{"id": "c", "function": {"name": ["f"], "arguments": "{}"}}]}),
            "tool_calls[0].function.name",
        ),
        (
            json!({"tool_calls": [{"id": "c", "function": {"name": "f"}}]}),
            "tool_calls[0].function.arguments",
        ),
        (
            json!({"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": 5}}]}),
            "tool_calls[0].function.arguments",
        ),
    ];
    for (reply, path) in cases {
        let err = openai_chat::calls(&reply).expect_err(&reply.to_string());
        assert_eq!(err.path(), path, "{reply}");
        assert_eq!(err.api(), "OpenAI Chat Completions");
        assert!(
            err.to_string()
                .starts_with("malformed OpenAI Chat Completions reply: ")
        );
    }
}

#[test]
fn arguments_that_are_not_json_go_back_to_the_model_under_the_call_id() {
    let executor = executor();
    let reply = json!({"tool_calls": [{"id": "call_x", "type": "function",
        "function": {"name": "fetch_weather", "arguments": "{\"city\": \"Par"}}]});
    let results = block_on(executor.dispatch_all(&openai_chat::calls(&reply).unwrap()));
    let message = &openai_chat::results(&results)[0];
    assert_eq!(message["tool_call_id"], "call_x");
    assert!(message["content"].as_str().unwrap().starts_with("Error: "));
}
