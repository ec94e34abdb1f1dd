//! A streamed model reply whose tool calls run as they arrive.
//!
//! Replays a recorded-shaped HTTP body of one API (server-sent events; for Gemini the JSON
//! array `streamGenerateContent` sends without `alt=sse`) in small pieces with a pause
//! between them, as a model's reply arrives off the wire: a thread sends the pieces into a
//! channel, the API's `CallStream::push_bytes` frames them into events and turns them into
//! calls the moment each call's arguments are complete, and `Turn::dispatch_stream` runs
//! each call as soon as it arrives, while the model is still writing the next one. Each
//! tool takes a while (an async wait). At the end, `finish` says whether the stream was
//! whole. Prints, per call, when it started and when the stream ended, in milliseconds
//! since the stream began:
//!
//! ```sh
//! cargo run --example streaming_turn -- openai-chat
//! cargo run --example streaming_turn -- openai-responses
//! cargo run --example streaming_turn -- anthropic
//! cargo run --example streaming_turn -- gemini
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use agentkit_core::provider::{StreamError, anthropic, gemini, openai_chat, openai_responses};
use agentkit_core::serde_json::json;
use agentkit_core::{
    BoxError, JsonObject, Param, ParamType, Runtime, StdRuntime, Tool, ToolCall, ToolContext,
    ToolExecutor, ToolOutput, ToolRegistry, ToolSchema, ToolSpec, block_on,
};
use futures_util::stream::{self, StreamExt};

/// The pause between two pieces of the body.
const PAUSE: Duration = Duration::from_millis(10);
/// The size of the body's pieces, in bytes: smaller than an event, so that events, lines and
/// characters are split between pieces as a network splits them.
const PIECE: usize = 61;
/// How long each tool takes.
const WORK: Duration = Duration::from_millis(150);

/// The APIs whose streams this example replays, by the names `declarations` uses.
pub const APIS: [&str; 4] = ["openai-chat", "openai-responses", "anthropic", "gemini"];

/// A tool that notes when each of its calls started, then takes [`WORK`] to answer.
struct Weather {
    spec: ToolSpec,
    started: Arc<Mutex<BTreeMap<String, Duration>>>,
    begin: Instant,
}

impl Tool for Weather {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    async fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> Result<ToolOutput, BoxError> {
        self.started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(ctx.call_id().to_owned(), self.begin.elapsed());
        StdRuntime.sleep_until(Instant::now() + WORK).await;
        let output = json!({"city": inputs["city"], "temperature": 21.5});
        Ok(output.as_object().cloned().unwrap_or_default().into())
    }
}

/// Reads one API's events: its `CallStream` behind one face.
pub enum Reply {
    /// OpenAI Chat Completions.
    Chat(openai_chat::CallStream),
    /// OpenAI Responses.
    Responses(openai_responses::CallStream),
    /// Anthropic Messages.
    Anthropic(anthropic::CallStream),
    /// Google Gemini.
    Gemini(gemini::CallStream),
}

impl Reply {
    /// The reader of `api`'s events; `None` for an API this example does not know.
    pub fn new(api: &str) -> Option<Self> {
        Some(match api {
            "openai-chat" => Reply::Chat(openai_chat::CallStream::new()),
            "openai-responses" => Reply::Responses(openai_responses::CallStream::new()),
            "anthropic" => Reply::Anthropic(anthropic::CallStream::new()),
            "gemini" => Reply::Gemini(gemini::CallStream::new()),
            _ => return None,
        })
    }

    /// Reads the next piece of the body; returns the calls it completed.
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Reply::Chat(stream) => stream.push_bytes(bytes),
            Reply::Responses(stream) => stream.push_bytes(bytes),
            Reply::Anthropic(stream) => stream.push_bytes(bytes),
            Reply::Gemini(stream) => stream.push_bytes(bytes),
        }
    }

    /// Every call of the reply, or why the stream was not whole.
    pub fn finish(self) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            Reply::Chat(stream) => stream.finish(),
            Reply::Responses(stream) => stream.finish(),
            Reply::Anthropic(stream) => stream.finish(),
            Reply::Gemini(stream) => stream.finish(),
        }
    }
}

