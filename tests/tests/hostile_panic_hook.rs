//! A tool that panics with a secret in its message: Rust's default panic hook prints the
//! message to stderr before the executor contains the panic; `install_tool_panic_hook` keeps
//! it off. The hook is global to the process, so the test runs itself again as a child
//! process (`ROLE`), once without the hook and once with it, and reads the child's stderr.

use std::process::Command;
use std::time::Duration;

use agentkit_core::{
    BoxError, InMemoryCredentials, JsonObject, Tool, ToolCall, ToolContext, ToolExecutor,
    ToolOutput, ToolRegistry, ToolSpec, block_on, install_tool_panic_hook,
};

const ROLE: &str = "AGENTKIT_PANIC_HOOK_ROLE";
const SECRET: &str = "sk-live-HOOK-5c2e91";
const OUTSIDE: &str = "a panic outside any tool, printed as before";

/// Panics with its credential in the message: in `execute`, before its future exists; in the
/// future; or when its unfinished future is dropped (its timeout passed).
struct Leaky {
    spec: ToolSpec,
}

struct PanicsOnDrop(String);

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("dropped holding {}", self.0);
    }
}

impl Tool for Leaky {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(
        &self,
        inputs: &JsonObject,
        ctx: &ToolContext<'_>,
    ) -> impl Future<Output = Result<ToolOutput, BoxError>> + Send {
        let secret = ctx.credentials().get("key").map(|s| s.expose().to_owned());
        let secret = secret.unwrap_or_default();
        let when = inputs["when"].as_str().unwrap_or_default().to_owned();
        if when == "execute" {
            panic!("refused in execute: {secret}");
        }
        async move {
            match when.as_str() {
                "poll" => panic!("refused when polled: {secret}"),
                "drop" => {
                    let _guard = PanicsOnDrop(secret);
                    std::future::pending::<()>().await;
                    Ok(JsonObject::new().into())
                }
                _ => Ok(JsonObject::new().into()),
            }
        }
    }
}

/// The child's part: runs the panicking calls (on the executor's task, on a blocking tool's
/// thread, and in the drop of a call that timed out), then panics outside any tool.
fn child(install: bool) {
    if install {
        install_tool_panic_hook();
    }
    let spec = |name: &'static str, blocking: bool| {
        let builder = ToolSpec::builder(name).credential("key");
        let builder = if blocking {
            builder.blocking()
        } else {
            builder
        };
        builder.build().unwrap()
    };
    let mut registry = ToolRegistry::new();
    registry
        .register(Leaky {
            spec: spec("leaky", false),
        })
        .unwrap();
    registry
        .register(Leaky {
            spec: spec("leaky_blocking", true),
        })
        .unwrap();
    let executor = ToolExecutor::builder(registry)
        .credentials(InMemoryCredentials::new().with("key", SECRET))
        .default_timeout(Duration::from_millis(50))
        .build();
    let calls = [
        ("leaky", "execute"),
        ("leaky", "poll"),
        ("leaky_blocking", "poll"),
        ("leaky", "drop"),
    ];
    for (tool, when) in calls {
        let call = ToolCall::new("c1", tool, format!(r#"{{"when": "{when}"}}"#));
        let result = block_on(executor.dispatch(&call));
        assert!(!result.is_success(), "{tool} {when}");
        assert!(!format!("{result:?}").contains(SECRET), "{result:?}");
    }
    let _ = std::panic::catch_unwind(|| panic!("{OUTSIDE}"));
}

/// Runs this test as a child process in `role`, and returns its stderr.
fn run_child(role: &str) -> String {
    // The harness names a test by its path in the test binary, less the crate's name.
    let test = concat!(module_path!(), "::tool_panic_messages_stay_off_stderr");
    let test = test.split_once("::").expect("a test path").1;
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture"])
        .env(ROLE, role)
        .output()
        .expect("the test binary runs again as a child");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "child {role} failed:\n{stderr}");
    stderr
}

#[test]
fn tool_panic_messages_stay_off_stderr() {
    match std::env::var(ROLE).as_deref() {
        Ok("default") => return child(false),
        Ok("installed") => return child(true),
        _ => {}
    }
    // Without the hook: what the hook is for. Rust's default hook prints the secret.
    let default = run_child("default");
    assert!(default.contains(SECRET), "{default}");

    let installed = run_child("installed");
    assert!(!installed.contains(SECRET), "{installed}");
    // Where each tool panic happened is still said, once per panic.
    let said = installed.matches("a tool panicked at ").count();
    assert_eq!(said, 4, "{installed}");
    assert!(installed.contains(file!()), "{installed}");
    // Panics outside tools go to the previous hook, message and all.
    assert!(installed.contains(OUTSIDE), "{installed}");
}
