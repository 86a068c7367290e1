//! `hookline check`: validate configs of every dialect (the library's own
//! validation, so an error names the entry; a file the agent would not
//! load at all, such as a Codex file Codex rejects or a Cursor hooks.json
//! with an unknown hook event, is an error) and warn on likely mistakes.
//!
//! Errors: what the library rejects (the file is not JSON, ...), and every
//! entry a host would skip (a Claude Code settings file's malformed
//! entries and unknown handler types: a host loads the rest, but the entry
//! never runs), each named by its path.
//!
//! Errors too, unless `--warn-only`: every hook that can never run as
//! written — a program or script that does not exist or is not
//! executable, an unknown event key, an invalid matcher, a handler type
//! the event does not run (the library's warnings marked `never_runs`), a
//! timeout under 100 in a dialect that counts milliseconds.
//!
//! Warnings (a config with warnings still passes, unless `--strict`):
//!
//! - every entry the agent itself would skip (Codex: an invalid matcher's
//!   group, an empty command, prompt/agent/mcp_tool handlers, unknown event
//!   keys, a clamped SessionEnd timeout, …, with the agent's own words;
//!   Cursor: `prompt` hooks, fields Cursor does not read, a matcher that is
//!   not a regular expression), with the reason;
//! - a tool event's matcher that can never match a known tool name (the
//!   dialect's tools; matchers mentioning `mcp_` or `MCP:` are not judged,
//!   MCP tool names are open-ended);
//! - Claude permission-rule syntax (`Bash(git *)`) in `matcher`, where only
//!   the tool name is tested (it belongs in the hook's `if`);
//! - unknown event keys (with a suggestion when the key is a known event
//!   spelled differently, or another dialect's event; the events a dialect
//!   knows by name, such as Claude Code's `TaskCreated`, are not unknown);
//! - entries the file's dialect skips (Gemini CLI skips unknown event
//!   names, definitions and hooks it cannot read, and reports them);
//! - an `if` condition on an event without a tool call (the hook never runs);
//! - a variable another dialect's hooks get but this one's do not
//!   (`$CLAUDE_PROJECT_DIR` in a Codex hook);
//! - commands whose program or script is a file that does not exist or is
//!   not executable, or a bare program name not found on `PATH`;
//! - commands of untrusted (gated) sources that name a script that does not
//!   exist, as the approval gate's resolver reads them (`$CLAUDE_PROJECT_DIR`
//!   and the other placeholders of the dialect expanded): nothing can be
//!   pinned for it, and a file created there later needs a new approval.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

/// Windows has no execute bit (a program runs by its extension): every
/// file passes the execute checks below.
#[cfg(windows)]
trait PermissionsExt {
    fn mode(&self) -> u32;
}

#[cfg(windows)]
impl PermissionsExt for std::fs::Permissions {
    fn mode(&self) -> u32 {
        0o777
    }
}
use std::path::{Path, PathBuf};

use clap::Args;
use hookline::config::matcher::Matcher;
use hookline::config::{HookGroup, HookSpec, HooksConfig};
use hookline::dialect::{self, Dialect};
use hookline::gate::pins::{references_of, resolution_of, PinCtx};
use hookline::gate::resolve::Role;
use hookline::HookEvent;

use crate::common::{self, CliResult, Out, EXIT_ERROR, EXIT_OK};

