//! The hooks protocol's HTTP response table: how an http hook's response
//! reads (Claude Code's hooks reference, "HTTP response handling").
//!
//! | response | reads as |
//! |---|---|
//! | 2xx, empty body | exit 0 without output |
//! | 2xx, a JSON object | that JSON as stdout on exit 0 (the event's JSON rules apply) |
//! | 2xx, any other body (plain text, an array, cut at `max_output_bytes`) | a non-blocking error, `failure: "http"` |
//! | any other status (a 3xx too: redirects are not followed) | a non-blocking error, `failure: "http"`, the status in the message |
//!
//! Connection failures are non-blocking errors too (the handler reports
//! them); a timeout renders no decision (`failure: "timeout"`). HTTP status
//! codes alone never block: "To block a tool call or deny a permission,
//! return a 2xx response with a JSON body containing the appropriate
//! decision fields."

use crate::model::execution::HookExecution;

/// Longest part of a failing response's body quoted in its message.
const QUOTED_BODY_CHARS: usize = 200;

/// A response as the command result it stands for, or the message of the
/// non-blocking error it is.
pub(crate) fn as_command_result(
    exec: &HookExecution,
    status: u16,
    body: &str,
    truncated: bool,
) -> Result<HookExecution, String> {
    let text = body.trim();
    if (200..300).contains(&status) {
        if text.is_empty() {
            return Ok(HookExecution { exit_code: Some(0), ..base(exec) });
        }
        let is_object =
            text.starts_with('{') && serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v.is_object());
        if is_object && !truncated {
            return Ok(HookExecution { exit_code: Some(0), stdout: text.to_owned(), ..base(exec) });
        }
        if truncated {
            return Err(format!("HTTP {status} with a body longer than max_output_bytes"));
        }
        return Err(format!("HTTP {status} with a body that is not a JSON object: {}", quote(text)));
    }
    let mut message = format!("HTTP {status}");
    if (300..400).contains(&status) {
        message.push_str(" (redirects are not followed)");
    }
    if !text.is_empty() {
        message.push_str(": ");
        message.push_str(&quote(text));
    }
    Err(message)
}

fn base(exec: &HookExecution) -> HookExecution {
    HookExecution { label: exec.label.clone(), timeout_seconds: exec.timeout_seconds, ..HookExecution::default() }
}

/// The first line of `text`, shortened.
fn quote(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    match line.char_indices().nth(QUOTED_BODY_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec() -> HookExecution {
        HookExecution { label: "http://h".into(), ..HookExecution::default() }
    }

    /// "2xx with an empty body: success, equivalent to exit code 0 with no
    /// output"; "2xx with a JSON object body: parsed using the same JSON
    /// output schema as command hooks"; "2xx with any other body, such as
    /// plain text: non-blocking error"; "Non-2xx status: non-blocking error".
    #[test]
    fn the_http_response_table() {
        let ok = as_command_result(&exec(), 204, "  \n", false).unwrap();
        assert_eq!((ok.exit_code, ok.stdout.as_str()), (Some(0), ""));
        let json = as_command_result(&exec(), 200, r#" {"decision":"block","reason":"r"} "#, false).unwrap();
        assert_eq!((json.exit_code, json.stdout.as_str()), (Some(0), r#"{"decision":"block","reason":"r"}"#));
        for (status, body, want) in [
            (200, "all good", "HTTP 200 with a body that is not a JSON object: all good"),
            (200, "[1,2]", "not a JSON object"),
            (200, "{broken", "not a JSON object"),
            (500, "oops\nmore", "HTTP 500: oops"),
            (302, "", "HTTP 302 (redirects are not followed)"),
            (404, "", "HTTP 404"),
        ] {
            let e = as_command_result(&exec(), status, body, false).unwrap_err();
            assert!(e.contains(want), "{status} {body}: {e}");
        }
        let cut = as_command_result(&exec(), 200, r#"{"a":"#, true).unwrap_err();
        assert!(cut.contains("longer than max_output_bytes"), "{cut}");
    }
}
