//! Every handler type of a Claude Code config, run by the engine as a host
//! runs it: http hooks against real HTTP servers on loopback (in-process,
//! every loop bounded, stopped on drop), prompt, agent and mcp_tool hooks
//! through the host's handlers, command hooks in exec form and under other
//! shells, `asyncRewake`. Each test of a Claude Code rule quotes the
//! sentence of its hooks reference it proves.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hookline::{CallResult, Deferred, HandlerType, HookEvent, LifecycleHookEngine, Reply, Status};
use serde_json::{json, Value};

use crate::support::Ws;

/// An engine with one Claude Code group of `hooks` on `event`.
trait Engines {
    fn engine(&self, event: &str, hooks: Vec<Value>) -> LifecycleHookEngine;
}

impl Engines for Ws {
    fn engine(&self, event: &str, hooks: Vec<Value>) -> LifecycleHookEngine {
        self.engine_with(json!({"hooks": {event: [{"hooks": hooks}]}}))
    }
}

// ------------------------------------------------------------ test server

/// What the test server does with each request.
#[derive(Clone)]
enum Mode {
    /// Answer with this status, content type and body.
    Respond(u16, &'static str, String),
    /// Read the request and never answer.
    Never,
    /// Promise a body and send one byte of it every 50 ms.
    Trickle,
    /// Send a body of this many bytes.
    Huge(usize),
    /// Read the request, then reset the connection.
    Reset,
    /// Redirect to this URL.
    Redirect(String),
}

#[derive(Clone, Debug)]
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct Log {
    requests: Vec<Request>,
    connections: usize,
}

/// An HTTP/1.1 server on 127.0.0.1 (keep-alive), stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Log>>,
    acceptor: Option<JoinHandle<()>>,
}

/// Longest any server thread lives, whatever happens.
const SERVER_LIFETIME: Duration = Duration::from_secs(120);

impl Server {
    fn start(mode: Mode) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Log::default()));
        let (stop2, log2) = (stop.clone(), log.clone());
        let acceptor = std::thread::spawn(move || {
            let born = Instant::now();
            let mut workers = Vec::new();
            while !stop2.load(Ordering::SeqCst) && born.elapsed() < SERVER_LIFETIME {
                match listener.accept() {
                    Ok((stream, _)) => {
                        log2.lock().unwrap().connections += 1;
                        let (mode, stop, log) = (mode.clone(), stop2.clone(), log2.clone());
                        workers.push(std::thread::spawn(move || serve(stream, &mode, &stop, &log, born)));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
            for w in workers {
                let _ = w.join();
            }
        });
        Server { addr, stop, log, acceptor: Some(acceptor) }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn requests(&self) -> Vec<Request> {
        self.log.lock().unwrap().requests.clone()
    }

    fn connections(&self) -> usize {
        self.log.lock().unwrap().connections
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(a) = self.acceptor.take() {
            let _ = a.join();
        }
    }
}

fn live(stop: &AtomicBool, born: Instant) -> bool {
    !stop.load(Ordering::SeqCst) && born.elapsed() < SERVER_LIFETIME
}

/// Read one request (headers, then a Content-Length body); `None` when the
/// client closed or the server stops.
fn read_request(stream: &mut TcpStream, stop: &AtomicBool, born: Instant) -> Option<Request> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i;
        }
        if !live(stop, born) || buf.len() > 1 << 20 {
            return None;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return None,
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())).collect();
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        if !live(stop, born) {
            return None;
        }
        match stream.read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return None,
        }
    }
    Some(Request { method, path, headers, body: String::from_utf8_lossy(&body).into_owned() })
}

fn serve(mut stream: TcpStream, mode: &Mode, stop: &AtomicBool, log: &Mutex<Log>, born: Instant) {
    stream.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    for _ in 0..10_000 {
        let Some(request) = read_request(&mut stream, stop, born) else { return };
        log.lock().unwrap().requests.push(request);
        match mode {
            Mode::Respond(status, content_type, body) => {
                let head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                if stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes())).is_err() {
                    return;
                }
            }
            Mode::Never => {
                while live(stop, born) {
                    std::thread::sleep(Duration::from_millis(10));
                }
                return;
            }
            Mode::Trickle => {
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n{");
                while live(stop, born) {
                    if stream.write_all(b" ").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                return;
            }
            Mode::Huge(size) => {
                let _ = stream.write_all(format!("HTTP/1.1 200 OK\r\nContent-Length: {size}\r\n\r\n{{").as_bytes());
                let block = vec![b' '; 64 * 1024];
                let mut sent = 1;
                while sent < *size && live(stop, born) {
                    let n = block.len().min(size - sent);
                    if stream.write_all(&block[..n]).is_err() {
                        return;
                    }
                    sent += n;
                }
                return;
            }
            Mode::Reset => {
                let _ = rustix::net::sockopt::set_socket_linger(&stream, Some(Duration::ZERO));
                return;
            }
            Mode::Redirect(to) => {
                let head = format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n");
                if stream.write_all(head.as_bytes()).is_err() {
                    return;
                }
            }
        }
    }
}

fn json_server(body: Value) -> Server {
    Server::start(Mode::Respond(200, "application/json", body.to_string()))
}

// ------------------------------------------------------------ engine helpers

fn input(event: HookEvent) -> Value {
    match event {
        HookEvent::PreToolUse | HookEvent::PermissionRequest => {
            json!({"tool_name": "Write", "tool_input": {"file_path": "/w/a.rs", "content": "x"}, "permission_request": {}})
        }
        HookEvent::PostToolUse => {
            json!({"tool_name": "Write", "tool_input": {"file_path": "/w/a.rs"}, "tool_response": {}})
        }
        HookEvent::PostToolUseFailure => json!({"tool_name": "Bash", "tool_input": {}, "error": "boom"}),
        HookEvent::UserPromptSubmit => json!({"prompt": "hello", "turn_id": "t"}),
        HookEvent::Stop | HookEvent::SubagentStop => {
            json!({"last_assistant_message": "done", "stop_hook_active": false})
        }
        _ => json!({}),
    }
}

fn run(e: &LifecycleHookEngine, event: HookEvent) -> Value {
    e.run_blocking(event, &input(event)).unwrap().to_json()
}

fn report(out: &Value) -> &Value {
    &out["hooks"][0]
}

fn messages(out: &Value) -> String {
    out["messages"].as_array().unwrap().iter().map(|m| format!("{}: {}\n", m["level"], m["text"])).collect()
}

fn http_hook(url: &str) -> Value {
    json!({"type": "http", "url": url, "timeout": 5})
}

