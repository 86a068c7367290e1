//! Dialects: the hooks formats of the agents hookline speaks, each one value
//! behind one interface ([`Dialect`]).
//!
//! A dialect is to hookline what a format is to serde: the engine works on
//! the canonical model ([`crate::model`]) and never asks which dialect it is
//! serving; each dialect knows how *its* users write hooks and how *its*
//! agent reads them:
//!
//! - its config files and their shapes, and what it rejects or skips
//!   ([`Dialect::read_json`], [`Dialect::read_toml`], [`Dialect::recognises_path`]);
//! - its event names ([`Dialect::event_keys`]);
//! - what each event's matcher is tested against ([`Dialect::match_subject`]);
//! - its agent's names and input shapes of the canonical tools
//!   ([`Dialect::tool_vocabulary`], [`tools`]);
//! - the payload a hook reads and the variables of its environment
//!   ([`Dialect::payload`], [`Dialect::environment`]);
//! - how one hook's result reads ([`Dialect::read_reply`]), and its rule
//!   table ([`Dialect::profile`]) for the canonical merge.
//!
//! | dialect | module | files |
//! |---|---|---|
//! | `vtcode` | [`vtcode`] | `vtcode.toml` `[hooks.lifecycle]`, `{"lifecycle": …}` JSON |
//! | `claude` | [`claude`] | `.claude/settings*.json`, a plugin's `hooks/hooks.json` |
//! | `codex` | [`codex`] | `.codex/hooks.json`, the `[hooks]` of `.codex/config.toml` |
//! | `gemini` | [`gemini`] | `.gemini/settings.json` (user, workspace, system), an extension's `hooks/hooks.json` |
//! | `cursor` | [`cursor`] | `.cursor/hooks.json` (project and user), the enterprise `hooks.json` |
//! | `copilot` | [`copilot`] | `.github/hooks/*.json`, Copilot's `settings*.json` (and `.claude/settings.json` by the option) |
//! | `vscode` | [`vscode`] | by the `dialect` option only (VS Code reads the files of the others) |
//! | `windsurf` | [`windsurf`] | `.devin/hooks.json`, `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`, `~/.codeium/hooks.json`, the system `hooks.json` |
//! | `qwen` | [`qwen`] | `.qwen/settings*.json` (user, project, local), the system files |
//! | `kiro` | [`kiro`] | `.kiro/hooks/*.json` (one source per file; also `~/.kiro/hooks/*.json`) |
//! | `devin-cli` | [`devin`] | `.devin/hooks.v1.json` (no wrapper), `.devin/config*.json`, `~/.config/devin/config.json` |
//! | `factory` | [`factory`] | `.factory/hooks.json` (no wrapper), `.factory/settings*.json`, `~/.factory/…` |
//! | `crush` | [`crush`] | `crush.json`, `.crush.json`, `.crush/crush.json`, `~/.config/crush/crush.json`, `~/.local/share/crush/crush.json`, `/etc/crush/crush.json` |
//! | `openhands` | [`openhands`] | `.openhands/hooks.json`, else `~/.openhands/hooks.json` (the first found only) |
//! | `goose` | [`goose`] | a plugin's `hooks/hooks.json` in `.agents/plugins/<plugin>/` (project, then `~/.agents/plugins`) |
//! | `augment` | [`augment`] | `.augment/settings*.json`, `~/.augment/settings.json`, `/etc/augment/settings.json` (policy) |
//!
//! Selection ([`select`]): the `dialect` option (or `hook_sources[i].dialect`)
//! names one; without it a `hooks_file` is recognised by its path, and
//! anything else by its shape (a `lifecycle` key is VT Code, anything else
//! Claude Code).
//!
//! The VT Code and Claude Code dialects share the Claude Code hooks protocol
//! (JSON on stdin, exit codes and JSON on stdout); its reader is
//! [`protocol`], parameterised by each dialect's table. Codex speaks a
//! stricter variant of it and has its own reader ([`codex`]); Gemini CLI's
//! hooks read differently (JSON honoured on any exit code, plain text that
//! denies, milliseconds) and have their own reader ([`gemini`]); Cursor's
//! hooks answer in flat snake_case JSON and have their own reader
//! ([`cursor`]).

pub mod augment;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod devin;
pub mod factory;
pub mod gemini;
pub mod goose;
pub mod kiro;
mod load;
pub mod matcher;
pub mod openhands;
pub mod protocol;
pub mod qwen;
mod resolve;
pub mod tools;
pub mod vscode;
pub mod vtcode;
pub mod windsurf;

