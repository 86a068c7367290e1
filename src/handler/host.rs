//! The handlers the host answers: `prompt` and `agent` hooks (hookline has
//! no model) and `mcp_tool` hooks (hookline has no MCP client). The host
//! sets one callback per type (`hl_engine_set_handler`); each hook is one
//! call with a request JSON:
//!
//! - prompt, agent: `{"type","event","prompt","model","timeout_ms","input"}`,
//!   `prompt` with `$ARGUMENTS` replaced by the hook input JSON (appended
//!   after a blank line when the prompt has none; `\$` is a literal `$`);
//! - mcp_tool: `{"type","event","server","tool","input","timeout_ms"}`,
//!   `input` with its `${path}` strings filled from the hook input.
//!
//! The answer is handed on for the dialect to read: a prompt or agent
//! reply (`{"ok","reason","impossible"}`) as a verdict
//! (`src/dialect/protocol/verdict.rs` says what it means on each event);
//! an mcp_tool reply as the tool's text (read like stdout on exit 0), or a
//! `tool_error` when it says `isError: true`.
//!
//! A handler runs on the run's thread (the blocking API's caller, a
//! hookline thread for asynchronous runs). It may answer at once, or defer
//! (`hl_reply_defer`) and answer from any thread; the run waits until the
//! hook's timeout, and a cancel ends the wait. Where an event's prompt and
//! agent hooks run concurrently, each waits on a thread of its own while
//! the run's thread makes the calls (`relayed`): a handler that defers
//! lets the next hook's call start, up to Claude Code's cap of
//! [`MODEL_HOOKS_AT_ONCE`] at a time. A handler that answers after
//! the timeout (a synchronous one that blocked past it, a deferred one that
//! came late) counts as timed out and its answer is dropped. No handler set:
//! `failure: "no_handler"`, a non-blocking error.

use std::cell::RefCell;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use serde_json::{Map, Value};

use super::{Call, Ran};
use crate::callback::{invoke_deferrable, CallResult, Reply, SharedCallback, Waited};
use crate::config::HandlerSpec;
use crate::model::execution::{Answer, HookExecution};
use crate::model::outcome::HookFailure;

/// The handler types a host answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandlerType {
    /// `prompt` hooks.
    Prompt,
    /// `agent` hooks.
    Agent,
    /// `mcp_tool` hooks.
    McpTool,
}

impl HandlerType {
    /// Every type, in the order `hl_engine_set_handler` lists them.
    pub const ALL: [HandlerType; 3] = [HandlerType::Prompt, HandlerType::Agent, HandlerType::McpTool];

    /// The name `hl_engine_set_handler` takes (`"prompt"`, `"agent"`, `"mcp_tool"`).
    pub fn name(self) -> &'static str {
        match self {
            HandlerType::Prompt => "prompt",
            HandlerType::Agent => "agent",
            HandlerType::McpTool => "mcp_tool",
        }
    }

    /// The type of a name; `None` for anything else.
    pub fn from_name(name: &str) -> Option<HandlerType> {
        HandlerType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The type that answers a configured handler, if the host answers it.
    pub fn of(spec: &HandlerSpec) -> Option<HandlerType> {
        match spec {
            HandlerSpec::Prompt { .. } => Some(HandlerType::Prompt),
            HandlerSpec::Agent { .. } => Some(HandlerType::Agent),
            HandlerSpec::McpTool { .. } => Some(HandlerType::McpTool),
            HandlerSpec::Command { .. } | HandlerSpec::Http { .. } => None,
        }
    }
}

/// A handler the host set.
pub(crate) struct HostHandler {
    pub(crate) kind: HandlerType,
    pub(crate) callback: SharedCallback,
}

/// Call the host's handler for one hook.
pub(crate) fn run(spec: &HandlerSpec, kind: HandlerType, call: &Call<'_>) -> Ran {
    let started = Instant::now();
    let mut exec =
        HookExecution { label: spec.label(), timeout_seconds: call.timeout.as_secs(), ..HookExecution::default() };
    let done = |exec: HookExecution| Ran::Done {
        exec,
        duration: started.elapsed(),
        stdout_truncated: false,
        stderr_truncated: false,
    };
    let Some(handler) = call.handlers.iter().find(|h| h.kind == kind) else {
        exec.answer = Answer::Failed {
            kind: HookFailure::NoHandler,
            message: format!("no {} handler is set (the host answers {} hooks)", kind.name(), kind.name()),
        };
        return done(exec);
    };
    let callback = Arc::clone(&handler.callback);
    let request = request(spec, call);
    let deadline = started + call.timeout;
    let result = call_handler(&callback, &request);
    // A handler that failed has failed, whether or not it deferred first.
    let deferred = match &result.reply {
        Reply::Deferred(slot) if !result.is_failure() => Some(slot.clone()),
        _ => None,
    };
    let result = match deferred {
        None if Instant::now() > deadline => {
            crate::hl_debug!("{} handler answered after the hook's timeout; its answer is dropped", kind.name());
            exec.timed_out = true;
            return done(exec);
        }
        None => result,
        Some(deferred) => {
            let cancelled = || call.token.is_some_and(crate::runner::CancelToken::is_cancelled);
            match deferred.wait(deadline, &cancelled) {
                Waited::Answered(result) => result,
                Waited::TimedOut => {
                    exec.timed_out = true;
                    return done(exec);
                }
                Waited::Cancelled => return Ran::Cancelled,
            }
        }
    };
    drop(callback);
    match answer(spec, kind, result) {
        Ok(stdout) => {
            exec.exit_code = Some(0);
            exec.stdout = stdout;
        }
        Err(answer) => exec.answer = answer,
    }
    done(exec)
}

