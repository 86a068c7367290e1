//! Before a run: the input checked against the event's rules, an event
//! fired by name resolved, the outcome of a run that has no hook, and the
//! token a run is started with.

use serde_json::Value;

use super::options::Setup;
use super::runs::ReservedRun;
use crate::config::HooksConfig;
use crate::dialect::{self, Dialect};
use crate::error::{Error, Result, Status};
use crate::merge::EventInterpreter;
use crate::model::event::{HookEvent, RunEvent};
use crate::model::input::{self, InputRules};
use crate::model::outcome::{HookMessage, HookOutcome};
use crate::runner::CancelToken;
use crate::runtime;

/// The outcome of an event when no hook ran, in `dialect`'s shape.
pub(crate) fn empty_outcome(dialect: &'static dyn Dialect, event: &RunEvent) -> HookOutcome {
    EventInterpreter::for_dialect(event, dialect, false).finish(Vec::new())
}

/// The outcome JSON of a known event when no hook ran: a constant per
/// event and dialect, made once.
pub(super) fn empty_outcome_json(dialect: &'static dyn Dialect, event: HookEvent) -> Result<&'static str> {
    static EMPTY: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    let all = EMPTY.get_or_init(|| {
        dialect::ALL
            .iter()
            .map(|d| {
                HookEvent::ALL
                    .iter()
                    .map(|e| empty_outcome(*d, &RunEvent::Known(*e)).to_json_string().unwrap_or_default())
                    .collect()
            })
            .collect()
    });
    match all[dialect::index_of(dialect)][event.index()].as_str() {
        "" => Err(Error::internal("cannot serialise an empty outcome")),
        text => Ok(text),
    }
}

/// The input rules of a setup: its dialect's, except that an engine
/// without configured hooks validates leniently (like the Claude Code
/// profile).
pub(crate) fn input_rules(setup: &Setup) -> InputRules {
    if setup.config.is_empty() {
        InputRules::Lenient
    } else {
        setup.config.profile().inputs
    }
}

/// Validate an input for `event` under the setup's rules.
pub(crate) fn validate(setup: &Setup, event: &RunEvent, input: &Value) -> Result<()> {
    match event {
        RunEvent::Known(e) => input::validate_input_with(input_rules(setup), *e, input),
        RunEvent::Named(name) => {
            if input.is_object() {
                Ok(())
            } else {
                Err(Error::invalid_argument(format!("{name} input must be a JSON object")))
            }
        }
    }
}

/// The event of an event name: one of the twelve by its PascalCase name,
/// else a named event. A blank name or one with NUL is refused.
pub(crate) fn run_event_named(name: &str) -> Result<RunEvent> {
    RunEvent::from_name(name)
        .ok_or_else(|| Error::invalid_argument("event name must be non-empty, without NUL characters"))
}

/// A named event whose name is the config key a dialect of the
/// configuration gives one of the twelve (Cursor's `preToolUse`, `stop`,
/// Gemini CLI's `BeforeTool`) is that event, unless the configuration has a named event of that very
/// name; any other event is itself.
pub(crate) fn resolve_named(setup: &Setup, event: RunEvent) -> RunEvent {
    let RunEvent::Named(name) = &event else {
        return event;
    };
    if !setup.config.groups_named(name).is_empty() {
        return event;
    }
    let mut dialects = setup.config.all_groups().map(|g| g.dialect());
    let known = dialects.find_map(|d| HookEvent::ALL.into_iter().find(|e| d.event_keys(*e).contains(&&**name)));
    match known {
        Some(e) => RunEvent::Known(e),
        None => event,
    }
}

/// The warning a run by name (`hl_engine_run_named`) gets when no hooks
/// config names its event: a misspelt name (`PreToolUze`) runs nothing, and
/// says so. The twelve canonical names are always known, and so are the
/// events an agent defines without a canonical meaning
/// ([`Dialect::native_event_keys`], e.g. Codex's `PostCompact`): a host
/// fires those whether or not the user configured them. The message lists
/// the configured events and the closest name a run by name accepts.
/// Only the named-run path calls this; it costs a scan of the config's
/// named events.
pub(crate) fn unknown_event_warning(config: &HooksConfig, event: &RunEvent) -> Option<String> {
    let RunEvent::Named(name) = event else {
        return None;
    };
    let name: &str = name;
    let native = || dialect::ALL.iter().flat_map(|d| d.native_event_keys()).copied();
    if config.named_events().iter().any(|n| n.name == name) || native().any(|k| k == name) {
        return None;
    }
    let configured: Vec<&str> = HookEvent::ALL
        .iter()
        .filter(|e| !config.groups(**e).is_empty())
        .map(|e| e.name())
        .chain(config.named_events().iter().map(|n| n.name.as_str()))
        .collect();
    let candidates = HookEvent::ALL.iter().map(|e| e.name()).chain(configured.iter().copied()).chain(native());
    let listed = match configured.is_empty() {
        true => "no event has hooks configured".to_owned(),
        false => format!("the configured events are {}", configured.join(", ")),
    };
    let hint = match crate::suggest::closest(name, candidates) {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    };
    Some(format!("no hooks config names the event `{name}`, so no hook ran ({listed}){hint}"))
}

/// The outcome of a run by name with the unknown-event warning, if any, as
/// its first message (see [`unknown_event_warning`]).
pub(crate) fn with_warning(outcome: HookOutcome, warning: Option<String>) -> HookOutcome {
    let mut outcome = outcome;
    if let Some(w) = warning {
        outcome.common_mut().messages.insert(0, HookMessage::warning(w));
    }
    outcome
}

/// Where a run's cancellation token comes from (see
/// [`LifecycleHookEngine::execute`]).
pub(crate) enum RunToken<'a> {
    /// A synchronous run: registers a token when it spawns processes.
    Sync,
    /// An asynchronous run's token.
    Async(&'a CancelToken),
    /// A reserved run: its reservation makes the token on first need.
    Reserved(&'a ReservedRun<'a>),
}

/// The blocking rule: a blocking run on a hookline-owned thread (inside an
/// asynchronous run's callback hook or `done`) could wait on the very
/// threads it occupies, so it is refused there.
pub(super) fn check_blocking_allowed() -> Result<()> {
    if runtime::on_hookline_thread() {
        return Err(Error::new(
            Status::WrongThread,
            "a blocking run (hl_engine_run) cannot be made on a hookline thread; use the asynchronous run (hl_engine_run_async)",
        ));
    }
    Ok(())
}