use std::path::Path;

use crate::error::{Error, Result};

mod discover;
mod interface;

pub use discover::*;
pub use interface::*;
pub use resolve::of;

/// Every dialect hookline implements, in the order names are listed.
/// Recognition by path ([`for_path`]) asks them in the reverse order: a
/// later dialect's file names are more specific (VT Code's `*.toml` is the
/// fallback for `.toml` files no other dialect claims; Copilot CLI's
/// `.github/hooks/hooks.json` is not a Claude Code plugin's `hooks/hooks.json`,
/// and a Gemini CLI extension's `hooks/hooks.json` is a Claude Code plugin's
/// file name too).
pub static ALL: &[&dyn Dialect] = &[
    &vtcode::VTCODE,
    &claude::CLAUDE,
    &codex::CODEX,
    &gemini::GEMINI,
    &cursor::CURSOR,
    &copilot::COPILOT,
    &vscode::VSCODE,
    &cline::CLINE,
    &windsurf::WINDSURF,
    &qwen::QWEN,
    &kiro::KIRO,
    &devin::DEVIN_CLI,
    &factory::FACTORY,
    &crush::CRUSH,
    &openhands::OPENHANDS,
    &goose::GOOSE,
    &augment::AUGMENT,
];

/// A path's file name and the name of the folder it is in (`""` where
/// there is none or it is not UTF-8): what most dialects recognise their
/// files by (`.devin/hooks.v1.json`).
pub(crate) fn file_and_dir_names(path: &Path) -> (&str, &str) {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let dir = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).unwrap_or("");
    (name, dir)
}

/// The VT Code dialect.
pub static VTCODE: &dyn Dialect = &vtcode::VTCODE;

/// The Claude Code dialect.
pub static CLAUDE: &dyn Dialect = &claude::CLAUDE;

/// The OpenAI Codex dialect.
pub static CODEX: &dyn Dialect = &codex::CODEX;

/// The Cursor dialect.
pub static CURSOR: &dyn Dialect = &cursor::CURSOR;

/// The GitHub Copilot CLI dialect.
pub static COPILOT: &dyn Dialect = &copilot::COPILOT;

/// The VS Code agent hooks dialect.
pub static VSCODE: &dyn Dialect = &vscode::VSCODE;

/// The Gemini CLI dialect.
pub static GEMINI: &dyn Dialect = &gemini::GEMINI;

/// The Cline dialect.
pub static CLINE: &dyn Dialect = &cline::CLINE;
/// The Qwen Code dialect.
pub static QWEN: &dyn Dialect = &qwen::QWEN;

/// The Devin CLI dialect.
pub static DEVIN_CLI: &dyn Dialect = &devin::DEVIN_CLI;

/// The Factory Droid dialect.
pub static FACTORY: &dyn Dialect = &factory::FACTORY;

/// The goose (Open Plugins) dialect.
pub static GOOSE: &dyn Dialect = &goose::GOOSE;
/// The Augment (Auggie CLI) dialect.
pub static AUGMENT: &dyn Dialect = &augment::AUGMENT;

/// The Windsurf / Devin Desktop (Cascade) dialect.
pub static WINDSURF: &dyn Dialect = &windsurf::WINDSURF;

/// The Kiro dialect (v1 hook files).
pub static KIRO: &dyn Dialect = &kiro::KIRO;

/// The Crush dialect.
pub static CRUSH: &dyn Dialect = &crush::CRUSH;

/// Two dialect values are the same dialect.
pub fn same(a: &dyn Dialect, b: &dyn Dialect) -> bool {
    a.name() == b.name()
}

/// A dialect's position in [`ALL`] (for per-dialect caches).
pub fn index_of(d: &dyn Dialect) -> usize {
    ALL.iter().position(|x| same(*x, d)).unwrap_or(0)
}

/// The dialect of a name; `InvalidArgument` listing the valid names otherwise.
pub fn by_name(name: &str) -> Result<&'static dyn Dialect> {
    ALL.iter().copied().find(|d| d.name() == name).ok_or_else(|| {
        Error::invalid_argument(format!("unknown dialect {name:?}: the dialects are {}", names().join(", ")))
    })
}

/// The names of every dialect.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|d| d.name()).collect()
}

#[cfg(test)]
mod tests;
