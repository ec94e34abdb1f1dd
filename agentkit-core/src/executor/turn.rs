//! [`Turn`]: the calls of one turn of an agent loop, run together.

use std::fmt;
use std::time::{Duration, Instant};

use futures_util::future::join_all;

use super::budget::TurnBudget;
use super::dispatch::{CallOptions, ToolExecutor};
use crate::call::ToolCall;
use crate::result::ToolResult;
use crate::tool::ToolSpec;
use crate::toolset::Toolset;

/// The calls of one turn of an agent loop: they share a deadline, and each tool's retry
/// budget (see [`ToolError::retry`](crate::ToolError::retry)).
///
/// A turn is what the loop makes of it: the calls of one model reply, or those of every
/// reply until the model answers the user. Make one with [`ToolExecutor::turn`]; its
/// deadline is the executor's [`turn_timeout`](super::ToolExecutorBuilder::turn_timeout) from now,
/// unless set here.
///
/// ```
/// use std::time::Duration;
/// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
///
/// let executor = ToolExecutor::new(ToolRegistry::new());
/// let turn = executor.turn().with_timeout(Duration::from_secs(30));
/// let calls = [ToolCall::new("call_1", "search", "{}"), ToolCall::new("call_2", "fetch", "{}")];
/// let results = block_on(turn.dispatch_all(&calls));
/// assert_eq!(results.len(), 2);
/// assert_eq!(results[1].call_id(), "call_2"); // in call order
/// ```
pub struct Turn<'e> {
    executor: &'e ToolExecutor,
    budget: TurnBudget,
    view: Option<Toolset<'e>>,
}

impl fmt::Debug for Turn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("deadline", &self.budget.deadline)
            .field("retries", &*self.budget.lock_retries())
            .field("toolset", &self.view)
            .finish_non_exhaustive()
    }
}

impl ToolExecutor {
    /// Starts a [`Turn`]: the calls of one model reply, or of several replies the agent
    /// loop counts as one turn, sharing a deadline and the tools' retry budgets.
    pub fn turn(&self) -> Turn<'_> {
        let deadline = self.turn_timeout.map(|timeout| Instant::now() + timeout);
        Turn {
            executor: self,
            budget: TurnBudget::new(deadline),
            view: None,
        }
    }
}

impl<'e> Turn<'e> {
    /// Sets the turn's deadline to `timeout` from now.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.budget.deadline = Some(Instant::now() + timeout);
        self
    }

    /// Sets the turn's deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.budget.deadline = Some(deadline);
        self
    }

    /// Makes the turn's calls go through `view` (see [`ToolExecutor::dispatch_in`]): they
    /// reach its tools only, by the names it gives them.
    ///
    /// ```
    /// use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry, block_on};
    ///
    /// let executor = ToolExecutor::new(ToolRegistry::new());
    /// let turn = executor.turn().with_toolset(executor.toolset().tagged("team", "fs"));
    /// let results = block_on(turn.dispatch_all(&[ToolCall::new("call_1", "search", "{}")]));
    /// assert_eq!(results[0].to_model_content(), "Error: unknown tool 'search'");
    /// ```
    #[must_use]
    pub fn with_toolset(mut self, view: Toolset<'e>) -> Self {
        self.view = Some(view);
        self
    }

    /// The executor the turn's calls run in.
    pub(super) fn executor(&self) -> &'e ToolExecutor {
        self.executor
    }

    /// The view the turn's calls go through, if any.
    pub fn toolset(&self) -> Option<&Toolset<'e>> {
        self.view.as_ref()
    }

    /// The turn's deadline, if it has one.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.deadline
    }

    /// How many times `tool_name` has asked for a retry in this turn.
    pub fn retries_used(&self, tool_name: &str) -> u32 {
        self.budget.retries_used(tool_name)
    }

    /// Runs one call as part of the turn; see [`ToolExecutor::dispatch`].
    pub async fn dispatch(&self, call: &ToolCall) -> ToolResult {
        let options = CallOptions {
            turn: Some(&self.budget),
            view: self.view.as_ref(),
            ..CallOptions::default()
        };
        self.executor.dispatch_with(call, options).await
    }

    /// Runs every call of a model reply; results come back in call order.
    ///
    /// Calls run concurrently on the current task (no thread is spawned, except for
    /// blocking tools), so tools that await I/O overlap, within the executor's
    /// [in-flight limit](super::ToolExecutorBuilder::max_in_flight). A call of a
    /// [sequential](ToolSpec::is_sequential) tool runs alone: after every call before it
    /// has ended, and before any call after it starts. Each call is independent: one failing
    /// or panicking does not affect the others.
    pub async fn dispatch_all(&self, calls: &[ToolCall]) -> Vec<ToolResult> {
        // Only an executor with a sequential tool has one to look for.
        let any_sequential = self.executor.exclusive.is_some();
        let sequential = |call: &ToolCall| {
            any_sequential
                && match &self.view {
                    Some(view) => view.lookup(call.name()),
                    None => self.executor.registry.lookup(call.name()),
                }
                .is_some_and(ToolSpec::is_sequential)
        };
        let mut results = Vec::with_capacity(calls.len());
        let mut rest = calls;
        while !rest.is_empty() {
            let together = match rest.iter().position(sequential) {
                Some(0) => 1,
                Some(next) => next,
                None => rest.len(),
            };
            let (now, later) = rest.split_at(together);
            if let [call] = now {
                results.push(self.dispatch(call).await);
            } else {
                results.extend(join_all(now.iter().map(|call| self.dispatch(call))).await);
            }
            rest = later;
        }
        results
    }
}