#[derive(Args)]
pub struct CheckArgs {
    /// Config files (Claude Code settings .json, Codex .codex/hooks.json or
    /// .codex/config.toml, Gemini CLI .gemini/settings.json, Cursor
    /// .cursor/hooks.json, Copilot CLI .github/hooks/*.json, VT Code .json or
    /// vtcode.toml).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The workspace relative command paths are resolved against (default:
    /// the project a file belongs to: the parent of its `.claude` or
    /// `.vtcode` directory, else the file's directory).
    #[arg(long, short, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Treat warnings as errors (exit 1).
    #[arg(long)]
    pub strict: bool,
    /// Report hooks that can never run as written as warnings (exit 0);
    /// a file that cannot be read or parsed still fails.
    #[arg(long, conflicts_with = "strict")]
    pub warn_only: bool,
    /// Read every file in this dialect (vtcode, claude, codex, gemini, cursor,
    /// copilot, vscode, windsurf, qwen, cline, kiro) instead of recognising it by its path or shape.
    #[arg(long, value_name = "NAME", value_parser = common::parse_dialect)]
    pub dialect: Option<common::DialectArg>,
}

const SHELL_WORDS: &[&str] = &[
    "echo", "printf", "exit", "true", "false", "cat", "test", "[", ":", ".", "source", "cd", "export", "exec", "eval",
    "if", "for", "while", "case", "until", "set", "read", "command", "time", "!", "{", "(", "then", "do", "return",
    "trap", "wait", "ulimit", "umask", "unset", "shift", "local", "type",
];

const INTERPRETERS: &[&str] =
    &["sh", "bash", "zsh", "dash", "ksh", "python", "python3", "node", "ruby", "perl", "deno", "bun", "php", "lua"];

struct Finding {
    error: bool,
    text: String,
}

/// A finding of [`warnings`]: `never_runs` when the hook can never run as
/// written (an error unless `--warn-only`), else a likely mistake.
pub struct Found {
    pub never_runs: bool,
    pub text: String,
}

impl Found {
    fn never_runs(text: String) -> Found {
        Found { never_runs: true, text }
    }
    fn warning(text: String) -> Found {
        Found { never_runs: false, text }
    }
}

pub fn main(out: &Out, a: CheckArgs) -> CliResult {
    let mut failed = false;
    let dialect = a.dialect;
    for file in &a.files {
        let mut findings = Vec::new();
        let mut commands = 0usize;
        // A policy file (an administrator's, which no user setting turns
        // off) is named so on each of its lines.
        let name = match common::is_policy_file(file, dialect) {
            true => format!("{} (policy)", file.display()),
            false => file.display().to_string(),
        };
        match common::load_file(file, dialect) {
            Err(e) => findings.push(Finding { error: true, text: e }),
            Ok(cfg) => {
                // A hook configured for two canonical events (Gemini CLI's
                // AfterTool) is one command.
                let mut paths: Vec<&str> =
                    cfg.config.all_groups().flat_map(|g| &g.hooks).map(|h| h.path.as_str()).collect();
                paths.sort_unstable();
                paths.dedup();
                commands = paths.len();
                let ws = a.workspace.clone().unwrap_or_else(|| common::project_dir_of(file));
                // Absolute, so that expanded placeholders and relative words
                // name the same paths.
                let ws = std::path::absolute(&ws).unwrap_or(ws);
                let ws = std::fs::canonicalize(&ws).unwrap_or(ws);
                let own = warnings(&cfg.config, &ws);
                for w in cfg.config.warnings() {
                    // An unknown key check names with more to say (another
                    // agent's event) is reported once, by check.
                    let key = w.path.rsplit(": ").next().unwrap_or(&w.path);
                    if w.never_runs && own.iter().any(|f| f.text.starts_with(&format!("{key}: unknown event key"))) {
                        continue;
                    }
                    let error = ((w.entry_skipped || w.never_runs) && !a.warn_only) || a.strict;
                    findings.push(Finding { error, text: common::located(&w.path, &w.message) });
                }
                if let Some(d) = cfg.config.disable_all_hooks().filter(|d| d.value) {
                    let whose = if d.trusted { "every hook" } else { "the hooks of untrusted sources" };
                    findings.push(Finding {
                        error: a.strict,
                        text: format!("disableAllHooks is true: a host runs none of {whose} while it is set"),
                    });
                }
                for f in own {
                    findings.push(Finding { error: (f.never_runs && !a.warn_only) || a.strict, text: f.text });
                }
                if commands == 0 {
                    findings.push(Finding { error: a.strict, text: "no hook commands are configured".into() });
                }
            }
        }
        let errors = findings.iter().filter(|f| f.error).count();
        let warns = findings.len() - errors;
        failed |= errors > 0;
        for f in &findings {
            // The library names the file of a skipped entry; this line does already.
            let prefix = format!("{}: ", file.display());
            let text = f.text.strip_prefix(&prefix).unwrap_or(&f.text);
            if f.error {
                out.line(&format!("{name}: {}: {}", out.red("error"), text));
            } else if !out.quiet {
                out.line(&format!("{name}: {}: {}", out.yellow("warning"), text));
            }
        }
        if errors == 0 && !out.quiet {
            out.line(&format!(
                "{name}: {} ({} hook{}, {} warning{})",
                out.green("ok"),
                commands,
                if commands == 1 { "" } else { "s" },
                warns,
                if warns == 1 { "" } else { "s" }
            ));
        }
    }
    Ok(if failed { EXIT_ERROR } else { EXIT_OK })
}

