//! `hookline digest` and `hookline trust list|approve|diff|revoke`: the
//! workspace approval gate from the command line, on the same trust store
//! the library uses (`--store`, else `$HOOKLINE_TRUST_STORE`, else
//! `$XDG_CONFIG_HOME/hookline/trust.json`, else
//! `~/.config/hookline/trust.json`; on Windows
//! `%APPDATA%\hookline\trust.json`).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use hookline::gate::PinChange;
use hookline::trust::{TrustRecord, TrustStore};
use hookline::LifecycleHookEngine;
use serde_json::{json, Value};

use crate::common::{self, CliResult, EngineSetup, Out, EXIT_ERROR, EXIT_OK};
use crate::explain::ExplainFormat;

#[derive(Args)]
pub struct DigestArgs {
    /// Hooks configs (default: the workspace's hooks files that exist:
    /// vtcode.toml, .claude/settings.json, .claude/settings.local.json,
    /// .codex/hooks.json, .codex/config.toml, .gemini/settings.json,
    /// .cursor/hooks.json, .github/hooks/*.json,
    /// .github/copilot/settings*.json).
    #[arg(long = "config", short = 'c', value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// Read every --config file in this dialect (vtcode, claude, codex,
    /// gemini, cursor, copilot, vscode, windsurf, qwen, cline, kiro).
    #[arg(long, value_name = "NAME", value_parser = common::parse_dialect)]
    pub dialect: Option<common::DialectArg>,
    /// The workspace (default: the current directory).
    #[arg(long, short, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

#[derive(Subcommand)]
pub enum TrustCommand {
    /// List the persisted approvals.
    #[command(
        after_help = "Examples:\n  hookline trust list\n  hookline trust list --store ./trust.json --format json"
    )]
    List(ListArgs),
    /// Approve the workspace's current commands (shows them first) and persist it.
    #[command(after_help = "Examples:\n  hookline trust approve --workspace ~/src/project\n  \
hookline trust approve --config .claude/settings.json --store ./trust.json")]
    Approve(ApproveArgs),
    /// Show which pinned files changed since the workspace was approved
    /// (exit 1 when something did).
    #[command(after_help = "Examples:\n  hookline trust diff\n  \
hookline trust diff --config .claude/settings.json --store ./trust.json --format json")]
    Diff(DiffArgs),
    /// Remove the workspace's approval.
    #[command(after_help = "Example:\n  hookline trust revoke --workspace ~/src/project")]
    Revoke(RevokeArgs),
}

#[derive(Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub digest: DigestArgs,
    #[command(flatten)]
    pub store: StoreArg,
}

#[derive(Args)]
pub struct StoreArg {
    /// The trust store file (default: $HOOKLINE_TRUST_STORE, else
    /// $XDG_CONFIG_HOME/hookline/trust.json, else ~/.config/hookline/trust.json;
    /// on Windows %APPDATA%\hookline\trust.json).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
}

#[derive(Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub store: StoreArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: ExplainFormat,
}

#[derive(Args)]
pub struct ApproveArgs {
    #[command(flatten)]
    pub digest: DigestArgs,
    #[command(flatten)]
    pub store: StoreArg,
}

#[derive(Args)]
pub struct RevokeArgs {
    /// The workspace (default: the current directory); it need not exist any more.
    #[arg(long, short, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    #[command(flatten)]
    pub store: StoreArg,
}

fn store_of(a: &StoreArg) -> Result<TrustStore, String> {
    TrustStore::resolve(a.store.as_deref()).ok_or_else(|| {
        "no trust store: pass --store FILE, or set HOOKLINE_TRUST_STORE, XDG_CONFIG_HOME or HOME".to_owned()
    })
}

/// The `--config` files, else the workspace's own configs.
fn configs_of(a: &DigestArgs) -> Result<Vec<PathBuf>, String> {
    if !a.configs.is_empty() {
        return Ok(a.configs.clone());
    }
    let ws = common::workspace_or_cwd(a.workspace.as_deref())?;
    // The configs a workspace holds, in the dialects' order: the ones that
    // exist are loaded as the engine's sources.
    let files = hookline::dialect::workspace_files();
    let found: Vec<PathBuf> = hookline::dialect::workspace_configs(&ws);
    if found.is_empty() {
        return Err(format!(
            "no hooks config found in {} (looked for {}); pass --config FILE",
            ws.display(),
            files.join(", ")
        ));
    }
    Ok(found)
}

