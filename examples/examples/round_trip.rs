//! One agent step with each model API, without any network.
//!
//! For each API, the two halves of the step: `request`, the request body that declares the
//! tools, and `answer`, which reads the tool calls out of the API's reply, dispatches them
//! all, and appends to the conversation what the API expects next. The reply is scripted
//! here: two calls, `fetch_weather` for Paris and a `convert_currency` that names a currency
//! the tool has no rate for (so its result asks the model to retry).
//!
//! ```sh
//! cargo run --example round_trip                  # all five APIs
//! cargo run --example round_trip -- anthropic     # or openai-chat, openai-responses, gemini, mcp
//! ```
//!
//! In an application, `request`'s body goes to the API with your HTTP client, and its reply
//! is what `answer` reads.

use std::process::ExitCode;

use agentkit_core::{BoxError, InMemoryCredentials, ToolExecutor, ToolRegistry};
use serde_json::{Value, json};

mod tools;

use tools::{ConvertCurrency, FetchWeather};

/// OpenAI Chat Completions: one `tool` message per call, after the assistant's message.
mod openai_chat_step {
    use agentkit_core::provider::{ParseError, openai_chat};
    use agentkit_core::{ToolExecutor, block_on};
    use serde_json::{Value, json};

    pub(crate) fn request(executor: &ToolExecutor, messages: &[Value]) -> Value {
        json!({
            "model": "gpt-4.1",
            "messages": messages,
            "tools": openai_chat::strict_tools(executor.registry().specs()),
        })
    }

    pub(crate) fn answer(
        executor: &ToolExecutor,
        response: &Value,
        messages: &mut Vec<Value>,
    ) -> Result<(), ParseError> {
        let calls = openai_chat::calls(response)?;
        messages.push(response["choices"][0]["message"].clone());
        let results = block_on(executor.dispatch_all(&calls)); // or `.await`
        messages.extend(openai_chat::results(&results));
        Ok(())
    }
}

/// OpenAI Responses: a `function_call_output` item per call, by `call_id`.
mod openai_responses_step {
    use agentkit_core::provider::{ParseError, openai_responses};
    use agentkit_core::{ToolExecutor, block_on};
    use serde_json::{Value, json};

    pub(crate) fn request(executor: &ToolExecutor, input: &[Value]) -> Value {
        json!({
            "model": "gpt-4.1",
            "input": input,
            "tools": openai_responses::strict_tools(executor.registry().specs()),
        })
    }

    pub(crate) fn answer(
        executor: &ToolExecutor,
        response: &Value,
        input: &mut Vec<Value>,
    ) -> Result<(), ParseError> {
        let calls = openai_responses::calls(response)?;
        input.extend(response["output"].as_array().into_iter().flatten().cloned());
        let results = block_on(executor.dispatch_all(&calls));
        input.extend(openai_responses::results(&results));
        Ok(())
    }
}

/// Anthropic Messages: one `user` message of `tool_result` blocks, with `is_error` on
/// failures.
mod anthropic_step {
    use agentkit_core::provider::{ParseError, anthropic};
    use agentkit_core::{ToolExecutor, block_on};
    use serde_json::{Value, json};

    pub(crate) fn request(executor: &ToolExecutor, messages: &[Value]) -> Value {
        json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 1024,
            "messages": messages,
            "tools": anthropic::strict_tools(executor.registry().specs()),
        })
    }

    pub(crate) fn answer(
        executor: &ToolExecutor,
        message: &Value,
        messages: &mut Vec<Value>,
    ) -> Result<(), ParseError> {
        let calls = anthropic::calls(message)?;
        messages.push(json!({"role": "assistant", "content": message["content"]}));
        let results = block_on(executor.dispatch_all(&calls));
        messages.extend(anthropic::results(&results));
        Ok(())
    }
}

/// Google Gemini: one `user` content of `functionResponse` parts. Parameters are declared as
/// `parametersJsonSchema` (plain JSON Schema, which can say "no other keys" and describe
/// free-form dictionaries); a call without an `id` gets a stable generated one, which is not
/// sent back.
mod gemini_step {
    use agentkit_core::provider::{ParseError, gemini};
    use agentkit_core::{ToolExecutor, block_on};
    use serde_json::{Value, json};

    pub(crate) fn request(executor: &ToolExecutor, contents: &[Value]) -> Value {
        json!({"contents": contents, "tools": gemini::tools(executor.registry().specs())})
    }

    pub(crate) fn answer(
        executor: &ToolExecutor,
        response: &Value,
        contents: &mut Vec<Value>,
    ) -> Result<(), ParseError> {
        let calls = gemini::calls(response)?;
        // The model's content goes back unchanged: it may carry thought signatures.
        contents.push(response["candidates"][0]["content"].clone());
        let results = block_on(executor.dispatch_all(&calls));
        contents.extend(gemini::results(&results));
        Ok(())
    }
}

/// MCP (the protocol's JSON shapes, for a host that relays MCP messages itself): the
/// `tools/list` result, and the answer to a `tools/call` request, with `structuredContent`
/// for tools that declare an output. A call with invalid arguments is a result with
/// `isError: true` listing every problem, so the model can correct it.
mod mcp_step {
    use agentkit_core::provider::{ParseError, mcp};
    use agentkit_core::{ToolExecutor, block_on};
    use serde_json::{Value, json};

