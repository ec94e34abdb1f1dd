//! Which `Host` and `Origin` headers the HTTP service accepts: the MCP specification's
//! defence against DNS rebinding, where a web page the user visits makes the browser send
//! requests to a server on the user's machine.

use http::HeaderMap;
use http::header::{HOST, ORIGIN};

/// The hosts and origins a server accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Allowed {
    /// Host names, or `host:port`; empty accepts any.
    pub(super) hosts: Vec<String>,
    /// `scheme://host[:port]` (a port of `*` for any, none for the scheme's default), or
    /// `null`; a request without `Origin` (not from a browser) is always accepted.
    pub(super) origins: Vec<String>,
    /// Whether any origin is accepted.
    pub(super) any_origin: bool,
}

impl Default for Allowed {
    /// Loopback only: the `Host` a local client sends, and the origins of pages served from
    /// this machine.
    fn default() -> Self {
        Allowed {
            hosts: ["localhost", "127.0.0.1", "[::1]"]
                .map(String::from)
                .to_vec(),
            origins: [
                "http://localhost:*",
                "http://127.0.0.1:*",
                "http://[::1]:*",
                "https://localhost:*",
                "https://127.0.0.1:*",
                "https://[::1]:*",
            ]
            .map(String::from)
            .to_vec(),
            any_origin: false,
        }
    }
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    Host,
    Origin,
}

impl Refused {
    /// The response's text.
    pub(super) fn message(self) -> &'static str {
        match self {
            Refused::Host => "Forbidden: the Host header is not one this server accepts",
            Refused::Origin => "Forbidden: the Origin header is not one this server accepts",
        }
    }
}

impl Allowed {
    /// Whether the request's headers are accepted.
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), Refused> {
        if !self.hosts.is_empty() {
            // HTTP/1.1 requires `Host`; without one, or with two, the request is refused.
            let mut hosts = headers.get_all(HOST).iter();
            let host = match (hosts.next(), hosts.next()) {
                (Some(host), None) => host.to_str().map_err(|_| Refused::Host)?,
                _ => return Err(Refused::Host),
            };
            // Split once, not once for each allowed name: this runs for every request.
            let host = Host::new(host);
            if !self.hosts.iter().any(|allowed| host.matches(allowed)) {
                return Err(Refused::Host);
            }
        }
        if self.any_origin {
            return Ok(());
        }
        let mut origins = headers.get_all(ORIGIN).iter();
        match (origins.next(), origins.next()) {
            (None, _) => Ok(()),
            (Some(origin), None) => {
                let origin = origin.to_str().map_err(|_| Refused::Origin)?;
                if self
                    .origins
                    .iter()
                    .any(|allowed| origin_matches(allowed, origin))
                {
                    Ok(())
                } else {
                    Err(Refused::Origin)
                }
            }
            _ => Err(Refused::Origin),
        }
    }
}

/// A request's `Host` (`name` or `name:port`), trimmed, and its name when it has a port.
struct Host<'a> {
    whole: &'a str,
    /// The name before the port, when there is a port.
    name: Option<&'a str>,
}

impl<'a> Host<'a> {
    fn new(host: &'a str) -> Self {
        let whole = host.trim();
        let name = match split_port(whole) {
            (name, Some(_)) => Some(name),
            (_, None) => None,
        };
        Host { whole, name }
    }

    /// Against an allowed `name` (any port) or `name:port`.
    fn matches(&self, allowed: &str) -> bool {
        // Compared without lowercased copies: this runs for every request, against each name.
        self.whole.eq_ignore_ascii_case(allowed)
            || self
                .name
                .is_some_and(|name| name.eq_ignore_ascii_case(allowed))
    }
}

/// `origin` (`scheme://host[:port]`, or `null`) against an allowed one (`:*` for any port).
fn origin_matches(allowed: &str, origin: &str) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    let allowed = allowed.to_ascii_lowercase();
    if origin == "null" || allowed == "null" {
        return origin == allowed;
    }
    let (Some((scheme, authority)), Some((allowed_scheme, allowed_authority))) =
        (origin.split_once("://"), allowed.split_once("://"))
    else {
        return false;
    };
    if scheme != allowed_scheme || authority.contains(['/', '@', '?', '#']) {
        return false;
    }
    let default_port = match scheme {
        "http" => "80",
        "https" => "443",
        _ => return false,
    };
    let (name, port) = split_port(authority);
    let (allowed_name, allowed_port) = split_port(allowed_authority);
    name == allowed_name
        && match allowed_port {
            Some("*") => true,
            allowed_port => port.unwrap_or(default_port) == allowed_port.unwrap_or(default_port),
        }
}

