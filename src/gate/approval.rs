//! The approval state of one engine: which command set a gated engine may
//! run, and how approvals start, change and survive a reload.
//!
//! - A [`CommandSet`] is what a configuration asks to run, as the gate sees
//!   it: the workspace, the previews and their digest, whether the engine is
//!   gated, and where approvals are persisted. It is immutable; a reload
//!   builds a new one.
//! - An [`Approval`] is the one mutable piece: the approved digest. A gated
//!   engine may spawn a command only while the approved digest equals the
//!   digest of the command set the run is executing ([`Approval::allows`],
//!   checked before every spawn).
//! - A new engine, or a reload that changes the digest, starts approved only
//!   when the trust store holds exactly this digest for the workspace.
//! - An ungated engine, and a gated one without commands, never need
//!   approval.

use std::path::PathBuf;
use std::sync::Mutex;

use super::trust::TrustStore;
use super::{command_previews, digest_of_previews, LifecycleHookCommandPreview};
use crate::config::HooksConfig;
use crate::error::{Error, Result};

/// A configuration's command set as the gate sees it.
#[derive(Debug, Clone)]
pub struct CommandSet {
    /// The canonical workspace (the trust store's key).
    pub workspace: PathBuf,
    /// Whether commands wait for approval.
    pub gated: bool,
    /// One preview per configured command, in digest order.
    pub previews: Vec<LifecycleHookCommandPreview>,
    /// The digest of `previews`.
    pub digest: String,
    /// Where approvals are persisted (`None`: no path could be resolved).
    pub trust_store: Option<TrustStore>,
}

impl CommandSet {
    /// The command set of `config` for `workspace` (a canonical path).
    pub fn new(workspace: PathBuf, gated: bool, config: &HooksConfig, trust_store: Option<TrustStore>) -> CommandSet {
        let previews = command_previews(config);
        let digest = digest_of_previews(&previews);
        CommandSet { workspace, gated, previews, digest, trust_store }
    }

    /// Whether there is anything to approve: gated, with commands.
    pub fn needs_gate(&self) -> bool {
        self.gated && !self.previews.is_empty()
    }

    /// Whether the trust store already approves this digest for this workspace.
    pub fn trusted(&self) -> bool {
        self.needs_gate() && self.trust_store.as_ref().is_some_and(|t| t.is_approved(&self.workspace, &self.digest))
    }
}

/// The approved digest of one engine.
#[derive(Debug, Default)]
pub struct Approval {
    approved: Mutex<Option<String>>,
}

impl Approval {
    /// The state of a new engine: approved when the trust store approves `set`.
    pub fn new(set: &CommandSet) -> Approval {
        Approval { approved: Mutex::new(set.trusted().then(|| set.digest.clone())) }
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.approved.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a command of `set` may be spawned now (always on an ungated engine).
    pub fn allows(&self, set: &CommandSet) -> bool {
        !set.gated || self.slot().as_deref() == Some(set.digest.as_str())
    }

    /// True when gated, with commands, and the digest is not approved.
    pub fn needs_approval(&self, set: &CommandSet) -> bool {
        set.needs_gate() && !self.allows(set)
    }

    /// Approve the digest of `set`; with `persist`, record it in the trust
    /// store first (a failure to persist approves nothing).
    pub fn approve(&self, set: &CommandSet, persist: bool) -> Result<()> {
        if persist {
            let store = set.trust_store.as_ref().ok_or_else(|| {
                Error::io(
                    "no trust store path: set option `trust_store`, $HOOKLINE_TRUST_STORE, $XDG_CONFIG_HOME or $HOME",
                )
            })?;
            store.record(&set.workspace, &set.digest)?;
        }
        *self.slot() = Some(set.digest.clone());
        Ok(())
    }

    /// A reload from `old` to `new`: the approval carries over only when the
    /// workspace and the digest are unchanged; otherwise the trust store is
    /// consulted as for a new engine. The caller holds the configuration
    /// lock, so no run sees the new set with the old decision.
    pub fn reload(&self, old: &CommandSet, new: &CommandSet) {
        let mut approved = self.slot();
        let carried = old.workspace == new.workspace && approved.as_deref() == Some(new.digest.as_str());
        if !carried {
            *approved = new.trusted().then(|| new.digest.clone());
        }
    }
}
