//! agentkit's MCP client against servers written the way the official SDKs' users write them,
//! whose tools' `inputSchema`s come from the SDKs' own converters rather than from anyone's
//! hand: `tests/mcp-peers/zod-server.mjs` (the TypeScript SDK's `McpServer` with zod 4 schemas:
//! optional and nullable fields, enums, nested objects, arrays of objects, a type union, a
//! discriminated union, a record, defaults, `email`/`uuid` formats, a regex, bounds) and
//! `tests/mcp-peers/fastmcp_server.py` (the Python SDK's FastMCP, `MCPServer` in `mcp` 2, with
//! pydantic models: `Optional[X] = None`, nested models as `$ref`s into `$defs`, `Literal` and
//! `Enum` parameters, a list of models, a union, defaults and bounds). Both started over
//! stdio.
//!
//! For each: every tool registers (agentkit's validator takes every schema); valid calls
//! (`null` for an optional parameter, a union's variants, a record) pass the executor and
//! reach the server with the arguments agentkit made of them (a `null` that reads as absent
//! dropped, defaults filled); invalid ones (a missing nested field, a value outside an enum, a
//! variant's bad field, a wrong type in a union, a bad `email`/`uuid`, a regex mismatch, an
//! undeclared argument) are refused with agentkit's own message, and never reach the server:
//! each server counts the calls that arrive (its `calls` tool), before its SDK validates them.
//!
//! Needs the npm peers for the zod server (`npm ci --prefix tests/mcp-peers`) and, for the
//! FastMCP server, a venv with the pinned Python SDK:
//! `python3 -m venv tests/mcp-peers/.venv && tests/mcp-peers/.venv/bin/pip install -r
//! tests/mcp-peers/requirements.txt`. `.ci/run` does both; a test whose peer is missing says so
//! loudly and skips, and fails under CI (`CI=true`).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use agentkit_core::mcp::McpClient;
use agentkit_core::{Direction, Error, ToolCall, ToolExecutor, ToolRegistry, ToolResult};
use serde_json::{Value, json};
use tokio::process::Command;

use crate::mcp_support::{PEER_TIMEOUT, peers};

/// Awaits `future`, failing the test if a peer makes it wait too long.
async fn bounded<T>(future: impl Future<Output = T>) -> T {
    tokio::time::timeout(PEER_TIMEOUT, future)
        .await
        .expect("the MCP peer did not answer in time")
}

/// The `tests/mcp-peers` directory.
fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp-peers")
}