/// How many prompt and agent hooks of one event run at a time: "the
/// concurrency cap of 12 prompt/agent hooks" Claude Code 2.1.295 added.
/// The others wait for a free place, in configuration order; each hook's
/// timeout starts when it starts.
pub const MODEL_HOOKS_AT_ONCE: usize = 12;

/// A handler call that a hook running on another thread asks the run's
/// thread to make ([`relayed`], [`Relayed::serve`]).
pub(crate) struct Relayed {
    callback: SharedCallback,
    request: String,
    reply: mpsc::Sender<CallResult>,
}

impl Relayed {
    /// Make the call on this thread (the run's) and hand the result back.
    pub(crate) fn serve(self) {
        let result = invoke_deferrable(self.callback.as_ref(), &self.request);
        // The hook's thread waits for it until the run's thread is done.
        let _ = self.reply.send(result);
    }
}

/// Where a relayed hook's handler calls go, and what to do once its call
/// is handed over (let the next hook's call go: calls keep configuration
/// order).
struct Relay {
    to: mpsc::Sender<Relayed>,
    handed_over: Option<Box<dyn FnOnce()>>,
}

thread_local! {
    /// Where this thread's handler calls go instead of being made here.
    static RELAY: RefCell<Option<Relay>> = const { RefCell::new(None) };
}

/// Run `f` (one hook) on this thread with its handler calls made by the
/// run's thread, which serves `to`: host code runs where the host expects
/// it (a Node host's synchronous handler on the thread its run blocks),
/// while the wait for a deferred answer happens here. `handed_over` is
/// called once the call is on its way.
pub(crate) fn relayed<R>(to: mpsc::Sender<Relayed>, handed_over: Box<dyn FnOnce()>, f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            RELAY.with(|r| r.borrow_mut().take());
        }
    }
    RELAY.with(|r| *r.borrow_mut() = Some(Relay { to, handed_over: Some(handed_over) }));
    let _reset = Reset;
    f()
}

/// Call the handler: on this thread, or through the run's thread when this
/// hook runs [`relayed`].
fn call_handler(callback: &SharedCallback, request: &str) -> CallResult {
    let relay = RELAY.with(|r| r.borrow_mut().as_mut().map(|r| (r.to.clone(), r.handed_over.take())));
    let Some((to, handed_over)) = relay else {
        return invoke_deferrable(callback.as_ref(), request);
    };
    let (reply, answer) = mpsc::channel();
    let job = Relayed { callback: Arc::clone(callback), request: request.to_owned(), reply };
    let sent = to.send(job);
    if let Some(next) = handed_over {
        next();
    }
    if sent.is_err() {
        return CallResult::failed_with("the run ended before the handler was called".to_owned());
    }
    answer.recv().unwrap_or_else(|_| CallResult::failed_with("the run ended before the handler answered".to_owned()))
}

/// What the handler's result stands for: `Ok(stdout)` of an exit 0 (an
/// MCP tool's text), else the answer to read.
fn answer(spec: &HandlerSpec, kind: HandlerType, result: CallResult) -> Result<String, Answer> {
    if let Some(reason) = result.failure() {
        let message = match reason {
            "" => format!("the {} handler failed", kind.name()),
            reason => format!("the {} handler failed: {reason}", kind.name()),
        };
        return Err(Answer::Failed { kind: HookFailure::Handler, message });
    }
    match spec {
        HandlerSpec::Prompt { continue_on_block, .. } => Err(Answer::Verdict {
            reply: verdict_value(result.reply),
            agent: false,
            continue_on_block: *continue_on_block,
        }),
        HandlerSpec::Agent { .. } => {
            Err(Answer::Verdict { reply: verdict_value(result.reply), agent: true, continue_on_block: true })
        }
        _ => tool_answer(result.reply).map_err(|message| Answer::Failed { kind: HookFailure::ToolError, message }),
    }
}

