//! Anthropic Messages: `input_schema` declarations (strict tool use beside them), `tool_use`
//! blocks in with their `input` objects as they are, one `user` message of `tool_result`
//! blocks out, a round trip, and malformed messages refused.

use agentkit_core::provider::anthropic;
use agentkit_core::{ToolArguments, ToolCall, block_on};
use serde_json::{Value, json};

use crate::provider_fixtures::*;

#[test]
fn declarations_are_the_documented_tools() {
    assert_eq!(
        anthropic::tools(registry().specs()),
        json!([
            {"name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "input_schema": weather_parameters()},
            {"name": "plan_trip", "description": TRIP_DESCRIPTION,
             "input_schema": trip_parameters()},
        ])
    );
}

/// Strict tool use takes optional properties and `default`: the schema stays the same, with
/// `"strict": true` beside it.
#[test]
fn strict_declarations_add_strict_true() {
    assert_eq!(
        anthropic::strict_tools(registry().specs()),
        json!([
            {"name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "input_schema": weather_parameters(), "strict": true},
            {"name": "plan_trip", "description": TRIP_DESCRIPTION,
             "input_schema": trip_parameters(), "strict": true},
        ])
    );
}

/// Strict tool use refuses numerical constraints and open objects, at any depth.
#[test]
fn strict_schemas_meet_strict_tool_use_rules_at_every_depth() {
    let tools = anthropic::strict_tools(registry().specs());
    for tool in tools.as_array().unwrap() {
        for schema in subschemas(&tool["input_schema"]) {
            assert!(schema.get("minimum").is_none(), "{schema}");
            assert!(schema.get("maximum").is_none(), "{schema}");
            if schema.get("properties").is_some() {
                assert_eq!(schema["additionalProperties"], false, "{schema}");
            }
        }
    }
}

/// A message as the API documents it: text, then two `tool_use` blocks.
fn documented_message() -> Value {
    json!({
        "id": "msg_01Aq9w938a90dw8q",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "I'll check the weather and plan the trip."},
            {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9",
             "name": "fetch_weather", "input": {"city": "Paris", "units": "metric"}},
            {"type": "tool_use", "id": "toolu_01BzvLRrkXdT5mVZ4Rqgo8Xn",
             "name": "plan_trip", "input": {"cities": ["Rome", "Florence"]}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {"input_tokens": 512, "output_tokens": 96},
    })
}

#[test]
fn calls_are_the_tool_use_blocks_with_their_input_objects() {
    let message = documented_message();
    let expected = vec![
        ToolCall::new(
            "toolu_01A09q90qw90lq917835lq9",
            "fetch_weather",
            json!({"city": "Paris", "units": "metric"}),
        ),
        ToolCall::new(
            "toolu_01BzvLRrkXdT5mVZ4Rqgo8Xn",
            "plan_trip",
            json!({"cities": ["Rome", "Florence"]}),
        ),
    ];
    assert_eq!(anthropic::calls(&message).unwrap(), expected);
    assert_eq!(anthropic::calls(&message["content"]).unwrap(), expected);
    // No round trip through text.
    assert!(matches!(expected[0].arguments(), ToolArguments::Value(_)));
}

#[test]
fn messages_without_tool_use_have_no_calls() {
    let text = json!({"role": "assistant", "content": [{"type": "text", "text": "Hi"}]});
    assert_eq!(anthropic::calls(&text).unwrap(), []);
    let string_content = json!({"role": "user", "content": "Hello"});
    assert_eq!(anthropic::calls(&string_content).unwrap(), []);
    let server_tool = json!({"content": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
        {"type": "thinking", "thinking": "...", "signature": "sig"},
    ]});
    assert_eq!(anthropic::calls(&server_tool).unwrap(), []);
}

#[test]
fn results_are_one_user_message_of_tool_result_blocks() {
    let executor = executor();
    let calls = anthropic::calls(&documented_message()).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(
        anthropic::results(&results),
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
             "content": text(&weather_result()), "is_error": false},
            {"type": "tool_result", "tool_use_id": "toolu_01BzvLRrkXdT5mVZ4Rqgo8Xn",
             "content": text(&trip_result()), "is_error": false},
        ]})]
    );
    assert_eq!(anthropic::results(&[]), Vec::<Value>::new());
}

#[test]
fn round_trip() {
    let executor = executor();
    let tools = anthropic::strict_tools(executor.registry().specs());
    let name = |i: usize| tools[i]["name"].as_str().unwrap().to_owned();
    let message = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    "content": [
        {"type": "tool_use", "id": "toolu_1", "name": name(0), "input": weather_arguments()},
        {"type": "tool_use", "id": "toolu_2", "name": name(1), "input": trip_arguments()},
        {"type": "tool_use", "id": "toolu_3", "name": name(0), "input": bad_arguments()},
    ]});
    let calls = anthropic::calls(&message).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_scripted_outcomes(&results);
    assert_eq!(
        anthropic::results(&results),
        [json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1",
             "content": text(&weather_result()), "is_error": false},
            {"type": "tool_result", "tool_use_id": "toolu_2",
             "content": text(&trip_result()), "is_error": false},
            {"type": "tool_result", "tool_use_id": "toolu_3",
             "content": BAD_CALL_TEXT, "is_error": true},
        ]})]
    );
}

/// An `input` that is not an object is not a parse error: it goes to the executor, which
/// refuses it as invalid arguments, under the call's id, for the model to correct.
#[test]
fn an_input_that_is_not_an_object_is_refused_by_the_executor_under_its_id() {
    let message = json!({"content": [
        {"type": "tool_use", "id": "toolu_s", "name": "fetch_weather", "input": "Paris"},
        {"type": "tool_use", "id": "toolu_n", "name": "plan_trip"},
    ]});
    let calls = anthropic::calls(&message).unwrap();
    assert_eq!(calls[1].arguments(), &ToolArguments::Value(json!({})));
    let results = block_on(executor().dispatch_all(&calls));
    let blocks = &anthropic::results(&results)[0]["content"];
    assert_eq!(blocks[0]["tool_use_id"], "toolu_s");
    assert_eq!(blocks[0]["is_error"], true);
    assert_eq!(blocks[1]["tool_use_id"], "toolu_n");
    assert!(blocks[1]["content"].as_str().unwrap().contains("'cities'"));
}

#[test]
fn malformed_messages_are_errors_naming_the_place() {
    let cases = [
        (json!(true), ""),
        (json!({"role": "assistant"}), "content"),
        (json!({"content": {"type": "tool_use"}}), "content"),
        (json!({"content": [[]]}), "content[0]"),
        (json!({"content": [{"text": "no type"}]}), "content[0].type"),
        (
            json!({"content": [{"type": "tool_use", "name": "f", "input": {}}]}),
            "content[0].id",
        ),
        (
            json!({"content": [{"type": "tool_use", "id": "t", "name": null, "input": {}}]}),
            "content[0].name",
        ),
    ];
    for (message, path) in cases {
        let err = anthropic::calls(&message).expect_err(&message.to_string());
        assert_eq!(err.path(), path, "{message}");
        assert_eq!(err.api(), "Anthropic Messages");
    }
}
