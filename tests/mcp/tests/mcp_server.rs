//! The example MCP server (`cargo run --example mcp_server --features mcp`), as the official
//! MCP TypeScript SDK client sees it, over stdio and over streamable HTTP on loopback: the
//! tools it lists, a good call, a call with three mistakes (all three in one `isError`
//! result), an unknown tool (a protocol error) and a tool that fails. Progress and approval are
//! in `mcp_progress.rs`.
//!
//! Needs the peers: `npm ci --prefix tests/mcp-peers` (`.ci/run` does it).

use serde_json::{Value, json};

use crate::mcp_support::{
    example_server, example_server_over_http, first_text, official_client, peers,
};

/// The calls every transport makes, in order.
fn calls() -> Value {
    json!([
        {"name": "fetch_weather", "arguments": {"city": "Paris"}},
        {"name": "fetch_weather", "arguments": {"citty": "Paris", "units": 5}},
        {"name": "fetch_wether", "arguments": {"city": "Paris"}},
        {"name": "convert_currency", "arguments": {"amount": 10, "from": "EUR", "to": "XYZ"}},
        {"name": "convert_currency", "arguments": {"amount": 10, "from": "EUR", "to": "USD"}},
    ])
}

/// What the official client saw, whatever the transport.
fn check(seen: &Value) {
    assert_eq!(seen["server"]["name"], "agentkit-example");

    // tools/list: the registry's tools, in registration order, with their schemas and tags.
    let tools = seen["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["fetch_weather", "convert_currency"]);
    let weather = &tools[0];
    assert_eq!(
        weather["description"],
        "Look up the current weather for a city."
    );
    assert_eq!(weather["inputSchema"]["type"], "object");
    assert_eq!(weather["inputSchema"]["required"], json!(["city"]));
    assert_eq!(
        weather["inputSchema"]["properties"]["units"]["default"],
        "imperial"
    );
    assert_eq!(
        weather["outputSchema"]["properties"]["temperature"]["type"],
        "number"
    );
    assert_eq!(
        weather["_meta"]["agentkit/tags"],
        json!({"category": "weather"})
    );

    let calls = seen["calls"].as_array().expect("calls");
    assert_eq!(calls.len(), 5);

    // A good call: the output as text and, since the tool declares an output schema, as
    // structured content; defaults filled by the executor; the credential resolved.
    let good = &calls[0]["result"];
    assert_eq!(good["isError"], false, "{good}");
    let structured = &good["structuredContent"];
    assert_eq!(structured["city"], "Paris");
    assert_eq!(structured["units"], "imperial");
    assert_eq!(structured["country"], "US");
    let text: Value = serde_json::from_str(first_text(good)).expect("the text is the JSON output");
    assert_eq!(&text, structured);

    // Three mistakes: one isError result listing all three, for the model to correct.
    let mistakes = &calls[1]["result"];
    assert_eq!(mistakes["isError"], true, "{mistakes}");
    let text = first_text(mistakes);
    assert!(
        text.starts_with("Error: invalid arguments for tool 'fetch_weather'"),
        "{text}"
    );
    assert!(
        text.contains("Missing required parameter: 'city'"),
        "{text}"
    );
    assert!(
        text.contains("Parameter 'units': expected type 'string', got 'integer'"),
        "{text}"
    );
    assert!(text.contains("'citty'"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("- ")).count(),
        3,
        "{text}"
    );
    assert!(mistakes.get("structuredContent").is_none(), "{mistakes}");

    // An unknown tool: the protocol's invalid-params error, naming the tool.
    let unknown = &calls[2]["error"];
    assert_eq!(unknown["code"], -32602, "{}", calls[2]);
    assert!(
        unknown["message"]
            .as_str()
            .is_some_and(|m| m.contains("unknown tool 'fetch_wether'")),
        "{unknown}"
    );

    // A tool that asks the model to correct its call: an isError result with its feedback.
    let failed = &calls[3]["result"];
    assert_eq!(failed["isError"], true, "{failed}");
    assert_eq!(
        first_text(failed),
        "Error: tool 'convert_currency' asks you to correct the call and try again: \
         no exchange rate for 'XYZ'; use one of EUR, USD, GBP",
        "{failed}"
    );

    // The same tool succeeds with good arguments: the server is still serving after a failure.
    let converted = &calls[4]["result"];
    assert_eq!(converted["isError"], false, "{converted}");
    assert!((converted["structuredContent"]["amount"].as_f64().unwrap() - 10.8).abs() < 1e-9);
}

#[tokio::test]
async fn official_client_over_stdio() {
    let Some(peers) = peers() else { return };
    let seen = official_client(&peers, &calls(), &["stdio", example_server()]).await;
    check(&seen);
}

#[tokio::test]
async fn official_client_over_streamable_http() {
    let Some(peers) = peers() else { return };
    let (_server, url) = example_server_over_http().await;
    let seen = official_client(&peers, &calls(), &["http", &url]).await;
    check(&seen);
}
