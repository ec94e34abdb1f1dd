//! A crate that forbids unsafe code declares tools holding state, under the strictest lints a
//! user may set, registers them and calls one. `#[tool]` writes no `unsafe`: the check that a
//! tool's fields are `Send` and `Sync` is the bound of its `Tool` impl (see
//! `agentkit_core::__private::thread_safety`).
//!
//! (`forbid(unsafe_code)` alone would not catch an `unsafe impl` in the expansion, which the
//! lint does not look into; agentkit-derive's own tests check that no expansion has one.)
#![forbid(unsafe_code)]
#![deny(warnings, missing_docs, unused_qualifications, unreachable_pub)]
#![deny(unused_lifetimes, single_use_lifetimes, rust_2018_idioms)]
#![deny(clippy::pedantic)]

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use agentkit_core::{
    BoxError, JsonObject, NoCredentials, ToolContext, ToolExecutor, ToolHandler, ToolParams,
    ToolRegistry, block_on, tool,
};

/// Adds to a running total, kept in state of the kinds a tool holds.
#[tool(
    name = "add",
    input = [{ name = "step", type = integer, required = false, default = 1 }],
    output = [{ name = "total", type = integer }],
)]
pub struct Add {
    total: AtomicI64,
    log: Arc<Mutex<Vec<i64>>>,
    label: String,
}

impl ToolHandler for Add {
    async fn run(&self, input: AddInput, _: &ToolContext<'_>) -> Result<AddOutput, BoxError> {
        let total = self.total.fetch_add(input.step, Ordering::SeqCst) + input.step;
        self.log.lock().map_err(|_| "poisoned")?.push(total);
        let _ = &self.label;
        Ok(AddOutput { total })
    }
}

/// The input of [`Greet`], a type of the user's own.
#[derive(ToolParams)]
pub struct GreetArgs {
    /// Who to greet.
    pub name: String,
}

/// A tuple struct holding its state.
#[tool(name = "greet", input = GreetArgs)]
pub struct Greet(Arc<str>);

impl ToolHandler for Greet {
    async fn run(&self, input: GreetArgs, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert(
            "greeting".into(),
            format!("{} {}", self.0, input.name).into(),
        );
        Ok(out)
    }
}

mod no_prelude {
    #![no_implicit_prelude]

    use ::agentkit_core::{BoxError, JsonObject, ToolContext, ToolHandler, tool};

    /// A tool with a field, declared where the prelude is not in scope.
    #[tool(name = "bare")]
    pub(crate) struct Bare {
        pub(crate) calls: ::std::sync::atomic::AtomicU64,
    }

    impl ToolHandler for Bare {
        async fn run(
            &self,
            input: JsonObject,
            _: &ToolContext<'_>,
        ) -> ::core::result::Result<JsonObject, BoxError> {
            self.calls
                .fetch_add(1, ::std::sync::atomic::Ordering::Relaxed);
            ::core::result::Result::Ok(input)
        }
    }
}

fn main() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut registry = ToolRegistry::new();
    registry
        .register(Add {
            total: AtomicI64::new(40),
            log: Arc::clone(&log),
            label: "sum".into(),
        })
        .unwrap();
    registry.register(Greet("Hello,".into())).unwrap();
    registry
        .register(no_prelude::Bare {
            calls: std::sync::atomic::AtomicU64::new(0),
        })
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(NoCredentials)
        .build();
    let mut inputs = JsonObject::new();
    inputs.insert("step".into(), 2.into());
    let result = block_on(executor.execute("add", inputs));
    assert_eq!(result.output().unwrap()["total"], 42);
    assert_eq!(*log.lock().unwrap(), [42]);
}