fn engine_of(a: &DigestArgs, store: Option<&Path>, gated: bool) -> Result<LifecycleHookEngine, String> {
    let configs = common::load_configs(&configs_of(a)?, a.dialect)?;
    common::build_engine(EngineSetup {
        workspace: a.workspace.as_deref(),
        source: configs.source,
        gated,
        trust_store: store,
        session_id: None,
        input: None,
    })
}

fn print_previews(out: &Out, engine: &LifecycleHookEngine) {
    out.line(&format!("digest {}", engine.command_digest()));
    for p in engine.command_previews() {
        let m = p.matcher.as_deref().map(|m| format!(" [{m}]")).unwrap_or_default();
        let t = match (p.timeout_seconds, p.timeout_ms) {
            (Some(t), _) => format!(" (timeout {t}s)"),
            (None, Some(t)) => format!(" (timeout {t} ms)"),
            (None, None) => String::new(),
        };
        let d = p.dialect.map(|d| format!("{d} ")).unwrap_or_default();
        out.line(&format!("  {d}{}{m}: {}{t}", p.event, p.command));
        for pin in &p.pins {
            out.line(&format!("      pin {}  sha256 {}", pin.path.display(), pin.sha256));
        }
        for word in &p.unpinned {
            out.line(&format!("      {}", unpinned_words(word)));
        }
    }
}

/// The line of a script word the gate cannot resolve.
fn unpinned_words(word: &str) -> String {
    format!(
        "unpinned {word}: the script path cannot be resolved from the command, so its bytes are not \
         pinned (name it by a path, relative or through the dialect's variables)"
    )
}

/// The unpinned words of every preview, as `trust diff` lists them.
fn unpinned_of(engine: &LifecycleHookEngine) -> Vec<Value> {
    engine
        .command_previews()
        .into_iter()
        .filter(|p| !p.unpinned.is_empty())
        .map(|p| json!({"event": p.event, "command": p.command, "unpinned": p.unpinned}))
        .collect()
}

/// A record as `trust list --format json` shows it.
fn record_json(r: &TrustRecord) -> Value {
    let files = r.files.as_ref();
    json!({
        "workspace": r.workspace,
        "digest": r.digest,
        "approved_at": r.approved_at,
        "pins": files.map(|_| r.pins().into_iter().map(|(named, p)| json!({"path": p.path, "sha256": p.sha256, "named": named})).collect::<Vec<_>>()),
        "missing": files.map(|f| f.missing()),
    })
}

/// One line per changed file: what was approved and what is there now.
fn change_lines(c: &PinChange) -> Vec<String> {
    let named = c.named.display();
    match (&c.approved, &c.now) {
        (Some(old), Some(new)) if old.path != new.path => vec![
            format!("swapped   {named} now resolves to {}", new.path.display()),
            format!("          approved {}  sha256 {}", old.path.display(), old.sha256),
            format!("          now      {}  sha256 {}", new.path.display(), new.sha256),
        ],
        (Some(old), Some(new)) => vec![
            format!("changed   {}", new.path.display()),
            format!("          approved sha256 {}", old.sha256),
            format!("          now      sha256 {}", new.sha256),
        ],
        (Some(old), None) => vec![
            format!("deleted   {named} (no regular file there now)"),
            format!("          approved {}  sha256 {}", old.path.display(), old.sha256),
        ],
        (None, Some(new)) if c.covered => vec![
            format!("new       {} (no file was there when approved)", new.path.display()),
            format!("          now      sha256 {}", new.sha256),
        ],
        (None, Some(new)) => vec![
            format!("unpinned  {} (the approval records no hash for it)", new.path.display()),
            format!("          now      sha256 {}", new.sha256),
        ],
        (None, None) => vec![format!("unpinned  {named} (the approval does not cover it; no file there now)")],
    }
}

