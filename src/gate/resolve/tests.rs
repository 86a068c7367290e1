use super::*;

const WS: &str = "/ws";

fn ctx<'a>(placeholders: &'a [(&'a str, &'a str)], root: Option<&'a Path>) -> ResolveCtx<'a> {
    ResolveCtx {
        workspace: Path::new(WS),
        cwd: None,
        plugin_root: root,
        home: Some(Path::new("/home/u")),
        placeholders,
    }
}

const CLAUDE: &[(&str, &str)] =
    &[("HOOKLINE_PROJECT_DIR", WS), ("CLAUDE_PROJECT_DIR", WS), ("CLAUDE_PLUGIN_ROOT", "/plug")];

fn refs(cmd: &str) -> Vec<(String, Role)> {
    let root = Path::new("/plug");
    shell_references(cmd, &ctx(CLAUDE, Some(root)))
        .into_iter()
        .map(|r| (r.path.to_string_lossy().into_owned(), r.role))
        .collect()
}

fn paths(cmd: &str) -> Vec<String> {
    refs(cmd).into_iter().map(|(p, _)| p).collect()
}

/// A hook with its own `cwd` (Copilot CLI, VS Code) names files
/// relative to that directory, in both forms.
#[test]
fn relative_paths_resolve_against_the_hooks_cwd() {
    let c = ResolveCtx { cwd: Some(Path::new("scripts")), ..ctx(CLAUDE, None) };
    let shell: Vec<_> = shell_references("./guard.sh", &c).into_iter().map(|r| r.path).collect();
    assert_eq!(shell, [Path::new("/ws/scripts/guard.sh")]);
    let exec: Vec<_> = exec_references(&["./guard.sh"], &c).into_iter().map(|r| r.path).collect();
    assert_eq!(exec, [Path::new("/ws/scripts/guard.sh")]);
}

#[test]
fn an_interpreter_on_path_is_not_a_reference_its_script_is() {
    assert_eq!(refs("python3 .claude/hooks/x.py"), [("/ws/.claude/hooks/x.py".into(), Role::Argument)]);
}

#[test]
fn a_first_word_with_a_slash_is_the_program_wherever_it_points() {
    assert_eq!(refs("./guard.sh"), [("/ws/guard.sh".into(), Role::Program)]);
    assert_eq!(refs("/opt/audit --all"), [("/opt/audit".into(), Role::Program)]);
    assert_eq!(refs("~/bin/check"), [("/home/u/bin/check".into(), Role::Program)]);
}

fn unpinned(cmd: &str) -> Vec<String> {
    resolve_shell(cmd, &ctx(CLAUDE, Some(Path::new("/plug")))).unpinned
}

