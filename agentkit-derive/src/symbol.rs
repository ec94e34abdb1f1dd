//! The keys of `#[tool(...)]` and of a parameter declaration, as constants.
//!
//! Parsing compares identifiers against these rather than against string literals scattered
//! through the code, so a key is spelled once. The lists agree with the shared rule set
//! (`rules::TOOL_KEYS`, `rules::PARAM_KEYS`), which words the messages; a test keeps them
//! in step.

use std::fmt;

/// A key of the attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Symbol(&'static str);

pub(crate) const NAME: Symbol = Symbol("name");
pub(crate) const DESCRIPTION: Symbol = Symbol("description");
pub(crate) const VERSION: Symbol = Symbol("version");
pub(crate) const INPUT: Symbol = Symbol("input");
pub(crate) const OUTPUT: Symbol = Symbol("output");
pub(crate) const TAGS: Symbol = Symbol("tags");
pub(crate) const CREDENTIALS: Symbol = Symbol("credentials");
pub(crate) const TIMEOUT: Symbol = Symbol("timeout");
pub(crate) const BLOCKING: Symbol = Symbol("blocking");
pub(crate) const SEQUENTIAL: Symbol = Symbol("sequential");
pub(crate) const REQUIRES_APPROVAL: Symbol = Symbol("requires_approval");
pub(crate) const RETRIES: Symbol = Symbol("retries");
pub(crate) const TASK_SUPPORT: Symbol = Symbol("task_support");
pub(crate) const TITLE: Symbol = Symbol("title");
pub(crate) const READ_ONLY: Symbol = Symbol("read_only");
pub(crate) const DESTRUCTIVE: Symbol = Symbol("destructive");
pub(crate) const IDEMPOTENT: Symbol = Symbol("idempotent");
pub(crate) const OPEN_WORLD: Symbol = Symbol("open_world");
pub(crate) const EXAMPLES: Symbol = Symbol("examples");
pub(crate) const CRATE: Symbol = Symbol("crate");
pub(crate) const DEFS: Symbol = Symbol("defs");

pub(crate) const TYPE: Symbol = Symbol("type");
pub(crate) const REQUIRED: Symbol = Symbol("required");
pub(crate) const DEFAULT: Symbol = Symbol("default");
pub(crate) const ITEMS: Symbol = Symbol("items");
pub(crate) const FIELDS: Symbol = Symbol("fields");
pub(crate) const ENUM: Symbol = Symbol("enum");
pub(crate) const MINIMUM: Symbol = Symbol("minimum");
pub(crate) const MAXIMUM: Symbol = Symbol("maximum");
pub(crate) const MIN_LENGTH: Symbol = Symbol("min_length");
pub(crate) const MAX_LENGTH: Symbol = Symbol("max_length");
pub(crate) const MIN_ITEMS: Symbol = Symbol("min_items");
pub(crate) const MAX_ITEMS: Symbol = Symbol("max_items");

/// The keys of `#[tool(...)]`, in the order the documentation lists them.
pub(crate) const TOOL_KEYS: [Symbol; 21] = [
    NAME,
    DESCRIPTION,
    VERSION,
    INPUT,
    OUTPUT,
    TAGS,
    CREDENTIALS,
    TIMEOUT,
    BLOCKING,
    SEQUENTIAL,
    REQUIRES_APPROVAL,
    RETRIES,
    TASK_SUPPORT,
    TITLE,
    READ_ONLY,
    DESTRUCTIVE,
    IDEMPOTENT,
    OPEN_WORLD,
    EXAMPLES,
    CRATE,
    DEFS,
];

/// The annotation hints of `#[tool(...)]`: each written alone (`true`), or as `key = true` or
/// `key = false`.
pub(crate) const HINTS: [Symbol; 4] = [READ_ONLY, DESTRUCTIVE, IDEMPOTENT, OPEN_WORLD];

/// The keys of a parameter declaration `{ name = ..., type = ... }`: the Python original's, then
/// `items` and `fields`, then the constraints.
pub(crate) const PARAM_KEYS: [Symbol; 14] = [
    NAME,
    TYPE,
    REQUIRED,
    DEFAULT,
    DESCRIPTION,
    ITEMS,
    FIELDS,
    ENUM,
    MINIMUM,
    MAXIMUM,
    MIN_LENGTH,
    MAX_LENGTH,
    MIN_ITEMS,
    MAX_ITEMS,
];

impl Symbol {
    /// Finds the symbol spelled `key` among `keys`.
    pub(crate) fn lookup(keys: &[Symbol], key: &str) -> Option<Symbol> {
        keys.iter().copied().find(|symbol| symbol.0 == key)
    }

    /// A key spelled `key`, for the keys read outside these lists.
    pub(crate) const fn new(key: &'static str) -> Symbol {
        Symbol(key)
    }

    pub(crate) const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;

    #[test]
    fn keys_agree_with_the_shared_rules() {
        let tool: Vec<&str> = TOOL_KEYS.iter().map(|s| s.as_str()).collect();
        assert_eq!(tool, rules::TOOL_KEYS);
        let param: Vec<&str> = PARAM_KEYS.iter().map(|s| s.as_str()).collect();
        assert_eq!(param, rules::PARAM_KEYS);
    }
}
