//! A panic hook that keeps tools' panic messages off stderr.
//!
//! The executor contains a tool's panic and reports it in the call's result, with the call's
//! credentials redacted. But Rust's panic hook runs first, when the panic starts, and the
//! default one prints the message to stderr as it is: a tool that panics with a secret in its
//! message (`panic!("refused: {key}")`) would have the secret in the process's logs.
//! [`install_tool_panic_hook`] replaces the hook with one that withholds the message of a
//! panic inside a tool, and passes every other panic to the hook it replaced.

use std::cell::Cell;
use std::io::Write as _;
use std::panic::{self, PanicHookInfo};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    /// How many tool runs (a poll, a drop, a blocking tool's run) this thread is inside.
    static IN_TOOL: Cell<u32> = const { Cell::new(0) };
}

/// Whether the hook is installed: until it is, nothing reads the marks, and none is made.
static HOOKED: AtomicBool = AtomicBool::new(false);

/// Marks this thread as running a tool's code until dropped, unwinding included (once the
/// hook is installed).
pub(crate) struct ToolMark(bool);

impl ToolMark {
    #[inline]
    pub(crate) fn enter() -> ToolMark {
        let hooked = HOOKED.load(Ordering::Relaxed);
        if hooked {
            IN_TOOL.with(|depth| depth.set(depth.get() + 1));
        }
        ToolMark(hooked)
    }
}

impl Drop for ToolMark {
    fn drop(&mut self) {
        if self.0 {
            IN_TOOL.with(|depth| depth.set(depth.get() - 1));
        }
    }
}

/// Whether this thread is running a tool's code. (During thread teardown, when the count is
/// gone: not.)
fn in_tool() -> bool {
    IN_TOOL.try_with(|depth| depth.get() > 0).unwrap_or(false)
}

/// Installs a panic hook that withholds the message of a panic inside a tool.
///
/// A panic in a tool's code (while an executor polls its future, which runs `execute`; drops
/// it unfinished, on a timeout or cancellation; or runs a blocking tool on its thread) prints
/// only where it happened, as
/// `a tool panicked at src/tools.rs:42:9 (its message is withheld: it may quote a credential;
/// the call's result carries it, redacted)`. Every other panic goes to the hook this one
/// replaces, as before. Call it once, early in `main`, before the first call (a call already
/// running when it is installed is not covered); calling it again does nothing.
///
/// Why: Rust's default hook prints every panic's message to stderr when the panic starts,
/// before the executor can contain it. The executor reports the panic in the call's result,
/// with the call's credentials redacted ([`ToolPanic`](crate::ToolPanic)), but stderr would
/// already have the message as the tool wrote it. The hook is global to the process, so
/// agentkit installs it only when asked.
///
/// ```
/// agentkit_core::install_tool_panic_hook();
///
/// // Panics outside tools print as they did.
/// let outside = std::panic::catch_unwind(|| panic!("not in a tool"));
/// assert!(outside.is_err());
/// ```
pub fn install_tool_panic_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
            if !in_tool() {
                return previous(info);
            }
            let at = info
                .location()
                .map(|location| format!(" at {location}"))
                .unwrap_or_default();
            // A hook must not panic: a failed write to stderr is ignored.
            let _ = writeln!(
                std::io::stderr(),
                "a tool panicked{at} (its message is withheld: it may quote a credential; \
                 the call's result carries it, redacted)"
            );
        }));
        HOOKED.store(true, Ordering::Relaxed);
    });
}
