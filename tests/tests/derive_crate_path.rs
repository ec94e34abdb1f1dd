//! `crate = "..."` is honoured: the expansion reaches agentkit-core only through the given
//! path. Here that path leads to a module that re-exports agentkit-core's private API but
//! replaces `execute_typed` with one that counts its calls.

use std::sync::atomic::{AtomicUsize, Ordering};

use agentkit_core::{
    BoxError, JsonObject, Tool, ToolContext, ToolExecutor, ToolHandler, ToolRegistry, block_on,
    tool,
};

mod sdk {
    pub(crate) mod __private {
        use std::sync::atomic::{AtomicUsize, Ordering};

        pub(crate) use agentkit_core::__private::*;

        pub(crate) static CALLS: AtomicUsize = AtomicUsize::new(0);

        /// Counts, then runs the real `execute_typed`.
        pub(crate) async fn execute_typed<T: agentkit_core::ToolHandler>(
            tool: &T,
            inputs: Inputs<'_>,
            ctx: &ToolContext<'_>,
        ) -> Result<Returned, BoxError>
        where
            T::Input: 'static,
        {
            CALLS.fetch_add(1, Ordering::SeqCst);
            agentkit_core::__private::execute_typed(tool, inputs, ctx).await
        }
    }
}

#[tool(crate = "crate::derive_crate_path::sdk", name = "counted", input = [{ name = "n", type = integer }])]
struct Counted;

impl ToolHandler for Counted {
    async fn run(&self, input: CountedInput, _: &ToolContext<'_>) -> Result<JsonObject, BoxError> {
        let mut out = JsonObject::new();
        out.insert("n".into(), input.n.into());
        Ok(out)
    }
}

#[test]
fn the_expansion_goes_through_the_given_path() {
    static BEFORE: AtomicUsize = AtomicUsize::new(0);
    BEFORE.store(
        sdk::__private::CALLS.load(Ordering::SeqCst),
        Ordering::SeqCst,
    );
    assert_eq!(Counted.spec().name(), "counted");
    let mut registry = ToolRegistry::new();
    registry.register(Counted).unwrap();
    let executor = ToolExecutor::new(registry);
    let mut inputs = JsonObject::new();
    inputs.insert("n".into(), 3.into());
    let result = block_on(executor.execute("counted", inputs));
    assert_eq!(result.output().unwrap()["n"], 3);
    assert_eq!(
        sdk::__private::CALLS.load(Ordering::SeqCst),
        BEFORE.load(Ordering::SeqCst) + 1
    );
}