/// The venv's Python, with the pinned `mcp` importable; else a loud skip line and `None`, or,
/// under CI (`CI=true`, where `.ci/run` makes the venv), a failure: the same convention as
/// `mcp_support::peers`.
fn fastmcp_python() -> Option<PathBuf> {
    let venv = peers_dir().join(".venv");
    let python = venv.join("bin/python");
    let why = if std::env::var("AGENTKIT_SKIP_MCP_PEERS").as_deref() == Ok("1") {
        "AGENTKIT_SKIP_MCP_PEERS=1".to_owned()
    } else {
        let imports = std::process::Command::new(&python)
            .args(["-c", "import mcp.server.mcpserver, pydantic"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if imports {
            return Some(python);
        }
        let in_ci =
            std::env::var("CI").is_ok_and(|ci| !ci.is_empty() && ci != "false" && ci != "0");
        let why = format!(
            "{} cannot import the Python MCP SDK, so the FastMCP server cannot run; make the \
             venv: python3 -m venv tests/mcp-peers/.venv && tests/mcp-peers/.venv/bin/pip \
             install -r tests/mcp-peers/requirements.txt",
            python.display()
        );
        assert!(
            !in_ci,
            "\n!!! MCP interoperability test cannot run under CI: {why}\n"
        );
        why
    };
    // Straight to the process's stderr: the harness captures `eprintln!` of passing tests.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! SKIPPED MCP interoperability test: {why}\n"
    );
    None
}

/// A server started with `command`, its tools registered in an executor of their own.
struct Served {
    _client: McpClient,
    executor: ToolExecutor,
}

impl Served {
    /// Connects, registers every tool the server lists and checks that none was refused.
    async fn start(mut command: Command, expected_tools: &[&str]) -> Served {
        command.stderr(Stdio::null());
        let client = bounded(McpClient::connect_stdio(command))
            .await
            .expect("the server starts and answers the handshake");
        let mut registry = ToolRegistry::new();
        // An `inputSchema` agentkit's validator cannot take refuses its tool, failing this.
        let import = bounded(client.register_tools(&mut registry, None))
            .await
            .unwrap_or_else(|e| panic!("the tools are listed: {e}"));
        assert_eq!(import.refused(), [], "every tool registers");
        let names = import.registered();
        assert_eq!(names, expected_tools);
        for name in names {
            let spec = registry.lookup(name).expect("registered");
            assert!(spec.input_json().is_some(), "{name} is validated in full");
        }
        Served {
            _client: client,
            executor: ToolExecutor::new(registry),
        }
    }

    async fn call(&self, name: &str, arguments: Value) -> ToolResult {
        bounded(
            self.executor
                .dispatch(&ToolCall::new("call", name, arguments)),
        )
        .await
    }

    /// Calls `name`, which must succeed, and returns what the server echoed:
    /// `{"tool", "arguments" (as they arrived), "parsed" (after the SDK's validation)}`.
    async fn echo(&self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments.clone()).await;
        assert!(
            result.is_success(),
            "{name} {arguments} was refused: {}",
            result.to_model_content()
        );
        let text = result
            .content()
            .first()
            .and_then(|part| part.as_text())
            .unwrap_or_else(|| panic!("no text in {result:?}"));
        let echoed: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(echoed["tool"], name, "{echoed}");
        echoed
    }

    /// How many calls to the other tools have reached the server.
    async fn calls(&self) -> u64 {
        let echoed = self.call("calls", json!({})).await;
        let text = echoed
            .content()
            .first()
            .and_then(|part| part.as_text())
            .unwrap_or_else(|| panic!("no text in {echoed:?}"));
        let count: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        count["calls"]
            .as_u64()
            .unwrap_or_else(|| panic!("no count in {text}"))
    }

    /// Checks that each call is refused by agentkit as `says`, and that none reached the
    /// server; returns what went otherwise, every case at once.
    async fn refusals(&self, cases: &[Refused]) -> Vec<String> {
        let before = self.calls().await;
        let mut wrong = Vec::new();
        for case in cases {
            let result = self.call(case.tool, case.arguments.clone()).await;
            let said: Vec<String> = match result.error() {
                Some(Error::Validation(invalid)) if invalid.direction() == Direction::Input => {
                    invalid.errors().iter().map(ToString::to_string).collect()
                }
                _ => {
                    wrong.push(format!(
                        "{} {}: not refused by agentkit; got {}",
                        case.tool,
                        case.arguments,
                        result.to_model_content()
                    ));
                    continue;
                }
            };
            let right = match case.says {
                Says::Exactly(expected) => said == expected,
                Says::Including(expected) => said.iter().any(|m| m == expected),
            };
            if !right {
                wrong.push(format!(
                    "{} {}: agentkit said {said:?}, should say {:?}",
                    case.tool, case.arguments, case.says
                ));
            }
        }
        let after = self.calls().await;
        if after != before {
            wrong.push(format!(
                "{} refused call(s) reached the server",
                after - before
            ));
        }
        wrong
    }
}

/// What agentkit should say when it refuses a call.
#[derive(Debug)]
enum Says {
    /// These messages, in this order, and no other.
    Exactly(&'static [&'static str]),
    /// This message among others (where the schema has two keywords that both refuse the
    /// value, such as zod's `format` and the `pattern` it adds beside it).
    Including(&'static str),
}

struct Refused {
    tool: &'static str,
    arguments: Value,
    says: Says,
}

