//! Reading a foreign error safely: its message rendered once, bounded and contained (a
//! `Display` or `Debug` that panics, a chain without end), and, where it shows a secret of the
//! call, replaced by its redacted messages.

use std::fmt;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::kind::BoxError;
use crate::model_text::scrub_cut;

/// How many bytes of a cause's message are read; a `Display` that writes more is cut.
const MESSAGE_BYTES: usize = 8 * 1024;

/// How deep a cause's `source` chain is followed.
const CHAIN_DEPTH: usize = 16;

/// A `fmt::Write` that keeps at most `MESSAGE_BYTES` and then stops the formatting.
#[derive(Default)]
pub(super) struct Bounded {
    pub(super) text: String,
    /// Whether the text was cut: what followed, a secret maybe, was not seen.
    cut: bool,
}

impl fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = MESSAGE_BYTES - self.text.len();
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.text.push('…');
        self.cut = true;
        Err(fmt::Error)
    }
}

/// Renders a foreign value's `Display` or `Debug`, bounded, and contained: `None` when the
/// formatting impl panicked, instead of unwinding through the executor.
pub(super) fn render(write: impl FnOnce(&mut Bounded) -> fmt::Result) -> Option<Bounded> {
    let mut out = Bounded::default();
    match catch_unwind(AssertUnwindSafe(|| write(&mut out))) {
        // `Err(fmt::Error)` only says the text was cut; what was written stands.
        Ok(_) => Some(out),
        Err(panic) => {
            discard(panic);
            None
        }
    }
}

/// Drops a panic payload, whose own `Drop` could panic again.
pub(crate) fn discard(payload: Box<dyn std::any::Any + Send>) {
    if let Err(again) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
        // A payload whose drop panics twice is leaked rather than unwound.
        std::mem::forget(again);
    }
}

/// What a message that panicked when rendered is shown as.
const UNRENDERABLE: &str = "(the error's message could not be rendered: it panicked)";

/// The bounded message of `source`, and `source` itself, or, when its message chain or its
/// `Debug` shows one of `secrets` (or may, past where they were cut), or panics when
/// formatted, a stand-in that carries only the (redacted) messages.
pub(super) fn redact(source: BoxError, secrets: &[&str]) -> (Box<str>, BoxError) {
    // A cause whose `Display` or `Debug` panics here would panic again in whoever logs it, so
    // it is replaced too; the whole chain is rendered to know.
    let mut panicked = false;
    // A rendering cut short, or a chain deeper than followed, may hide a secret past the cut.
    let mut unseen = false;
    let mut text = |rendered: Option<Bounded>| match rendered {
        Some(rendered) => {
            unseen |= rendered.cut;
            rendered.text
        }
        None => {
            panicked = true;
            UNRENDERABLE.to_owned()
        }
    };
    let mut chain = vec![text(render(|out| write!(out, "{source}")))];
    let mut next = source.source();
    while let Some(cause) = next.filter(|_| chain.len() < CHAIN_DEPTH) {
        chain.push(text(render(|out| write!(out, "{cause}"))));
        next = cause.source();
    }
    let debug = text(render(|out| write!(out, "{source:?}")));
    unseen |= next.is_some();
    let secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    let leaks = |text: &str| secrets.iter().any(|secret| text.contains(secret));
    let clean = secrets.is_empty() || !(unseen || leaks(&debug) || chain.iter().any(|m| leaks(m)));
    if !panicked && clean {
        let message = chain.swap_remove(0);
        return (message.into(), source);
    }
    let mut stand_in: Option<Redacted> = None;
    for message in chain.into_iter().rev() {
        stand_in = Some(Redacted {
            message: scrub_cut(message, &secrets).into(),
            source: stand_in.map(Box::new),
        });
    }
    let stand_in = stand_in.unwrap_or_else(|| Redacted {
        message: "[redacted]".into(),
        source: None,
    });
    let message = stand_in.message.clone();
    // The original is dropped here: a foreign `Drop` that panics must not unwind either.
    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(source))) {
        discard(panic);
    }
    (message, Box::new(stand_in))
}

/// A cause whose text showed a secret, kept as its redacted messages only.
#[derive(Debug)]
pub(super) struct Redacted {
    pub(super) message: Box<str>,
    pub(super) source: Option<Box<Redacted>>,
}

impl fmt::Display for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Redacted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn std::error::Error + 'static))
    }
}