/// A handler recording each request and answering with `reply`.
fn answering(seen: &Arc<Mutex<Vec<Value>>>, reply: Value) -> hookline::SharedCallback {
    let seen = seen.clone();
    Arc::new(move |req: &str| {
        seen.lock().unwrap().push(serde_json::from_str(req).unwrap());
        CallResult::ok(Reply::Json(reply.clone()))
    })
}

// ------------------------------------------------------------ http: the response table

/// "2xx with an empty body: success, equivalent to exit code 0 with no output".
#[test]
fn http_2xx_with_an_empty_body_is_success_without_output() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let out = run(&ws.engine("PreToolUse", vec![http_hook(&server.url("/h"))]), HookEvent::PreToolUse);
    assert_eq!(out["decision"], "continue");
    assert_eq!(report(&out)["kind"], "http");
    assert_eq!(report(&out)["url"], server.url("/h"));
    assert_eq!(report(&out)["failure"], Value::Null, "{out}");
    assert_eq!(report(&out)["command"], Value::Null);
    assert!(out["messages"].as_array().unwrap().is_empty(), "{out}");
}

/// "Claude Code sends the hook's JSON input as the POST request body with
/// `Content-Type: application/json`."
#[test]
fn http_posts_the_hook_input_json_with_a_json_content_type() {
    let server = Server::start(Mode::Respond(200, "text/plain", String::new()));
    let ws = Ws::new();
    run(&ws.engine("PostToolUse", vec![http_hook(&server.url("/hooks/post"))]), HookEvent::PostToolUse);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/hooks/post"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let body: Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(body["hook_event_name"], "PostToolUse");
    assert_eq!(body["tool_name"], "Write");
    assert_eq!(body["session_id"], "s-1");
}

/// "2xx with a JSON object body: parsed using the same JSON output schema as
/// command hooks"; "To block a tool call or deny a permission, return a 2xx
/// response with a JSON body containing the appropriate decision fields."
#[test]
fn http_2xx_json_reads_like_stdout_json_and_can_deny() {
    let server = json_server(json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not here"}}));
    let ws = Ws::new();
    let out = run(&ws.engine("PreToolUse", vec![http_hook(&server.url("/"))]), HookEvent::PreToolUse);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("not here")), "{out}");
    assert_eq!((report(&out)["status"].as_u64(), report(&out)["exit_code"].as_i64()), (Some(200), None));
}

/// "2xx with any other body, such as plain text: non-blocking error, handled
/// the same as a non-2xx status. Claude Code doesn't add the text to
/// Claude's context".
#[test]
fn http_plain_text_body_is_a_non_blocking_error_not_context() {
    let server = Server::start(Mode::Respond(200, "text/plain", "looks fine to me".into()));
    let ws = Ws::new();
    let out = run(&ws.engine("UserPromptSubmit", vec![http_hook(&server.url("/"))]), HookEvent::UserPromptSubmit);
    assert_eq!(report(&out)["failure"], "http");
    assert_eq!(out["allow_prompt"], true);
    assert!(out["additional_context"].as_array().unwrap().is_empty(), "{out}");
    assert!(messages(&out).contains("not a JSON object"), "{out}");
}

/// "Non-2xx status: non-blocking error, execution continues"; "HTTP hooks
/// can't signal a blocking error through status codes alone."
#[test]
fn http_non_2xx_is_a_non_blocking_error_naming_the_status() {
    let server = Server::start(Mode::Respond(
        500,
        "application/json",
        json!({"hookSpecificOutput": {"permissionDecision": "deny"}}).to_string(),
    ));
    let ws = Ws::new();
    let out = run(&ws.engine("PreToolUse", vec![http_hook(&server.url("/"))]), HookEvent::PreToolUse);
    assert_eq!(out["decision"], "continue", "a 500 with a deny body decides nothing: {out}");
    assert_eq!(report(&out)["failure"], "http");
    assert!(messages(&out).contains("HTTP 500"), "{out}");
}

/// "Connection failure: non-blocking error, execution continues".
#[test]
fn http_connection_refused_is_a_non_blocking_error() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let ws = Ws::new();
    let out =
        run(&ws.engine("PreToolUse", vec![http_hook(&format!("http://127.0.0.1:{port}/"))]), HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "http", "{out}");
    assert_eq!(out["decision"], "continue");
    assert!(messages(&out).contains("the request failed"), "{out}");
}

#[test]
fn http_redirects_are_not_followed() {
    let target = json_server(json!({"decision": "block", "reason": "followed"}));
    let server = Server::start(Mode::Redirect(target.url("/t")));
    let ws = Ws::new();
    let out = run(&ws.engine("Stop", vec![http_hook(&server.url("/"))]), HookEvent::Stop);
    assert_eq!(report(&out)["failure"], "http");
    assert!(messages(&out).contains("HTTP 302 (redirects are not followed)"), "{out}");
    assert_eq!(out["block_reason"], Value::Null);
    assert!(target.requests().is_empty(), "the redirect target was asked");
}

#[test]
fn http_connection_reset_is_a_non_blocking_error() {
    let server = Server::start(Mode::Reset);
    let ws = Ws::new();
    let out = run(&ws.engine("PreToolUse", vec![http_hook(&server.url("/"))]), HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "http", "{out}");
    assert_eq!(out["decision"], "continue");
}

// ------------------------------------------------------------ http: faults bounded by the timeout

/// "Timeout: the hook is canceled and renders no decision, and execution
/// continues".
#[test]
fn http_server_that_never_answers_times_out_without_a_decision() {
    let server = Server::start(Mode::Never);
    let ws = Ws::new();
    let started = Instant::now();
    let hook = json!({"type": "http", "url": server.url("/"), "timeout": 1});
    let out = run(&ws.engine("PreToolUse", vec![hook]), HookEvent::PreToolUse);
    let took = started.elapsed();
    assert_eq!(report(&out)["failure"], "timeout", "{out}");
    assert_eq!(report(&out)["timed_out"], true);
    assert_eq!(out["decision"], "continue", "a timed-out http hook does not block: {out}");
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(6), "took {took:?}");
}

#[test]
fn http_trickling_body_is_bounded_by_the_timeout() {
    let server = Server::start(Mode::Trickle);
    let ws = Ws::new();
    let started = Instant::now();
    let hook = json!({"type": "http", "url": server.url("/"), "timeout": 1});
    let out = run(&ws.engine("Stop", vec![hook]), HookEvent::Stop);
    assert_eq!(report(&out)["failure"], "timeout", "{out}");
    assert!(started.elapsed() < Duration::from_secs(6), "took {:?}", started.elapsed());
}

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// Bodies are capped like stdout: a 100 MiB body is read up to
/// `max_output_bytes`, the rest is never read (memory stays flat).
#[test]
fn http_100_mib_body_is_capped_and_memory_stays_flat() {
    let _memory = crate::support::memory_lock();
    let server = Server::start(Mode::Huge(100 << 20));
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "max_output_bytes": 65536,
        "hooks": {"Stop": [{"hooks": [{"type": "http", "url": server.url("/"), "timeout": 30}]}]}
    }));
    let before = rss_kib();
    let started = Instant::now();
    let out = run(&engine, HookEvent::Stop);
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
    assert_eq!(report(&out)["stdout_truncated"], true, "{out}");
    assert_eq!(report(&out)["failure"], "http");
    assert!(messages(&out).contains("longer than max_output_bytes"), "{out}");
    if let (Some(before), Some(after)) = (before, rss_kib()) {
        assert!(after.saturating_sub(before) < 48 * 1024, "RSS grew from {before} KiB to {after} KiB");
    }
}