fn refused(tool: &'static str, arguments: Value, says: Says) -> Refused {
    Refused {
        tool,
        arguments,
        says,
    }
}

fn assert_all_right(wrong: &[String]) {
    assert!(
        wrong.is_empty(),
        "{} wrong verdict(s):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

const UUID: &str = "123e4567-e89b-12d3-a456-426614174000";

#[tokio::test]
async fn zod_schemas_from_the_typescript_sdk_are_validated_in_full() {
    let Some(peers) = peers() else { return };
    let mut command = Command::new("node");
    command
        .arg(peers.join("zod-server.mjs"))
        .current_dir(&peers);
    let server = Served::start(command, &["create_user", "forecast", "draw", "calls"]).await;
    let shown = |name| {
        let spec = server.executor.registry().lookup(name).expect("registered");
        agentkit_core::provider::mcp::tool(spec)["inputSchema"].clone()
    };
    // What zod emitted, as the tests below rely on it.
    let user = shown("create_user");
    assert_eq!(user["$schema"], "http://json-schema.org/draft-07/schema#");
    assert_eq!(
        user["properties"]["nickname"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(user["properties"]["email"]["format"], "email");
    assert!(shown("draw")["properties"]["shape"]["oneOf"].is_array());
    assert_eq!(server.calls().await, 0);

    // `null` for `age` (`.optional()`, which cannot be null) reads as absent; for `nickname`
    // (`.nullable().optional()`) it is kept, a value the schema allows.
    let user = json!({
        "name": "Ada",
        "email": "ada@example.com",
        "id": UUID,
        "age": null,
        "nickname": null,
        "address": {"street": "1 Main St", "city": "Oslo", "zip": "01234"},
    });
    let echoed = server.echo("create_user", user.clone()).await;
    let mut sent = user.clone();
    sent.as_object_mut().unwrap().remove("age");
    assert_eq!(echoed["arguments"], sent);
    assert_eq!(echoed["parsed"]["nickname"], Value::Null);
    let echoed = server
        .echo(
            "create_user",
            json!({"name": "Bo", "email": "bo@example.org", "id": UUID, "age": 41,
                   "address": {"street": "2 Side St", "city": "Lima"}}),
        )
        .await;
    assert_eq!(echoed["parsed"]["age"], 41);

    // Both types of the union; the defaults filled by agentkit before the call.
    let echoed = server.echo("forecast", json!({"station": "OSL"})).await;
    assert_eq!(
        echoed["arguments"],
        json!({"station": "OSL", "units": "metric", "days": 3})
    );
    let echoed = server
        .echo(
            "forecast",
            json!({"station": 1234, "units": "imperial", "days": 14}),
        )
        .await;
    assert_eq!(echoed["parsed"]["station"], 1234);

    // Each variant of the discriminated union, an array of objects, a record.
    let echoed = server
        .echo(
            "draw",
            json!({
                "shape": {"type": "rect", "width": 2, "height": 3.5},
                "points": [{"x": 0, "y": 0}, {"x": 1.5, "y": -2, "label": "top"}],
                "weights": {"a": 0.5, "b": 2},
            }),
        )
        .await;
    assert_eq!(echoed["arguments"]["weights"], json!({"a": 0.5, "b": 2}));
    assert_eq!(echoed["arguments"]["tags"], json!([]));
    assert_eq!(echoed["parsed"]["shape"]["height"], 3.5);
    let echoed = server
        .echo(
            "draw",
            json!({"shape": {"type": "circle", "radius": 1}, "points": [{"x": 1, "y": 1}],
                   "tags": ["a", "b"]}),
        )
        .await;
    assert_eq!(
        echoed["parsed"]["shape"],
        json!({"type": "circle", "radius": 1})
    );
    assert_eq!(server.calls().await, 6);

    let address = json!({"street": "1 Main St", "city": "Oslo"});
    let user = |change: Value| {
        let mut user = json!({"name": "Ada", "email": "ada@example.com", "id": UUID,
                              "address": address.clone()});
        for (key, value) in change.as_object().unwrap() {
            user[key] = value.clone();
        }
        user
    };
    let point = json!([{"x": 0, "y": 0}]);
    let wrong = server
        .refusals(&[
            refused(
                "create_user",
                user(json!({"address": {"street": "1 Main St"}})),
                Says::Exactly(&["Missing required parameter: 'address.city'"]),
            ),
            refused(
                "create_user",
                user(json!({"address": {"street": "1 Main St", "city": "Oslo", "zip": "1234"}})),
                Says::Exactly(&["Parameter 'address.zip': must match the pattern '^[0-9]{5}$'"]),
            ),
            refused(
                "create_user",
                user(json!({"email": "ada.example.com"})),
                Says::Including(
                    "Parameter 'email': must be a valid email (like 'name@example.com')",
                ),
            ),
            refused(
                "create_user",
                user(json!({"id": "123e4567-e89b-12d3-a456"})),
                Says::Including(
                    "Parameter 'id': must be a valid uuid (like \
                     '123e4567-e89b-12d3-a456-426614174000')",
                ),
            ),
            refused(
                "create_user",
                user(json!({"name": ""})),
                Says::Exactly(&["Parameter 'name': must be at least 1 character long, got 0"]),
            ),
            refused(
                "create_user",
                user(json!({"age": 12.5})),
                Says::Exactly(&["Parameter 'age': expected type 'integer', got 'number'"]),
            ),
            refused(
                "create_user",
                user(json!({"nickname": 5})),
                Says::Exactly(&[
                    "Parameter 'nickname': expected type 'null' or 'string', got 'integer'",
                ]),
            ),
            refused(
                "create_user",
                user(json!({"role": "admin"})),
                Says::Exactly(&["Unknown parameter: 'role'; it is not declared by this tool"]),
            ),
            refused(
                "create_user",
                user(json!({"address": {"street": "1 Main St", "city": "Oslo", "country": "NO"}})),
                Says::Exactly(&[
                    "Unknown parameter: 'address.country'; it is not declared by this tool",
                ]),
            ),
            refused(
                "forecast",
                json!({"station": "OSL", "units": "kelvin"}),
                Says::Exactly(&[
                    "Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'",
                ]),
            ),
            refused(
                "forecast",
                json!({"station": "OSL", "days": 15}),
                Says::Exactly(&["Parameter 'days': must be at most 14, got 15"]),
            ),
            refused(
                "forecast",
                json!({"station": true}),
                Says::Exactly(&[
                    "Parameter 'station': expected type 'number' or 'string', got 'boolean'",
                ]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "rect", "width": 2}, "points": point}),
                Says::Exactly(&["Missing required parameter: 'shape.height'"]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "radius": 0}, "points": point}),
                Says::Exactly(&["Parameter 'shape.radius': must be greater than 0, got 0"]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "radius": 1, "width": 2}, "points": point}),
                Says::Exactly(&[
                    "Unknown parameter: 'shape.width'; it is not declared by this tool",
                ]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "raduis": 1}, "points": point}),
                Says::Exactly(&[
                    "Missing required parameter: 'shape.radius'",
                    "Unknown parameter: 'shape.raduis'; did you mean 'radius'?",
                ]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "triangle", "radius": 1}, "points": point}),
                Says::Exactly(&[
                    "Parameter 'shape.type': expected one of 'circle', 'rect', got 'triangle'",
                ]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "radius": 1}, "points": [{"x": 0}]}),
                Says::Exactly(&["Missing required parameter: 'points[0].y'"]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "radius": 1}, "points": []}),
                Says::Exactly(&["Parameter 'points': must have at least 1 item, got 0"]),
            ),
            refused(
                "draw",
                json!({"shape": {"type": "circle", "radius": 1}, "points": point,
                       "weights": {"a": 1, "b": "heavy"}}),
                Says::Exactly(&["Parameter 'weights.b': expected type 'number', got 'string'"]),
            ),
        ])
        .await;

    // What the model reads for one of them: agentkit's words, not the server's.
    let refusal = server
        .call(
            "forecast",
            json!({"station": "OSL", "units": "kelvin", "extra": 1}),
        )
        .await;
    assert_eq!(
        refusal.to_model_content(),
        "Error: invalid arguments for tool 'forecast':\n\
         - Parameter 'units': expected one of 'metric', 'imperial', got 'kelvin'\n\
         - Unknown parameter: 'extra'; it is not declared by this tool"
    );
    assert_eq!(server.calls().await, 6, "refused calls reached the server");
    assert_all_right(&wrong);
}