fn main() -> ExitCode {
    let api = std::env::args().nth(1).unwrap_or_default();
    let (Some(reply), Some(body)) = (Reply::new(&api), body(&api)) else {
        eprintln!(
            "usage: cargo run --example streaming_turn -- <api>\nwhere <api> is one of: {}",
            APIS.join(", ")
        );
        return ExitCode::from(2);
    };

    let begin = Instant::now();
    let started = Arc::new(Mutex::new(BTreeMap::new()));
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::builder("fetch_weather")
        .description("Look up the current weather for a city.")
        .input(
            ToolSchema::new([Param::required("city", ParamType::String)]).expect("a valid schema"),
        )
        .build()
        .expect("a valid spec");
    registry
        .register(Weather {
            spec,
            started: Arc::clone(&started),
            begin,
        })
        .expect("one tool");
    let executor = ToolExecutor::new(registry);

    // The model's reply arriving: one piece of the body every PAUSE, from another thread.
    let (sender, receiver) = futures_channel::mpsc::unbounded::<Vec<u8>>();
    let producer = thread::spawn(move || {
        for piece in body.chunks(PIECE) {
            thread::sleep(PAUSE);
            if sender.unbounded_send(piece.to_vec()).is_err() {
                break;
            }
        }
    });

    let ended = Arc::new(Mutex::new(None));
    let failed = Arc::new(Mutex::new(None));
    let (end, fail) = (Arc::clone(&ended), Arc::clone(&failed));
    let calls = receiver
        .map(Some)
        .chain(stream::once(async move {
            *end.lock().unwrap_or_else(PoisonError::into_inner) = Some(begin.elapsed());
            None
        }))
        .flat_map({
            let mut reply = Some(reply);
            move |piece| {
                let read = match (piece, reply.as_mut()) {
                    (Some(piece), Some(reply)) => reply.push_bytes(&piece),
                    // The body ended: was the stream whole?
                    (None, _) => reply
                        .take()
                        .map_or(Ok(Vec::new()), |reply| reply.finish().map(|_| Vec::new())),
                    (Some(_), None) => Ok(Vec::new()),
                };
                let calls = read.unwrap_or_else(|error| {
                    fail.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .get_or_insert(error);
                    Vec::new()
                });
                stream::iter(calls)
            }
        });

    let turn = executor.turn();
    let results = block_on(turn.dispatch_stream(calls));
    let _ = producer.join();
    if let Some(error) = failed.lock().unwrap_or_else(PoisonError::into_inner).take() {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }

    let ended = ended
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .unwrap_or_default();
    let started = started.lock().unwrap_or_else(PoisonError::into_inner);
    let mut out = std::io::stdout().lock();
    for result in &results {
        let line = match started.get(result.call_id()) {
            Some(at) => format!(
                "call {} started at {} ms; stream ended at {} ms",
                result.call_id(),
                at.as_millis(),
                ended.as_millis()
            ),
            None => format!(
                "call {} did not start: {}",
                result.call_id(),
                result.to_model_content()
            ),
        };
        // Written, not `println!`ed: a closed pipe (`| head`) is a failure, not a panic.
        if writeln!(out, "{line}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    if results.iter().all(|result| result.is_success()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The HTTP body of a reply calling `fetch_weather` for Paris, Oslo and Lima, as `api`
/// streams it: server-sent events (with their `event:` line where the API sends one, and a
/// comment as a keep-alive), or for Gemini the JSON array of chunks.
pub fn body(api: &str) -> Option<Vec<u8>> {
    let events = events(api)?;
    let mut body = String::from(": connected\r\n\r\n");
    if api == "gemini" {
        body = format!("[{}]", events.join(",\r\n"));
    } else {
        for data in events {
            if api != "openai-chat" {
                let kind = data.split('"').nth(3).unwrap_or_default();
                body.push_str(&format!("event: {kind}\r\n"));
            }
            body.push_str(&format!("data: {data}\r\n\r\n"));
        }
    }
    Some(body.into_bytes())
}

/// The `data:` of each event of a reply calling `fetch_weather` for Paris, Oslo and Lima,
/// as `api` streams it.
pub fn events(api: &str) -> Option<Vec<&'static str>> {
    Some(match api {
        "openai-chat" => vec![
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":null},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_paris","type":"function","function":{"name":"fetch_weather","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"ci"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\": \"Par"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"is\"}"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_oslo","type":"function","function":{"name":"fetch_weather","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"city\": "}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"Oslo\"}"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_lima","type":"function","function":{"name":"fetch_weather","arguments":""}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{\"city\": \"Li"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"ma\"}"}}]},"finish_reason":null}]}"#,
            r#"{"id":"chatcmpl-B9","object":"chat.completion.chunk","created":1767225600,"model":"gpt-4.1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            r#"[DONE]"#,
        ],
        "openai-responses" => vec![
            r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_67c","object":"response","status":"in_progress","model":"gpt-4.1","output":[]}}"#,
            r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_paris","name":"fetch_weather","arguments":"","status":"in_progress"}}"#,
            r#"{"type":"response.function_call_arguments.delta","sequence_number":2,"item_id":"fc_1","output_index":0,"delta":"{\"city\": "}"#,
            r#"{"type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_1","output_index":0,"delta":"\"Paris\"}"}"#,
            r#"{"type":"response.function_call_arguments.done","sequence_number":4,"item_id":"fc_1","output_index":0,"arguments":"{\"city\": \"Paris\"}"}"#,
            r#"{"type":"response.output_item.done","sequence_number":5,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_paris","name":"fetch_weather","arguments":"{\"city\": \"Paris\"}","status":"completed"}}"#,
            r#"{"type":"response.output_item.added","sequence_number":6,"output_index":1,"item":{"type":"function_call","id":"fc_2","call_id":"call_oslo","name":"fetch_weather","arguments":"","status":"in_progress"}}"#,
            r#"{"type":"response.function_call_arguments.delta","sequence_number":7,"item_id":"fc_2","output_index":1,"delta":"{\"city\": \"Oslo\"}"}"#,
            r#"{"type":"response.function_call_arguments.done","sequence_number":8,"item_id":"fc_2","output_index":1,"arguments":"{\"city\": \"Oslo\"}"}"#,
            r#"{"type":"response.output_item.done","sequence_number":9,"output_index":1,"item":{"type":"function_call","id":"fc_2","call_id":"call_oslo","name":"fetch_weather","arguments":"{\"city\": \"Oslo\"}","status":"completed"}}"#,
            r#"{"type":"response.output_item.added","sequence_number":10,"output_index":2,"item":{"type":"function_call","id":"fc_3","call_id":"call_lima","name":"fetch_weather","arguments":"","status":"in_progress"}}"#,
            r#"{"type":"response.function_call_arguments.delta","sequence_number":11,"item_id":"fc_3","output_index":2,"delta":"{\"city\": \"Lima\"}"}"#,
            r#"{"type":"response.function_call_arguments.done","sequence_number":12,"item_id":"fc_3","output_index":2,"arguments":"{\"city\": \"Lima\"}"}"#,
            r#"{"type":"response.output_item.done","sequence_number":13,"output_index":2,"item":{"type":"function_call","id":"fc_3","call_id":"call_lima","name":"fetch_weather","arguments":"{\"city\": \"Lima\"}","status":"completed"}}"#,
            r#"{"type":"response.completed","sequence_number":14,"response":{"id":"resp_67c","object":"response","status":"completed","model":"gpt-4.1","output":[{"type":"function_call","id":"fc_1","call_id":"call_paris","name":"fetch_weather","arguments":"{\"city\": \"Paris\"}","status":"completed"},{"type":"function_call","id":"fc_2","call_id":"call_oslo","name":"fetch_weather","arguments":"{\"city\": \"Oslo\"}","status":"completed"},{"type":"function_call","id":"fc_3","call_id":"call_lima","name":"fetch_weather","arguments":"{\"city\": \"Lima\"}","status":"completed"}]}}"#,
        ],
        "anthropic" => vec![
            r#"{"type":"message_start","message":{"id":"msg_014p","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":412,"output_tokens":1}}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll check all three cities."}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_paris","name":"fetch_weather","input":{}}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#,
            r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Paris\"}"}}"#,
            r#"{"type":"content_block_stop","index":1}"#,
            r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_oslo","name":"fetch_weather","input":{}}}"#,
            r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Oslo\"}"}}"#,
            r#"{"type":"content_block_stop","index":2}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_lima","name":"fetch_weather","input":{}}}"#,
            r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Lima\"}"}}"#,
            r#"{"type":"content_block_stop","index":3}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":118}}"#,
            r#"{"type":"message_stop"}"#,
        ],
        "gemini" => vec![
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Checking the weather in three cities."}]},"index":0}],"modelVersion":"gemini-3-flash-preview","responseId":"r-1"}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc_paris","name":"fetch_weather","args":{"city":"Paris"}},"thoughtSignature":"CiQBjz1rX0=="}]},"index":0}],"modelVersion":"gemini-3-flash-preview","responseId":"r-1"}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc_oslo","name":"fetch_weather","args":{"city":"Oslo"}}}]},"index":0}],"modelVersion":"gemini-3-flash-preview","responseId":"r-1"}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc_lima","name":"fetch_weather","args":{"city":"Lima"}}}]},"index":0}],"modelVersion":"gemini-3-flash-preview","responseId":"r-1"}"#,
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":96,"candidatesTokenCount":41,"totalTokenCount":137},"modelVersion":"gemini-3-flash-preview","responseId":"r-1"}"#,
        ],
        _ => return None,
    })
}
