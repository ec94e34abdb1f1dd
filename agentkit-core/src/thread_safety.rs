//! The check `#[tool]` makes that every field of a tool is `Send` and `Sync`.
//!
//! A registry shares its tools across threads, so `Tool` requires both. Left to the
//! compiler, one `Rc` field is reported nine times: by the `Tool` impl (for itself, for a call
//! in it, for the future it returns), by the user's `ToolHandler` impl and by the future `run`
//! returns, for `Send` and for `Sync` each. The macro instead asks, per field, which of the
//! two its type lacks, and turns the answer into one error spanned on the field's type.
//!
//! The question is answered without negative reasoning, by method resolution: the receiver
//! `&&&&Probe<F>` matches the most-referenced impl whose bounds hold, tried in the order
//! `Level0` (both), `Level1` (`Send` only), `Level2` (`Sync` only), `Level3` (neither). Each
//! level returns a verdict; all verdicts but [`Fine`] have a `require` whose bound no type
//! meets, with the message for the field's case.
//!
//! The `Tool` impl needs the struct to be `Send` and `Sync`, and the macro writes no
//! `unsafe` to say so. The check above is instead the `const` block of the impl's bound
//! `<() as Checked<{ check }>>::Unit: Send + Sync`. When every field passes, the block is
//! `true` and the bound is `(): Send + Sync`, which holds and asks nothing of the struct,
//! `Send` and `Sync` by its fields. When a field fails, the block has no value and the bound
//! is on an error type, which the compiler takes as given: inside the impl, it answers every
//! `Send` and `Sync` asked of the struct; where the tool is used, it is not reported. The
//! compiler checks the bound when it checks the impl, written right after the struct, so
//! the field's error comes first.
//!
//! Nothing else asks: `ToolHandler`, the one impl the user writes, has neither `Send` nor
//! `Sync` among its supertraits, and its `run` returns a future not bound by `Send`, since
//! either bound would be checked in the user's impl, without the macro's bound, and report
//! the field again (three times for an `Rc`). Both are asked by the generated `Tool` impl
//! instead, under the bound above: the struct's, and the `Send` of the future of `run`,
//! which rustc sees through the concrete impl. So a field that is neither is one error, on
//! its type; a future that holds a value that is not `Send` across an `.await` is one error
//! too, on the struct's name, whose note points at the `.await`.

use std::marker::PhantomData;

/// The receiver of the check for a field of type `F`.
pub struct Probe<F: ?Sized>(PhantomData<F>);

impl<F: ?Sized> Probe<F> {
    /// The probe, as a constant so the generated check is one expression.
    pub const NEW: Self = Probe(PhantomData);
}

/// The field's type is `Send` and `Sync`.
pub struct Fine;

/// The field's type is `Send` but not `Sync`.
pub struct NotSync<F: ?Sized>(PhantomData<F>);

/// The field's type is `Sync` but not `Send`.
pub struct NotSend<F: ?Sized>(PhantomData<F>);

/// The field's type is neither `Send` nor `Sync`.
pub struct Neither<F: ?Sized>(PhantomData<F>);

/// Implemented by no type: a bound on it is the error for a field that is neither.
#[diagnostic::on_unimplemented(
    message = "an executor shares its tools across tasks and threads, so a tool's fields must be `Send` and `Sync`: `{Self}` is neither",
    label = "neither `Send` nor `Sync`",
    note = "`Arc` is the thread-safe `Rc`; `Mutex`, `RwLock` and the atomics are the thread-safe `RefCell` and `Cell`"
)]
pub trait IsNeitherSendNorSync {}

/// Implemented by no type: a bound on it is the error for a field that is not `Sync`.
#[diagnostic::on_unimplemented(
    message = "an executor shares its tools across tasks and threads, so a tool's fields must be `Send` and `Sync`: `{Self}` is not `Sync`",
    label = "not `Sync`",
    note = "`Mutex`, `RwLock` and the atomics are the thread-safe `RefCell` and `Cell`"
)]
pub trait IsNotSync {}

/// Implemented by no type: a bound on it is the error for a field that is not `Send`.
#[diagnostic::on_unimplemented(
    message = "an executor shares its tools across tasks and threads, so a tool's fields must be `Send` and `Sync`: `{Self}` is not `Send`",
    label = "not `Send`",
    note = "a lock guard cannot outlive the call that took it: keep the lock itself in the field"
)]
pub trait IsNotSend {}

