//! The rule set for tool declarations, shared by `agentkit-core` (run time) and
//! `agentkit-derive` (compile time).
//!
//! This folder is compiled into both crates: `agentkit-derive/src/rules` is a symbolic link to
//! it (serde shares `serde_derive/src/internals` the same way). It therefore depends on `std`
//! only, and every message a user can see about a malformed declaration is worded here, once
//! ([`problem`], with [`detail`]). A schema loaded from JSON at run time and a `#[tool(...)]` literal checked by
//! the compiler are refused for the same reasons, in the same words.
//!
//! The files go from the vocabulary up: [`types`] (the six types, values, names, bounds),
//! [`detail`] (what some problems carry: why a name is refused, what is wrong with an
//! example), [`problem`] (every problem and its wording), [`keys`] (the keys of a declaration, and suggestions),
//! [`names`] (names, versions, timeouts, annotations), [`constraints`] (`items`, `fields`,
//! `enum`, bounds), [`walk`] (a value walked through its declaration, as validation walks an
//! argument), [`defaults`] (a default checked against its whole declaration) and
//! [`examples`] (an input example checked against the tool's parameters, and the bounds on
//! examples). Each imports only those before it; this file only gathers them.

pub(crate) mod constraints;
pub(crate) mod defaults;
pub(crate) mod detail;
pub(crate) mod examples;
pub(crate) mod keys;
pub(crate) mod names;
pub(crate) mod problem;
pub(crate) mod types;
pub(crate) mod walk;

pub use constraints::*;
pub use defaults::*;
pub use detail::*;
pub use examples::*;
pub use keys::*;
pub use names::*;
pub use problem::*;
pub use types::*;
pub use walk::*;
