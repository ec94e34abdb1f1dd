//! Behaviour of `ToolExecutor`: the Python original's five steps in order, strict and result modes,
//! input and output directions, tool errors and panics as `ToolExecutionError`s, missing
//! credentials stopping the call before the tool runs, and the fields of `ToolResult`.

use std::error::Error as _;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use agentkit_core::{
    BoxError, CredentialError, CredentialProvider, Direction, Error, ErrorKind,
    InMemoryCredentials, IssueKind, JsonObject, Param, ParamType, Secret, Tool, ToolCall,
    ToolContext, ToolError, ToolEvent, ToolExecutor, ToolOutput, ToolPanic, ToolRegistry,
    ToolResult, ToolSchema, ToolSpec, ToolStatus, UnknownArguments, block_on,
};
use serde_json::{Value, json};

use crate::core_fixtures::{
    FnTool, Probe, WEATHER_KEY, bare_spec, obj, weather_spec, weather_tool,
};

const SECRET: &str = "sk-test-0123";

fn creds() -> InMemoryCredentials {
    InMemoryCredentials::new().with(WEATHER_KEY, SECRET)
}

fn executor_with(tools: Vec<FnTool>) -> ToolExecutor {
    let mut registry = ToolRegistry::new();
    for tool in tools {
        registry.register(tool).unwrap();
    }
    ToolExecutor::builder(registry).credentials(creds()).build()
}

fn weather_executor() -> (ToolExecutor, Probe) {
    let (tool, probe) = weather_tool();
    (executor_with(vec![tool]), probe)
}

fn echo_tool(name: &'static str) -> (FnTool, Probe) {
    FnTool::new(bare_spec(name), |inputs, _| Ok(inputs.clone()))
}

/// An error type of our own, to find again through `source()`.
#[derive(Debug)]
struct ApiDown {
    status: u16,
}

impl fmt::Display for ApiDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weather API answered {}", self.status)
    }
}

impl std::error::Error for ApiDown {}

fn execution_error(result: &ToolResult) -> &agentkit_core::ToolExecutionError {
    match result.error() {
        Some(Error::Execution(e)) => e,
        other => panic!("expected an execution error, got {other:?}"),
    }
}

fn validation_error(result: &ToolResult) -> &agentkit_core::ToolValidationError {
    match result.error() {
        Some(Error::Validation(e)) => e,
        other => panic!("expected a validation error, got {other:?}"),
    }
}

mod credentials;
mod directions;
mod failures;
mod modes;
mod results;
mod steps;
