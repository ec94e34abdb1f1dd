//! The tests that check what `tracing` said, through a subscriber set for their own thread
//! (`tracing::subscriber::with_default`): `tracing_spans`, and the `hostile_*` tests and
//! `core_json_output`, whose harness (`hostile_support`) keeps the spans and events of every
//! call it makes. One module
//! per feature file, compiled and linked as one test binary, `tracing_capture`.
//!
//! A binary of their own, apart from the behaviour tests (`main.rs`): whether a `tracing`
//! callsite is enabled is cached for the whole process when the callsite is first reached, and
//! while exactly one subscriber is set anywhere in the process, tracing-core asks the
//! subscriber of the thread that reaches it (tokio-rs/tracing#3611). A test running the
//! executor on a thread without a subscriber, as most behaviour tests do, could then disable a
//! callsite for the whole process while one of these tests is capturing, and the test would
//! miss the span or event it checks. Here the tests beside them capture too: every call but a
//! few of `hostile_cancel`'s, which poll the executor's futures by hand, runs under a
//! capturing subscriber.

mod core_fixtures;
mod hostile_support;

mod core_json_output;
mod hostile_callbacks;
mod hostile_cancel;
mod hostile_forgery;
mod hostile_json;
mod hostile_outputs;
mod hostile_secrets;
mod hostile_sizes;
mod tracing_spans;