#[test]
fn http_request_is_cancelled_promptly() {
    let server = Server::start(Mode::Never);
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![json!({"type": "http", "url": server.url("/"), "timeout": 60})]);
    let (tx, rx) = mpsc::channel();
    let id = engine
        .run_async(HookEvent::PreToolUse, input(HookEvent::PreToolUse), move |r| {
            tx.send(r.map(|o| o.to_json())).unwrap()
        })
        .unwrap();
    // Cancel once the request is with the server.
    let waited = Instant::now();
    while server.requests().is_empty() && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let cancelled = Instant::now();
    engine.cancel(id).unwrap();
    let result = rx.recv_timeout(Duration::from_secs(10)).expect("done");
    assert_eq!(result.unwrap_err().status, Status::Cancelled);
    assert!(cancelled.elapsed() < Duration::from_secs(3), "took {:?}", cancelled.elapsed());
}

/// Closing the engine ends a blocking run's request too.
#[test]
fn http_request_of_a_blocking_run_ends_when_the_engine_closes() {
    let server = Server::start(Mode::Never);
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "http", "url": server.url("/"), "timeout": 60})]);
    let runner = {
        let engine = engine.clone();
        std::thread::spawn(move || engine.run_blocking(HookEvent::Stop, &input(HookEvent::Stop)).map(|o| o.to_json()))
    };
    let waited = Instant::now();
    while server.requests().is_empty() && waited.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let closed = Instant::now();
    engine.close();
    let result = runner.join().unwrap();
    assert_eq!(result.unwrap_err().status, Status::Cancelled);
    assert!(closed.elapsed() < Duration::from_secs(3), "took {:?}", closed.elapsed());
}

#[test]
fn http_connections_are_kept_alive_between_runs() {
    let server = Server::start(Mode::Respond(200, "application/json", "{}".into()));
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![http_hook(&server.url("/"))]);
    for _ in 0..3 {
        let out = run(&engine, HookEvent::PreToolUse);
        assert_eq!(report(&out)["failure"], Value::Null, "{out}");
    }
    assert_eq!(server.requests().len(), 3);
    assert_eq!(server.connections(), 1, "each run opened its own connection");
}

// ------------------------------------------------------------ http: headers, URLs, dedupe

/// "Header values support environment variable interpolation using
/// `$VAR_NAME` or `${VAR_NAME}` syntax. Only variables listed in
/// `allowedEnvVars` are resolved"; "References to unlisted variables are
/// replaced with empty strings."
#[test]
fn http_headers_interpolate_only_allowed_variables() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "env": {"HOOK_TOKEN": "s3cret", "OTHER_SECRET": "leak"},
        "hooks": {"PreToolUse": [{"hooks": [{
            "type": "http", "url": server.url("/"),
            "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "[${OTHER_SECRET}]"},
            "allowedEnvVars": ["HOOK_TOKEN"]
        }]}]}
    }));
    run(&engine, HookEvent::PreToolUse);
    let r = &server.requests()[0];
    assert_eq!(r.header("authorization"), Some("Bearer s3cret"));
    assert_eq!(r.header("x-other"), Some("[]"));
}

/// "`httpHookAllowedEnvVars`: … a hook can use a variable only if both its
/// own `allowedEnvVars` and this key name it."
#[test]
fn http_hook_allowed_env_vars_option_narrows_every_hook() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "env": {"A_TOKEN": "a", "B_TOKEN": "b"},
        "http_hook_allowed_env_vars": ["B_TOKEN"],
        "hooks": {"Stop": [{"hooks": [{
            "type": "http", "url": server.url("/"),
            "headers": {"X-A": "$A_TOKEN.", "X-B": "$B_TOKEN."}, "allowedEnvVars": ["A_TOKEN", "B_TOKEN"]
        }]}]}
    }));
    run(&engine, HookEvent::Stop);
    let r = &server.requests()[0];
    assert_eq!((r.header("x-a"), r.header("x-b")), (Some("."), Some("b.")));
}

/// "When you define this key, Claude Code runs an HTTP hook only if its URL
/// matches one of the patterns and blocks the rest without running them".
#[test]
fn http_urls_outside_allowed_http_hook_urls_are_skipped() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "allowed_http_hook_urls": ["https://hooks.example.com/*"],
        "hooks": {"PreToolUse": [{"hooks": [http_hook(&server.url("/"))]}]}
    }));
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!(report(&out)["skipped"], "url_not_allowed", "{out}");
    assert!(server.requests().is_empty());
    assert!(messages(&out).contains("was not run"), "{out}");
    let allowed = ws.engine_with(json!({
        "allowed_http_hook_urls": [format!("http://127.0.0.1:{}/*", server.addr.port())],
        "hooks": {"PreToolUse": [{"hooks": [http_hook(&server.url("/"))]}]}
    }));
    assert_eq!(report(&run(&allowed, HookEvent::PreToolUse))["skipped"], Value::Null);
    assert_eq!(server.requests().len(), 1);
}

/// "an empty array blocks every HTTP hook".
#[test]
fn an_empty_allowed_url_list_blocks_every_http_hook() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "allowed_http_hook_urls": [],
        "hooks": {"Stop": [{"hooks": [http_hook(&server.url("/"))]}]}
    }));
    assert_eq!(report(&run(&engine, HookEvent::Stop))["skipped"], "url_not_allowed");
    assert!(server.requests().is_empty());
}

/// The settings keys restrict http hooks from trusted sources only: a
/// repository's own settings cannot lift or set the user's restrictions.
#[test]
fn allowed_http_hook_urls_in_settings_apply_from_trusted_sources_only() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let hooks = json!({"hooks": {"Stop": [{"hooks": [http_hook(&server.url("/"))]}]}});
    let trusted_policy = json!({"allowedHttpHookUrls": ["https://elsewhere/*"]});
    let engine = ws.engine_with(json!({"hook_sources": [
        {"hooks": trusted_policy, "trusted": true},
        {"hooks": hooks.clone(), "trusted": true},
    ]}));
    assert_eq!(report(&run(&engine, HookEvent::Stop))["skipped"], "url_not_allowed");
    let mut untrusted_policy = hooks.clone();
    untrusted_policy["allowedHttpHookUrls"] = json!(["https://elsewhere/*"]);
    let engine = ws.engine_with(json!({"hook_sources": [{"hooks": untrusted_policy, "trusted": false}]}));
    assert_eq!(report(&run(&engine, HookEvent::Stop))["skipped"], Value::Null);
    assert_eq!(server.requests().len(), 1);
}