fn diff_main(out: &Out, a: DiffArgs) -> CliResult {
    let store = store_of(&a.store)?;
    let engine = engine_of(&a.digest, Some(store.path()), true)?;
    let ws = common::workspace_or_cwd(a.digest.workspace.as_deref())?;
    let ws = std::fs::canonicalize(&ws).unwrap_or(ws);
    let Some(approval) = store.approval(&ws) else {
        return Err(format!("{} has no approval in {}: nothing to compare with", ws.display(), store.path().display()));
    };
    let digest = engine.command_digest();
    let changes = engine.pin_changes_against(&approval.files);
    let same_commands = approval.digest == digest;
    let differs = !same_commands || !changes.is_empty();
    if a.digest.format == ExplainFormat::Json {
        let doc = json!({
            "workspace": ws,
            "store": store.path(),
            "approved_digest": approval.digest,
            "digest": digest,
            "commands_changed": !same_commands,
            "pins_recorded": !approval.files.legacy,
            "changes": changes,
            "unpinned": unpinned_of(&engine),
        });
        out.line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
        return Ok(if differs { EXIT_ERROR } else { EXIT_OK });
    }
    if !same_commands {
        out.line(&format!(
            "the commands changed since the approval (approved digest {}, now {digest})",
            approval.digest
        ));
    }
    if approval.files.legacy {
        out.line("the approval was recorded without pins (an earlier version): every pinned file needs approval");
    }
    for c in &changes {
        for l in change_lines(c) {
            out.line(&l);
        }
    }
    for p in engine.command_previews().iter().filter(|p| !p.unpinned.is_empty()) {
        for word in &p.unpinned {
            out.line(&format!("{}  (in {}: {})", unpinned_words(word), p.event, p.command));
        }
    }
    if !differs && !out.quiet {
        out.line(&format!("{}: nothing changed since the approval in {}", ws.display(), store.path().display()));
    }
    Ok(if differs { EXIT_ERROR } else { EXIT_OK })
}

pub fn digest_main(out: &Out, a: DigestArgs) -> CliResult {
    // Gated, so that the previews carry the files the commands execute.
    let engine = engine_of(&a, None, true)?;
    if a.format == ExplainFormat::Json {
        let doc = json!({"digest": engine.command_digest(), "previews": engine.command_previews()});
        out.line(&serde_json::to_string_pretty(&doc).unwrap_or_default());
    } else if out.quiet {
        out.line(&engine.command_digest());
    } else {
        print_previews(out, &engine);
    }
    Ok(EXIT_OK)
}

pub fn main(out: &Out, c: TrustCommand) -> CliResult {
    match c {
        TrustCommand::List(a) => {
            let store = store_of(&a.store)?;
            let records = store.list().map_err(|e| e.message)?;
            if a.format == ExplainFormat::Json {
                let list: Vec<_> = records.iter().map(record_json).collect();
                out.line(
                    &serde_json::to_string_pretty(&json!({"store": store.path(), "approvals": list}))
                        .unwrap_or_default(),
                );
                return Ok(EXIT_OK);
            }
            if !out.quiet {
                out.line(&format!("trust store {}: {} approval(s)", store.path().display(), records.len()));
            }
            for r in records {
                out.line(&format!(
                    "{}  {}  {}",
                    r.workspace,
                    r.digest.as_deref().unwrap_or("(no digest)"),
                    r.approved_at.as_deref().unwrap_or("-")
                ));
                match &r.files {
                    None => out.line("    (no pins: approved by an earlier version; pinned commands need approval)"),
                    Some(files) => {
                        for (named, pin) in r.pins() {
                            let via =
                                if named != pin.path { format!(" (named {})", named.display()) } else { String::new() };
                            out.line(&format!("    pin {}  sha256 {}{via}", pin.path.display(), pin.sha256));
                        }
                        for m in files.missing() {
                            out.line(&format!("    missing {}", m.display()));
                        }
                    }
                }
            }
            Ok(EXIT_OK)
        }
        TrustCommand::Diff(a) => diff_main(out, a),
        TrustCommand::Approve(a) => {
            let store = store_of(&a.store)?;
            let engine = engine_of(&a.digest, Some(store.path()), true)?;
            if !out.quiet {
                out.line("approving these commands:");
                print_previews(out, &engine);
            }
            engine.approve_workspace_hooks(true).map_err(|e| e.message)?;
            if !out.quiet {
                let ws = common::workspace_or_cwd(a.digest.workspace.as_deref())?;
                let ws = std::fs::canonicalize(&ws).unwrap_or(ws);
                out.line(&format!("approved {} in {}", ws.display(), store.path().display()));
            }
            Ok(EXIT_OK)
        }
        TrustCommand::Revoke(a) => {
            let store = store_of(&a.store)?;
            let ws = common::workspace_or_cwd(a.workspace.as_deref())?;
            let ws = std::fs::canonicalize(&ws).or_else(|_| std::path::absolute(&ws)).unwrap_or(ws);
            let removed = store.revoke(&ws).map_err(|e| e.message)?;
            if !out.quiet {
                if removed {
                    out.line(&format!("revoked the approval of {} in {}", ws.display(), store.path().display()));
                } else {
                    out.line(&format!("{} had no approval in {}", ws.display(), store.path().display()));
                }
            }
            Ok(EXIT_OK)
        }
    }
}
