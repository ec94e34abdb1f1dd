//! MCP's JSON shapes: `tools/list` entries (with `outputSchema`), `tools/call` requests in,
//! `CallToolResult`s out (`structuredContent` only for tools with an output schema), a round
//! trip, and malformed requests refused.

use agentkit_core::provider::mcp;
use agentkit_core::{
    BoxError, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor, ToolOutput, ToolRegistry,
    ToolSpec, block_on,
};
use serde_json::{Value, json};

use crate::provider_fixtures::*;

#[test]
fn tools_list_entries_carry_input_and_output_schemas() {
    assert_eq!(
        json!({"tools": mcp::tools(registry().specs())}),
        json!({"tools": [
            {"name": "fetch_weather", "description": WEATHER_DESCRIPTION,
             "inputSchema": weather_parameters(), "outputSchema": weather_output()},
            {"name": "plan_trip", "description": TRIP_DESCRIPTION,
             "inputSchema": trip_parameters(), "outputSchema": trip_output()},
        ]})
    );
}

/// MCP hosts read `inputSchema` and `outputSchema` as JSON Schema: they must be valid.
#[test]
fn declared_schemas_are_valid_json_schema() {
    let tools = mcp::tools(registry().specs());
    for tool in tools.as_array().unwrap() {
        for key in ["inputSchema", "outputSchema"] {
            assert!(jsonschema::meta::is_valid(&tool[key]), "{key}: {tool}");
        }
    }
}

/// A tool without schemas: any object in, no `outputSchema`, no empty `description`.
struct Raw(ToolSpec);

impl Tool for Raw {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }
    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        Ok(inputs.clone().into())
    }
}

fn raw_executor() -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    registry
        .register(Raw(ToolSpec::builder("echo").build().unwrap()))
        .unwrap();
    ToolExecutor::new(registry)
}

#[test]
fn a_tool_without_schemas_takes_any_object_and_declares_no_output() {
    let executor = raw_executor();
    assert_eq!(
        mcp::tools(executor.registry().specs()),
        json!([{"name": "echo", "inputSchema": {"type": "object"}}])
    );
    // Its output is text only: no schema promises a structure.
    let call = mcp::call(&json!({"name": "echo", "arguments": {"a": 1}})).unwrap();
    let result = block_on(executor.dispatch(&call));
    assert_eq!(
        mcp::result(&result, executor.registry()),
        json!({"content": [{"type": "text", "text": "{\"a\":1}"}], "isError": false})
    );
}

/// A request as the protocol documents it.
fn documented_request() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "fetch_weather",
            "arguments": {"city": "Paris", "units": "metric"},
            "_meta": {"progressToken": "p-1"},
        },
    })
}

#[test]
fn a_call_is_read_from_the_request_or_its_params() {
    let request = documented_request();
    assert_eq!(
        mcp::call(&request).unwrap(),
        ToolCall::new(
            "2",
            "fetch_weather",
            json!({"city": "Paris", "units": "metric"})
        )
    );
    let string_id = json!({"jsonrpc": "2.0", "id": "req-7", "method": "tools/call",
                           "params": {"name": "plan_trip"}});
    assert_eq!(
        mcp::call(&string_id).unwrap(),
        ToolCall::new("req-7", "plan_trip", json!({}))
    );
    assert_eq!(
        mcp::call(&request["params"]).unwrap(),
        ToolCall::new(
            "",
            "fetch_weather",
            json!({"city": "Paris", "units": "metric"})
        )
    );
}

#[test]
fn results_have_text_is_error_and_structured_content_for_declared_outputs() {
    let executor = executor();
    let call = mcp::call(&documented_request()).unwrap();
    let result = block_on(executor.dispatch(&call));
    assert_eq!(
        mcp::result(&result, executor.registry()),
        json!({
            "content": [{"type": "text", "text": text(&weather_result())}],
            "isError": false,
            "structuredContent": weather_result(),
        })
    );
}

#[test]
fn round_trip() {
    let executor = executor();
    let tools = mcp::tools(executor.registry().specs());
    let name = |i: usize| tools[i]["name"].as_str().unwrap().to_owned();
    let request = |id: u32, name: String, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
    };
    let requests = [
        request(1, name(0), weather_arguments()),
        request(2, name(1), trip_arguments()),
        request(3, name(0), bad_arguments()),
    ];
    let calls: Vec<ToolCall> = requests.iter().map(|r| mcp::call(r).unwrap()).collect();
    let results = block_on(executor.dispatch_all(&calls));
    assert_scripted_outcomes(&results);
    let ids: Vec<&str> = results.iter().map(|r| r.call_id()).collect();
    assert_eq!(ids, ["1", "2", "3"]);
    let answers: Vec<Value> = results
        .iter()
        .map(|r| mcp::result(r, executor.registry()))
        .collect();
    assert_eq!(
        answers,
        [
            json!({"content": [{"type": "text", "text": text(&weather_result())}],
                   "isError": false, "structuredContent": weather_result()}),
            json!({"content": [{"type": "text", "text": text(&trip_result())}],
                   "isError": false, "structuredContent": trip_result()}),
            // A validation failure is a tool result the model can act on, not a protocol error.
            json!({"content": [{"type": "text", "text": BAD_CALL_TEXT}], "isError": true}),
        ]
    );
}

#[test]
fn malformed_requests_are_errors_naming_the_place() {
    let cases = [
        (json!("tools/call"), ""),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            "method",
        ),
        (json!({"jsonrpc": "2.0", "id": 1, "method": 5}), "method"),
        (
            json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "f"}}),
            "id",
        ),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "tools/call"}),
            "id",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}),
            "params",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}),
            "params.name",
        ),
        (json!({"arguments": {}}), "name"),
    ];
    for (request, path) in cases {
        let err = mcp::call(&request).expect_err(&request.to_string());
        assert_eq!(err.path(), path, "{request}");
        assert_eq!(err.api(), "MCP");
    }
}
