//! Credentials: resolved by name, handed to the tool, never printed.
//!
//! A tool names the credentials it needs ([`ToolSpec::credential_names`]); before each run the
//! executor asks its [`CredentialProvider`] for each, and passes the values to the tool as
//! [`Credentials`]. Values are [`Secret`]s: their `Debug` and `Display` say `[REDACTED]`, so
//! they cannot leak through a log line, an error, an event or a recording.
//!
//! [`ToolSpec::credential_names`]: crate::ToolSpec::credential_names

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use crate::error::BoxError;

/// A secret value, such as an API key.
///
/// ```
/// use agentkit_core::Secret;
///
/// let key = Secret::new("sk-123");
/// assert_eq!(key.expose(), "sk-123");
/// assert_eq!(format!("{key}"), "[REDACTED]");
/// assert_eq!(format!("{key:?}"), "Secret([REDACTED])");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Box<str>);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into().into_boxed_str())
    }

    /// The secret value. Every read of a secret goes through this one, easy to audit, call.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([REDACTED])")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[REDACTED]")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret::new(value)
    }
}

/// The credentials resolved for one tool call, by name.
///
/// ```
/// use agentkit_core::{Credentials, Secret};
///
/// let creds = Credentials::from_iter([("weather-api-key", Secret::new("sk-123"))]);
/// assert_eq!(creds.get("weather-api-key").map(Secret::expose), Some("sk-123"));
/// assert_eq!(format!("{creds:?}"), r#"Credentials {"weather-api-key": [REDACTED]}"#);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    entries: Vec<(Cow<'static, str>, Secret)>,
}

impl Credentials {
    /// No credentials.
    pub const fn new() -> Self {
        Credentials {
            entries: Vec::new(),
        }
    }

    /// The credential called `name`.
    pub fn get(&self, name: &str) -> Option<&Secret> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, secret)| secret)
    }

    /// The credential called `name`, or an error naming it, for use with `?` inside a tool.
    ///
    /// The executor resolves every credential a tool declares before running it, so this
    /// fails only for a name the tool did not declare.
    pub fn require(&self, name: &str) -> Result<&Secret, UndeclaredCredential> {
        self.get(name).ok_or_else(|| UndeclaredCredential {
            name: name.to_owned(),
        })
    }

    /// The names held, in resolution order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_ref())
    }

    /// How many credentials are held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none are held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The secret values, for taking them out of any text made during the call.
    pub(crate) fn secrets(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(_, secret)| secret.expose())
    }

    pub(crate) fn push(&mut self, name: Cow<'static, str>, secret: Secret) {
        self.entries.push((name, secret));
    }
}

impl<N: Into<Cow<'static, str>>> FromIterator<(N, Secret)> for Credentials {
    fn from_iter<I: IntoIterator<Item = (N, Secret)>>(iter: I) -> Self {
        Credentials {
            entries: iter.into_iter().map(|(n, s)| (n.into(), s)).collect(),
        }
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Redacted;
        impl fmt::Debug for Redacted {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("[REDACTED]")
            }
        }
        f.write_str("Credentials ")?;
        f.debug_map()
            .entries(self.entries.iter().map(|(n, _)| (n, Redacted)))
            .finish()
    }
}

/// A tool asked for a credential it did not declare; the error of [`Credentials::require`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "credential '{name}' was not resolved for this tool: add it to the tool's credential names"
)]
pub struct UndeclaredCredential {
    name: String,
}

impl UndeclaredCredential {
    /// The credential's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Resolves credential names to secrets: the Python original's credentials manager.
///
/// `Ok(None)` means "no such credential" and `Err` that the lookup itself failed; either way
/// the executor does not run the tool and reports a [`CredentialError`](crate::CredentialError)
/// naming the credential. An `Err`'s text is rendered nowhere (it may quote secrets the
/// executor cannot know to redact): the `CredentialError` keeps it for an operator who asks
/// ([`provider_error`](crate::CredentialError::provider_error)). Resolution is synchronous: a provider backed by a remote vault
/// should cache, since it is asked before every call of a tool that needs it.
pub trait CredentialProvider: Send + Sync + 'static {
    /// The secret called `name`, if there is one.
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError>;
}