/// A model reply as the JSON the reader checks: `hl_reply_set_json`'s
/// value; `hl_reply_allow` stands for `{"ok": true}` and
/// `hl_reply_deny(reason)` for `{"ok": false, "reason": reason}`; no reply
/// is `null` (not a verdict).
fn verdict_value(reply: Reply) -> Value {
    match reply {
        Reply::Json(v) => v,
        Reply::Allow => serde_json::json!({"ok": true}),
        Reply::Deny(reason) => serde_json::json!({"ok": false, "reason": reason}),
        Reply::NoOpinion | Reply::Deferred(_) | Reply::Failed(_) => Value::Null,
    }
}

/// An MCP tool's reply: a JSON string is the tool's text; an MCP
/// `CallToolResult` (`{"content": [{"type": "text", "text": …}, …],
/// "isError": bool}`) gives the text of its text items, one per line, or a
/// `tool_error` when `isError` is true; any other JSON value is the text of
/// its JSON. No reply: no output. `hl_reply_deny(msg)` is a tool error.
/// `Err` holds a tool error's message.
fn tool_answer(reply: Reply) -> Result<String, String> {
    let text = match reply {
        Reply::NoOpinion | Reply::Allow | Reply::Deferred(_) | Reply::Failed(_) => String::new(),
        Reply::Deny(message) => return Err(tool_error(&message)),
        Reply::Json(Value::String(s)) => s,
        Reply::Json(Value::Object(result)) if result.contains_key("content") || result.contains_key("isError") => {
            let text = result
                .get("content")
                .and_then(Value::as_array)
                .map(|items| {
                    items
                        .iter()
                        .filter(|i| i.get("type").and_then(Value::as_str).is_none_or(|t| t == "text"))
                        .filter_map(|i| i.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default();
            if result.get("isError").and_then(Value::as_bool) == Some(true) {
                return Err(tool_error(&text));
            }
            text
        }
        Reply::Json(other) => other.to_string(),
    };
    Ok(text)
}

fn tool_error(text: &str) -> String {
    match text.trim() {
        "" => "the tool returned an error".to_owned(),
        t => format!("the tool returned an error: {t}"),
    }
}

/// The request JSON of one call (keys in the documented order).
fn request(spec: &HandlerSpec, call: &Call<'_>) -> String {
    let input = call.payload.text();
    let event = call.event.name();
    let timeout_ms = u64::try_from(call.timeout.as_millis()).unwrap_or(u64::MAX);
    let json = |s: &str| Value::from(s).to_string();
    match spec {
        HandlerSpec::Prompt { prompt, model, .. } | HandlerSpec::Agent { prompt, model } => {
            let kind = if matches!(spec, HandlerSpec::Agent { .. }) { "agent" } else { "prompt" };
            let model = model.as_deref().map_or_else(|| "null".to_owned(), json);
            format!(
                r#"{{"type":"{kind}","event":{},"prompt":{},"model":{model},"timeout_ms":{timeout_ms},"input":{input}}}"#,
                json(event),
                json(&substitute_arguments(prompt, input)),
            )
        }
        HandlerSpec::McpTool { server, tool, input: args } => {
            let hook_input: Value = serde_json::from_str(input).unwrap_or(Value::Null);
            let args = substitute_paths(args, &hook_input);
            format!(
                r#"{{"type":"mcp_tool","event":{},"server":{},"tool":{},"input":{args},"timeout_ms":{timeout_ms}}}"#,
                json(event),
                json(server),
                json(tool),
            )
        }
        HandlerSpec::Command { .. } | HandlerSpec::Http { .. } => String::new(),
    }
}

/// A prompt with `$ARGUMENTS` replaced by the hook input JSON; without a
/// `$ARGUMENTS`, the input is appended after a blank line. `\$` stands for
/// a literal `$` (so `\$ARGUMENTS` stays as text and `\$1.00` reads `$1.00`).
pub fn substitute_arguments(prompt: &str, input_json: &str) -> String {
    const PLACEHOLDER: &str = "$ARGUMENTS";
    let mut out = String::with_capacity(prompt.len() + input_json.len() + 2);
    let mut substituted = false;
    let mut rest = prompt;
    while let Some(at) = rest.find(['\\', '$']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix("\\$") {
            out.push('$');
            // The escaped `$` is text: skip a name right after it as text too.
            let name_len = after.find(|c: char| !(c == '_' || c.is_ascii_alphanumeric())).unwrap_or(after.len());
            out.push_str(&after[..name_len]);
            rest = &after[name_len..];
        } else if let Some(after) = tail.strip_prefix(PLACEHOLDER) {
            out.push_str(input_json);
            substituted = true;
            rest = after;
        } else {
            out.push_str(&tail[..1]);
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    if !substituted {
        out.push_str("\n\n");
        out.push_str(input_json);
    }
    out
}

/// An mcp_tool `input` with its `${path}` strings filled from the hook
/// input (`${tool_input.file_path}`: dotted keys, array indexes as
/// numbers). A string that is exactly one `${path}` becomes the value
/// there, whatever its type; a `${path}` inside other text becomes the
/// value's text (a string as is, anything else as JSON). A path that leads
/// nowhere is `""`. Nested objects and arrays are filled too.
pub fn substitute_paths(value: &Value, input: &Value) -> Value {
    match value {
        Value::String(s) => fill_string(s, input),
        Value::Array(items) => Value::Array(items.iter().map(|v| substitute_paths(v, input)).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), substitute_paths(v, input))).collect::<Map<_, _>>())
        }
        other => other.clone(),
    }
}

fn lookup<'a>(input: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(input, |v, key| match v {
        Value::Object(m) => m.get(key),
        Value::Array(a) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

fn fill_string(s: &str, input: &Value) -> Value {
    if let Some(path) = s.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
        if !path.contains(['{', '}']) {
            return lookup(input, path.trim()).cloned().unwrap_or_else(|| Value::from(""));
        }
    }
    if !s.contains("${") {
        return Value::from(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find('}') {
            Some(end) => {
                match lookup(input, after[..end].trim()) {
                    Some(Value::String(text)) => out.push_str(text),
                    Some(other) => out.push_str(&other.to_string()),
                    None => {}
                }
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    Value::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// "Use `$ARGUMENTS` as a placeholder for the hook input JSON. Escape
    /// with a backslash to include literal text: `\$1.00` renders as
    /// `$1.00`"; "If `$ARGUMENTS` is not present, input JSON is appended to
    /// the prompt".
    #[test]
    fn arguments_placeholder_is_the_hook_input_and_a_backslash_keeps_a_dollar() {
        assert_eq!(substitute_arguments("Check: $ARGUMENTS.", "{\"a\":1}"), "Check: {\"a\":1}.");
        assert_eq!(substitute_arguments("$ARGUMENTS and $ARGUMENTS", "X"), "X and X");
        assert_eq!(substitute_arguments("Costs \\$1.00: $ARGUMENTS", "X"), "Costs $1.00: X");
        assert_eq!(substitute_arguments("Say \\$ARGUMENTS", "X"), "Say $ARGUMENTS\n\nX");
        assert_eq!(substitute_arguments("No placeholder", "X"), "No placeholder\n\nX");
        assert_eq!(substitute_arguments("a \\ b $ c", "X"), "a \\ b $ c\n\nX");
    }

    /// "String values support `${path}` substitution from the hook's JSON
    /// input, such as `"${tool_input.file_path}"`."
    #[test]
    fn mcp_input_strings_are_filled_from_the_hook_input() {
        let input = json!({"tool_name": "Write", "tool_input": {"file_path": "/w/a.rs", "n": 3, "list": ["x", "y"]}});
        let args = json!({
            "file_path": "${tool_input.file_path}",
            "whole": "${tool_input}",
            "n": "${tool_input.n}",
            "text": "edit of ${tool_input.file_path} by ${tool_name} (${tool_input.n}, ${tool_input.list.1})",
            "missing": "${nope.deeper}",
            "nested": [{"p": "${tool_name}"}, 7],
            "literal": "no ${ closing",
        });
        assert_eq!(
            substitute_paths(&args, &input),
            json!({
                "file_path": "/w/a.rs",
                "whole": {"file_path": "/w/a.rs", "n": 3, "list": ["x", "y"]},
                "n": 3,
                "text": "edit of /w/a.rs by Write (3, y)",
                "missing": "",
                "nested": [{"p": "Write"}, 7],
                "literal": "no ${ closing",
            })
        );
    }

    #[test]
    fn an_mcp_call_tool_result_reads_as_its_text_and_is_error_is_a_tool_error() {
        let text = |r: Reply| tool_answer(r).unwrap();
        assert_eq!(text(Reply::Json(json!("plain"))), "plain");
        assert_eq!(
            text(Reply::Json(json!({"content": [{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}]}))),
            "a\nb"
        );
        assert_eq!(text(Reply::Json(json!({"decision": "block"}))), r#"{"decision":"block"}"#);
        assert_eq!(text(Reply::NoOpinion), "");
        let error = tool_answer(Reply::Json(json!({"isError": true, "content": [{"type": "text", "text": "boom"}]})));
        assert!(error.unwrap_err().contains("boom"));
    }
}