/// `name:port` (or `[v6]:port`) as the name and the port.
fn split_port(authority: &str) -> (&str, Option<&str>) {
    if let Some(rest) = authority.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((_, after)) => {
                let name = &authority[..authority.len() - after.len()];
                (name, after.strip_prefix(':'))
            }
            None => (authority, None),
        };
    }
    // A byte search: `rsplit_once(':')`'s general pattern search was most of the `Host`
    // check's cost (about 200 instructions a split, measured by `benches/mcp-serving`).
    match authority.bytes().rposition(|byte| byte == b':') {
        // `:` is ASCII: both sides of it are on character boundaries.
        Some(colon) => (&authority[..colon], Some(&authority[colon + 1..])),
        None => (authority, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(HOST, HeaderValue::from_str(host).unwrap());
        }
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    /// Outside brackets, the port is what follows the last `:`, as `rsplit_once` cuts it.
    #[test]
    fn a_port_is_what_follows_the_last_colon() {
        for authority in [
            "",
            ":",
            "::",
            "x",
            "x:",
            ":9",
            "localhost:8080",
            "a:b:c",
            "é:1",
            "1:é",
            "h\u{2028}:7",
        ] {
            let expected = match authority.rsplit_once(':') {
                Some((name, port)) => (name, Some(port)),
                None => (authority, None),
            };
            assert_eq!(split_port(authority), expected, "{authority:?}");
        }
        assert_eq!(split_port("[::1]:9"), ("[::1]", Some("9")));
        assert_eq!(split_port("[::1]"), ("[::1]", None));
    }

    /// A `Host` matches an allowed name with or without its port, in any case, trimmed;
    /// `name:port` only with that port.
    #[test]
    fn a_host_matches_its_name_with_any_port() {
        let allowed = Allowed {
            hosts: vec!["Example.com".into(), "api.example.com:8443".into()],
            ..Allowed::default()
        };
        let ok = |host| allowed.check(&headers(Some(host), None));
        for host in [
            "example.com",
            " EXAMPLE.com:80 ",
            "example.com:1",
            "api.example.com:8443",
        ] {
            assert_eq!(ok(host), Ok(()), "{host:?}");
        }
        for host in [
            "api.example.com",
            "api.example.com:80",
            "example.org:80",
            "example.com:80:1",
        ] {
            assert_eq!(ok(host), Err(Refused::Host), "{host:?}");
        }
    }

    #[test]
    fn loopback_is_the_default() {
        let allowed = Allowed::default();
        let ok = |host, origin| allowed.check(&headers(host, origin));
        assert_eq!(ok(Some("127.0.0.1:8080"), None), Ok(()));
        assert_eq!(ok(Some("localhost"), Some("http://localhost:3000")), Ok(()));
        assert_eq!(ok(Some("[::1]:9"), Some("https://[::1]")), Ok(()));
        assert_eq!(
            ok(Some("127.0.0.1:8080"), Some("http://evil.example")),
            Err(Refused::Origin)
        );
        assert_eq!(
            ok(Some("127.0.0.1:8080"), Some("null")),
            Err(Refused::Origin)
        );
        assert_eq!(
            ok(
                Some("127.0.0.1:8080"),
                Some("http://localhost.evil.example")
            ),
            Err(Refused::Origin)
        );
        assert_eq!(
            ok(
                Some("127.0.0.1:8080"),
                Some("http://localhost@evil.example")
            ),
            Err(Refused::Origin)
        );
        assert_eq!(ok(Some("evil.example"), None), Err(Refused::Host));
        assert_eq!(
            ok(Some("evil.example:80"), Some("http://evil.example")),
            Err(Refused::Host)
        );
        assert_eq!(ok(Some("localhost.evil.example"), None), Err(Refused::Host));
        assert_eq!(ok(None, None), Err(Refused::Host));
    }

    #[test]
    fn configured_hosts_and_origins_match_by_port_rules() {
        let allowed = Allowed {
            hosts: vec!["mcp.example.com".into(), "api.example.com:8443".into()],
            origins: vec!["https://app.example.com".into(), "null".into()],
            any_origin: false,
        };
        let ok = |host, origin| allowed.check(&headers(Some(host), origin)).is_ok();
        assert!(ok(
            "mcp.example.com:443",
            Some("https://app.example.com:443")
        ));
        assert!(ok("api.example.com:8443", Some("null")));
        assert!(!ok("api.example.com:8080", None));
        assert!(!ok("mcp.example.com", Some("https://app.example.com:8443")));
        assert!(!ok("mcp.example.com", Some("http://app.example.com")));
    }
}
