//! The `http` handler: the hook's payload JSON POSTed to its `url`
//! (`Content-Type: application/json`), the response's status and body
//! returned for the dialect to read (the response table is the reader's:
//! `src/dialect/protocol/http.rs`).
//!
//! - One client per engine (ureq: HTTP/1.1, rustls with the webpki
//!   roots), with a keep-alive connection pool; every request runs on the
//!   calling thread. Its socket, name lookups and every wait are ours
//!   ([`transport`]): bounded by the hook's timeout, ended within a few
//!   milliseconds by a cancel.
//! - Redirects are not followed (a 3xx is a status like any other).
//! - The body read is capped at `max_output_bytes`, like a command's stdout;
//!   the rest is not read (the connection is closed instead of drained).
//! - `headers` values interpolate `$NAME` / `${NAME}` for names listed in
//!   the hook's `allowedEnvVars` (and, when the engine restricts them, in
//!   its allowed list too); other references become `""`. Values come from
//!   the hook environment's sources: the engine's `env` option, else the
//!   inherited environment (minus `env_remove`).
//! - No proxy is used (a hook URL is reached directly).
//! - When the run is traced, the request carries the W3C trace context:
//!   `traceparent` naming the hook's own span as the parent, and the run's
//!   `tracestate` when it has one. They replace configured headers of those
//!   names (a configured `tracestate` is dropped when the run has none, so
//!   the two never describe different traces). Untraced, headers are sent
//!   as configured.

mod transport;

use std::io::{self, Read};
use std::sync::OnceLock;
use std::time::Instant;

use super::{Call, Ran};
use crate::config::env_policy::EnvSettings;
use crate::config::HttpPolicy;
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::HookFailure;

/// An engine's HTTP client: one ureq agent with its keep-alive pool, made
/// when the engine's first http hook runs. (Engines are per process: after
/// a `fork()` the child's engines are new, and so are their pools.)
#[derive(Default)]
pub(crate) struct Client {
    agent: OnceLock<ureq::Agent>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("started", &self.agent.get().is_some()).finish()
    }
}

impl Client {
    fn agent(&self) -> &ureq::Agent {
        self.agent.get_or_init(|| {
            let config = ureq::Agent::config_builder()
                .max_redirects(0)
                .http_status_as_error(false)
                .save_redirect_history(false)
                .proxy(None)
                .user_agent(concat!("hookline/", env!("CARGO_PKG_VERSION")))
                .max_idle_connections_per_host(16)
                .build();
            use ureq::unversioned::transport::Connector;
            let connector = transport::HookConnector.chain(ureq::unversioned::transport::RustlsConnector::default());
            ureq::Agent::with_parts(config, connector, transport::HookResolver)
        })
    }
}

/// What an http hook is: its URL, headers and the variables they may use.
pub(crate) struct HttpHook<'a> {
    pub(crate) url: &'a str,
    pub(crate) headers: &'a [(String, String)],
    pub(crate) allowed_env_vars: &'a [String],
}

/// POST the payload for one hook.
pub(crate) fn run(hook: &HttpHook<'_>, call: &Call<'_>) -> io::Result<Ran> {
    let started = Instant::now();
    let deadline = started + call.timeout;
    let mut exec = HookExecution {
        label: hook.url.to_owned(),
        timeout_seconds: call.timeout.as_secs(),
        ..HookExecution::default()
    };
    let cancelled = || call.token.is_some_and(crate::runner::CancelToken::is_cancelled);
    let done = |exec: HookExecution, truncated: bool| Ran::Done {
        exec,
        duration: started.elapsed(),
        stdout_truncated: truncated,
        stderr_truncated: false,
    };
    let _scope = transport::Scope::enter(deadline, call.token);
    // The deadline is the scope's: every wait of the request is bounded by it.
    let mut request = call.http_client.agent().post(hook.url);
    for (name, value) in hook.headers {
        if call.trace.is_some() && is_trace_header(name) {
            continue; // the run's trace context replaces it
        }
        request = request.header(
            name.as_str(),
            interpolate(value, hook.allowed_env_vars, call.http, call.env_settings, call.trusted),
        );
    }
    if let Some(trace) = call.trace {
        request = request.header("traceparent", trace.traceparent());
        if let Some(state) = trace.tracestate() {
            request = request.header("tracestate", state);
        }
    }
    let request = request.header("Content-Type", "application/json");
    let response = match request.send(call.payload.text().as_bytes()) {
        Ok(response) => response,
        Err(_) if cancelled() => return Ok(Ran::Cancelled),
        Err(ureq::Error::Timeout(_)) => {
            exec.timed_out = true;
            return Ok(done(exec, false));
        }
        Err(e) => {
            exec.answer = Answer::Failed { kind: HookFailure::Http, message: format!("the request failed: {e}") };
            return Ok(done(exec, false));
        }
    };
    let status = response.status().as_u16();
    let mut reader = response.into_body().into_reader();
    let (body, truncated) = match read_capped(&mut reader, call.max_output_bytes) {
        Ok(read) => read,
        Err(_) if cancelled() => return Ok(Ran::Cancelled),
        Err(_) if Instant::now() >= deadline => {
            exec.timed_out = true;
            return Ok(done(exec, false));
        }
        Err(e) => {
            exec.answer = Answer::Failed {
                kind: HookFailure::Http,
                message: format!("HTTP {status}: reading the response body failed: {e}"),
            };
            return Ok(done(exec, false));
        }
    };
    exec.answer = Answer::Http { status, body: String::from_utf8_lossy(&body).into_owned(), truncated };
    Ok(done(exec, truncated))
}

