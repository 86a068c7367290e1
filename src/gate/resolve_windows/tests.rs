use super::*;
use std::path::Path;

const WS: &str = r"C:\Users\me\proj";

fn ctx<'a>(placeholders: &'a [(&'a str, &'a str)]) -> ResolveCtx<'a> {
    ResolveCtx {
        workspace: Path::new(WS),
        cwd: None,
        plugin_root: None,
        home: Some(Path::new(r"C:\Users\me")),
        placeholders,
    }
}

fn refs(cmd: &str, syntax: WindowsSyntax) -> Vec<(String, Role)> {
    let p = [("CLAUDE_PROJECT_DIR", WS), ("GEMINI_PROJECT_DIR", WS)];
    resolve_windows_shell(cmd, syntax, &ctx(&p))
        .references
        .into_iter()
        .map(|r| (r.path.to_string_lossy().into_owned(), r.role))
        .collect()
}

fn paths(cmd: &str, syntax: WindowsSyntax) -> Vec<String> {
    refs(cmd, syntax).into_iter().map(|(p, _)| p).collect()
}

fn unpinned(cmd: &str, syntax: WindowsSyntax) -> Vec<String> {
    resolve_windows_shell(cmd, syntax, &ctx(&[])).unpinned
}

use WindowsSyntax::{Cmd, PowerShell};