/// "If you define the same handler in more than one settings file, it runs
/// once" — an http handler is the same handler when its URL is.
#[test]
fn http_hooks_with_the_same_url_run_once() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let mut other_headers = http_hook(&server.url("/"));
    other_headers["headers"] = json!({"X-Copy": "2"});
    let out = run(&ws.engine("Stop", vec![http_hook(&server.url("/")), other_headers]), HookEvent::Stop);
    assert_eq!(out["hooks"].as_array().unwrap().len(), 1, "{out}");
    assert_eq!(server.requests().len(), 1);
}

/// "`SessionStart` and `Setup` support `command` and `mcp_tool` hooks. They
/// don't support `http`, `prompt`, or `agent` hooks."
#[test]
fn http_and_prompt_hooks_on_session_start_are_skipped_with_a_config_warning() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let hooks = json!({"SessionStart": [{"hooks": [
        http_hook(&server.url("/")),
        {"type": "prompt", "prompt": "p"},
        {"type": "command", "command": "echo ran"},
    ]}]});
    let config = hookline::config::HooksConfig::from_json_value(&hooks).unwrap();
    let warned: Vec<&str> = config.warnings().iter().map(|w| w.path.as_str()).collect();
    assert_eq!(warned, ["hooks.SessionStart[0].hooks[0]", "hooks.SessionStart[0].hooks[1]"]);
    let ws = Ws::new();
    let engine = ws.engine_with(json!({"hooks": hooks}));
    let prompts = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Prompt, Some(answering(&prompts, json!({"ok": true})))).unwrap();
    let out = run(&engine, HookEvent::SessionStart);
    let skipped: Vec<&Value> = out["hooks"].as_array().unwrap().iter().map(|h| &h["skipped"]).collect();
    assert_eq!(skipped, [&json!("unsupported_on_event"), &json!("unsupported_on_event"), &Value::Null], "{out}");
    assert_eq!(out["additional_context"], json!(["ran"]));
    assert!(server.requests().is_empty());
    assert!(prompts.lock().unwrap().is_empty());
}

// ------------------------------------------------------------ the gate covers every handler type

/// An untrusted source's http, prompt, agent and mcp_tool hooks never run
/// before the workspace is approved, and run after.
#[test]
fn untrusted_hooks_of_every_handler_type_never_run_before_approval() {
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let store = ws.dir.path().join("trust.json");
    let engine = ws.engine_with(json!({
        "workspace_gated": true,
        "trust_store": store,
        "hooks": {"PostToolUse": [{"hooks": [
            http_hook(&server.url("/")),
            {"type": "prompt", "prompt": "p"},
            {"type": "agent", "prompt": "a"},
            {"type": "mcp_tool", "server": "s", "tool": "t"},
        ]}]}
    }));
    let calls = Arc::new(Mutex::new(Vec::new()));
    for kind in HandlerType::ALL {
        engine.set_handler(kind, Some(answering(&calls, json!({"ok": true})))).unwrap();
    }
    assert!(engine.workspace_hooks_need_approval());
    let out = run(&engine, HookEvent::PostToolUse);
    let skipped: Vec<&Value> = out["hooks"].as_array().unwrap().iter().map(|h| &h["skipped"]).collect();
    assert_eq!(skipped, vec![&json!("not_approved"); 4], "{out}");
    assert!(server.requests().is_empty(), "an http hook ran before approval");
    assert!(calls.lock().unwrap().is_empty(), "a handler was called before approval");
    engine.approve_workspace_hooks(false).unwrap();
    let out = run(&engine, HookEvent::PostToolUse);
    assert!(out["hooks"].as_array().unwrap().iter().all(|h| h["skipped"].is_null()), "{out}");
    assert_eq!(server.requests().len(), 1);
    assert_eq!(calls.lock().unwrap().len(), 3);
}

