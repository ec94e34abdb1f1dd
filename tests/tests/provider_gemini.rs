//! Google Gemini: one tool of `functionDeclarations` with `parametersJsonSchema`,
//! `functionCall` parts in (ids kept, or generated and never sent back), one `user` content
//! of `functionResponse` parts out, a round trip, and malformed replies refused.

use agentkit_core::provider::gemini;
use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
use serde_json::{Value, json};

use crate::provider_fixtures::*;

#[test]
fn declarations_are_one_tool_of_function_declarations() {
    assert_eq!(
        gemini::tools(registry().specs()),
        json!([{"functionDeclarations": [
            {"name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "parametersJsonSchema": weather_parameters()},
            {"name": "plan_trip", "description": TRIP_DESCRIPTION,
             "parametersJsonSchema": trip_parameters()},
        ]}])
    );
}

/// Optional parameters are declared unrequired, not nullable: no type arrays (which the
/// OpenAPI-subset `parameters` field refuses), and `parameters` itself is not used.
#[test]
fn declared_schemas_have_no_type_arrays() {
    fn no_type_arrays(schema: &Value) -> bool {
        match schema {
            Value::Object(object) => {
                !object.get("type").is_some_and(Value::is_array)
                    && object.values().all(no_type_arrays)
            }
            Value::Array(items) => items.iter().all(no_type_arrays),
            _ => true,
        }
    }
    let declared = gemini::tools(registry().specs());
    assert!(no_type_arrays(&declared), "{declared}");
    assert!(
        declared[0]["functionDeclarations"][0]
            .get("parameters")
            .is_none()
    );
}

/// A response as the API documents it: two parallel calls without ids (the first carrying a
/// thought signature, as Gemini 3 sends), then usage metadata.
fn documented_response() -> Value {
    json!({
        "candidates": [{
            "content": {
                "parts": [
                    {"functionCall": {"name": "fetch_weather",
                                      "args": {"city": "Paris", "units": "metric"}},
                     "thoughtSignature": "CiQBVKhc7oHp0a"},
                    {"functionCall": {"name": "plan_trip",
                                      "args": {"cities": ["Rome", "Florence"]}}},
                ],
                "role": "model",
            },
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 161, "candidatesTokenCount": 36,
                          "totalTokenCount": 197},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "Yh4DaeG7B6ahz7IP",
    })
}

#[test]
fn calls_without_ids_get_stable_generated_ones() {
    let response = documented_response();
    let expected = vec![
        ToolCall::new(
            "agentkit-gemini-0",
            "fetch_weather",
            json!({"city": "Paris", "units": "metric"}),
        ),
        ToolCall::new(
            "agentkit-gemini-1",
            "plan_trip",
            json!({"cities": ["Rome", "Florence"]}),
        ),
    ];
    assert_eq!(gemini::calls(&response).unwrap(), expected);
    assert_eq!(gemini::calls(&response).unwrap(), expected, "stable");
    assert_eq!(
        gemini::calls(&response["candidates"][0]["content"]).unwrap(),
        expected
    );
}

#[test]
fn call_ids_gemini_gives_are_kept_and_sent_back() {
    let content = json!({"role": "model", "parts": [
        {"text": "Let me look."},
        {"functionCall": {"id": "m7hq2x1c", "name": "fetch_weather", "args": {"city": "Oslo"}}},
        {"functionCall": {"name": "plan_trip", "args": {"cities": ["Oslo"]}}},
    ]});
    let calls = gemini::calls(&content).unwrap();
    // A generated id counts the function calls, not the parts.
    let ids: Vec<&str> = calls.iter().map(ToolCall::id).collect();
    assert_eq!(ids, ["m7hq2x1c", "agentkit-gemini-1"]);
    let results = block_on(executor().dispatch_all(&calls));
    let parts = &gemini::results(&results)[0]["parts"];
    assert_eq!(parts[0]["functionResponse"]["id"], "m7hq2x1c");
    assert!(parts[1]["functionResponse"].get("id").is_none());
}

#[test]
fn a_call_without_args_has_no_arguments() {
    let executor = ToolExecutor::new(ToolRegistry::new());
    let calls = gemini::calls(&json!({"parts": [{"functionCall": {"name": "ping"}}]})).unwrap();
    assert_eq!(
        calls,
        [ToolCall::new("agentkit-gemini-0", "ping", json!({}))]
    );
    // (And an unknown tool's failure goes back under its name.)
    let part = gemini::result(&block_on(executor.dispatch(&calls[0])));
    assert_eq!(part["functionResponse"]["name"], "ping");
    assert!(part["functionResponse"]["response"]["error"].is_string());
}

#[test]
fn replies_without_calls_have_none() {
    for reply in [
        json!({"candidates": [{"content": {"parts": [{"text": "Sunny."}], "role": "model"}}]}),
        json!({"candidates": []}),
        json!({"candidates": [{"finishReason": "SAFETY", "index": 0}]}),
        json!({"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}]}),
        json!({"promptFeedback": {"blockReason": "SAFETY"}}),
    ] {
        assert_eq!(gemini::calls(&reply).unwrap(), [], "{reply}");
    }
}

#[test]
fn results_are_one_user_content_of_function_responses() {
    let executor = executor();
    let calls = gemini::calls(&documented_response()).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_eq!(
        gemini::results(&results),
        [json!({"role": "user", "parts": [
            {"functionResponse": {"name": "fetch_weather",
                                  "response": {"output": weather_result()}}},
            {"functionResponse": {"name": "plan_trip",
                                  "response": {"output": trip_result()}}},
        ]})]
    );
    assert_eq!(gemini::results(&[]), Vec::<Value>::new());
}

#[test]
fn round_trip() {
    let executor = executor();
    let tools = gemini::tools(executor.registry().specs());
    let name = |i: usize| {
        tools[0]["functionDeclarations"][i]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let response = json!({"candidates": [{"index": 0, "finishReason": "STOP",
    "content": {"role": "model", "parts": [
        {"functionCall": {"id": "c1", "name": name(0), "args": weather_arguments()}},
        {"functionCall": {"id": "c2", "name": name(1), "args": trip_arguments()}},
        {"functionCall": {"id": "c3", "name": name(0), "args": bad_arguments()}},
    ]}}]});
    let calls = gemini::calls(&response).unwrap();
    let results = block_on(executor.dispatch_all(&calls));
    assert_scripted_outcomes(&results);
    assert_eq!(
        gemini::results(&results),
        [json!({"role": "user", "parts": [
            {"functionResponse": {"id": "c1", "name": "fetch_weather",
                                  "response": {"output": weather_result()}}},
            {"functionResponse": {"id": "c2", "name": "plan_trip",
                                  "response": {"output": trip_result()}}},
            {"functionResponse": {"id": "c3", "name": "fetch_weather",
                                  "response": {"error": BAD_CALL_TEXT}}},
        ]})]
    );
}

#[test]
fn malformed_replies_are_errors_naming_the_place() {
    let cases = [
        (json!([]), ""),
        (json!({"usageMetadata": {}}), ""),
        (json!({"candidates": {}}), "candidates"),
        (json!({"candidates": [1]}), "candidates[0]"),
        (
            json!({"candidates": [{"content": []}]}),
            "candidates[0].content",
        ),
        (
            json!({"candidates": [{"content": {"parts": {}}}]}),
            "candidates[0].content.parts",
        ),
        (json!({"parts": ["text"]}), "parts[0]"),
        (
            json!({"parts": [{"functionCall": "f"}]}),
            "parts[0].functionCall",
        ),
        (
            json!({"parts": [{"functionCall": {"args": {}}}]}),
            "parts[0].functionCall.name",
        ),
        (
            json!({"parts": [{"functionCall": {"name": "f", "id": 3}}]}),
            "parts[0].functionCall.id",
        ),
    ];
    for (reply, path) in cases {
        let err = gemini::calls(&reply).expect_err(&reply.to_string());
        assert_eq!(err.path(), path, "{reply}");
        assert_eq!(err.api(), "Gemini");
    }
}
