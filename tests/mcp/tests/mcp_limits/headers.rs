//! The standard and custom headers of MCP 2026-07-28 (SEP-2243), checked by the server against
//! the body: `Mcp-Method` and `Mcp-Name` name the request, and a parameter whose schema says
//! `x-mcp-header: Name` travels in `Mcp-Param-Name` too (Base64 in `=?base64?..?=`). A request
//! whose headers contradict its body is refused with -32020 before any tool runs, so that a
//! proxy routing on the headers cannot be shown one call and run another.

use super::*;

/// The revision whose requests carry the headers.
const REVISION: &str = "2026-07-28";

/// Counts its runs, and answers with its arguments.
struct Lookup {
    spec: ToolSpec,
    runs: Arc<Mutex<u32>>,
}

impl Tool for Lookup {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        _: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        *self.runs.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        Ok(inputs.clone().into())
    }
}

/// A server whose one tool, `lookup`, mirrors its `region` in the header `Mcp-Param-Region`.
fn lookup_server(runs: Arc<Mutex<u32>>) -> McpServer {
    let spec = ToolSpec::builder("lookup")
        .description("Looks a key up in a region.")
        .input_json_schema(json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "x-mcp-header": "Region" },
                "key": { "type": "string" },
            },
            "required": ["region", "key"],
        }))
        .build()
        .expect("a schema with an x-mcp-header annotation");
    let mut registry = ToolRegistry::new();
    registry.register(Lookup { spec, runs }).unwrap();
    McpServer::new(Arc::new(ToolExecutor::new(registry)))
}

/// A 2026-07-28 `tools/call` of `lookup` (no session: the revision has none) with
/// `arguments` and, beside the standard headers, `extra`.
async fn call_lookup(address: &str, arguments: Value, extra: &[(&str, &str)]) -> Answer {
    let mut headers = vec![
        ("host", "127.0.0.1"),
        ("mcp-protocol-version", REVISION),
        ("mcp-method", "tools/call"),
        ("mcp-name", "lookup"),
    ];
    headers.extend_from_slice(extra);
    let body = json!({
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "lookup",
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": REVISION,
                "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "0" },
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    });
    request(address, "POST", &headers, &body.to_string()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parameter_header_that_agrees_with_the_body_is_served() {
    let runs = Arc::new(Mutex::new(0));
    let (address, _stop, _task) = serve(lookup_server(Arc::clone(&runs))).await;
    let arguments = json!({ "region": "eu-west", "key": "k" });
    // Plain, padded with spaces (RFC 9110 trims them), and in Base64 ("eu-west").
    for header in ["eu-west", "  eu-west ", "=?base64?ZXUtd2VzdA==?="] {
        let answer =
            call_lookup(&address, arguments.clone(), &[("mcp-param-region", header)]).await;
        assert_eq!(answer.status, 200, "{header:?}: {answer:?}");
        assert_eq!(answer.output(), arguments, "{header:?}");
    }
    assert_eq!(*runs.lock().unwrap(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn headers_that_contradict_the_body_are_refused_before_the_tool_runs() {
    let runs = Arc::new(Mutex::new(0));
    let (address, _stop, _task) = serve(lookup_server(Arc::clone(&runs))).await;
    let arguments = json!({ "region": "eu-west", "key": "k" });
    let cases: [(&str, &[(&str, &str)]); 5] = [
        ("another region", &[("mcp-param-region", "us-east")]),
        ("the parameter's header left out", &[]),
        (
            "Base64 without its padding",
            &[("mcp-param-region", "=?base64?ZXUtd2VzdA?=")],
        ),
        (
            "Base64 with a character outside its alphabet",
            &[("mcp-param-region", "=?base64?ZXUt!!d2VzdA==?=")],
        ),
        (
            "the Base64 of another region",
            &[("mcp-param-region", "=?base64?dXMtZWFzdA==?=")],
        ),
    ];
    for (case, extra) in cases {
        let answer = call_lookup(&address, arguments.clone(), extra).await;
        let message = answer.message();
        assert_eq!(message["error"]["code"], -32020, "{case}: {answer:?}");
        assert!(message.get("result").is_none(), "{case}: {message}");
    }
    // `Mcp-Name` naming another tool than the body's.
    let mut headers = vec![
        ("host", "127.0.0.1"),
        ("mcp-protocol-version", REVISION),
        ("mcp-method", "tools/call"),
        ("mcp-name", "other"),
        ("mcp-param-region", "eu-west"),
    ];
    let body = json!({
        "jsonrpc": "2.0", "id": 8, "method": "tools/call",
        "params": { "name": "lookup", "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": REVISION,
            "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "0" },
            "io.modelcontextprotocol/clientCapabilities": {},
        } },
    });
    let answer = request(&address, "POST", &headers, &body.to_string()).await;
    assert_eq!(answer.message()["error"]["code"], -32020, "{answer:?}");
    // And `Mcp-Method` naming another method.
    headers[2] = ("mcp-method", "tools/list");
    headers[3] = ("mcp-name", "lookup");
    let answer = request(&address, "POST", &headers, &body.to_string()).await;
    assert_eq!(answer.message()["error"]["code"], -32020, "{answer:?}");
    assert_eq!(*runs.lock().unwrap(), 0, "no refused call ran its tool");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_annotation_is_served_as_declared() {
    let (address, _stop, _task) = serve(lookup_server(Arc::default())).await;
    let id = session(&address, &[]).await.expect("a 2025-06-18 session");
    let headers = [
        ("host", "127.0.0.1"),
        ("mcp-session-id", id.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let answer = request(&address, "POST", &headers, list).await;
    let message = answer.message();
    assert_eq!(
        message["result"]["tools"][0]["inputSchema"]["properties"]["region"]["x-mcp-header"],
        "Region",
        "{message}"
    );
    // A client of an earlier revision sends no such headers, and is served.
    let answer = call(
        &address,
        &id,
        "lookup",
        r#"{"region":"eu-west","key":"k"}"#,
        &[],
    )
    .await;
    assert_eq!(answer.output()["region"], "eu-west", "{answer:?}");
}