    pub(crate) fn tools_list(executor: &ToolExecutor) -> Value {
        json!({"tools": mcp::tools(executor.registry().specs())})
    }

    pub(crate) fn tools_call(
        executor: &ToolExecutor,
        request: &Value,
    ) -> Result<Value, ParseError> {
        let call = mcp::call(request)?;
        let result = block_on(executor.dispatch(&call));
        let answer = mcp::result(&result, executor.registry());
        Ok(json!({"jsonrpc": "2.0", "id": request["id"], "result": answer}))
    }
}

/// The APIs this example knows, as given on the command line.
pub(crate) const PROVIDERS: [&str; 5] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "mcp",
];

/// The scripted calls' arguments: a good one, and one the tool asks the model to correct.
const WEATHER: &str = r#"{"city": "Paris"}"#;
const CONVERT: &str = r#"{"amount": 10, "from": "EUR", "to": "XYZ"}"#;

pub(crate) fn executor() -> Result<ToolExecutor, BoxError> {
    let mut registry = ToolRegistry::new();
    registry.register(FetchWeather)?;
    registry.register(ConvertCurrency {
        rates: vec![("EUR", 1.0), ("USD", 1.08), ("GBP", 0.85)],
    })?;
    Ok(ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("weather-api-key", "sk-demo-not-a-real-key"))
        .build())
}

/// One step with `provider`: the names of the tools its request declares, and what is
/// appended to the conversation after its scripted reply.
pub(crate) fn step(
    provider: &str,
    executor: &ToolExecutor,
) -> Result<(Vec<String>, Vec<Value>), BoxError> {
    let user = json!({"role": "user", "content": "Weather in Paris, and 10 EUR in XYZ?"});
    let parsed = |text: &str| serde_json::from_str::<Value>(text);
    let mut conversation = Vec::new();
    let tools = match provider {
        "openai-chat" => {
            let body = openai_chat_step::request(executor, &[user]);
            let reply = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "fetch_weather", "arguments": WEATHER}},
                {"id": "call_2", "type": "function", "function": {"name": "convert_currency", "arguments": CONVERT}},
            ]}}]});
            openai_chat_step::answer(executor, &reply, &mut conversation)?;
            names(&body["tools"], "/function/name")
        }
        "openai-responses" => {
            let body = openai_responses_step::request(executor, &[user]);
            let reply = json!({"output": [
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "fetch_weather", "arguments": WEATHER},
                {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "convert_currency", "arguments": CONVERT},
            ]});
            openai_responses_step::answer(executor, &reply, &mut conversation)?;
            names(&body["tools"], "/name")
        }
        "anthropic" => {
            let body = anthropic_step::request(executor, &[user]);
            let reply = json!({"role": "assistant", "stop_reason": "tool_use", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "fetch_weather", "input": parsed(WEATHER)?},
                {"type": "tool_use", "id": "toolu_2", "name": "convert_currency", "input": parsed(CONVERT)?},
            ]});
            anthropic_step::answer(executor, &reply, &mut conversation)?;
            names(&body["tools"], "/name")
        }
        "gemini" => {
            let user = json!({"role": "user", "parts": [{"text": user["content"]}]});
            let body = gemini_step::request(executor, &[user]);
            let reply = json!({"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "fetch_weather", "args": parsed(WEATHER)?}},
                {"functionCall": {"name": "convert_currency", "args": parsed(CONVERT)?}},
            ]}}]});
            gemini_step::answer(executor, &reply, &mut conversation)?;
            names(&body["tools"][0]["functionDeclarations"], "/name")
        }
        "mcp" => {
            let list = mcp_step::tools_list(executor);
            for (id, (name, arguments)) in
                [("fetch_weather", WEATHER), ("convert_currency", CONVERT)]
                    .into_iter()
                    .enumerate()
            {
                let request = json!({"jsonrpc": "2.0", "id": id + 1, "method": "tools/call",
                    "params": {"name": name, "arguments": parsed(arguments)?}});
                conversation.push(mcp_step::tools_call(executor, &request)?);
            }
            names(&list["tools"], "/name")
        }
        _ => return Err(format!("unknown API '{provider}'").into()),
    };
    Ok((tools, conversation))
}

/// The string at `pointer` in each element of the array `tools`.
fn names(tools: &Value, pointer: &str) -> Vec<String> {
    tools
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|tool| tool.pointer(pointer)?.as_str().map(str::to_owned))
        .collect()
}

fn main() -> ExitCode {
    let chosen: Vec<String> = std::env::args().skip(1).collect();
    if chosen.iter().any(|api| !PROVIDERS.contains(&api.as_str())) {
        eprintln!("usage: round_trip [{}]...", PROVIDERS.join(" | "));
        return ExitCode::from(2);
    }
    let executor = match executor() {
        Ok(executor) => executor,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    for provider in PROVIDERS {
        if !chosen.is_empty() && !chosen.iter().any(|api| api == provider) {
            continue;
        }
        match step(provider, &executor) {
            Ok((tools, appended)) => {
                println!("== {provider}: declares {}", tools.join(", "));
                println!("appended after the reply:");
                for item in appended {
                    println!("{item:#}");
                }
                println!();
            }
            Err(error) => {
                eprintln!("{provider}: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
