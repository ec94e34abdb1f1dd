//! OpenAI Responses: flat function declarations, `function_call` output items in (by
//! `call_id`, not the item `id`), `function_call_output` items out, a round trip, and
//! malformed responses refused.

use agentkit_core::provider::openai_responses;
use agentkit_core::{ToolCall, block_on};
use serde_json::{Value, json};

use crate::provider_fixtures::*;

#[test]
fn strict_declarations_are_the_documented_tools() {
    assert_eq!(
        openai_responses::strict_tools(registry().specs()),
        json!([
            {"type": "function", "name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "parameters": weather_strict_parameters(), "strict": true},
            {"type": "function", "name": "plan_trip", "description": TRIP_DESCRIPTION,
             "parameters": trip_strict_parameters(), "strict": true},
        ])
    );
}

#[test]
fn non_strict_declarations_say_so() {
    assert_eq!(
        openai_responses::tools(registry().specs()),
        json!([
            {"type": "function", "name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "parameters": weather_parameters(), "strict": false},
            {"type": "function", "name": "plan_trip", "description": TRIP_DESCRIPTION,
             "parameters": trip_parameters(), "strict": false},
        ])
    );
}

/// A response as the API documents it: reasoning, a message, and two function calls.
fn documented_response() -> Value {
    json!({
        "id": "resp_67ccd2bed1ec8190b14f964abc054267",
        "object": "response",
        "created_at": 1_741_476_542,
        "status": "completed",
        "model": "gpt-4.1-2025-04-14",
        "output": [
            {"type": "reasoning", "id": "rs_67ccd2bf", "summary": []},
            {"type": "message", "id": "msg_67ccd2bf", "status": "completed", "role": "assistant",
             "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]},
            {"type": "function_call", "id": "fc_67ca09c6bedc8190",
             "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "name": "fetch_weather",
             "arguments": "{\"city\":\"Paris\",\"country\":null,\"units\":\"metric\"}",
             "status": "completed"},
            {"type": "function_call", "id": "fc_67ca09c6bedc8191",
             "call_id": "call_8dGm2bqzL1", "name": "plan_trip",
             "arguments": "{\"cities\":[\"Rome\",\"Florence\"],\"days\":null,\"budget\":null}",
             "status": "completed"},
        ],
        "parallel_tool_calls": true,
        "tool_choice": "auto",
        "usage": {"input_tokens": 291, "output_tokens": 23, "total_tokens": 314},
    })
}

#[test]
fn calls_are_the_function_call_items_by_call_id() {
    let response = documented_response();
    let expected = vec![
        ToolCall::new(
            "call_unLAR8MvFNptuiZK6K6HCy5k",
            "fetch_weather",
            r#"{"city":"Paris","country":null,"units":"metric"}"#,
        ),
        ToolCall::new(
            "call_8dGm2bqzL1",
            "plan_trip",
            r#"{"cities":["Rome","Florence"],"days":null,"budget":null}"#,
        ),
    ];
    assert_eq!(openai_responses::calls(&response).unwrap(), expected);
    assert_eq!(
        openai_responses::calls(&response["output"]).unwrap(),
        expected
    );
    let text_only = json!({"output": [{"type": "message", "role": "assistant", "content": []}]});
    assert_eq!(openai_responses::calls(&text_only).unwrap(), []);
}

#[test]
fn results_are_function_call_outputs() {
    let executor = executor();
    let calls = openai_responses::calls(&documented_response()).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(
        openai_responses::results(&results),
        [
            json!({"type": "function_call_output", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k",
                   "output": text(&weather_result())}),
            json!({"type": "function_call_output", "call_id": "call_8dGm2bqzL1",
                   "output": text(&trip_result())}),
        ]
    );
}

#[test]
fn round_trip() {
    let executor = executor();
    let tools = openai_responses::strict_tools(executor.registry().specs());
    let name = |i: usize| tools[i]["name"].as_str().unwrap().to_owned();
    let item = |n: u32, name: String, arguments: Value| {
        json!({"type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
               "name": name, "arguments": arguments.to_string(), "status": "completed"})
    };
    let response = json!({"object": "response", "status": "completed", "output": [
        item(1, name(0), weather_arguments()),
        item(2, name(1), trip_arguments()),
        item(3, name(0), bad_arguments()),
    ]});
    let calls = openai_responses::calls(&response).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_scripted_outcomes(&results);
    assert_eq!(
        openai_responses::results(&results),
        [
            json!({"type": "function_call_output", "call_id": "call_1",
                   "output": text(&weather_result())}),
            json!({"type": "function_call_output", "call_id": "call_2",
                   "output": text(&trip_result())}),
            json!({"type": "function_call_output", "call_id": "call_3", "output": BAD_CALL_TEXT}),
        ]
    );
}

#[test]
fn malformed_responses_are_errors_naming_the_place() {
    let call = |fields: Value| {
        let mut item = json!({"type": "function_call"});
        for (k, v) in fields.as_object().unwrap() {
            item[k] = v.clone();
        }
        json!({"output": [item]})
    };
    let cases = [
        (json!(42), ""),
        (json!({"id": "resp_1"}), "output"),
        (json!({"output": {"type": "function_call"}}), "output"),
        (json!({"output": [null]}), "output[0]"),
        (json!({"output": [{"id": "x"}]}), "output[0].type"),
        (json!([{"type": 3}]), "[0].type"),
        (
            call(json!({"id": "fc_1", "name": "f", "arguments": "{}"})),
            "output[0].call_id",
        ),
        (
            call(json!({"call_id": "c", "arguments": "{}"})),
            "output[0].name",
        ),
        (
            call(json!({"call_id": "c", "name": "f", "arguments": null})),
            "output[0].arguments",
        ),
    ];
    for (response, path) in cases {
        let err = openai_responses::calls(&response).expect_err(&response.to_string());
        assert_eq!(err.path(), path, "{response}");
        assert_eq!(err.api(), "OpenAI Responses");
    }
}
