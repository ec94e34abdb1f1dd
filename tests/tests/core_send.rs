//! The executor's futures are `Send`, so calls can be spawned on multi-threaded runtimes,
//! and the executor can be shared between tasks.

use std::sync::Arc;

use agentkit_core::{ToolCall, ToolExecutor, ToolRegistry};

fn assert_send<T: Send>(value: T) -> T {
    value
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_can_be_spawned_on_a_multi_threaded_runtime() {
    let executor = Arc::new(ToolExecutor::new(ToolRegistry::new()));
    let call = ToolCall::new("c1", "missing", "{}");

    let one = {
        let executor = Arc::clone(&executor);
        let call = call.clone();
        tokio::spawn(async move { executor.dispatch(&call).await })
    };
    let all = {
        let executor = Arc::clone(&executor);
        let calls = vec![call.clone(), call.clone()];
        tokio::spawn(async move { executor.dispatch_all(&calls).await })
    };
    let deadline = {
        let executor = Arc::clone(&executor);
        tokio::spawn(async move {
            let sleep = tokio::time::sleep(std::time::Duration::from_secs(1));
            assert_send(executor.dispatch_until(&call, sleep)).await
        })
    };

    assert_eq!(one.await.unwrap().tool_name(), "missing");
    assert_eq!(all.await.unwrap().len(), 2);
    assert!(!deadline.await.unwrap().is_success());
}
