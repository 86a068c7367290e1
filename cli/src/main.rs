//! `hookline`: run, check, explain and test hook configurations, and manage
//! workspace trust, with the same engine hosts link (see `docs/cli.md`).
//!
//! Exit statuses: 0 proceed / success, 2 denied or blocked (`run`), 1 error
//! (bad config, bad input, failed check or test case).

mod cases;
mod check;
mod common;
mod explain;
mod run;
mod trace;
mod trust;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::common::{Out, EXIT_ERROR};

#[derive(Parser)]
#[command(
    name = "hookline",
    version,
    about = "Run, check, explain and test lifecycle-hook configs (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI, VS Code, Windsurf, Qwen Code, Cline, Kiro, OpenHands, VT Code)",
    long_about = "Run, check, explain and test lifecycle-hook configurations of the Claude Code \
settings dialect, the OpenAI Codex dialect (.codex/hooks.json, config.toml [hooks]), the Gemini CLI \
settings dialect (.gemini/settings.json), the Cursor dialect (.cursor/hooks.json), GitHub Copilot \
CLI hooks files (.github/hooks/*.json), VS Code agent hooks (--dialect vscode), Windsurf / Devin \
Desktop Cascade hooks (.devin/hooks.json, .windsurf/hooks.json), Qwen Code settings (.qwen/settings.json), Cline hooks folders \
(.clinerules/hooks, .cline/hooks, ~/Documents/Cline/Hooks), Kiro hook files (.kiro/hooks/*.json), OpenHands .openhands/hooks.json, Augment settings (.augment/settings.json) and the VT Code dialect with the hookline engine, and manage workspace trust.\n\n\
Exit status: 0 proceed or success, 2 denied or blocked (run), 1 error.",
    after_help = "Examples:\n  hookline check .claude/settings.json\n  \
echo '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}' |\n    \
hookline run PreToolUse --config .claude/settings.json --input -\n  \
hookline test hooks-cases.json"
)]
struct Cli {
    /// Print less: only errors, failures and what a caller needs.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

/// A command line clap cannot read: `--help` and `--version` exit 0; a usage
/// error exits 1 like every other error (2 means "denied or blocked" for
/// `run`), except for `run` as an agent's command hook (`--format claude`
/// …), which answers as it answers its own errors: fail closed.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = run::usage_error_answer(&args, &e.to_string()) {
        return ExitCode::from(code);
    }
    let _ = e.print();
    ExitCode::from(EXIT_ERROR)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A readable summary (the default on a terminal).
    Text,
    /// The outcome JSON (the default when stdout is not a terminal).
    Json,
    /// Claude Code hook output: JSON on stdout for Claude Code to read, exit 2
    /// with the reason on stderr when denied or blocked.
    Claude,
    /// As a Codex command hook: exit 2 with the reason on stderr when denied
    /// or blocked.
    Codex,
    /// As a Gemini CLI command hook: `{"decision":"deny","reason":…}` and
    /// exit 2 when denied or blocked.
    Gemini,
    /// As a Cursor command hook: exit 2 with the reason on stdout when
    /// denied or blocked.
    Cursor,
    /// As a Copilot CLI command hook: exit 2 (a permissionRequest's reason
    /// as `{"behavior":"deny","message":…}`) when denied.
    Copilot,
    /// As a VS Code agent hook: exit 2 with the reason on stderr when
    /// denied or blocked.
    Vscode,
    /// As a VT Code lifecycle hook: exit 2 with the reason on stderr when
    /// denied or blocked.
    Vtcode,
    /// As a Windsurf / Devin Desktop (Cascade) hook: exit 2 with the reason
    /// on stderr when a `pre_*` event is denied or blocked; nothing on
    /// stdout (Cascade never reads it); what Cascade cannot express
    /// (allow, context, a rewrite, a stop) said dropped on stderr.
    Windsurf,
    /// As a Qwen Code command hook: exit 2 with the reason on stderr when
    /// denied or blocked.
    Qwen,
    /// As a Kiro command hook: exit 2 with the reason on stderr when
    /// denied or blocked; context as plain stdout on SessionStart and
    /// UserPromptSubmit.
    Kiro,
    /// As a Crush hook: exit 2 with the reason on stderr when denied, exit
    /// 49 when the turn halts; otherwise Crush's output envelope
    /// (`decision: "allow"`, `context`, `updated_input`).
    Crush,
    /// As an OpenHands command hook: exit 2 with the reason on stderr when
    /// denied or blocked; UserPromptSubmit context as
    /// `{"additionalContext": …}` on stdout.
    Openhands,
    /// As a goose (Open Plugins) plugin hook: exit 2 with the reason on
    /// stderr when a PreToolUse is denied or a Stop blocked; nothing on
    /// stdout otherwise (goose reads any other stdout as "no decision").
    Goose,
    /// As an Augment (Auggie CLI) command hook: exit 2 with the reason on
    /// stderr when a tool call is denied; `{"decision":"block",…}` on
    /// stdout when Stop is blocked.
    Augment,
}

impl Format {
    /// The agent whose command hook this format answers as (`None`: text, json).
    pub fn agent(self) -> Option<&'static dyn hookline::dialect::Dialect> {
        use hookline::dialect as d;
        match self {
            Format::Text | Format::Json => None,
            Format::Claude => Some(d::CLAUDE),
            Format::Codex => Some(d::CODEX),
            Format::Gemini => Some(d::GEMINI),
            Format::Cursor => Some(d::CURSOR),
            Format::Copilot => Some(d::COPILOT),
            Format::Vscode => Some(d::VSCODE),
            Format::Vtcode => Some(d::VTCODE),
            Format::Windsurf => Some(d::WINDSURF),
            Format::Qwen => Some(d::QWEN),
            Format::Kiro => Some(d::KIRO),
            Format::Crush => Some(d::CRUSH),
            Format::Openhands => Some(&d::openhands::OPENHANDS),
            Format::Goose => Some(d::GOOSE),
            Format::Augment => Some(d::AUGMENT),
        }
    }
}

