//! `hookline test`: cases files (JSON or TOML) of events, inputs and
//! expectations, run through the configs (ungated). The format is described
//! in `docs/cli.md`; unknown keys are errors, so a misspelled expectation
//! cannot pass silently.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;
use serde_json::Value;

use crate::common::{self, CliResult, EngineSetup, EventName, Out, EXIT_ERROR, EXIT_OK};

#[derive(Args)]
pub struct TestArgs {
    /// Cases files (.json or .toml).
    #[arg(required = true, value_name = "CASES")]
    pub files: Vec<PathBuf>,
    /// Read every config in this dialect (vtcode, claude, codex, gemini, cursor, copilot, vscode, windsurf, qwen, cline, kiro),
    /// unless a cases file or case names its own `dialect`.
    #[arg(long, value_name = "NAME", value_parser = common::parse_dialect)]
    pub dialect: Option<common::DialectArg>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

impl OneOrMany {
    fn paths(&self) -> Vec<PathBuf> {
        match self {
            OneOrMany::One(p) => vec![p.clone()],
            OneOrMany::Many(v) => v.clone(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CasesFile {
    config: Option<OneOrMany>,
    /// The dialect of the configs (`--dialect`'s default for this file).
    dialect: Option<String>,
    workspace: Option<PathBuf>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    event: String,
    input: Option<Value>,
    input_file: Option<PathBuf>,
    config: Option<OneOrMany>,
    dialect: Option<String>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    decision: Option<String>,
    blocked: Option<bool>,
    reason_contains: Option<String>,
    context_contains: Option<String>,
    message_contains: Option<String>,
    error_contains: Option<String>,
}

fn parse_file(path: &Path) -> Result<CasesFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let is_toml = path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("toml"));
    let parsed = if is_toml {
        toml::from_str::<CasesFile>(&text).map_err(|e| e.message().to_owned())
    } else {
        serde_json::from_str::<CasesFile>(&text).map_err(|e| e.to_string())
    };
    parsed.map_err(|e| format!("{}: invalid cases file: {e}", path.display()))
}

/// Run one case; `Err` lists why it failed.
fn run_case(
    base: &Path,
    file: &CasesFile,
    workspace: &Path,
    case: &Case,
    dialect: Option<common::DialectArg>,
) -> Result<(), Vec<String>> {
    let fail = |m: String| vec![m];
    let dialect = match case.dialect.as_deref().or(file.dialect.as_deref()) {
        Some(name) => Some(common::parse_dialect(name).map_err(fail)?),
        None => dialect,
    };
    let configs: Vec<PathBuf> = case
        .config
        .as_ref()
        .or(file.config.as_ref())
        .map(OneOrMany::paths)
        .unwrap_or_default()
        .into_iter()
        .map(|p| base.join(p))
        .collect();
    if configs.is_empty() {
        return Err(fail("no config: set `config` in the file or the case".into()));
    }
    let event = EventName::parse(&case.event).map_err(fail)?;
    let input = match (&case.input, &case.input_file) {
        (Some(_), Some(_)) => return Err(fail("give `input` or `input_file`, not both".into())),
        (Some(v), None) => v.clone(),
        (None, Some(p)) => common::read_input(Some(&base.join(p))).map_err(fail)?,
        (None, None) => Value::Object(Default::default()),
    };
    let attempt = (|| -> Result<Value, String> {
        let configs = common::load_configs(&configs, dialect)?;
        let engine = common::build_engine(EngineSetup {
            workspace: Some(workspace),
            source: configs.source,
            gated: false,
            trust_store: None,
            session_id: None,
            input: Some(&input),
        })?;
        let text = common::fire(&engine, &event, &input)?;
        serde_json::from_str(&text).map_err(|e| format!("the engine returned invalid JSON: {e}"))
    })();
    let e = &case.expect;
    let outcome = match (attempt, &e.error_contains) {
        (Err(err), Some(want)) if err.contains(want.as_str()) => return Ok(()),
        (Err(err), Some(want)) => return Err(fail(format!("expected an error containing {}, got: {err}", js(want)))),
        (Err(err), None) => return Err(fail(format!("error: {err}"))),
        (Ok(_), Some(want)) => {
            return Err(fail(format!("expected an error containing {}, the run succeeded", js(want))))
        }
        (Ok(o), None) => o,
    };
    let v = common::verdict(&outcome);
    let mut why = Vec::new();
    if let Some(d) = &e.decision {
        if *d != v.decision {
            why.push(format!("expected decision {}, got {}", js(d), js(&v.decision)));
        }
    }
    if let Some(b) = e.blocked {
        if b != v.blocked {
            why.push(format!("expected blocked {b}, got {}", v.blocked));
        }
    }
    if let Some(want) = &e.reason_contains {
        if !v.reason.as_deref().is_some_and(|r| r.contains(want.as_str())) {
            why.push(format!("expected a reason containing {}, got {}", js(want), js(&v.reason)));
        }
    }
    if let Some(want) = &e.context_contains {
        let ctx = common::contexts(&outcome);
        if !ctx.iter().any(|c| c.contains(want.as_str())) {
            why.push(format!("expected a context containing {}, got {}", js(want), js(&ctx)));
        }
    }
    if let Some(want) = &e.message_contains {
        let msgs: Vec<&str> = outcome
            .get("messages")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(|m| m.get("text").and_then(Value::as_str)).collect())
            .unwrap_or_default();
        if !msgs.iter().any(|m| m.contains(want.as_str())) {
            why.push(format!("expected a message containing {}, got {}", js(want), js(&msgs)));
        }
    }
    if why.is_empty() {
        Ok(())
    } else {
        Err(why)
    }
}

pub fn main(out: &Out, a: TestArgs) -> CliResult {
    let (mut passed, mut failed) = (0usize, 0usize);
    for path in &a.files {
        let file = parse_file(path)?;
        let base = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_owned();
        let workspace = base.join(file.workspace.clone().unwrap_or_else(|| PathBuf::from(".")));
        for case in &file.cases {
            match run_case(&base, &file, &workspace, case, a.dialect) {
                Ok(()) => {
                    passed += 1;
                    if !out.quiet {
                        out.line(&format!("{} {}", out.green("PASS"), case.name));
                    }
                }
                Err(why) => {
                    failed += 1;
                    out.line(&format!("{} {}: {}", out.red("FAIL"), case.name, why.join("; ")));
                }
            }
        }
    }
    out.line(&format!("{passed} passed, {failed} failed"));
    Ok(if failed > 0 { EXIT_ERROR } else { EXIT_OK })
}

/// A value as JSON, as the cases file writes it (`null`, `"deny"`, `["a"]`).
fn js<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "?".to_owned())
}