/// Changing what an http or prompt hook is (its URL, its prompt) changes
/// the digest, so an approval does not carry over to it.
#[test]
fn the_digest_covers_the_identifying_fields_of_every_handler_type() {
    let digest = |hook: Value| {
        let config = hookline::config::HooksConfig::from_json_value(&json!({"Stop": [{"hooks": [hook]}]})).unwrap();
        hookline::gate::command_digest(&config)
    };
    let base = digest(json!({"type": "http", "url": "http://a/"}));
    assert_ne!(base, digest(json!({"type": "http", "url": "http://b/"})));
    assert_ne!(base, digest(json!({"type": "http", "url": "http://a/", "headers": {"X": "v"}})));
    assert_eq!(
        digest(json!({"type": "http", "url": "http://a/", "headers": {"X": "v"}})),
        digest(json!({"type": "http", "url": "http://a/", "headers": {"X": "other value"}})),
        "header values (which may hold secrets) are not part of the digest"
    );
    let long = "word ".repeat(40);
    assert_ne!(
        digest(json!({"type": "prompt", "prompt": long})),
        digest(json!({"type": "prompt", "prompt": format!("{long}!")}))
    );
    assert_ne!(digest(json!({"type": "prompt", "prompt": "p"})), digest(json!({"type": "agent", "prompt": "p"})));
    assert_ne!(
        digest(json!({"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 1}})),
        digest(json!({"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 2}}))
    );
}

// ------------------------------------------------------------ prompt and agent hooks

/// "Without a handler set, a prompt/agent/mcp_tool hook is reported with
/// `failure: "no_handler"` and is a non-blocking error."
#[test]
fn a_prompt_hook_without_a_handler_is_a_non_blocking_no_handler_failure() {
    let ws = Ws::new();
    let out = run(
        &ws.engine("PreToolUse", vec![json!({"type": "prompt", "prompt": "Is $ARGUMENTS safe?"})]),
        HookEvent::PreToolUse,
    );
    assert_eq!(report(&out)["failure"], "no_handler", "{out}");
    assert_eq!(report(&out)["kind"], "prompt");
    assert_eq!(report(&out)["prompt"], "Is $ARGUMENTS safe?");
    assert_eq!(out["decision"], "continue");
    assert!(messages(&out).contains("no prompt handler is set"), "{out}");
}

#[test]
fn a_fail_closed_prompt_hook_without_a_handler_denies() {
    let ws = Ws::new();
    let hook = json!({"type": "prompt", "prompt": "p", "failClosed": true});
    let out = run(&ws.engine("PreToolUse", vec![hook]), HookEvent::PreToolUse);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(report(&out)["failure"], "no_handler");
}

/// "Use the `$ARGUMENTS` placeholder to inject the hook's JSON input data
/// into your prompt text"; "Timeout in seconds. Default: 30".
#[test]
fn the_prompt_request_carries_the_substituted_prompt_the_model_and_the_timeout() {
    let ws = Ws::new();
    let engine = ws.engine(
        "Stop",
        vec![json!({"type": "prompt", "prompt": "Evaluate: $ARGUMENTS. Costs \\$1.", "model": "fast-model"})],
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": true})))).unwrap();
    let out = run(&engine, HookEvent::Stop);
    assert_eq!(report(&out)["failure"], Value::Null, "{out}");
    let req = seen.lock().unwrap()[0].clone();
    assert_eq!(req["type"], "prompt");
    assert_eq!(req["event"], "Stop");
    assert_eq!(req["model"], "fast-model");
    assert_eq!(req["timeout_ms"], 30_000);
    assert_eq!(req["input"]["hook_event_name"], "Stop");
    let prompt = req["prompt"].as_str().unwrap();
    let input_json = prompt.strip_prefix("Evaluate: ").unwrap().strip_suffix(". Costs $1.").unwrap();
    assert_eq!(serde_json::from_str::<Value>(input_json).unwrap(), req["input"]);
}

/// "`Stop` and `SubagentStop`: the reason is fed back to Claude as its next
/// instruction and the turn continues, unless the response also sets
/// `impossible: true`, in which case Claude Code allows the stop".
#[test]
fn a_stop_prompt_hook_ok_false_blocks_unless_impossible() {
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "prompt", "prompt": "done?"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine
        .set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": false, "reason": "tests fail"}))))
        .unwrap();
    assert_eq!(run(&engine, HookEvent::Stop)["block_reason"], "tests fail");
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(answering(&seen, json!({"ok": false, "reason": "cannot", "impossible": true}))),
        )
        .unwrap();
    let out = run(&engine, HookEvent::Stop);
    assert_eq!(out["block_reason"], Value::Null, "{out}");
}

/// "`PreToolUse`: the tool call is denied; by default the turn ends and the
/// deny reason appears in the chat as a warning line."
#[test]
fn a_pre_tool_use_prompt_hook_ok_false_denies_and_ends_the_turn() {
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![json!({"type": "prompt", "prompt": "safe?"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine
        .set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": false, "reason": "unsafe write"}))))
        .unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!((out["decision"].as_str(), out["reason"].as_str()), (Some("deny"), Some("unsafe write")), "{out}");
    assert_eq!((out["continue"].clone(), out["stop_reason"].clone()), (json!(false), json!("unsafe write")));
}

/// "If `ok` is `false`, Claude Code handles the block the same way as a
/// prompt hook with `continueOnBlock: true` on that event" (agent hooks).
#[test]
fn an_agent_hook_ok_false_is_a_prompt_hook_with_continue_on_block() {
    let ws = Ws::new();
    let engine = ws.engine(
        "PreToolUse",
        vec![json!({"type": "agent", "prompt": "verify"}), json!({"type": "agent", "prompt": "verify too"})],
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Agent, Some(answering(&seen, json!({"ok": false, "reason": "no tests"})))).unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!(out["decision"], "deny", "{out}");
    assert_eq!(out["continue"], true, "an agent hook's deny does not end the turn: {out}");
    let req = &seen.lock().unwrap()[0];
    assert_eq!((req["type"].as_str(), req["timeout_ms"].as_u64()), (Some("agent"), Some(60_000)));
}

/// "`PostToolUse`: by default the turn ends … Set `continueOnBlock: true` to
/// feed the reason back to Claude and continue the turn instead".
#[test]
fn a_post_tool_use_prompt_hook_with_continue_on_block_feeds_the_reason_back() {
    let ws = Ws::new();
    let engine = ws.engine("PostToolUse", vec![json!({"type": "prompt", "prompt": "ok?", "continueOnBlock": true})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": false, "reason": "lint it"})))).unwrap();
    let out = run(&engine, HookEvent::PostToolUse);
    assert_eq!((out["block_reason"].as_str(), out["continue"].as_bool()), (Some("lint it"), Some(true)), "{out}");
}

/// "`PermissionRequest`: `ok: false` has no effect."
#[test]
fn a_permission_request_prompt_hook_ok_false_has_no_effect() {
    let ws = Ws::new();
    let engine = ws.engine("PermissionRequest", vec![json!({"type": "prompt", "prompt": "grant?"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": false, "reason": "no"})))).unwrap();
    let out = run(&engine, HookEvent::PermissionRequest);
    assert_eq!(out["decision"], Value::Null, "{out}");
    assert_eq!(report(&out)["failure"], Value::Null);
}

#[test]
fn a_model_reply_that_is_not_a_verdict_is_invalid_output() {
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "prompt", "prompt": "p"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"decision": "block"})))).unwrap();
    let out = run(&engine, HookEvent::Stop);
    assert_eq!(report(&out)["failure"], "invalid_output", "{out}");
    assert_eq!(out["block_reason"], Value::Null);
}

#[test]
fn a_failing_or_panicking_handler_is_a_non_blocking_handler_failure() {
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![json!({"type": "prompt", "prompt": "p"})]);
    engine.set_handler(HandlerType::Prompt, Some(Arc::new(|_: &str| CallResult::failed()))).unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!((report(&out)["failure"].as_str(), out["decision"].as_str()), (Some("handler"), Some("continue")));
    engine
        .set_handler(HandlerType::Prompt, Some(Arc::new(|_: &str| -> CallResult { panic!("model exploded") })))
        .unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "handler", "{out}");
}

/// A handler that blocks past the hook's timeout: its late answer is
/// dropped and the hook counts as timed out.
#[test]
fn a_handler_that_answers_after_the_timeout_counts_as_timed_out() {
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![json!({"type": "prompt", "prompt": "p", "timeout": 1})]);
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(Arc::new(|_: &str| {
                std::thread::sleep(Duration::from_millis(1300));
                CallResult::ok(Reply::Json(json!({"ok": false, "reason": "too late"})))
            })),
        )
        .unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "timeout", "{out}");
    assert_eq!(out["decision"], "continue");
}

/// A deferred answer from another thread is waited for, up to the timeout.
#[test]
fn a_deferred_answer_is_waited_for_and_a_late_one_times_out() {
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "prompt", "prompt": "p", "timeout": 1})]);
    let delay = Arc::new(Mutex::new(Duration::from_millis(50)));
    let d2 = delay.clone();
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(Arc::new(move |_: &str| {
                let slot = Deferred::new();
                let (later, wait) = (slot.clone(), *d2.lock().unwrap());
                std::thread::spawn(move || {
                    std::thread::sleep(wait);
                    later.finish(CallResult::ok(Reply::Json(json!({"ok": false, "reason": "later"}))));
                });
                CallResult::deferred(slot)
            })),
        )
        .unwrap();
    assert_eq!(run(&engine, HookEvent::Stop)["block_reason"], "later");
    *delay.lock().unwrap() = Duration::from_millis(2500);
    let started = Instant::now();
    let out = run(&engine, HookEvent::Stop);
    assert_eq!(report(&out)["failure"], "timeout", "{out}");
    assert!(started.elapsed() < Duration::from_millis(2400), "waited for the late answer: {:?}", started.elapsed());
}