/// Resolves nothing; the executor's provider until one is set.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoCredentials;

impl CredentialProvider for NoCredentials {
    fn resolve(&self, _name: &str) -> Result<Option<Secret>, BoxError> {
        Ok(None)
    }
}

/// Resolves credentials from environment variables.
///
/// A credential name maps to a variable by upper-casing it and replacing every character that
/// is not an ASCII letter or digit by `_`, after an optional prefix:
///
/// | prefix | credential | variable |
/// |---|---|---|
/// | none | `weather-api-key` | `WEATHER_API_KEY` |
/// | `AGENT_` | `weather-api-key` | `AGENT_WEATHER_API_KEY` |
/// | none | `github.token` | `GITHUB_TOKEN` |
///
/// ```
/// use agentkit_core::EnvCredentials;
///
/// assert_eq!(EnvCredentials::new().variable_for("weather-api-key"), "WEATHER_API_KEY");
/// assert_eq!(EnvCredentials::with_prefix("AGENT_").variable_for("github.token"), "AGENT_GITHUB_TOKEN");
/// ```
///
/// A variable that is unset, empty or not Unicode counts as missing.
#[derive(Debug, Clone, Default)]
pub struct EnvCredentials {
    prefix: String,
}

impl EnvCredentials {
    /// Reads `WEATHER_API_KEY` for `weather-api-key`.
    pub fn new() -> Self {
        EnvCredentials::default()
    }

    /// Reads `{prefix}WEATHER_API_KEY` for `weather-api-key`.
    pub fn with_prefix(prefix: impl Into<String>) -> Self {
        EnvCredentials {
            prefix: prefix.into(),
        }
    }

    /// The variable read for credential `name`.
    pub fn variable_for(&self, name: &str) -> String {
        let mut variable = self.prefix.clone();
        variable.extend(name.chars().map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        }));
        variable
    }
}

impl CredentialProvider for EnvCredentials {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        Ok(std::env::var(self.variable_for(name))
            .ok()
            .filter(|v| !v.is_empty())
            .map(Secret::from))
    }
}

/// Resolves credentials from a map held in memory: for tests, and for secrets an application
/// loaded itself.
///
/// ```
/// use agentkit_core::{CredentialProvider, InMemoryCredentials};
///
/// let creds = InMemoryCredentials::new().with("weather-api-key", "sk-123");
/// assert_eq!(creds.resolve("weather-api-key").unwrap().unwrap().expose(), "sk-123");
/// assert!(creds.resolve("other").unwrap().is_none());
/// ```
#[derive(Clone, Default)]
pub struct InMemoryCredentials {
    secrets: HashMap<String, Secret>,
}

impl InMemoryCredentials {
    /// An empty store.
    pub fn new() -> Self {
        InMemoryCredentials::default()
    }

    /// Adds (or replaces) a credential, builder style.
    #[must_use]
    pub fn with(mut self, name: impl Into<String>, secret: impl Into<Secret>) -> Self {
        self.insert(name, secret);
        self
    }

    /// Adds (or replaces) a credential.
    pub fn insert(&mut self, name: impl Into<String>, secret: impl Into<Secret>) {
        self.secrets.insert(name.into(), secret.into());
    }
}

impl fmt::Debug for InMemoryCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.secrets.keys().map(String::as_str).collect();
        names.sort_unstable();
        f.debug_struct("InMemoryCredentials")
            .field("names", &names)
            .finish_non_exhaustive()
    }
}

impl CredentialProvider for InMemoryCredentials {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        Ok(self.secrets.get(name).cloned())
    }
}

impl<P: CredentialProvider + ?Sized> CredentialProvider for std::sync::Arc<P> {
    fn resolve(&self, name: &str) -> Result<Option<Secret>, BoxError> {
        (**self).resolve(name)
    }
}