fn normalize(s: &str) -> String {
    s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// The path of a hook's group (`hooks.PreToolUse[0]`).
fn group_path(group: &HookGroup) -> String {
    let path = group.hooks.first().map_or("", |h| h.path.as_str());
    path.rsplit_once(".hooks[").map_or(path, |(g, _)| g).to_owned()
}

/// Likely mistakes in what a config keeps (the entries its dialect skipped
/// are [`HooksConfig::warnings`], errors for `check`).
pub fn warnings(config: &HooksConfig, workspace: &Path) -> Vec<Found> {
    let mut w: Vec<Found> = Vec::new();
    for named in config.named_events() {
        let d = named.groups.first().map_or(config.dialect(), HookGroup::dialect);
        if d.profile().named(&named.name).is_some() || d.native_event_keys().contains(&named.name.as_str()) {
            // An event of the agent's own without a canonical meaning
            // (Claude Code's TaskCreated, Codex's PostCompact, Gemini CLI's
            // BeforeModel, Cursor's beforeReadFile): a host fires it by name.
            continue;
        }
        let other = dialect::ALL.iter().find(|o| {
            !dialect::same(**o, d)
                && (o.native_event_keys().contains(&named.name.as_str())
                    || HookEvent::ALL.iter().any(|e| o.event_keys(*e).contains(&named.name.as_str())))
        });
        let hint = match (dialect::suggest_event_key(d, &named.name), other) {
            (Some(k), _) => format!("; did you mean `{k}`?"),
            (None, Some(o)) => {
                format!("; it is a {} event: if this is a {} file, pass --dialect {}", o.title(), o.title(), o.name())
            }
            (None, None) => "; it runs only when a host fires it by name".to_owned(),
        };
        w.push(Found::never_runs(format!(
            "hooks.{}: unknown event key `{}`: {} fires no event of that name, so these hooks never run{hint}",
            named.name,
            named.name,
            d.title()
        )));
    }
    let known = HookEvent::ALL.iter().map(|e| (Some(*e), config.groups(*e)));
    let named = config.named_events().iter().map(|n| (None, n.groups.as_slice()));
    for (event, groups) in known.chain(named) {
        for group in groups {
            if group.hooks.first().is_some_and(|h| h.native_event.is_some()) {
                // Listed again under its own (named) event.
                continue;
            }
            let path = group_path(group);
            let d = group.dialect();
            if let (Some(e), Some(m)) = (event, group.matcher_raw.as_deref()) {
                if e.is_tool_event() {
                    w.extend(matcher_warnings(&path, d, &group.matcher, m).into_iter().map(Found::warning));
                }
            }
            for hook in &group.hooks {
                if let (Some(rule), Some(e)) = (&hook.if_rule, event) {
                    if !e.is_tool_event() {
                        w.push(Found::warning(format!(
                            "{}: `if` {:?} on {} never holds: `if` conditions test tool calls, so this hook never runs",
                            hook.path,
                            rule.raw(),
                            e.name()
                        )));
                    }
                }
                if let Some(msg) = unit_mistake(hook, d) {
                    w.push(Found::never_runs(format!("{}: {msg}", hook.path)));
                }
                if let Some(c) = hook.command_text() {
                    // Where the hook runs (Cursor: a user's hooks in ~/.cursor;
                    // Copilot CLI, VS Code: the launch's cwd, relative to it).
                    let base = hook.source.cwd.as_deref().unwrap_or(workspace);
                    let launch = hook.handler.launch().cloned().unwrap_or_default();
                    let dir = launch.cwd.as_ref().map_or_else(|| base.to_owned(), |d| base.join(d));
                    let first = match launch.argv.as_deref() {
                        // A program started directly: its first word is the program.
                        Some([program, ..]) if !launch.make_script_executable => {
                            command_warning(&shell_quote(program), &dir, true)
                        }
                        _ => command_warning(c, &dir, !launch.make_script_executable),
                    };
                    if let Some((never_runs, msg)) = &first {
                        w.push(Found { never_runs: *never_runs, text: format!("{}: {msg}", hook.path) });
                    }
                    let first = first.map(|(_, m)| m);
                    if !hook.trusted() {
                        for word in unpinned_words(hook, workspace) {
                            w.push(Found::warning(format!(
                                "{}: command `{c}`: {word} names a script whose path cannot be resolved from \
                                 the command, so the approval cannot pin its bytes (name it by a path, relative or \
                                 through {}'s variables: {})",
                                hook.path,
                                d.title(),
                                variables_of(d)
                            )));
                        }
                        for p in missing_scripts(hook, &dir) {
                            let shown = p.display().to_string();
                            if !first.as_deref().is_some_and(|m| m.contains(&shown)) {
                                w.push(Found::never_runs(format!(
                                    "{}: command `{c}` references {shown}, which does not exist, so the hook fails \
                                     every time and the approval cannot pin it (fix: create the script or correct \
                                     the path)",
                                    hook.path
                                )));
                            }
                        }
                    }
                    if let Some(msg) = foreign_variable(c, d) {
                        w.push(Found::warning(format!("{}: {msg}", hook.path)));
                    }
                }
            }
        }
    }
    // A group configured for two canonical events (Gemini CLI's AfterTool)
    // is warned about once.
    let mut seen = std::collections::HashSet::new();
    w.retain(|x| seen.insert(x.text.clone()));
    w
}

/// A timeout that is almost certainly a unit mistake: under 100 in a
/// dialect that counts milliseconds (Gemini CLI's `"timeout": 5` is 5 ms:
/// every run times out and the action proceeds).
fn unit_mistake(hook: &HookSpec, d: &dyn Dialect) -> Option<String> {
    use hookline::model::rules::TimeoutUnit;
    let t = hook.timeout_seconds?;
    (d.profile().timeout_unit == TimeoutUnit::Milliseconds && t < 100).then(|| {
        format!(
            "\"timeout\": {t} is {t} milliseconds in {}, which counts timeouts in milliseconds: the hook is \
             killed before it can answer and the action proceeds (fix: \"timeout\": {} for {t} seconds)",
            d.title(),
            t * 1000
        )
    })
}

/// A variable another dialect's hooks get but `dialect`'s do not
/// (`$CLAUDE_PROJECT_DIR` in a Codex hook): at run time it is unset.
fn foreign_variable(cmd: &str, dialect: &dyn Dialect) -> Option<String> {
    let own = dialect.environment_names();
    let name = dialect::ALL
        .iter()
        .flat_map(|d| d.environment_names())
        .filter(|n| !own.contains(n))
        .find(|n| cmd.contains(&format!("${n}")) || cmd.contains(&format!("${{{n}}}")))?;
    Some(format!(
        "command `{cmd}` uses ${name}, which {} hooks do not get (it is unset when the hook runs; \
         $HOOKLINE_PROJECT_DIR is the workspace in every dialect)",
        dialect.title()
    ))
}

/// `Name(...)`: Claude permission-rule syntax.
fn is_permission_rule(m: &str) -> Option<&str> {
    let m = m.trim();
    let open = m.find('(')?;
    let name = &m[..open];
    let ok = !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && m.ends_with(')');
    ok.then_some(name)
}

fn matcher_warnings(path: &str, dialect: &dyn Dialect, m: &Matcher, raw: &str) -> Vec<String> {
    if let Some(tool) = is_permission_rule(raw) {
        return vec![format!(
            "{path}.matcher {raw:?} is Claude permission-rule syntax, but a matcher only tests the tool \
             name; use \"matcher\": {tool:?} and put \"if\": {raw:?} on the hook"
        )];
    }
    // MCP tool names are open-ended (`mcp__server__tool`, Gemini CLI's
    // `mcp_server_tool`, `server/tool`, Cursor's `MCP:tool`).
    if m.is_all() || raw.contains("mcp_") || raw.contains("MCP:") || raw.contains('/') {
        return Vec::new();
    }
    let known = || dialect.tool_names().iter();
    if known().any(|t| m.matches(t)) {
        return Vec::new();
    }
    let mut hint = String::new();
    let subjects: Vec<String> = match m {
        Matcher::Names(n) => n.clone(),
        _ => vec![raw.trim().to_owned()],
    };
    for s in subjects {
        if let Some(t) = known().find(|t| normalize(t) == normalize(&s)) {
            hint = format!(" (matching is case-sensitive: did you mean {t:?}?)");
            break;
        }
    }
    vec![format!("{path}.matcher {raw:?} can never match a known tool name ({} rule){hint}", dialect.title())]
}

/// Split a command into its first words (quotes removed), stopping at shell
/// operators. `None` when the command is too dynamic to judge.
fn first_words(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    cur.push(d);
                }
            }
            '"' => {
                in_word = true;
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' => {
                            if let Some(e) = chars.next() {
                                cur.push(e);
                            }
                        }
                        '`' => return None,
                        _ => cur.push(d),
                    }
                }
            }
            '`' => return None,
            ';' | '|' | '&' | '<' | '>' | '\n' => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                    if words.len() >= 8 {
                        return Some(words);
                    }
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Some(words)
}