/// Claude Code runs "all matching hooks in parallel", with "the concurrency
/// cap of 12 prompt/agent hooks" (2.1.295): fourteen prompt hooks whose
/// model answers later are waited for together, never more than twelve at
/// a time, the later ones starting in configuration order as places free.
/// Every handler call is still made on the run's thread.
#[test]
fn at_most_twelve_prompt_hooks_wait_for_their_model_at_once_and_calls_stay_on_the_runs_thread() {
    let ws = Ws::new();
    let hooks: Vec<Value> =
        (0..14).map(|n| json!({"type": "prompt", "prompt": format!("check {n}"), "timeout": 20})).collect();
    let engine = ws.engine("Stop", hooks);
    let outstanding = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let calls = Arc::new(Mutex::new(Vec::new()));
    let (o, m, c) = (outstanding.clone(), most.clone(), calls.clone());
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(Arc::new(move |request: &str| {
                let prompt = serde_json::from_str::<Value>(request).unwrap()["prompt"].as_str().unwrap().to_owned();
                c.lock().unwrap().push((prompt, std::thread::current().id()));
                let now = o.fetch_add(1, Ordering::SeqCst) + 1;
                m.fetch_max(now, Ordering::SeqCst);
                let (slot, o) = (Deferred::new(), o.clone());
                let later = slot.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(300));
                    o.fetch_sub(1, Ordering::SeqCst);
                    later.finish(CallResult::ok(Reply::Json(json!({"ok": true}))));
                });
                CallResult::deferred(slot)
            })),
        )
        .unwrap();
    let started = Instant::now();
    let out = run(&engine, HookEvent::Stop);
    let took = started.elapsed();
    let reports = out["hooks"].as_array().unwrap();
    assert_eq!(reports.len(), 14, "{out}");
    assert!(reports.iter().all(|r| r["failure"].is_null()), "{out}");
    assert_eq!(most.load(Ordering::SeqCst), 12, "places at once");
    // Two waves of 300 ms, not fourteen.
    assert!(took < Duration::from_millis(2500), "took {took:?}");
    let calls = calls.lock().unwrap();
    let prompts: Vec<&str> = calls.iter().map(|(p, _)| p.split("\n").next().unwrap()).collect();
    let want: Vec<String> = (0..14).map(|n| format!("check {n}")).collect();
    assert_eq!(prompts, want, "calls in configuration order");
    assert!(calls.iter().all(|(_, t)| *t == std::thread::current().id()), "a handler ran off the run's thread");
}

/// Tracks the life of a handler: its drop is the release of its user data.
struct Released(Arc<AtomicUsize>);

impl Drop for Released {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// Replacing a handler while a run is in flight is safe: the run keeps the
/// handler it started with, which is released once, after its call.
#[test]
fn a_handler_replaced_while_a_run_is_in_flight_finishes_that_run_and_is_released_once() {
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "prompt", "prompt": "p", "timeout": 30})]);
    let released = Arc::new(AtomicUsize::new(0));
    let (entered_tx, entered) = mpsc::channel::<()>();
    let (go, go_rx) = mpsc::channel::<()>();
    let go_rx = Mutex::new(go_rx);
    let entered_tx = Mutex::new(entered_tx);
    let guard = Released(released.clone());
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(Arc::new(move |_: &str| {
                let _keep = &guard;
                entered_tx.lock().unwrap().send(()).unwrap();
                go_rx.lock().unwrap().recv_timeout(Duration::from_secs(20)).unwrap();
                CallResult::ok(Reply::Json(json!({"ok": false, "reason": "first handler"})))
            })),
        )
        .unwrap();
    let (tx, rx) = mpsc::channel();
    engine
        .run_async(HookEvent::Stop, input(HookEvent::Stop), move |r| tx.send(r.map(|o| o.to_json())).unwrap())
        .unwrap();
    entered.recv_timeout(Duration::from_secs(10)).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine
        .set_handler(HandlerType::Prompt, Some(answering(&seen, json!({"ok": false, "reason": "second handler"}))))
        .unwrap();
    assert_eq!(released.load(Ordering::SeqCst), 0, "released during its call");
    go.send(()).unwrap();
    let out = rx.recv_timeout(Duration::from_secs(10)).unwrap().unwrap();
    assert_eq!(out["block_reason"], "first handler");
    let waited = Instant::now();
    while released.load(Ordering::SeqCst) == 0 && waited.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(released.load(Ordering::SeqCst), 1);
    assert_eq!(run(&engine, HookEvent::Stop)["block_reason"], "second handler");
    engine.set_handler(HandlerType::Prompt, None).unwrap();
    assert_eq!(report(&run(&engine, HookEvent::Stop))["failure"], "no_handler");
    assert_eq!(released.load(Ordering::SeqCst), 1);
}

/// A cancel ends the wait for a deferred answer.
#[test]
fn a_cancel_ends_the_wait_for_a_deferred_answer() {
    let ws = Ws::new();
    let engine = ws.engine("Stop", vec![json!({"type": "prompt", "prompt": "p", "timeout": 60})]);
    let (called_tx, called) = mpsc::channel::<Arc<Deferred>>();
    let called_tx = Mutex::new(called_tx);
    engine
        .set_handler(
            HandlerType::Prompt,
            Some(Arc::new(move |_: &str| {
                let slot = Deferred::new();
                called_tx.lock().unwrap().send(slot.clone()).unwrap();
                CallResult::deferred(slot)
            })),
        )
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let id = engine
        .run_async(HookEvent::Stop, input(HookEvent::Stop), move |r| tx.send(r.map(|o| o.to_json())).unwrap())
        .unwrap();
    let slot = called.recv_timeout(Duration::from_secs(10)).unwrap();
    let cancelled = Instant::now();
    engine.cancel(id).unwrap();
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap().unwrap_err().status, Status::Cancelled);
    assert!(cancelled.elapsed() < Duration::from_secs(2));
    slot.finish(CallResult::ok(Reply::Json(json!({"ok": true})))); // late: dropped
}

