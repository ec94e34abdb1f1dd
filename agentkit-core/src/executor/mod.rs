//! The [`ToolExecutor`]: the only path to a tool.
//!
//! The executor and its entry points are in `dispatch`, its configuration in `builder`, and a
//! [`Turn`] (calls sharing a deadline and retry budgets, `budget`) in `turn`. A call runs in
//! `run`: its arguments parsed and validated, then its tool in one of two lanes, each passing
//! the `gates` (approval, room to run, credentials) it needs, raced against its `deadline`,
//! off the async task when `blocking`, and always `contain`ed. `lifecycle` holds a call
//! between its first event and its last; `trace` opens its span.

mod blocking;
mod budget;
mod builder;
mod conclude;
mod contain;
mod deadline;
mod dispatch;
mod gates;
mod lifecycle;
mod run;
mod stream;
mod trace;
mod turn;

pub use builder::{DEFAULT_RETRIES, ToolExecutorBuilder};
#[cfg(feature = "mcp")]
pub(crate) use dispatch::CallReporter;
pub use dispatch::ToolExecutor;
pub use turn::Turn;
