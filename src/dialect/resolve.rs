//! The configuration names dialects by id ([`DialectId`]); the registry
//! resolves them ([`of`]). Here are the configuration's accessors that need
//! the dialect itself: config sits below the dialects and does not know
//! them.

use std::sync::Arc;
use std::time::Duration;

use super::{Dialect, ALL, VTCODE};
use crate::config::{DialectId, HandlerSpec, HookGroup, HookSpec, HooksConfig, Source, SourceInfo, MAX_TIMEOUT};
use crate::model::rules::{Profile, TimeoutUnit};

/// The dialect value an id names. An id no dialect has (none is made
/// outside the registry) falls back to VT Code, the default dialect.
pub fn of(id: DialectId) -> &'static dyn Dialect {
    ALL.iter()
        .copied()
        .chain(std::iter::once(&super::copilot::COPILOT_COMPAT as &'static dyn Dialect))
        .find(|d| d.id() == id)
        .unwrap_or(VTCODE)
}

impl<D: Dialect + ?Sized> From<&D> for DialectId {
    fn from(dialect: &D) -> DialectId {
        dialect.id()
    }
}

impl SourceInfo {
    /// The dialect reading the source.
    pub fn dialect(&self) -> &'static dyn Dialect {
        of(self.dialect)
    }
}

impl Source {
    /// The dialect whose rules read this source's hooks.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.info.dialect()
    }
}

impl HookSpec {
    /// A command hook of an untrusted VT Code source with every optional
    /// field at its default (a 60 s timeout).
    pub fn command(command: impl Into<String>, timeout_seconds: Option<u64>) -> HookSpec {
        HookSpec {
            handler: HandlerSpec::command(command),
            timeout_seconds,
            default_timeout: VTCODE.profile().default_timeout,
            if_rule: None,
            run_async: false,
            async_rewake: false,
            status_message: None,
            fail_closed: false,
            name: None,
            env: Vec::new(),
            native_event: None,
            loop_limit: None,
            path: String::new(),
            source: Arc::new(Source::new(SourceInfo::new(VTCODE), false)),
        }
    }

    /// The effective timeout: the configured value in the dialect's unit
    /// (clamped to [`MAX_TIMEOUT`]), else the dialect's default (60 s VT
    /// Code and Gemini CLI, 600 s Claude Code).
    pub fn timeout(&self) -> Duration {
        match (self.timeout_seconds, self.dialect().profile().timeout_unit) {
            (Some(s), TimeoutUnit::Seconds) => Duration::from_secs(s).min(MAX_TIMEOUT),
            (Some(ms), TimeoutUnit::Milliseconds) => Duration::from_millis(ms).min(MAX_TIMEOUT),
            (None, _) => self.default_timeout,
        }
    }

    /// The dialect whose rules read this hook.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.source.dialect()
    }
}

impl HookGroup {
    /// The dialect of the group's hooks.
    pub fn dialect(&self) -> &'static dyn Dialect {
        self.hooks.first().map_or(VTCODE, HookSpec::dialect)
    }
}

impl HooksConfig {
    /// The dialect the configuration was written in (for a config joined
    /// from several sources: the first non-empty one's).
    pub fn dialect(&self) -> &'static dyn Dialect {
        of(self.dialect_id())
    }

    /// The profile of the configuration's dialect.
    pub fn profile(&self) -> &'static Profile {
        self.dialect().profile()
    }
}