#[test]
fn windows_paths_normalise_join_and_compare_without_case() {
    assert_eq!(win_normalize(r"C:/a/./b/../c\"), r"C:\a\c");
    assert_eq!(win_normalize(r"\\srv\share\x\..\y"), r"\\srv\share\y");
    assert_eq!(win_normalize(r"\\?\C:\a\..\b"), r"\\?\C:\b");
    assert_eq!(win_normalize(r"C:\..\.."), r"C:\");
    assert_eq!(win_join(Some(r"C:\w"), r".\h\x.cmd").as_deref(), Some(r"C:\w\h\x.cmd"));
    assert_eq!(win_join(Some(r"C:\w"), r"\h\x.cmd").as_deref(), Some(r"C:\h\x.cmd"));
    assert_eq!(win_join(Some(r"C:\w"), "D:/x/y.ps1").as_deref(), Some(r"D:\x\y.ps1"));
    assert_eq!(win_join(Some(r"C:\w"), "D:y.ps1"), None, "drive-relative: unknown");
    assert_eq!(win_join(None, r"h\x.cmd"), None);
    assert!(win_within(r"c:\users\ME\proj\h\x.cmd", WS) && win_within(WS, WS));
    assert!(win_within(r"\\?\C:\Users\me\proj\x", WS) && win_within(r"C:\Users\me\proj\x", r"\\?\C:\Users\me\proj"));
    assert!(!win_within(r"C:\Users\me\project2\x", WS));
}

#[test]
fn cmd_programs_arguments_and_variables() {
    // Codex runs `%ComSpec% /C <command>` on Windows (command_runner.rs).
    assert_eq!(
        refs(r#"python "%CLAUDE_PROJECT_DIR%\.codex\hooks\guard.py" --strict"#, Cmd),
        [(format!(r"{WS}\.codex\hooks\guard.py"), Role::Argument)]
    );
    assert_eq!(refs(r".\hooks\check.cmd", Cmd), [(format!(r"{WS}\hooks\check.cmd"), Role::Program)]);
    assert_eq!(paths(r"C:/tools/audit.exe /q", Cmd), [r"C:\tools\audit.exe"]);
    assert_eq!(paths(r"%USERPROFILE%\bin\g.bat", Cmd), [r"C:\Users\me\bin\g.bat"]);
    assert_eq!(paths(r"%HOMEDRIVE%%HOMEPATH%\bin\g.bat", Cmd), [r"C:\Users\me\bin\g.bat"]);
    // Arguments outside the workspace are not references; bare words are data.
    assert_eq!(paths(r"type C:\Windows\win.ini & echo done", Cmd), Vec::<String>::new());
    assert_eq!(
        paths(r"@call hooks\a.cmd && node hooks/b.js || (type < hooks\in.json)", Cmd),
        [format!(r"{WS}\hooks\a.cmd"), format!(r"{WS}\hooks\b.js"), format!(r"{WS}\hooks\in.json")]
    );
    // Outputs are not read; `^` escapes; quotes are removed.
    assert_eq!(paths(r#"node "hooks\my ^x.js" > out.log 2>&1"#, Cmd), [format!(r"{WS}\hooks\my ^x.js")]);
    assert_eq!(paths(r"node hooks\my^ x.js", Cmd), [format!(r"{WS}\hooks\my x.js")]);
}

#[test]
fn cmd_cd_and_nested_cmd_c() {
    // cmd.exe runs `check.cmd` from the working directory when it is there.
    assert_eq!(
        refs(r"cd /d hooks && check.cmd x.py", Cmd),
        [(format!(r"{WS}\hooks\check.cmd"), Role::Program), (format!(r"{WS}\hooks\x.py"), Role::Argument)]
    );
    assert_eq!(paths(r#"cmd /c "node hooks\a.js""#, Cmd), [format!(r"{WS}\hooks\a.js")]);
    assert_eq!(paths(r#"cmd.exe /d /s /c "cd sub & .\b.cmd""#, Cmd), [format!(r"{WS}\sub\b.cmd")]);
}

#[test]
fn cmd_words_that_cannot_be_known_are_unpinned() {
    assert_eq!(unpinned(r"%SCRIPTS%\guard.cmd", Cmd), [r"%SCRIPTS%\guard.cmd"]);
    assert_eq!(unpinned(r#"python "%TOOLS%\x.py""#, Cmd), [r#""%TOOLS%\x.py""#]);
    assert!(unpinned(r"echo %DATE%", Cmd).is_empty());
}

#[test]
fn powershell_programs_arguments_and_variables() {
    // Gemini CLI: PowerShell `-Command <cmd>` on Windows (hookRunner.ts).
    assert_eq!(
        refs(r#"& "$env:GEMINI_PROJECT_DIR\.gemini\hooks\guard.ps1" -Strict"#, PowerShell),
        [(format!(r"{WS}\.gemini\hooks\guard.ps1"), Role::Program)]
    );
    assert_eq!(paths(r"node ${env:CLAUDE_PROJECT_DIR}/hooks/a.js", PowerShell), [format!(r"{WS}\hooks\a.js")]);
    assert_eq!(
        paths(r"~\bin\g.ps1; $HOME\bin\h.ps1", PowerShell),
        [r"C:\Users\me\bin\g.ps1", r"C:\Users\me\bin\h.ps1"]
    );
    assert_eq!(paths(r". .\lib.ps1 | Out-Null", PowerShell), [format!(r"{WS}\lib.ps1")]);
    assert_eq!(paths(r"python 'hooks\it''s.py' # hooks\no.py", PowerShell), [format!(r"{WS}\hooks\it's.py")]);
    assert_eq!(paths(r"Set-Location hooks; .\x.ps1 2>$null", PowerShell), [format!(r"{WS}\hooks\x.ps1")]);
    assert_eq!(paths(r#"powershell -NoProfile -File hooks\a.ps1 arg.txt"#, PowerShell), [format!(r"{WS}\hooks\a.ps1")]);
    assert_eq!(paths(r#"pwsh.exe -NoProfile -Command "node hooks\b.js""#, Cmd), [format!(r"{WS}\hooks\b.js")]);
}

#[test]
fn powershell_words_that_cannot_be_known_are_unpinned() {
    assert_eq!(unpinned(r"& $env:TOOLS\guard.ps1", PowerShell), [r"$env:TOOLS\guard.ps1"]);
    assert_eq!(unpinned(r"python $(Get-Root)\x.py", PowerShell), [r"$(Get-Root)\x.py"]);
    assert_eq!(unpinned(r"$script", PowerShell), [r"$script"]);
    assert!(unpinned(r"Write-Output $x", PowerShell).is_empty());
}

#[test]
fn odd_text_never_panics() {
    for t in
        ["\"", "^", "%", "%%", "$", "${", "$(", "&", "'", "`", "~", "> ", "< ", "\\\\", "C:", "cmd /c", "pwsh -File"]
    {
        for s in [Cmd, PowerShell] {
            let _ = resolve_windows_shell(t, s, &ctx(&[]));
            let _ = resolve_windows_shell(&t.repeat(3), s, &ctx(&[]));
        }
    }
}
