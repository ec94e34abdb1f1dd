//! The span of each call, when the `tracing` feature is on: `execute_tool {name}`, with the
//! OpenTelemetry GenAI attributes, the call's status and, for a call whose tool ran, the
//! duration histogram. No argument value or secret is recorded.

use std::borrow::Cow;
use std::sync::Arc;

use super::dispatch::{CallOptions, ToolExecutor};
use crate::call::ToolArguments;
#[cfg(feature = "tracing")]
use crate::model_text::Escaped;
use crate::result::ToolResult;

impl ToolExecutor {
    /// Runs one call, inside its span.
    ///
    /// Not an `async fn`: the span's end is a `map` on the call's future, so that the
    /// future holds the call's arguments once (an `async fn` keeps its arguments beside
    /// the awaited future's copy of them, for as long as it runs).
    pub(super) fn run<'a>(
        &'a self,
        tool_name: &'a str,
        call_id: &'a Arc<str>,
        arguments: Cow<'a, ToolArguments>,
        options: CallOptions<'a>,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        #[cfg(feature = "tracing")]
        {
            use futures_util::FutureExt as _;
            use tracing::Instrument as _;
            // The name and id are the model's: recorded escaped and cut, like every echo.
            let name = Escaped(tool_name, TRACE_ECHO);
            let span = tracing::info_span!(
                "execute_tool",
                otel.name = %format_args!("execute_tool {name}"),
                gen_ai.operation.name = "execute_tool",
                gen_ai.tool.name = %name,
                gen_ai.tool.call.id = %Escaped(call_id, TRACE_ECHO),
                agentkit.tool.status = tracing::field::Empty,
                error.r#type = tracing::field::Empty,
                otel.status_code = tracing::field::Empty,
            );
            self.run_inner(tool_name, call_id, arguments, options)
                .instrument(span.clone())
                .map(move |result| {
                    span.record("agentkit.tool.status", status_name(&result));
                    // A deferred call is not an error: tracing backends count `error.type`.
                    if let (Some(error), false) = (result.error(), result.deferred().is_some())
                    {
                        span.record("error.type", error.kind().as_str());
                        // The span's status, as OpenTelemetry layers read it.
                        span.record("otel.status_code", "ERROR");
                    }
                    // A call refused before its tool ran has no duration to count (it
                    // reports zero): a histogram of those zeros would only skew the
                    // latencies of the calls that ran.
                    if result.was_timed() {
                        tracing::info!(
                            parent: &span,
                            histogram.agent.tool.execution.duration = result.duration().as_secs_f64(),
                            gen_ai.tool.name = %name,
                        );
                    }
                    result
                })
        }
        #[cfg(not(feature = "tracing"))]
        self.run_inner(tool_name, call_id, arguments, options)
    }
}

/// How many characters of a tool name or call id a span records.
#[cfg(feature = "tracing")]
pub(super) const TRACE_ECHO: usize = 200;

#[cfg(feature = "tracing")]
fn status_name(result: &ToolResult) -> &'static str {
    match result.status() {
        crate::result::ToolStatus::Success => "success",
        crate::result::ToolStatus::Deferred => "deferred",
        _ => "failure",
    }
}
