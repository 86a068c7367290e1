//! `hookline digest` and `hookline trust list|approve|revoke`: the workspace
//! approval gate from the command line, on the same trust store the library
//! uses (`--store`, else `$HOOKLINE_TRUST_STORE`, else
//! `$XDG_CONFIG_HOME/hookline/trust.json`, else
//! `~/.config/hookline/trust.json`).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use hookline::trust::TrustStore;
use hookline::LifecycleHookEngine;
use serde_json::json;

use crate::common::{self, CliResult, EngineSetup, Out, EXIT_OK};
use crate::explain::ExplainFormat;

#[derive(Args)]
pub struct DigestArgs {
    /// Hooks configs (default: the workspace's .claude/settings.json,
    /// .claude/settings.local.json, .codex/hooks.json, .codex/config.toml,
    /// .cursor/hooks.json and vtcode.toml that exist).
    #[arg(long = "config", short = 'c', value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// Read every --config file in this dialect (vtcode, claude, codex, cursor).
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
    /// Remove the workspace's approval.
    #[command(after_help = "Example:\n  hookline trust revoke --workspace ~/src/project")]
    Revoke(RevokeArgs),
}

#[derive(Args)]
pub struct StoreArg {
    /// The trust store file (default: $HOOKLINE_TRUST_STORE, else
    /// $XDG_CONFIG_HOME/hookline/trust.json, else ~/.config/hookline/trust.json).
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
    let found: Vec<PathBuf> = files.iter().map(|c| ws.join(c)).filter(|p| p.is_file()).collect();
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
        let t = p.timeout_seconds.map(|t| format!(" (timeout {t}s)")).unwrap_or_default();
        let d = p.dialect.map(|d| format!("{d} ")).unwrap_or_default();
        out.line(&format!("  {d}{}{m}: {}{t}", p.event, p.command));
    }
}

pub fn digest_main(out: &Out, a: DigestArgs) -> CliResult {
    let engine = engine_of(&a, None, false)?;
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
                let list: Vec<_> = records
                    .iter()
                    .map(|r| json!({"workspace": r.workspace, "digest": r.digest, "approved_at": r.approved_at}))
                    .collect();
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
            }
            Ok(EXIT_OK)
        }
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