/// Expand the variables a hook command may use for its paths.
fn expand(word: &str, workspace: &Path) -> Option<String> {
    let ws = workspace.display().to_string();
    let home = hookline::paths::home_dir().map(|h| h.display().to_string()).unwrap_or_default();
    let mut s = word.to_owned();
    for var in [
        "CLAUDE_PROJECT_DIR",
        "HOOKLINE_PROJECT_DIR",
        "VT_PROJECT_DIR",
        "CURSOR_PROJECT_DIR",
        "COPILOT_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "GEMINI_CWD",
    ] {
        s = s.replace(&format!("${{{var}}}"), &ws).replace(&format!("${var}"), &ws);
    }
    if !home.is_empty() {
        s = s.replace("${HOME}", &home).replace("$HOME", &home);
        if s == "~" || s.starts_with("~/") {
            s = format!("{home}{}", &s[1..]);
        }
    }
    (!s.contains('$') && !s.contains('*') && !s.contains('?')).then_some(s)
}

/// The script paths a gated hook's command names that hold no file, as the
/// approval gate's resolver finds them.
fn missing_scripts(hook: &HookSpec, workspace: &Path) -> Vec<PathBuf> {
    let ws = workspace.to_owned();
    let home = hookline::paths::home_dir();
    let ctx = PinCtx { workspace: ws, home };
    references_of(hook, &ctx)
        .into_iter()
        .filter(|r| r.role == Role::Program || is_script_name(&r.word))
        .filter(|r| std::fs::symlink_metadata(&r.path).is_err())
        .map(|r| r.path)
        .collect()
}