/// A script path the resolver cannot know is listed, never dropped in
/// silence; words that name no file are not.
#[test]
fn script_words_that_cannot_be_resolved_are_unpinned() {
    assert_eq!(unpinned("$SCRIPTS/guard.sh"), ["$SCRIPTS/guard.sh"]);
    assert_eq!(
        unpinned(r#""$(git rev-parse --show-toplevel)"/.claude/hooks/x.sh"#),
        [r#""$(git rev-parse --show-toplevel)"/.claude/hooks/x.sh"#]
    );
    assert_eq!(unpinned("python3 ${HOOKS_DIR}/lint.py"), ["${HOOKS_DIR}/lint.py"]);
    assert_eq!(unpinned("bash ./hooks/*.sh"), ["./hooks/*.sh"]);
    assert_eq!(unpinned("cd \"$X\" && ./guard.sh"), ["./guard.sh"]);
    assert_eq!(unpinned("sh -c \"$CMD\""), ["\"$CMD\""]);
    assert_eq!(unpinned("~nobody/bin/x"), ["~nobody/bin/x"]);
    for fine in [
        "./guard.sh",
        r#"bash "$CLAUDE_PROJECT_DIR"/h.sh"#,
        "[ -f x ] && echo \"$MSG\"",
        "curl -s http://localhost:$PORT/hook",
        "jq -r .tool_input.command | grep -q \"$PATTERN\"",
        "echo \"$HOOK_INPUT\" > /tmp/log",
        "node ${CLAUDE_PLUGIN_ROOT}/a.js",
    ] {
        assert!(unpinned(fine).is_empty(), "{fine}: {:?}", unpinned(fine));
    }
}

#[test]
fn placeholders_expand_quoted_braced_or_bare() {
    assert_eq!(paths(r#"bash "$CLAUDE_PROJECT_DIR"/h.sh"#), ["/ws/h.sh"]);
    assert_eq!(paths("node ${CLAUDE_PLUGIN_ROOT}/a.js"), ["/plug/a.js"]);
    assert_eq!(paths("$HOOKLINE_PROJECT_DIR/.claude/hooks/g.sh"), ["/ws/.claude/hooks/g.sh"]);
    assert_eq!(paths(r#""${CLAUDE_PROJECT_DIR}/with space.sh""#), ["/ws/with space.sh"]);
}

#[test]
fn bare_words_are_data_not_references() {
    assert_eq!(paths("touch done && git commit -m msg && bash myscript"), Vec::<String>::new());
    assert_eq!(paths("bash ./myscript hooks/run"), ["/ws/myscript", "/ws/hooks/run"]);
}

#[test]
fn arguments_outside_the_workspace_and_plugin_root_are_not_references() {
    assert_eq!(paths("cat /etc/passwd ../elsewhere/x.sh"), Vec::<String>::new());
    assert_eq!(paths("python3 -u x.py --flag=y.py"), ["/ws/x.py"]);
}

#[test]
fn words_with_unknown_values_are_not_references() {
    assert_eq!(paths("$OTHER/x.sh"), Vec::<String>::new());
    assert_eq!(paths("bash hooks/*.sh"), Vec::<String>::new());
    assert_eq!(paths("bash x.{sh,py}"), Vec::<String>::new());
    assert_eq!(paths("~other/x.sh"), Vec::<String>::new());
    assert_eq!(paths("bash ${CLAUDE_PROJECT_DIR:-.}/x.sh"), Vec::<String>::new());
}

#[test]
fn every_simple_command_of_a_list_or_pipeline_is_read() {
    assert_eq!(
        paths("FOO=1 ./a.sh && bash b.sh | ./c.sh; if [ -x ./d.sh ]; then ./e.sh; fi & wait"),
        ["/ws/a.sh", "/ws/b.sh", "/ws/c.sh", "/ws/d.sh", "/ws/e.sh"]
    );
}

#[test]
fn precommands_are_looked_through() {
    assert_eq!(refs("exec ./a.sh"), [("/ws/a.sh".into(), Role::Program)]);
    assert_eq!(
        refs("/usr/bin/env -i A=1 python3 x.py"),
        [("/usr/bin/env".into(), Role::Program), ("/ws/x.py".into(), Role::Argument)]
    );
}

#[test]
fn sh_c_text_and_command_substitutions_are_read_too() {
    assert_eq!(paths("bash -ec './inner.sh arg' zero.sh"), ["/ws/inner.sh", "/ws/zero.sh"]);
    assert_eq!(paths("echo $(./sub.sh) `./bq.sh`"), ["/ws/sub.sh", "/ws/bq.sh"]);
    assert_eq!(paths("diff <(./p.sh) x.txt"), ["/ws/p.sh", "/ws/x.txt"]);
}

#[test]
fn input_redirections_are_references_outputs_are_not() {
    assert_eq!(refs("sh < guard.sh > out.log 2>err.log"), [("/ws/guard.sh".into(), Role::Input)]);
    assert_eq!(paths("./a.sh 2>&1 >>log"), ["/ws/a.sh"]);
}

#[test]
fn cd_moves_where_later_relative_words_resolve() {
    assert_eq!(paths("cd .claude/hooks && ./x.sh"), ["/ws/.claude/hooks/x.sh"]);
    assert_eq!(paths("cd $SOMEWHERE && ./x.sh"), Vec::<String>::new());
}

#[test]
fn comments_and_here_documents_are_not_commands() {
    assert_eq!(paths("./a.sh # ./b.sh\ncat <<EOF\n./c.sh\nEOF\n./d.sh"), ["/ws/a.sh", "/ws/d.sh"]);
}

#[test]
fn dot_dot_is_resolved_lexically() {
    assert_eq!(paths("./x/../y.sh"), ["/ws/y.sh"]);
    assert_eq!(paths("/../../z"), ["/z"]);
}

#[test]
fn exec_form_is_a_word_list_with_braced_placeholders() {
    let c = ctx(CLAUDE, Some(Path::new("/plug")));
    let r = exec_references(&["${CLAUDE_PLUGIN_ROOT}/bin/run", "--x", "${CLAUDE_PROJECT_DIR}/a.py", "rel.txt"], &c);
    let got: Vec<(&str, Role)> = r.iter().map(|r| (r.path.to_str().unwrap(), r.role)).collect();
    assert_eq!(got, [("/plug/bin/run", Role::Program), ("/ws/a.py", Role::Argument), ("/ws/rel.txt", Role::Argument)]);
    // Exec form has no shell: `$NAME`, `~` and quotes are literal.
    let r = exec_references(&["python3", "$CLAUDE_PROJECT_DIR/x.py", "~/y.py"], &c);
    let got: Vec<&str> = r.iter().map(|r| r.path.to_str().unwrap()).collect();
    assert_eq!(got, ["/ws/$CLAUDE_PROJECT_DIR/x.py", "/ws/~/y.py"]);
    assert!(exec_references(&["python3"], &c).is_empty());
    assert!(exec_references(&[], &c).is_empty());
}

/// The fuzz target's oracles (`fuzz/fuzz_targets/resolve.rs`) over
/// pseudo-random text built from shell syntax, so that `cargo test`
/// exercises them without a fuzzer.
#[test]
fn random_shell_text_keeps_the_resolver_oracles() {
    const PIECES: &[&str] = &[
        " ",
        "\t",
        "\n",
        ";",
        "&",
        "&&",
        "|",
        "||",
        "(",
        ")",
        "<",
        ">",
        ">>",
        "<<",
        "<<-",
        "2>",
        "<(",
        "$(",
        "`",
        "'",
        "\"",
        "\\",
        "$",
        "${",
        "}",
        "{",
        "~",
        "~/",
        "*",
        "?",
        "[",
        "#",
        "=",
        "A=1",
        "./",
        "../",
        "/",
        ".",
        "x.sh",
        "dir/",
        "-c",
        "sh",
        "bash",
        "cd",
        "exec",
        "env",
        "if",
        "then",
        "fi",
        "EOF",
        "$HOME",
        "$CLAUDE_PROJECT_DIR",
        "${CLAUDE_PLUGIN_ROOT}",
        "${X:-y}",
        "é",
        "日本",
        "\u{0}",
    ];
    let root = Path::new("/plug");
    let c = ctx(CLAUDE, Some(root));
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = (next() % 24) as usize;
        let text: String = (0..len).map(|_| PIECES[(next() % PIECES.len() as u64) as usize]).collect();
        let refs = shell_references(&text, &c);
        assert!(refs.len() <= MAX_REFERENCES);
        for r in &refs {
            assert!(r.path.is_absolute(), "{text:?}: {r:?}");
            assert!(
                r.path.components().all(|c| !matches!(c, Component::CurDir | Component::ParentDir)),
                "{text:?}: {r:?}"
            );
            match r.role {
                Role::Program => assert!(r.word.contains('/'), "{text:?}: {r:?}"),
                _ => assert!(r.path.starts_with(WS) || r.path.starts_with("/plug"), "{text:?}: {r:?}"),
            }
        }
        assert_eq!(refs, shell_references(&text, &c), "deterministic: {text:?}");
        let words: Vec<&str> = text.split(' ').collect();
        assert!(exec_references(&words, &c).len() <= MAX_REFERENCES);
    }
}

#[test]
fn the_resolver_never_panics_on_odd_text() {
    for cmd in [
        "",
        "'",
        "\"",
        "\\",
        "$",
        "${",
        "$(",
        "$((",
        "`",
        "<",
        "<<",
        "<<-",
        "<(",
        "2>",
        "&>",
        ";;",
        "((((",
        "))))",
        "~",
        "$'\\x'",
        "a\\\n/b",
        "cd",
        "cd ..; cd ..; cd ..; ./x",
        "sh -c",
        "sh -c \"$(sh -c '$(sh -c x)')\"",
        "é/ü.sh 日本/x",
        "\u{0}",
        "a\u{0}/b",
        "{",
        "}",
        "$((1+(2)))",
        "x=$(",
        "<<EOF",
        "cat <<'E'\nE",
    ] {
        let _ = refs(cmd);
    }
    let deep = "$(".repeat(10_000);
    let _ = refs(&deep);
    let many = "./a.sh; ".repeat(10_000);
    assert!(refs(&many).len() <= MAX_REFERENCES);
}
