//! The URL policy layer: when the engine restricts http hook URLs (option
//! `allowed_http_hook_urls`, or Claude Code's `allowedHttpHookUrls` in a
//! trusted settings source), an http hook whose URL matches none of the
//! patterns is skipped with `"skipped": "url_not_allowed"` and a warning,
//! before anything is sent. An empty list allows no URL.
//!
//! A pattern is the URL with `*` standing for any text (`http://localhost:*`,
//! `https://hooks.example.com/*`); as Claude Code does, the scheme and host
//! compare case-insensitively and a host's trailing dot is ignored.

use crate::config::{HandlerSpec, HttpPolicy};
use crate::handler::Hook;

/// Why `hook` may not run under `policy`, `None` when it may.
pub(crate) fn refuses(policy: &HttpPolicy, hook: Hook<'_>) -> Option<String> {
    let HandlerSpec::Http { url, .. } = &hook.spec()?.handler else {
        return None;
    };
    let patterns = policy.allowed_urls.as_ref()?;
    if patterns.iter().any(|p| url_matches(p, url)) {
        None
    } else {
        Some(format!("its URL {url} matches none of the allowed http hook URLs"))
    }
}

/// Whether `url` matches `pattern` (`*` matches any text, the scheme and
/// host case-insensitively, a host's trailing dot ignored).
pub fn url_matches(pattern: &str, url: &str) -> bool {
    glob(&normalize(pattern), &normalize(url))
}

/// The URL with its scheme and host lowercased and a trailing dot of the
/// host dropped.
fn normalize(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_owned();
    };
    let authority_start = scheme_end + 3;
    let authority_end = url[authority_start..].find(['/', '?', '#']).map_or(url.len(), |i| authority_start + i);
    let authority = url[authority_start..authority_end].to_ascii_lowercase();
    // The host ends before a port (`:` after the last `]` of an IPv6 literal).
    let host_end = match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => i,
        _ => authority.len(),
    };
    let (host, port) = authority.split_at(host_end);
    let host = host.strip_suffix('.').unwrap_or(host);
    format!("{}://{host}{port}{}", url[..scheme_end].to_ascii_lowercase(), &url[authority_end..])
}

/// `*` matches any run of characters; everything else itself.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "`["https://hooks.example.com/*", "http://localhost:*"]` allows any
    /// URL under `https://hooks.example.com/` and any `http://localhost`
    /// URL"; "Hostname matching is case-insensitive and treats
    /// `hooks.example.com.` … the same as `hooks.example.com`".
    #[test]
    fn allowed_url_patterns_match_with_stars_and_hosts_case_insensitively() {
        assert!(url_matches("https://hooks.example.com/*", "https://hooks.example.com/a/b?c"));
        assert!(url_matches("https://hooks.example.com/*", "HTTPS://Hooks.Example.COM./x"));
        assert!(!url_matches("https://hooks.example.com/*", "https://hooks.example.com.evil.net/x"));
        assert!(!url_matches("https://hooks.example.com/*", "http://hooks.example.com/x"));
        assert!(url_matches("http://localhost:*", "http://localhost:8080/hooks"));
        assert!(!url_matches("http://localhost:*", "http://127.0.0.1:8080/hooks"));
        assert!(url_matches("http://127.0.0.1:*/h", "http://127.0.0.1:9/h"));
        assert!(!url_matches("http://127.0.0.1:*/h", "http://127.0.0.1:9/h/more"));
        assert!(url_matches("*", "https://anything/"));
        assert!(url_matches("http://[::1]:*", "http://[::1]:80/x"));
    }
}
