//! Fuzz the HTTP hook response reader end to end: an engine with one http
//! hook on PreToolUse posts to a local server that answers each request with
//! bytes from the fuzzer, and the response goes through the HTTP client
//! (status line, headers, body framing), the body cap and the response
//! table (docs/profiles.md, "Handler types").
//!
//! Input: byte 0 picks the framing. 0: the rest is the whole response,
//! as is. 1 and 2: bytes 1-2 are the status (big-endian, kept to
//! 100-999), the rest up to the first 0x00 is header lines (split at
//! 0x0a), the rest the body; 1 adds a correct `Content-Length`, 2 none
//! (the body ends when the server closes).
//!
//! Oracles: the run succeeds (a bad response is a non-blocking error, not
//! a failed run or a crash); one report, of kind `http`; its failure is
//! none, `http`, `invalid_output` or `timeout`; only a 2xx can decide.
#![no_main]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use hookline::{HookEvent, LifecycleHookEngine};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

static RESPONSE: Mutex<Vec<u8>> = Mutex::new(Vec::new());

fn serve(mut s: TcpStream) {
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut req = Vec::new();
    let mut buf = [0u8; 4096];
    // Read the request: headers, then Content-Length bytes of body.
    loop {
        if let Some(end) = req.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&req[..end]).to_ascii_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if req.len() >= end + 4 + len {
                break;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => req.extend_from_slice(&buf[..n]),
        }
    }
    let response = RESPONSE.lock().unwrap().clone();
    let _ = s.write_all(&response);
    let _ = s.shutdown(std::net::Shutdown::Both);
}

fn engine() -> &'static LifecycleHookEngine {
    static ENGINE: OnceLock<LifecycleHookEngine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for s in listener.incoming().flatten() {
                serve(s);
            }
        });
        let ws = std::env::temp_dir().join(format!("hookline-fuzz-http-{}", std::process::id()));
        std::fs::create_dir_all(&ws).expect("workspace");
        let hook = json!({"type": "http", "url": format!("http://127.0.0.1:{port}/h"), "timeout": 2});
        let options = json!({
            "workspace": ws,
            "session_id": "s",
            "hooks": {"PreToolUse": [{"hooks": [hook]}]},
        });
        LifecycleHookEngine::from_options_json(&options.to_string()).expect("engine")
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let mut status = 200;
    let response = match mode % 3 {
        0 => rest.to_vec(),
        m => {
            if rest.len() < 2 {
                return;
            }
            status = 100 + u16::from_be_bytes([rest[0], rest[1]]) % 900;
            let rest = &rest[2..];
            let (headers, body) = match rest.iter().position(|&b| b == 0) {
                Some(i) => (&rest[..i], &rest[i + 1..]),
                None => (rest, &[][..]),
            };
            let mut r = format!("HTTP/1.1 {status} X\r\n").into_bytes();
            for line in headers.split(|&b| b == b'\n') {
                if !line.is_empty() {
                    r.extend_from_slice(line);
                    r.extend_from_slice(b"\r\n");
                }
            }
            if m == 1 {
                r.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
            }
            r.extend_from_slice(b"Connection: close\r\n\r\n");
            r.extend_from_slice(body);
            r
        }
    };
    *RESPONSE.lock().unwrap() = response;
    let input = json!({"tool_name": "Write", "tool_input": {"file_path": "/w/a", "content": "x"}});
    let out = engine().run_blocking(HookEvent::PreToolUse, &input).expect("a bad response is not a failed run");
    let v: Value = out.to_json();
    let hooks = v["hooks"].as_array().expect("hooks");
    assert_eq!(hooks.len(), 1, "{v}");
    assert_eq!(hooks[0]["kind"], "http", "{v}");
    let failure = &hooks[0]["failure"];
    assert!(
        failure.is_null() || failure == "http" || failure == "invalid_output" || failure == "timeout",
        "unexpected failure {failure} in {v}"
    );
    if mode % 3 != 0 && !(200..300).contains(&status) {
        assert!(v["decision"] == "continue" || v["decision"].is_null(), "HTTP {status} decided: {v}");
    }
});