#[tokio::test]
async fn pydantic_schemas_from_the_python_sdk_are_validated_in_full() {
    let Some(python) = fastmcp_python() else {
        return;
    };
    let mut command = Command::new(python);
    command
        .arg(peers_dir().join("fastmcp_server.py"))
        .current_dir(peers_dir());
    let server = Served::start(command, &["book_trip", "ship", "calls"]).await;
    let shown = |name| {
        let spec = server.executor.registry().lookup(name).expect("registered");
        agentkit_core::provider::mcp::tool(spec)["inputSchema"].clone()
    };
    // What pydantic emitted, as the tests below rely on it.
    let trip = shown("book_trip");
    assert_eq!(trip["properties"]["traveller"]["$ref"], "#/$defs/Traveller");
    assert_eq!(
        trip["properties"]["note"]["anyOf"],
        json!([{"type": "string"}, {"type": "null"}])
    );
    assert_eq!(trip["properties"]["seat"]["$ref"], "#/$defs/Seat");
    assert_eq!(server.calls().await, 0);

    // `null` for an `Optional[str] = None` is a value it allows: kept. The defaults (beside
    // a `$ref` for the Enum) filled by agentkit before the call.
    let traveller = json!({"name": "Ada", "address": {"street": "1 Main St", "city": "Lima",
                                                      "postcode": null}, "phone": null});
    let echoed = server
        .echo(
            "book_trip",
            json!({"traveller": traveller, "destination": "lima", "note": null}),
        )
        .await;
    assert_eq!(
        echoed["arguments"],
        json!({"traveller": traveller, "destination": "lima", "note": null,
               "seat": "aisle", "nights": 1, "companions": []})
    );
    let echoed = server
        .echo(
            "book_trip",
            json!({"traveller": {"name": "Ada", "address": {"street": "1 Main St", "city": "Lima"}},
                   "destination": "tokyo", "seat": "window", "nights": 30,
                   "companions": [{"name": "Bo", "address": {"street": "2 Side St", "city": "Oslo"}}]}),
        )
        .await;
    assert_eq!(echoed["parsed"]["seat"], "window");
    assert_eq!(echoed["parsed"]["companions"][0]["name"], "Bo");

    // A list of models, both types of a union, `Optional[Model]` as null and as a model.
    let to = json!({"street": "1 Main St", "city": "Lima"});
    let echoed = server
        .echo(
            "ship",
            json!({"items": [{"sku": "ABC-1234"}, {"sku": "XYZ-0001", "quantity": 3}],
                   "to": to, "reference": 42, "gift_wrap": null}),
        )
        .await;
    assert_eq!(
        echoed["arguments"]["items"],
        json!([{"sku": "ABC-1234", "quantity": 1}, {"sku": "XYZ-0001", "quantity": 3}])
    );
    assert_eq!(echoed["parsed"]["reference"], 42);
    let echoed = server
        .echo(
            "ship",
            json!({"items": [{"sku": "ABC-1234"}], "to": to, "reference": "PO-7",
                   "gift_wrap": {"street": "3 Gift St", "city": "Oslo"}, "express": true}),
        )
        .await;
    assert_eq!(echoed["parsed"]["reference"], "PO-7");
    assert_eq!(echoed["parsed"]["gift_wrap"]["city"], "Oslo");
    assert_eq!(server.calls().await, 4);

    let trip = |change: Value| {
        let mut trip = json!({"traveller": {"name": "Ada", "address": to.clone()},
                              "destination": "lima"});
        for (key, value) in change.as_object().unwrap() {
            trip[key] = value.clone();
        }
        trip
    };
    let ship = |change: Value| {
        let mut ship = json!({"items": [{"sku": "ABC-1234"}], "to": to.clone(), "reference": 1});
        for (key, value) in change.as_object().unwrap() {
            ship[key] = value.clone();
        }
        ship
    };
    let wrong = server
        .refusals(&[
            refused(
                "book_trip",
                trip(json!({"traveller": {"name": "Ada", "address": {"street": "1 Main St"}}})),
                Says::Exactly(&["Missing required parameter: 'traveller.address.city'"]),
            ),
            refused(
                "book_trip",
                trip(json!({"destination": "oslo"})),
                Says::Exactly(&[
                    "Parameter 'destination': expected one of 'paris', 'tokyo', 'lima', got 'oslo'",
                ]),
            ),
            refused(
                "book_trip",
                trip(json!({"seat": "floor"})),
                Says::Exactly(&[
                    "Parameter 'seat': expected one of 'aisle', 'window', 'middle', got 'floor'",
                ]),
            ),
            refused(
                "book_trip",
                trip(json!({"nights": 31})),
                Says::Exactly(&["Parameter 'nights': must be at most 30, got 31"]),
            ),
            refused(
                "book_trip",
                trip(json!({"companions": [{"address": to.clone()}]})),
                Says::Exactly(&["Missing required parameter: 'companions[0].name'"]),
            ),
            refused(
                "book_trip",
                trip(json!({"note": 7})),
                Says::Exactly(&[
                    "Parameter 'note': matches none of the 2 allowed forms (string, null)",
                ]),
            ),
            refused(
                "book_trip",
                trip(json!({"class": "first"})),
                Says::Exactly(&["Unknown parameter: 'class'; it is not declared by this tool"]),
            ),
            refused(
                "book_trip",
                trip(json!({"traveller": {"name": "Ada", "address": to.clone(), "age": 36}})),
                Says::Exactly(&[
                    "Unknown parameter: 'traveller.age'; it is not declared by this tool",
                ]),
            ),
            refused(
                "ship",
                ship(json!({"items": [{"sku": "abc-1234"}]})),
                Says::Exactly(&[
                    "Parameter 'items[0].sku': must match the pattern '^[A-Z]{3}-[0-9]{4}$'",
                ]),
            ),
            refused(
                "ship",
                ship(json!({"items": [{"sku": "ABC-1234", "quantity": 0}]})),
                Says::Exactly(&["Parameter 'items[0].quantity': must be at least 1, got 0"]),
            ),
            refused(
                "ship",
                ship(json!({"reference": true})),
                Says::Exactly(&[
                    "Parameter 'reference': matches none of the 2 allowed forms (integer, string)",
                ]),
            ),
            refused(
                "ship",
                ship(json!({"gift_wrap": {"street": "3 Gift St"}})),
                Says::Exactly(&["Missing required parameter: 'gift_wrap.city'"]),
            ),
            refused(
                "ship",
                ship(json!({"to": null})),
                Says::Exactly(&["Parameter 'to': expected type 'object', got 'null'"]),
            ),
        ])
        .await;

    let refusal = server
        .call(
            "book_trip",
            trip(json!({"traveller": {"name": "Ada", "address": {"city": "Lima"}}})),
        )
        .await;
    assert_eq!(
        refusal.to_model_content(),
        "Error: invalid arguments for tool 'book_trip':\n\
         - Missing required parameter: 'traveller.address.street'"
    );
    assert_eq!(server.calls().await, 4, "refused calls reached the server");
    assert_all_right(&wrong);
}