/// Whether a configured header is one the trace context sets (header names
/// compare case-insensitively).
fn is_trace_header(name: &str) -> bool {
    name.eq_ignore_ascii_case("traceparent") || name.eq_ignore_ascii_case("tracestate")
}

/// Read at most `cap` bytes of the body; `true` when there was more (left unread).
fn read_capped(reader: &mut impl Read, cap: usize) -> io::Result<(Vec<u8>, bool)> {
    let mut body = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok((body, false));
        }
        let room = cap - body.len();
        if n > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk[..n]);
        if body.len() == cap {
            // Exactly at the cap: more would be past it.
            let more = loop {
                match reader.read(&mut chunk[..1]) {
                    Ok(n) => break n > 0,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            return Ok((body, more));
        }
    }
}

/// A header value with `$NAME` / `${NAME}` replaced: by the variable's
/// value when `NAME` is in `allowed` (and in the engine's allowed list,
/// when it has one) and the hook's environment policy would give it a
/// process hook (`trusted`: which policy), else by `""`. A `$` not
/// followed by a name stays.
pub(crate) fn interpolate(
    value: &str,
    allowed: &[String],
    policy: &HttpPolicy,
    env: &EnvSettings,
    trusted: bool,
) -> String {
    if !value.contains('$') {
        return value.to_owned();
    }
    let permitted = |name: &str| {
        allowed.iter().any(|a| a == name)
            && policy.allowed_env_vars.as_ref().is_none_or(|list| list.iter().any(|a| a == name))
    };
    let is_name_start = |c: char| c == '_' || c.is_ascii_alphabetic();
    let is_name = |c: char| c == '_' || c.is_ascii_alphanumeric();
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, consumed) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end)
                    if end > 0 && inner[..end].starts_with(is_name_start) && inner[..end].chars().all(is_name) =>
                {
                    (Some(&inner[..end]), end + 2)
                }
                _ => (None, 0),
            }
        } else if after.starts_with(is_name_start) {
            let end = after.find(|c: char| !is_name(c)).unwrap_or(after.len());
            (Some(&after[..end]), end)
        } else {
            (None, 0)
        };
        match name {
            Some(name) => {
                if permitted(name) {
                    out.push_str(&env.lookup_as(name, trusted).unwrap_or_default());
                }
                rest = &after[consumed..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::env_policy::EnvPolicy;

    fn env() -> EnvSettings {
        EnvSettings::new(vec![("TOKEN".into(), "t0k".into()), ("OTHER".into(), "o".into())], Vec::new(), None, None)
    }

    /// The environment policy of the hook's source applies to what its
    /// headers interpolate, as it does to a command's environment: a name
    /// `untrusted_hook_env` scrubs is empty for an untrusted source's hook.
    #[test]
    fn header_values_of_an_untrusted_hook_interpolate_under_its_environment_policy() {
        let scrub =
            EnvPolicy::from_json(&serde_json::json!({"scrub": ["TOK*"], "set": {"OTHER": "set"}}), "o").unwrap();
        let env = EnvSettings::new(
            vec![("TOKEN".into(), "t0k".into()), ("OTHER".into(), "o".into())],
            Vec::new(),
            None,
            Some(&scrub),
        );
        let allowed = vec!["TOKEN".to_owned(), "OTHER".to_owned()];
        let open = HttpPolicy::default();
        assert_eq!(interpolate("$TOKEN/$OTHER", &allowed, &open, &env, true), "t0k/o");
        assert_eq!(interpolate("$TOKEN/$OTHER", &allowed, &open, &env, false), "/set");
    }

    /// "Only variables listed in `allowedEnvVars` are resolved; all other
    /// `$VAR` references remain empty."
    #[test]
    fn header_values_interpolate_only_the_hooks_allowed_variables() {
        let allowed = vec!["TOKEN".to_owned()];
        let open = HttpPolicy::default();
        assert_eq!(interpolate("Bearer $TOKEN", &allowed, &open, &env(), true), "Bearer t0k");
        assert_eq!(interpolate("Bearer ${TOKEN}!", &allowed, &open, &env(), true), "Bearer t0k!");
        assert_eq!(interpolate("$OTHER-${OTHER}", &allowed, &open, &env(), true), "-");
        assert_eq!(interpolate("$5 and ${} and $", &allowed, &open, &env(), true), "$5 and ${} and $");
        assert_eq!(interpolate("no refs", &[], &open, &env(), true), "no refs");
    }

    /// "a hook can use a variable only if both its own `allowedEnvVars` and
    /// this key name it."
    #[test]
    fn the_engines_allowed_list_narrows_every_hooks_list() {
        let allowed = vec!["TOKEN".to_owned(), "OTHER".to_owned()];
        let policy = HttpPolicy { allowed_env_vars: Some(vec!["OTHER".into()]), ..HttpPolicy::default() };
        assert_eq!(interpolate("$TOKEN/$OTHER", &allowed, &policy, &env(), true), "/o");
    }

    #[test]
    fn a_body_is_read_up_to_the_cap_and_the_rest_is_left() {
        let (body, truncated) = read_capped(&mut &b"abcdef"[..], 4).unwrap();
        assert_eq!((body.as_slice(), truncated), (&b"abcd"[..], true));
        let (body, truncated) = read_capped(&mut &b"abcd"[..], 4).unwrap();
        assert_eq!((body.as_slice(), truncated), (&b"abcd"[..], false));
        let (body, truncated) = read_capped(&mut &b"ab"[..], 4).unwrap();
        assert_eq!((body.as_slice(), truncated), (&b"ab"[..], false));
    }
}
