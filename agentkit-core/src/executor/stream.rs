//! Calls that arrive while the model's reply still streams, each run as soon as it arrives.

use std::collections::VecDeque;
use std::pin::pin;
use std::task::Poll;

use futures_util::stream::{FusedStream, FuturesUnordered, Stream, StreamExt};

use super::turn::Turn;
use crate::call::ToolCall;
use crate::result::ToolResult;
use crate::tool::ToolSpec;

impl Turn<'_> {
    /// Runs the calls of a streamed model reply in the turn, each as soon as it
    /// arrives: a call starts while later ones are still streaming. Results come back in
    /// call order once the stream has ended and every call has.
    ///
    /// Feed it the calls a provider's `CallStream` hands out (such as
    /// [`openai_chat::CallStream`](crate::provider::openai_chat::CallStream)), forwarded
    /// into any [`Stream`] (a channel's receiver, say). The rules of
    /// [`Turn::dispatch_all`] hold:
    ///
    /// - calls run concurrently on the awaiting task (nothing is spawned, and no async
    ///   runtime is needed; blocking tools get their thread as usual);
    /// - a call of a [sequential](ToolSpec::is_sequential) tool runs alone: it starts once
    ///   every call before it has ended, and no call after it starts before it ends (later
    ///   calls wait, in order, while the stream goes on);
    /// - each call goes through [`Turn::dispatch`]: the turn's deadline and retry budgets,
    ///   its [toolset](Turn::with_toolset), the executor's
    ///   [in-flight limit](super::ToolExecutorBuilder::max_in_flight) and every other policy
    ///   apply to it, and one call failing or panicking does not affect the others.
    ///
    /// The stream itself is awaited as it is: the turn's deadline ends calls, not the wait for
    /// the model. A call that arrives after the deadline fails at once with a timeout.
    ///
    /// ```
    /// use agentkit_core::provider::anthropic;
    /// use agentkit_core::{
    ///     BoxError, JsonObject, Tool, ToolContext, ToolExecutor, ToolOutput, ToolRegistry,
    ///     ToolSpec, block_on,
    /// };
    /// use futures_util::{StreamExt, stream};
    /// use serde_json::json;
    ///
    /// struct Clock(ToolSpec);
    /// impl Tool for Clock {
    ///     fn spec(&self) -> &ToolSpec { &self.0 }
    ///     async fn execute(&self, _: &JsonObject, _: &ToolContext<'_>) -> Result<ToolOutput, BoxError> {
    ///         Ok(json!({"time": "12:00"}).as_object().unwrap().clone().into())
    ///     }
    /// }
    ///
    /// let mut registry = ToolRegistry::new();
    /// registry.register(Clock(ToolSpec::builder("clock").build()?))?;
    /// let executor = ToolExecutor::new(registry);
    ///
    /// // The events of a streamed reply, as they arrive; each call is handed out at its
    /// // `content_block_stop`, and runs from then on.
    /// let events = [
    ///     json!({"type": "content_block_start", "index": 0,
    ///            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "clock", "input": {}}}),
    ///     json!({"type": "content_block_stop", "index": 0}),
    ///     json!({"type": "content_block_start", "index": 1,
    ///            "content_block": {"type": "tool_use", "id": "toolu_2", "name": "clock", "input": {}}}),
    ///     json!({"type": "content_block_stop", "index": 1}),
    ///     json!({"type": "message_stop"}),
    /// ];
    /// let mut reply = anthropic::CallStream::new();
    /// let calls = stream::iter(events)
    ///     .map(move |event| reply.push(&event).expect("the stream has the documented shape"))
    ///     .flat_map(stream::iter);
    ///
    /// let turn = executor.turn();
    /// let results = block_on(turn.dispatch_stream(calls));
    /// let ids: Vec<&str> = results.iter().map(|result| result.call_id()).collect();
    /// assert_eq!(ids, ["toolu_1", "toolu_2"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub async fn dispatch_stream(&self, calls: impl Stream<Item = ToolCall>) -> Vec<ToolResult> {
        let turn = self;
        let executor = self.executor();
        // Only an executor with a sequential tool has one to look for.
        let any_sequential = executor.exclusive.is_some();
        let sequential = |call: &ToolCall| {
            any_sequential
                && match turn.toolset() {
                    Some(view) => view.lookup(call.name()),
                    None => executor.registry.lookup(call.name()),
                }
                .is_some_and(ToolSpec::is_sequential)
        };
        let mut calls = pin!(calls.fuse());
        let mut running = FuturesUnordered::new();
        // Calls that arrived and wait behind a sequential call, in order.
        let mut waiting: VecDeque<(usize, ToolCall, bool)> = VecDeque::new();
        let mut results: Vec<Option<ToolResult>> = Vec::new();
        // Whether the calls running now are one sequential call.
        let mut alone = false;
        loop {
            while let Some((_, _, is_sequential)) = waiting.front() {
                let may_start = if *is_sequential {
                    running.is_empty()
                } else {
                    !alone
                };
                if !may_start {
                    break;
                }
                let Some((position, call, is_sequential)) = waiting.pop_front() else {
                    break;
                };
                alone = is_sequential;
                running.push(run(turn, position, call));
            }
            if calls.is_terminated() && running.is_empty() {
                break;
            }
            let next = std::future::poll_fn(|cx| {
                // Running calls first: one that arrives is polled, so started, right away.
                if let Poll::Ready(Some(done)) = running.poll_next_unpin(cx) {
                    return Poll::Ready(Next::Ended(done));
                }
                if !calls.is_terminated()
                    && let Poll::Ready(arrived) = calls.poll_next_unpin(cx)
                {
                    return Poll::Ready(Next::Arrived(arrived));
                }
                Poll::Pending
            })
            .await;
            match next {
                Next::Ended((position, result)) => {
                    results[position] = Some(result);
                    if running.is_empty() {
                        alone = false;
                    }
                }
                Next::Arrived(Some(call)) => {
                    let is_sequential = sequential(&call);
                    waiting.push_back((results.len(), call, is_sequential));
                    results.push(None);
                }
                Next::Arrived(None) => {}
            }
        }
        // Every call ran to its result: `running` is empty, and nothing waits behind it.
        results.into_iter().flatten().collect()
    }
}

enum Next {
    Ended((usize, ToolResult)),
    Arrived(Option<ToolCall>),
}

/// One call of the stream, run in the turn, with its place among the calls.
async fn run(turn: &Turn<'_>, position: usize, call: ToolCall) -> (usize, ToolResult) {
    (position, turn.dispatch(&call).await)
}
