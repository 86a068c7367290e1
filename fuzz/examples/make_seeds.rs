//! Write the committed seed corpus under `fuzz/corpus/<target>/`.
//!
//! Run from the `fuzz` directory: `cargo run --example make_seeds`. Seeds
//! are small, hand-picked inputs covering each dialect, event, point and
//! entry point; fuzzing grows its working corpus elsewhere (see
//! docs/hardening.md) so the committed one stays small.

use std::fs;
use std::path::Path;

use hookline::HookEvent;
use hookline_fuzz::{encode_interpret, RecordKind as K, SeedRecord as R};

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new("corpus").join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), bytes).unwrap();
}

fn config_json() {
    let seeds: &[(&str, &str)] = &[
        ("vt_lifecycle", r#"{"lifecycle":{"pre_tool_use":[{"matcher":"Bash","hooks":[{"type":"command","command":"./check.sh","timeout_seconds":10}]}],"quiet_success_output":false}}"#),
        ("vt_all_events", r#"{"lifecycle":{"session_start":[{"hooks":[{"command":"a"}]}],"session_end":[{"matcher":"completed","hooks":[{"command":"b"}]}],"subagent_start":[{"hooks":[{"command":"c"}]}],"subagent_stop":[{"hooks":[{"command":"d"}]}],"user_prompt_submit":[{"matcher":".*secret.*","hooks":[{"command":"e"}]}],"post_tool_use":[{"matcher":"*","hooks":[{"command":"f"}]}],"permission_request":[{"matcher":"","hooks":[{"command":"g"}]}],"pre_compact":[{"hooks":[{"command":"h"}]}],"stop":[{"hooks":[{"command":"i"}]}],"task_completion":[{"hooks":[{"command":"j"}]}],"task_completed":[{"hooks":[{"command":"k"}]}],"notification":[{"hooks":[{"command":"l"}]}],"post_tool_use_failure":[{"hooks":[{"command":"m"}]}]}}"#),
        ("vt_whole_toml_json", r#"{"hooks":{"lifecycle":{"stop":[{"hooks":[{"command":"x","timeout_seconds":60}]}]}}}"#),
        ("claude_settings", r#"{"PreToolUse":[{"matcher":"Bash|Edit","hooks":[{"type":"command","command":"./guard.sh","timeout":10}]}],"PostToolUse":[{"matcher":"Write, Edit","hooks":[{"command":"fmt"}]}]}"#),
        ("claude_whole_settings", r#"{"permissions":{},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}],"UserPromptSubmit":[{"hooks":[{"command":"p"}]}]}}"#),
        ("claude_regex", r#"{"PreToolUse":[{"matcher":"mcp__.*__write","hooks":[{"command":"r"}]}]}"#),
        ("bad_mixed", r#"{"lifecycle":{},"PreToolUse":[]}"#),
        ("bad_empty_hooks", r#"{"lifecycle":{"pre_tool_use":[{"matcher":"Bash","hooks":[]}]}}"#),
        ("bad_blank_command", r#"{"PreToolUse":[{"hooks":[{"type":"command","command":"  "}]}]}"#),
        ("bad_type", r#"{"PreToolUse":[{"hooks":[{"type":"prompt","command":"x"}]}]}"#),
        ("bad_timeout", r#"{"lifecycle":{"stop":[{"hooks":[{"command":"x","timeout_seconds":0}]}]}}"#),
        ("bad_matcher", r#"{"lifecycle":{"pre_tool_use":[{"matcher":"(","hooks":[{"command":"x"}]}]}}"#),
        ("not_object", "[1,2,3]"),
        ("empty_object", "{}"),
    ];
    for (name, text) in seeds {
        write("config_json", name, text.as_bytes());
    }
}

fn config_toml() {
    let seeds: &[(&str, &str)] = &[
        ("hooks_lifecycle", "[hooks.lifecycle]\nquiet_success_output = true\n\n[[hooks.lifecycle.pre_tool_use]]\nmatcher = \"Bash\"\n[[hooks.lifecycle.pre_tool_use.hooks]]\ntype = \"command\"\ncommand = \"./check.sh\"\ntimeout_seconds = 10\n"),
        ("lifecycle", "[[lifecycle.session_start]]\n[[lifecycle.session_start.hooks]]\ncommand = \"echo hi\"\n\n[[lifecycle.stop]]\nhooks = [{ command = \"x\" }]\n"),
        ("inline", "lifecycle = { post_tool_use = [{ matcher = \"Write|Edit\", hooks = [{ command = \"fmt\", timeout_seconds = 5 }] }] }\n"),
        ("no_hooks", "[agent]\nprovider = \"x\"\n"),
        ("claude_rejected", "[[PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ command = \"x\" }]\n"),
        ("both_rejected", "[lifecycle]\n[hooks.lifecycle]\n"),
        ("bad_syntax", "[hooks.lifecycle\n"),
        ("dates", "[hooks]\nwhen = 1979-05-27T07:32:00Z\n[hooks.lifecycle]\n"),
    ];
    for (name, text) in seeds {
        write("config_toml", name, text.as_bytes());
    }
}

fn interpret() {
    use HookEvent as E;
    let rec = |kind: K, arg: u8, stdout: &'static str, stderr: &'static str| R {
        kind,
        arg,
        stdout: stdout.as_bytes(),
        stderr: stderr.as_bytes(),
    };
    let seeds: Vec<(&str, Vec<u8>)> = vec![
        ("pre_exit2_stderr", encode_interpret(E::PreToolUse, false, &[rec(K::Exit2, 0, "", "blocked: rm -rf")])),
        ("pre_exit2_empty", encode_interpret(E::PreToolUse, false, &[rec(K::Exit2, 0, "{}", " \n"), rec(K::Exit0, 0, "ok", "")])),
        ("pre_permission_decision", encode_interpret(E::PreToolUse, false, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":" why "}}"#, ""), rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, "")])),
        ("pre_updated_input", encode_interpret(E::PreToolUse, false, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"updatedInput":{"command":"ls -la"},"additionalContext":"ctx"}}"#, ""), rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"updatedInput":[1]}}"#, ""), rec(K::Exit2, 0, "", "no")])),
        ("pre_legacy_decision", encode_interpret(E::PreToolUse, false, &[rec(K::Exit0, 0, r#"{"decision":"approve","reason":"fine"}"#, "")])),
        ("pre_timeout", encode_interpret(E::PreToolUse, false, &[rec(K::TimedOut, 0, "partial", ""), rec(K::Exit0, 0, "", "")])),
        ("pre_continue_false", encode_interpret(E::PreToolUse, false, &[rec(K::Exit0, 0, r#"{"continue":false,"stopReason":"halt","systemMessage":"msg"}"#, "")])),
        ("pre_callbacks", encode_interpret(E::PreToolUse, false, &[rec(K::CallbackOk, 1, "", ""), rec(K::CallbackFailed, 2, "", "denied by host")])),
        ("prompt_block", encode_interpret(E::UserPromptSubmit, false, &[rec(K::Exit0, 0, "context line", ""), rec(K::Exit2, 0, "", "secret in prompt")])),
        ("prompt_json_block", encode_interpret(E::UserPromptSubmit, false, &[rec(K::Exit0, 0, r#"{"decision":"block","reason":""}"#, ""), rec(K::Exit0, 0, r#"{"continue":false,"stopReason":"stop"}"#, "")])),
        ("prompt_additional", encode_interpret(E::UserPromptSubmit, true, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"hookEventName":"userpromptsubmit","additionalContext":"x"},"additional_context":["a","b"]}"#, "")])),
        ("session_start", encode_interpret(E::SessionStart, false, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"additionalContext":["one"," two "]}}"#, ""), rec(K::ExitCode, 0xff, "", "oops"), rec(K::Signal, 9, "", "")])),
        ("post_block", encode_interpret(E::PostToolUse, false, &[rec(K::Exit0, 0, r#"{"decision":"block","reason":"lint failed"}"#, ""), rec(K::Exit0, 0, r#"{"decision":"block"}"#, "")])),
        ("post_failure", encode_interpret(E::PostToolUseFailure, false, &[rec(K::Exit1, 0, "[not json", "err")])),
        ("permission", encode_interpret(E::PermissionRequest, false, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedInput":{"a":1},"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"destination":"session"}],"interrupt":false,"message":"m"}}}"#, "")])),
        ("permission_vt", encode_interpret(E::PermissionRequest, false, &[rec(K::Exit0, 0, r#"{"hookSpecificOutput":{"decision":{"behavior":"deny"},"updatedPermissions":[{"addRules":["x"],"destination":"projectSettings"}],"message":"no"}}"#, "")])),
        ("stop_block", encode_interpret(E::Stop, false, &[rec(K::Exit0, 0, r#"{"continue":false,"stopReason":"keep going"}"#, ""), rec(K::Exit0, 0, r#"{"decision":"block","reason":"r"}"#, "")])),
        ("observers", encode_interpret(E::Notification, false, &[rec(K::Exit0, 0, r#"{"systemMessage":"note"}"#, ""), rec(K::NotApproved, 0, "", ""), rec(K::SpawnError, 0, "", "No such file")])),
        ("subagent", encode_interpret(E::SubagentStop, false, &[rec(K::CallbackOk, 3, r#"{"systemMessage":"s"}"#, ""), rec(K::Exit0, 0, "\u{fffd}\u{fffd} plain", "warn")])),
    ];
    for (name, bytes) in seeds {
        write("interpret", name, &bytes);
    }
}

fn registry_context() {
    let seeds: &[(u8, &str, &str)] = &[
        (0, r#"{"prompt":"hello","turn_number":1}"#, r#"{"allow":false,"message":"no"}"#),
        (1, r#"{"response_text":"r","turn_number":2,"extra":true}"#, ""),
        (2, r#"{"tool_name":"Bash","tool_args":{"command":"ls"}}"#, r#"{"allow":true,"message":"","modified_args":{"command":"ls -la"}}"#),
        (2, r#"{"name":"Bash","args":[1,2]}"#, r#"{"allow":true,"modified_args":{"x":1}}"#),
        (3, r#"{"tool_name":"Read","result":"data","metadata":{"k":1}}"#, ""),
        (4, "{}", ""),
        (5, r#"{"session":{"session_id":"s-1","agent_id":7,"started_at":"now"}}"#, ""),
        (6, r#"{"session":{"session_id":"s-1","agent_id":18446744073709551615}}"#, ""),
        (7, r#"{"tool_name":"Bash","error":"boom"}"#, ""),
        (8, r#"{"message":"hi"}"#, r#"{"allow":false,"message":"stop"}"#),
        (9, r#"{"tool_name":"Edit","tool_args":{"path":"a"},"name":"ignored"}"#, r#"{"path":"b"}"#),
        (9, r#"{"name":"Edit"}"#, "null"),
        (0, r#"{"prompt":"p","turn_number":-1}"#, ""),
        (0, "[]", ""),
        (2, r#"{"tool_name":"Bash""#, ""),
    ];
    for (i, (p, ctx, reply)) in seeds.iter().enumerate() {
        let mut bytes = vec![*p];
        bytes.extend_from_slice(ctx.as_bytes());
        if !reply.is_empty() {
            bytes.push(0);
            bytes.extend_from_slice(reply.as_bytes());
        }
        write("registry_context", &format!("seed_{i:02}"), &bytes);
    }
}

fn ffi_entry_points() {
    let ws = "/";
    let opts = format!(r#"{{"workspace":"{ws}","session_id":"s","hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[{{"command":"./x"}}]}}]}},"workspace_gated":true}}"#);
    let opts_toml = format!(r#"{{"workspace":"{ws}","session_id":"s","hooks_toml":"[[lifecycle.stop]]\nhooks = [{{ command = \"x\" }}]\n"}}"#);
    let seeds: Vec<(&str, u8, u8, u8, Vec<&[u8]>)> = vec![
        ("new_json", 0, 0, 0, vec![opts.as_bytes()]),
        ("new_toml", 0, 0, 0, vec![opts_toml.as_bytes()]),
        ("new_bad_field", 0, 0, 0, vec![br#"{"workspace":"/","session_id":1}"#]),
        ("new_invalid_utf8", 0, 0, 0, vec![b"{\"workspace\":\"\xff\xfe\"}"]),
        ("run_pre_tool", 1, 5, 0, vec![br#"{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"t1"}"#]),
        ("run_session_start", 1, 0, 0, vec![b"{}"]),
        ("run_session_end_bad", 1, 1, 0, vec![br#"{"turn_id":"t","reason":"bogus"}"#]),
        ("run_unknown_event", 1, 0x81, 0, vec![b"{}"]),
        ("cb_pre_tool_json", 2, 5, 0, vec![br#"{"tool_name":"Bash"}"#, br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#]),
        ("cb_prompt_deny", 2, 4, 2, vec![br#"{"turn_id":"t","prompt":"p"}"#, b"blocked"]),
        ("cb_permission", 2, 7, 0, vec![br#"{"tool_name":"Bash","permission_request":{}}"#, br#"{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}"#]),
        ("cb_stop_fail", 2, 9, 3, vec![br#"{"last_assistant_message":"m","stop_hook_active":false}"#]),
        ("cb_compact", 2, 8, 5, vec![br#"{"trigger":"auto","mode":"local","original_message_count":10,"compacted_message_count":2}"#, b"[1]"]),
        ("reg_pre_tool", 3, 2, 0, vec![br#"{"name":"Bash","args":{"a":1}}"#, br#"{"allow":true,"modified_args":{"b":2}}"#]),
        ("reg_transform", 3, 9, 0, vec![br#"{"tool_name":"Edit"}"#, b"{\"x\":null}"]),
        ("reg_deny", 3, 0, 2, vec![br#"{"prompt":"p","turn_number":3}"#, b"no"]),
        ("reg_bad_point", 3, 0x82, 0, vec![b"{}"]),
        ("reply_json", 4, 2, 0, vec![br#"{"allow":false,"message":"x"}"#]),
        ("reply_invalid", 4, 9, 1, vec![b"{\"unterminated"]),
        ("reload", 5, 0, 0, vec![opts.as_bytes()]),
        ("add_cb_matcher", 6, 5, 0, vec![b"Bash|Edit", b"guard", b"Edit"]),
        ("add_cb_regex", 6, 5, 0, vec![b"mcp__.*", b"g", b"mcp__x"]),
        ("add_cb_blank", 6, 5, 1, vec![b"", b"  ", b"Bash"]),
        ("transcript", 7, 0, 0, vec![b"session/transcript.jsonl"]),
        ("transcript_null", 7, 0, 1, vec![b""]),
    ];
    for (name, sel, eb, mode, strings) in seeds {
        let mut bytes = vec![sel, eb, mode];
        for (i, s) in strings.iter().enumerate() {
            if i > 0 {
                bytes.push(0);
            }
            bytes.extend_from_slice(s);
        }
        write("ffi_entry_points", name, &bytes);
    }
}

fn traceparent() {
    let seeds: &[(&str, &[u8])] = &[
        ("seed_00", b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\0rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"),
        ("seed_01", b"cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future"),
        ("seed_02", b"ff-00000000000000000000000000000000-0000000000000000-00"),
    ];
    for (name, bytes) in seeds {
        write("traceparent", name, bytes);
    }
}

fn resolve() {
    let seeds: &[(&str, &str)] = &[
        ("interpreter", "python3 .claude/hooks/x.py"),
        ("quoted_placeholder", r#"bash "$CLAUDE_PROJECT_DIR"/h.sh"#),
        ("braced_plugin_root", "node ${CLAUDE_PLUGIN_ROOT}/a.js"),
        ("relative_program", "./guard.sh --fast"),
        ("list_and_pipeline", "A=1 ./a.sh && bash b.sh | ./c.sh; if [ -x ./d.sh ]; then ./e.sh; fi &"),
        ("sh_c_and_substitution", "bash -ec './inner.sh' && echo $(./sub.sh) `./bq.sh` <(./p.sh)"),
        ("cd_and_redirect", "cd .claude/hooks && sh < guard.sh > out.log 2>&1"),
        ("heredoc_and_comment", "cat <<-EOF # ./not.sh
	./body.sh
EOF
./after.sh"),
        ("exec_words", "${CLAUDE_PLUGIN_ROOT}/bin/run\0--x\0${CLAUDE_PROJECT_DIR}/a.py\0rel/b.txt"),
        ("unterminated", r#"bash "$(./x.sh 'a"#),
    ];
    for (name, text) in seeds {
        write("resolve", name, text.as_bytes());
    }
}

fn main() {
    resolve();
    config_json();
    config_toml();
    interpret();
    registry_context();
    ffi_entry_points();
    traceparent();
    println!("seeds written under corpus/");
}