/// What `run --format <agent>` answers when hookline itself fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnError {
    /// The agent's blocking answer on events that can block (fail closed).
    Block,
    /// Exit 1 with the error on stderr: the agent's non-blocking error (fail open).
    Allow,
}

#[derive(Args, Clone, Debug)]
pub struct ConfigArgs {
    /// A hooks config (a Claude Code settings .json, a Codex .codex/hooks.json
    /// or .codex/config.toml, a Gemini CLI .gemini/settings.json, a Cursor
    /// .cursor/hooks.json, a Copilot CLI .github/hooks/*.json, a Windsurf
    /// .devin/hooks.json or .windsurf/hooks.json, a Cline hooks folder
    /// .clinerules/hooks, a Kiro .kiro/hooks/*.json, a Crush crush.json or crushrc, an OpenHands .openhands/hooks.json, VT Code JSON or a vtcode.toml); repeat to load several configs in order, each in its
    /// own dialect. Default: the settings a host loads for the workspace
    /// (user, project, local).
    #[arg(long = "config", short = 'c', value_name = "FILE")]
    pub configs: Vec<PathBuf>,
    /// The plugin root of the --config files ($CLAUDE_PLUGIN_ROOT). Default:
    /// for a plugin's `.../hooks/hooks.json`, the directory above `hooks/`.
    #[arg(long, value_name = "DIR")]
    pub plugin_root: Option<PathBuf>,
    /// Read every --config file in this dialect (vtcode, claude, codex,
    /// gemini, cursor, copilot, vscode, cline, windsurf, qwen, kiro, devin-cli, factory, crush, openhands, goose, augment) instead of recognising it by its path
    /// or shape.
    #[arg(long, value_name = "NAME", value_parser = common::parse_dialect)]
    pub dialect: Option<common::DialectArg>,
    /// The workspace hooks run in (default: the current directory).
    #[arg(long, short = 'w', value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Without --config: run the project's own hooks files without
    /// approval (by default they are gated like a host gates them: skipped
    /// until `hookline trust approve`).
    #[arg(long)]
    pub trust_workspace: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Fire one event through the configs and print the outcome.
    #[command(after_help = "Examples:\n  \
hookline run PreToolUse --config .claude/settings.json --input payload.json\n  \
echo '{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"}}' |\n    \
hookline run pre_tool_use -c hooks.json --input - --format json\n\n\
As a Claude Code command hook (several hooks behind one entry, hookline's rules):\n  \
\"command\": \"hookline run PreToolUse -c .claude/team-hooks.json --input - --format claude\"\n\n\
Exit status: 0 proceed, 2 denied or blocked (reason on stderr), 1 error.")]
    Run(run::RunArgs),
    /// Validate configs of every dialect, list what the agent would skip, and
    /// warn on likely mistakes.
    #[command(after_help = "Examples:\n  hookline check .claude/settings.json vtcode.toml\n  \
hookline check --workspace . .claude/settings.json\n\n\
Exit status: 0 valid (warnings allowed, unless --strict), 1 an error.")]
    Check(check::CheckArgs),
    /// Show for every configured hook of an event whether it would run and
    /// why, without running anything.
    #[command(after_help = "Examples:\n  \
hookline explain PreToolUse --config .claude/settings.json --input payload.json\n  \
echo '{\"tool_name\":\"Edit\"}' | hookline explain PreToolUse -c hooks.json --input -")]
    Explain(explain::ExplainArgs),
    /// Run cases files (events, inputs, expectations) through the configs.
    #[command(after_help = "Example:\n  hookline test examples/demo/cases.json\n\n\
Prints one line per case and `N passed, M failed`; exit status 1 on any failure.\n\
The cases file format is described in docs/cli.md.")]
    Test(cases::TestArgs),
    /// Print the command digest and previews of the configs (what approval covers).
    #[command(after_help = "Examples:\n  hookline digest --config .claude/settings.json\n  \
hookline digest --workspace ~/src/project --format json")]
    Digest(trust::DigestArgs),
    /// List, approve and revoke persisted workspace approvals.
    #[command(
        subcommand,
        after_help = "The trust store is the library's: --store FILE, else $HOOKLINE_TRUST_STORE, else\n\
$XDG_CONFIG_HOME/hookline/trust.json, else ~/.config/hookline/trust.json\n\
(on Windows %APPDATA%\\hookline\\trust.json).\n\n\
Examples:\n  hookline trust approve --config .claude/settings.json\n  hookline trust list\n  \
hookline trust diff\n  hookline trust revoke"
    )]
    Trust(trust::TrustCommand),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let out = Out::new(cli.quiet);
    let result = match cli.command {
        Command::Run(a) => run::main(&out, a),
        Command::Check(a) => check::main(&out, a),
        Command::Explain(a) => explain::main(&out, a),
        Command::Test(a) => cases::main(&out, a),
        Command::Digest(a) => trust::digest_main(&out, a),
        Command::Trust(c) => trust::main(&out, c),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            out.error(&msg);
            ExitCode::from(EXIT_ERROR)
        }
    }
}
