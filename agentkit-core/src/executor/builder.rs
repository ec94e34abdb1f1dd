//! [`ToolExecutorBuilder`]: an executor's configuration, its policies and their defaults.

use std::any::Any;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_lock::{RwLock, Semaphore};

use super::dispatch::ToolExecutor;
use crate::approval::ApprovalPolicy;
use crate::credentials::{CredentialProvider, NoCredentials};
use crate::events::ToolObserver;
use crate::model_text::TextLimits;
use crate::registry::ToolRegistry;
use crate::runtime::{Runtime, default_runtime};
use crate::schema::UnknownArguments;
use crate::tool::ToolSpec;

/// Configures a [`ToolExecutor`]; see [`ToolExecutor::builder`].
#[must_use = "call `build` to get the executor"]
pub struct ToolExecutorBuilder {
    executor: ToolExecutor,
}

impl fmt::Debug for ToolExecutorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ToolExecutorBuilder")
            .field(&self.executor)
            .finish()
    }
}

/// How many times per turn a tool may ask for a retry, unless it or the executor says
/// otherwise: pydantic-ai's default.
pub const DEFAULT_RETRIES: u32 = 1;

impl ToolExecutor {
    /// An executor over `registry`, without credentials or observers.
    pub fn new(registry: ToolRegistry) -> Self {
        ToolExecutor::builder(registry).build()
    }

    /// Starts configuring an executor over `registry`.
    pub fn builder(registry: ToolRegistry) -> ToolExecutorBuilder {
        ToolExecutorBuilder {
            executor: ToolExecutor {
                registry,
                credentials: Arc::new(NoCredentials),
                observers: Arc::default(),
                unknown_arguments: UnknownArguments::default(),
                limits: TextLimits::DEFAULT,
                dependencies: Arc::default(),
                runtime: default_runtime(),
                default_timeout: None,
                turn_timeout: None,
                default_retries: DEFAULT_RETRIES,
                approval: None,
                max_in_flight: None,
                in_flight: None,
                exclusive: None,
            },
        }
    }
}

impl ToolExecutorBuilder {
    /// Sets where credentials come from (default: [`NoCredentials`], which resolves none).
    pub fn credentials(mut self, provider: impl CredentialProvider) -> Self {
        self.executor.credentials = Arc::new(provider);
        self
    }

    /// Adds an observer of execution events.
    ///
    /// An observer that panics is contained: the call goes on, the other observers still see
    /// the event, and with the `tracing` feature the panic is reported as an error event.
    pub fn observer(mut self, observer: impl ToolObserver) -> Self {
        Arc::make_mut(&mut self.executor.observers).push(Arc::new(observer));
        self
    }

    /// Chooses what input validation does with undeclared arguments (default:
    /// [`UnknownArguments::Reject`]). Outputs are always held to their schema.
    pub fn unknown_arguments(mut self, policy: UnknownArguments) -> Self {
        self.executor.unknown_arguments = policy;
        self
    }

    /// Registers a value every tool can reach through
    /// [`ToolContext::dependency`](crate::ToolContext::dependency), by its type: a database
    /// pool, an HTTP client, configuration. One value per type; a second of the same type
    /// replaces the first.
    pub fn dependency<T: Any + Send + Sync>(mut self, value: T) -> Self {
        Arc::make_mut(&mut self.executor.dependencies).insert(value);
        self
    }

    /// Sets the bounds on the text results render for the model (default:
    /// [`TextLimits::DEFAULT`]).
    pub fn text_limits(mut self, limits: TextLimits) -> Self {
        self.executor.limits = limits;
        self
    }

    /// Sets the timers and blocking threads the executor uses (default: `TokioRuntime` with
    /// the `tokio` feature, else [`StdRuntime`](crate::StdRuntime)).
    pub fn runtime(mut self, runtime: impl Runtime) -> Self {
        self.executor.runtime = Arc::new(runtime);
        self
    }

    /// Sets the timeout of tools that declare none (default: none).
    pub fn default_timeout(mut self, timeout: Duration) -> Self {
        self.executor.default_timeout = Some(timeout);
        self
    }

    /// Sets the deadline of every [`Turn`](crate::Turn), counted from when the turn is made (default:
    /// none), and so of [`dispatch_all`](ToolExecutor::dispatch_all).
    pub fn turn_timeout(mut self, timeout: Duration) -> Self {
        self.executor.turn_timeout = Some(timeout);
        self
    }

    /// Sets how many times per [`Turn`](crate::Turn) a tool that declares no budget may ask the model to
    /// retry (default: [`DEFAULT_RETRIES`]).
    pub fn default_retries(mut self, retries: u32) -> Self {
        self.executor.default_retries = retries;
        self
    }

    /// Sets the policy that decides calls of tools that require approval (default: none,
    /// which defers every such call).
    pub fn approval(mut self, policy: impl ApprovalPolicy) -> Self {
        self.executor.approval = Some(Arc::new(policy));
        self
    }

    /// Limits how many calls run at once across the whole executor (default: no limit).
    /// A call waits for room after its inputs are validated; its timeout starts once it has
    /// room, and its turn's deadline applies while it waits. A limit of 0 counts as 1.
    pub fn max_in_flight(mut self, limit: usize) -> Self {
        self.executor.max_in_flight = Some(limit.max(1));
        self
    }

    /// Builds the executor.
    pub fn build(mut self) -> ToolExecutor {
        let executor = &mut self.executor;
        executor.in_flight = executor.max_in_flight.map(Semaphore::new);
        if executor.registry.specs().any(ToolSpec::is_sequential) {
            executor.exclusive = Some(RwLock::new(()));
        }
        self.executor
    }
}