/// The words of a gated hook's command that name a script the approval
/// gate cannot resolve.
fn unpinned_words(hook: &HookSpec, workspace: &Path) -> Vec<String> {
    let home = hookline::paths::home_dir();
    resolution_of(hook, &PinCtx { workspace: workspace.to_owned(), home }).unpinned
}

/// The variables a dialect's commands may name their scripts by.
fn variables_of(d: &dyn Dialect) -> String {
    std::iter::once("HOOKLINE_PROJECT_DIR")
        .chain(d.placeholders().iter().map(|p| p.name))
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A file name with the extension of a script (what an interpreter runs).
fn is_script_name(word: &str) -> bool {
    const EXTENSIONS: &[&str] =
        &["sh", "bash", "zsh", "fish", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "lua", "ps1"];
    word.rsplit_once('.').is_some_and(|(_, ext)| EXTENSIONS.contains(&ext))
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join(name);
            f.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// A word quoted for `first_words` (single quotes).
fn shell_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// A likely mistake in a command run in `workspace`; `needs_exec_bit`:
/// whether a script without execute permission fails (some dialects make
/// it executable before they start it).
fn command_warning(cmd: &str, workspace: &Path, needs_exec_bit: bool) -> Option<(bool, String)> {
    let words = first_words(cmd)?;
    let mut it = words.iter().skip_while(|w| {
        w.find('=').is_some_and(|i| i > 0 && w[..i].chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    });
    let mut prog = it.next()?.as_str();
    if prog == "exec" || prog == "env" {
        prog = it.next()?.as_str();
    }
    if SHELL_WORDS.contains(&prog) {
        return None;
    }
    let resolve = |w: &str| -> Option<PathBuf> {
        let e = expand(w, workspace)?;
        let p = PathBuf::from(&e);
        Some(if p.is_absolute() { p } else { workspace.join(p.strip_prefix("./").unwrap_or(&p)) })
    };
    let base = prog.rsplit('/').next().unwrap_or(prog);
    if INTERPRETERS.contains(&base) {
        // The script the interpreter runs (the first non-option word).
        let script = it.find(|w| !w.starts_with('-'))?;
        if !script.contains('/') && !script.contains('.') {
            return None;
        }
        let p = resolve(script)?;
        return match p.metadata() {
            Ok(m) if m.is_file() => None,
            Ok(_) => Some((true, format!("command `{cmd}`: {} is not a file (fix: name the script)", p.display()))),
            Err(_) => Some((
                true,
                format!(
                    "command `{cmd}`: script {} does not exist, so the hook fails every time (fix: create it or \
                     correct the path)",
                    p.display()
                ),
            )),
        };
    }
    if prog.contains('/') || prog.starts_with('~') || prog.starts_with('$') {
        let p = resolve(prog)?;
        return match p.metadata() {
            Err(_) => Some((
                true,
                format!(
                    "command `{cmd}`: {} does not exist, so the hook fails every time (exit 127) (fix: create it \
                     or correct the path)",
                    p.display()
                ),
            )),
            Ok(m) if !m.is_file() => {
                Some((true, format!("command `{cmd}`: {} is not a file (fix: name the program)", p.display())))
            }
            Ok(m) if needs_exec_bit && m.permissions().mode() & 0o111 == 0 => Some((
                true,
                format!(
                    "command `{cmd}`: {} is not executable, so the hook fails every time (exit 126) (fix: chmod +x \
                     it, or run it with its interpreter)",
                    p.display()
                ),
            )),
            Ok(_) => None,
        };
    }
    if !on_path(prog) {
        return Some((false, format!("command `{cmd}`: `{prog}` is not found on PATH")));
    }
    None
}