impl Fine {
    /// Passes.
    pub fn require(self) {}
}

impl<F: ?Sized> NotSync<F> {
    /// Fails, saying the field is not `Sync`.
    pub fn require(self)
    where
        F: IsNotSync,
    {
    }
}

impl<F: ?Sized> NotSend<F> {
    /// Fails, saying the field is not `Send`.
    pub fn require(self)
    where
        F: IsNotSend,
    {
    }
}

impl<F: ?Sized> Neither<F> {
    /// Fails, saying the field is neither.
    pub fn require(self)
    where
        F: IsNeitherSendNorSync,
    {
    }
}

/// `<() as Checked<{ check }>>::Unit` is `()` when the `const` block `check` evaluates (to
/// `true`), and an error type, of which the compiler says nothing more, when it does not:
/// the type of the bound `#[tool]` puts on the `Tool` impl of a struct with fields, and,
/// with a `compile_error!` for the block, the type of a field that a mistake in the
/// attribute leaves undecided (every use of it compiles, and the mistake is one error).
pub trait Checked<const PASSED: bool> {
    /// `()`.
    type Unit;
}

impl Checked<true> for () {
    type Unit = ();
}

/// Chosen for a field that is `Send` and `Sync`.
pub trait Level0 {
    /// The verdict.
    fn verdict(&self) -> Fine {
        Fine
    }
}

impl<F: ?Sized + Send + Sync> Level0 for &&&Probe<F> {}

/// Chosen for a field that is `Send` only.
pub trait Level1<F: ?Sized> {
    /// The verdict.
    fn verdict(&self) -> NotSync<F> {
        NotSync(PhantomData)
    }
}

impl<F: ?Sized + Send> Level1<F> for &&Probe<F> {}

/// Chosen for a field that is `Sync` only.
pub trait Level2<F: ?Sized> {
    /// The verdict.
    fn verdict(&self) -> NotSend<F> {
        NotSend(PhantomData)
    }
}

impl<F: ?Sized + Sync> Level2<F> for &Probe<F> {}

/// Chosen for a field that is neither.
pub trait Level3<F: ?Sized> {
    /// The verdict.
    fn verdict(&self) -> Neither<F> {
        Neither(PhantomData)
    }
}

impl<F: ?Sized> Level3<F> for Probe<F> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::any::{Any, TypeId};
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use std::sync::{Arc, Mutex, MutexGuard};

    fn is<Expected: Any>(verdict: impl Any) -> bool {
        verdict.type_id() == TypeId::of::<Expected>()
    }

    // The verdicts the generated check relies on: each field type gets the level that
    // matches what it lacks (the errors themselves are in the trybuild cases).
    #[test]
    // The references are the mechanism: the generated check writes exactly this.
    #[allow(clippy::needless_borrow)]
    fn each_field_type_gets_the_verdict_for_what_it_lacks() {
        assert!(is::<Fine>((&&&&Probe::<String>::NEW).verdict()));
        assert!(is::<Fine>((&&&&Probe::<Arc<Mutex<u8>>>::NEW).verdict()));
        assert!(is::<Fine>((&&&&Probe::<str>::NEW).verdict()));
        assert!(is::<NotSync<RefCell<u8>>>(
            (&&&&Probe::<RefCell<u8>>::NEW).verdict()
        ));
        assert!(is::<NotSync<Cell<u8>>>(
            (&&&&Probe::<Cell<u8>>::NEW).verdict()
        ));
        assert!(is::<NotSend<MutexGuard<'static, u8>>>(
            (&&&&Probe::<MutexGuard<'static, u8>>::NEW).verdict()
        ));
        assert!(is::<Neither<Rc<u8>>>((&&&&Probe::<Rc<u8>>::NEW).verdict()));
        assert!(is::<Neither<*const u8>>(
            (&&&&Probe::<*const u8>::NEW).verdict()
        ));
    }

    // The bound of a tool whose check passes asks nothing of the struct (the errors when it
    // does not are in the trybuild cases).
    #[test]
    fn a_passed_check_is_the_unit_type() {
        fn send_and_sync<T: Send + Sync + ?Sized>() {}
        send_and_sync::<<() as Checked<true>>::Unit>();
        let unit: <() as Checked<true>>::Unit = ();
        assert_eq!(unit, ());
    }
}