// ------------------------------------------------------------ mcp_tool hooks

/// "String values support `${path}` substitution from the hook's JSON input,
/// such as `"${tool_input.file_path}"`"; "Claude Code reads the tool's text
/// content the same way it reads command-hook stdout".
#[test]
fn an_mcp_tool_hook_calls_the_tool_with_filled_input_and_reads_its_text_as_stdout() {
    let ws = Ws::new();
    let engine = ws.engine(
        "PostToolUse",
        vec![json!({"type": "mcp_tool", "server": "my_server", "tool": "security_scan",
                    "input": {"file_path": "${tool_input.file_path}"}})],
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let reply = json!({"content": [{"type": "text", "text": json!({"decision": "block", "reason": "secret in file"}).to_string()}]});
    engine.set_handler(HandlerType::McpTool, Some(answering(&seen, reply))).unwrap();
    let out = run(&engine, HookEvent::PostToolUse);
    assert_eq!(out["block_reason"], "secret in file", "{out}");
    assert_eq!(
        (report(&out)["server"].as_str(), report(&out)["tool"].as_str()),
        (Some("my_server"), Some("security_scan"))
    );
    let req = &seen.lock().unwrap()[0];
    assert_eq!(req["type"], "mcp_tool");
    assert_eq!((req["server"].as_str(), req["tool"].as_str()), (Some("my_server"), Some("security_scan")));
    assert_eq!(req["input"], json!({"file_path": "/w/a.rs"}));
    assert_eq!(req["timeout_ms"], 600_000);
}

/// "If the named server is not connected, or the tool returns `isError:
/// true`, the hook produces a non-blocking error and execution continues."
#[test]
fn an_mcp_tool_error_is_a_non_blocking_error() {
    let ws = Ws::new();
    let engine = ws.engine("PreToolUse", vec![json!({"type": "mcp_tool", "server": "s", "tool": "t"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let reply = json!({"isError": true, "content": [{"type": "text", "text": "server not connected"}]});
    engine.set_handler(HandlerType::McpTool, Some(answering(&seen, reply))).unwrap();
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!((report(&out)["failure"].as_str(), out["decision"].as_str()), (Some("tool_error"), Some("continue")));
    assert!(messages(&out).contains("server not connected"), "{out}");
}

/// "`UserPromptSubmit` lowers the `command`, `http`, and `mcp_tool`
/// default to 30".
#[test]
fn user_prompt_submit_lowers_the_default_timeout_of_mcp_tool_hooks_to_30_seconds() {
    let ws = Ws::new();
    let engine = ws.engine("UserPromptSubmit", vec![json!({"type": "mcp_tool", "server": "s", "tool": "t"})]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    engine.set_handler(HandlerType::McpTool, Some(answering(&seen, json!("")))).unwrap();
    run(&engine, HookEvent::UserPromptSubmit);
    assert_eq!(seen.lock().unwrap()[0]["timeout_ms"], 30_000);
}

/// The default timeouts per handler type and event: "Defaults: 600 for
/// `command`, `http`, and `mcp_tool`; 30 for `prompt`; 60 for `agent`.
/// `UserPromptSubmit` lowers the `command`, `http`, and `mcp_tool` default to
/// 30, and `MessageDisplay` lowers it to 10"; PreModelSwitch and
/// PostModelSwitch (Claude Code 2.1.251) lower it to 30 too. A hook's own
/// `timeout` wins.
#[test]
fn default_timeouts_per_handler_type_and_event() {
    let ws = Ws::new();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mcp = json!({"type": "mcp_tool", "server": "s", "tool": "t"});
    for (event, want) in [
        ("Stop", 600_000),
        ("UserPromptSubmit", 30_000),
        ("PreModelSwitch", 30_000),
        ("PostModelSwitch", 30_000),
        ("MessageDisplay", 10_000),
        ("PostCompact", 600_000),
    ] {
        let engine = ws.engine(event, vec![mcp.clone()]);
        engine.set_handler(HandlerType::McpTool, Some(answering(&seen, json!("")))).unwrap();
        engine.run_named_blocking(event, &json!({"prompt": "p", "from_model": "a", "to_model": "b"})).unwrap();
        let got = seen.lock().unwrap().pop().unwrap()["timeout_ms"].clone();
        assert_eq!(got, want, "{event}");
    }
    for (kind, handler, want) in [("prompt", HandlerType::Prompt, 30_000), ("agent", HandlerType::Agent, 60_000)] {
        for event in ["Stop", "UserPromptSubmit"] {
            let engine = ws.engine(event, vec![json!({"type": kind, "prompt": "p"})]);
            engine.set_handler(handler, Some(answering(&seen, json!({"ok": true})))).unwrap();
            engine.run_named_blocking(event, &json!({"prompt": "p"})).unwrap();
            assert_eq!(seen.lock().unwrap().pop().unwrap()["timeout_ms"], want, "{kind} on {event}");
        }
    }
    let engine =
        ws.engine("PreModelSwitch", vec![json!({"type": "mcp_tool", "server": "s", "tool": "t", "timeout": 5})]);
    engine.set_handler(HandlerType::McpTool, Some(answering(&seen, json!("")))).unwrap();
    engine.run_named_blocking("PreModelSwitch", &json!({"from_model": "a", "to_model": "b"})).unwrap();
    assert_eq!(seen.lock().unwrap().pop().unwrap()["timeout_ms"], 5_000);
}

// ------------------------------------------------------------ command: exec form, shells, asyncRewake

fn stdout_of(out: &Value) -> Vec<String> {
    out["additional_context"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
}

/// "There is no shell, so each `args` element is one argument exactly as
/// written, and path placeholders like `${CLAUDE_PLUGIN_ROOT}` are
/// substituted into `command` and into each `args` element as plain
/// strings. Special characters such as apostrophes, `$`, and backticks pass
/// through verbatim".
#[test]
fn exec_form_passes_each_argument_verbatim_with_placeholders_substituted() {
    let ws = Ws::new();
    let workspace = std::fs::canonicalize(ws.dir.path()).unwrap();
    let hook = json!({"type": "command", "command": "printf",
        "args": ["%s|", "it's $HOME `date`", "${CLAUDE_PROJECT_DIR}/x", "two words"]});
    let out = run(&ws.engine("SessionStart", vec![hook]), HookEvent::SessionStart);
    assert_eq!(report(&out)["exit_code"], 0, "{out}");
    assert_eq!(stdout_of(&out), [format!("it's $HOME `date`|{}/x|two words|", workspace.display())]);
    assert_eq!(report(&out)["command"], "printf '%s|' 'it'\\''s $HOME `date`' '${CLAUDE_PROJECT_DIR}/x' 'two words'");
}

/// "If `command` is a bare name with no path separator and contains
/// whitespace alongside `args`, … the spawn will fail".
#[test]
fn exec_form_with_a_command_line_as_command_cannot_start() {
    let ws = Ws::new();
    let hook = json!({"type": "command", "command": "echo hi", "args": []});
    let out = run(&ws.engine("PreToolUse", vec![hook]), HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "spawn", "{out}");
    assert!(messages(&out).contains("move its arguments into `args`"), "{out}");
}

#[test]
fn shell_bash_runs_the_command_under_bash() {
    let ws = Ws::new();
    let hook = json!({"type": "command", "shell": "bash", "command": "[[ -n $BASH_VERSION ]] && echo bash"});
    let out = run(&ws.engine("SessionStart", vec![hook]), HookEvent::SessionStart);
    assert_eq!(stdout_of(&out), ["bash"], "{out}");
}

/// "`\"powershell\"` runs `pwsh -NoProfile -Command` when `pwsh` is on PATH,
/// else a `spawn` failure saying so."
#[test]
fn shell_powershell_without_pwsh_on_path_is_a_spawn_failure_saying_so() {
    let ws = Ws::new();
    let engine = ws.engine_with(json!({
        "env": {"PATH": "/nonexistent"},
        "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "shell": "powershell", "command": "Write-Host hi"}]}]}
    }));
    let out = run(&engine, HookEvent::PreToolUse);
    assert_eq!(report(&out)["failure"], "spawn", "{out}");
    assert!(messages(&out).contains("pwsh"), "{out}");
}

/// "`asyncRewake`: If `true`, runs in the background and wakes Claude on
/// exit code 2. Implies `async`. The hook's stderr, or stdout if stderr is
/// empty, is shown to Claude as a system reminder".
#[test]
fn async_rewake_exit_2_delivers_stderr_as_a_system_reminder_with_the_next_outcome() {
    let ws = Ws::new();
    let engine = ws.engine_with(json!({"hooks": {"PostToolUse": [{"hooks": [
        {"type": "command", "command": "echo out; echo 'tests failed' >&2; exit 2", "asyncRewake": true},
        {"type": "command", "command": "echo only stdout; exit 2", "asyncRewake": true},
        {"type": "command", "command": "echo fine >&2; exit 0", "asyncRewake": true},
    ]}]}}));
    let first = run(&engine, HookEvent::PostToolUse);
    assert!(first["hooks"].as_array().unwrap().is_empty(), "the run waited for background hooks: {first}");
    let waited = Instant::now();
    let mut reminders = Vec::new();
    while reminders.len() < 2 && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
        let next = engine
            .run_blocking(HookEvent::Notification, &json!({"notification_type": "x", "title": "t", "message": "m"}))
            .unwrap()
            .to_json();
        reminders.extend(
            next["messages"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["level"] == "system_reminder")
                .map(|m| m["text"].as_str().unwrap().to_owned()),
        );
    }
    reminders.sort();
    assert_eq!(reminders, ["only stdout", "tests failed"]);
}

// ------------------------------------------------------------ http: trace context

/// Every span delivered to it.
struct SpanLog(Arc<Mutex<Vec<hookline::trace::Span>>>);

impl hookline::trace::SpanSink for SpanLog {
    fn span(&self, span: &hookline::trace::Span) {
        self.0.lock().unwrap().push(span.clone());
    }
}

/// Issue 26: with a trace handler set, an http hook's request carries the
/// W3C trace context as headers, `traceparent` naming the hook's own span
/// as the parent and the run's `tracestate`; they replace configured
/// headers of those names. Without a trace handler the request is as
/// configured.
#[test]
fn http_requests_of_a_traced_run_carry_traceparent_naming_the_hooks_span() {
    use hookline::trace::context::hex;
    use hookline::trace::SpanLevel;
    let server = Server::start(Mode::Respond(204, "text/plain", String::new()));
    let ws = Ws::new();
    let engine = ws.engine(
        "PreToolUse",
        vec![json!({
            "type": "http", "url": server.url("/"), "timeout": 5,
            "headers": {"traceparent": "configured", "TraceState": "configured=1", "X-Other": "kept"}
        })],
    );
    run(&engine, HookEvent::PreToolUse);
    let spans = Arc::new(Mutex::new(Vec::new()));
    engine.set_trace_sink(SpanLog(spans.clone())).map_err(|r| r.error).unwrap();
    let mut traced = input(HookEvent::PreToolUse);
    traced["traceparent"] = json!("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    traced["tracestate"] = json!("rojo=00f067aa0ba902b7");
    engine.run_blocking(HookEvent::PreToolUse, &traced).unwrap();
    engine.run_blocking(HookEvent::PreToolUse, &input(HookEvent::PreToolUse)).unwrap();
    engine.close(); // every span delivered
    let requests = server.requests();
    assert_eq!(requests.len(), 3, "{requests:#?}");
    assert_eq!(requests[0].header("traceparent"), Some("configured"), "untraced: as configured");
    assert_eq!(requests[0].header("tracestate"), Some("configured=1"));

    let spans = spans.lock().unwrap();
    let hooks: Vec<_> = spans.iter().filter(|s| s.level == SpanLevel::Hook).collect();
    assert_eq!(hooks.len(), 2, "{spans:#?}");
    let count = |r: &Request, name: &str| r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name)).count();
    let joined = &requests[1];
    let span = hooks.iter().find(|s| hex(&s.trace_id) == "4bf92f3577b34da6a3ce929d0e0e4736").unwrap();
    assert_eq!(
        joined.header("traceparent"),
        Some(format!("00-4bf92f3577b34da6a3ce929d0e0e4736-{}-01", hex(&span.span_id)).as_str()),
        "the hook's own span is the parent"
    );
    assert_eq!(joined.header("tracestate"), Some("rojo=00f067aa0ba902b7"));
    assert_eq!((count(joined, "traceparent"), count(joined, "tracestate")), (1, 1), "{joined:#?}");
    assert_eq!(joined.header("x-other"), Some("kept"));

    // A run that started its own trace has no tracestate to hand on.
    let fresh = &requests[2];
    let span = hooks.iter().find(|s| hex(&s.trace_id) != "4bf92f3577b34da6a3ce929d0e0e4736").unwrap();
    let expected = format!("00-{}-{}-{}", hex(&span.trace_id), hex(&span.span_id), hex(&[span.trace_flags]));
    assert_eq!(fresh.header("traceparent"), Some(expected.as_str()));
    assert_eq!(count(fresh, "traceparent"), 1);
    assert_eq!(fresh.header("tracestate"), None, "a configured tracestate would describe another trace");
}
