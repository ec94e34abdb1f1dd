//! [`ToolAnnotations`]: what a tool says of its effects, for approval policies and MCP hosts.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::rules::{self, Problem};

/// What a tool says of itself beyond its schema: a human title, and hints about its effects
/// (MCP's tool annotations). An [`ApprovalPolicy`](crate::ApprovalPolicy) can read them
/// ("destructive tools need a person"), and an MCP server declares them to its clients.
///
/// They are hints, not promises: a tool that says it only reads is trusted to, and the
/// annotations of a tool from a remote MCP server are what that server says of it, to show
/// a person, never to rely on for safety. A hint left unset is `None`; MCP's defaults then
/// apply where it matters (an unset `destructive` counts as destructive, an unset
/// `open_world` as open).
///
/// A tool cannot be both read-only and destructive: a spec saying so is refused.
///
/// ```
/// use agentkit_core::ToolSpec;
///
/// let spec = ToolSpec::builder("delete_file")
///     .title("Delete a file")
///     .destructive(true)
///     .idempotent(true)
///     .build()?;
/// assert_eq!(spec.annotations().destructive(), Some(true));
/// assert_eq!(spec.annotations().read_only(), None);
/// assert!(spec.annotations().may_destroy());
///
/// assert!(ToolSpec::builder("x").read_only(true).destructive(true).build().is_err());
/// # Ok::<(), agentkit_core::SemanticError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolAnnotations {
    pub(super) title: Option<Cow<'static, str>>,
    pub(super) read_only: Option<bool>,
    pub(super) destructive: Option<bool>,
    pub(super) idempotent: Option<bool>,
    pub(super) open_world: Option<bool>,
}

impl ToolAnnotations {
    /// No annotation.
    pub const NONE: ToolAnnotations = ToolAnnotations {
        title: None,
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// Sets every annotation in a `const` context; used by `#[tool(...)]`, which has checked
    /// them at compile time.
    #[doc(hidden)]
    pub const fn from_static(
        title: Option<&'static str>,
        read_only: Option<bool>,
        destructive: Option<bool>,
        idempotent: Option<bool>,
        open_world: Option<bool>,
    ) -> Self {
        let title = match title {
            Some(title) => Some(Cow::Borrowed(title)),
            None => None,
        };
        ToolAnnotations {
            title,
            read_only,
            destructive,
            idempotent,
            open_world,
        }
    }

    /// A human title for the tool, for a host to show (the name is for models).
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Whether the tool only reads: it changes nothing in its environment.
    pub fn read_only(&self) -> Option<bool> {
        self.read_only
    }

    /// Whether the tool may destroy or overwrite something (when it is not read-only).
    pub fn destructive(&self) -> Option<bool> {
        self.destructive
    }

    /// Whether calling the tool again with the same arguments has no further effect.
    pub fn idempotent(&self) -> Option<bool> {
        self.idempotent
    }

    /// Whether the tool reaches an open world (the web, other people's systems) rather than
    /// a closed one (a local store).
    pub fn open_world(&self) -> Option<bool> {
        self.open_world
    }

    /// Whether a call may destroy something, as MCP reads the hints: not read-only, and not
    /// said to be non-destructive. What "destructive tools need a person" asks.
    pub fn may_destroy(&self) -> bool {
        self.read_only != Some(true) && self.destructive != Some(false)
    }

    /// Whether no annotation is set.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::NONE
    }

    /// The annotations' problems: read-only and destructive together.
    pub(super) fn problems(&self) -> Option<Problem> {
        rules::check_annotations(self.read_only, self.destructive).err()
    }

    /// The annotations as a spec's JSON shape writes them (`{"title": .., "read_only": ..}`);
    /// `None` when none is set.
    pub(super) fn to_value(&self) -> Option<Value> {
        if self.is_empty() {
            return None;
        }
        let mut object = Map::new();
        if let Some(title) = &self.title {
            object.insert("title".into(), Value::from(title.as_ref()));
        }
        for (key, hint) in self.hints() {
            if let Some(hint) = hint {
                object.insert(key.into(), Value::Bool(hint));
            }
        }
        Some(Value::Object(object))
    }

    /// The hints with their keys in a spec's JSON shape (and in `#[tool(...)]`).
    pub(super) fn hints(&self) -> [(&'static str, Option<bool>); 4] {
        [
            ("read_only", self.read_only),
            ("destructive", self.destructive),
            ("idempotent", self.idempotent),
            ("open_world", self.open_world),
        ]
    }

    /// Sets the hint `key` (one of [`hints`](Self::hints)' keys); `false` for an unknown key.
    pub(super) fn set_hint(&mut self, key: &str, value: bool) -> bool {
        let hint = match key {
            "read_only" => &mut self.read_only,
            "destructive" => &mut self.destructive,
            "idempotent" => &mut self.idempotent,
            "open_world" => &mut self.open_world,
            _ => return false,
        };
        *hint = Some(value);
        true
    }
}
