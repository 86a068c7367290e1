//! The approval state of one engine: which command set a gated engine may
//! run, and how approvals start, change and survive a reload.
//!
//! - A [`CommandSet`] is what a configuration asks to run, as the gate sees
//!   it: the workspace, the previews and their digest, the files the
//!   commands execute ([`PinSet`]), whether the engine is gated, and where
//!   approvals are persisted. It is immutable (but for the hash caches of
//!   its files); a reload builds a new one.
//! - An [`Approval`] is the one mutable piece: the approved digest and what
//!   the approval says about each file ([`ApprovedFiles`]). A gated engine
//!   may spawn a command only while the approved digest equals the digest
//!   of the command set the run is executing and every file of that
//!   command is as approved ([`Approval::admits`], checked right before
//!   every spawn).
//! - A new engine, or a reload that changes the digest, starts approved only
//!   when the trust store holds exactly this digest for the workspace; the
//!   files are then checked against the pins stored with it (a record
//!   without pins approves only commands that name no file).
//! - An ungated engine, and a gated one without commands, never need
//!   approval.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::pins::{ApprovedFiles, PinChange, PinCtx, PinSet, Verdict};
use super::trust::TrustStore;
use super::{command_previews_with, digest_of_previews, gated_hooks, LifecycleHookCommandPreview};
use crate::config::env_policy::EnvSettings;
use crate::config::{HookSpec, HooksConfig};
use crate::error::{Error, Result};

/// A configuration's command set as the gate sees it.
#[derive(Debug)]
pub struct CommandSet {
    /// The canonical workspace (the trust store's key).
    pub workspace: PathBuf,
    /// Whether commands wait for approval.
    pub gated: bool,
    /// One preview per configured command, in digest order (their pins as
    /// they were when the set was made; see [`previews_now`](Self::previews_now)).
    pub previews: Vec<LifecycleHookCommandPreview>,
    /// The digest of `previews`.
    pub digest: String,
    /// Where approvals are persisted (`None`: no path could be resolved).
    pub trust_store: Option<TrustStore>,
    /// The files the gated commands execute (empty on an ungated engine).
    pub pins: PinSet,
}

impl CommandSet {
    /// The command set of `config` for `workspace` (a canonical path), the
    /// default environment policy and no files pinned unless gated.
    pub fn new(workspace: PathBuf, gated: bool, config: &HooksConfig, trust_store: Option<TrustStore>) -> CommandSet {
        CommandSet::with_env(workspace, gated, config, trust_store, &EnvSettings::default())
    }

    /// The command set of `config` for `workspace`, its hooks running under
    /// the environment policies of `env`. On a gated engine the files its
    /// commands name are resolved and hashed now.
    pub fn with_env(
        workspace: PathBuf,
        gated: bool,
        config: &HooksConfig,
        trust_store: Option<TrustStore>,
        env: &EnvSettings,
    ) -> CommandSet {
        let mut previews = command_previews_with(config, &env.policy(false).preview());
        let digest = digest_of_previews(&previews);
        let pins = if gated {
            let ctx = PinCtx { workspace: workspace.clone(), home: env.home(false) };
            PinSet::new(gated_hooks(config).map(|(_, _, h)| h), &ctx)
        } else {
            PinSet::default()
        };
        for (i, p) in previews.iter_mut().enumerate() {
            p.pins = pins.pins_of_preview(i);
            p.unpinned = pins.unpinned_of_preview(i);
        }
        CommandSet { workspace, gated, previews, digest, trust_store, pins }
    }

    /// Whether there is anything to approve: gated, with commands.
    pub fn needs_gate(&self) -> bool {
        self.gated && !self.previews.is_empty()
    }

    /// The previews with their pins as the files are now.
    pub fn previews_now(&self) -> Vec<LifecycleHookCommandPreview> {
        let mut previews = self.previews.clone();
        if !self.pins.is_empty() {
            for (i, p) in previews.iter_mut().enumerate() {
                p.pins = self.pins.pins_of_preview(i);
            }
        }
        previews
    }

    /// The approval the trust store holds for exactly this digest.
    fn stored(&self) -> Option<Approved> {
        if !self.needs_gate() {
            return None;
        }
        let stored = self.trust_store.as_ref()?.approval(&self.workspace)?;
        (stored.digest == self.digest).then(|| Approved { digest: stored.digest, files: Arc::new(stored.files) })
    }
}

/// An approval: a digest and what it says about the files.
#[derive(Clone, Debug)]
struct Approved {
    digest: String,
    files: Arc<ApprovedFiles>,
}

/// The approved digest and files of one engine.
#[derive(Debug, Default)]
pub struct Approval {
    approved: Mutex<Option<Approved>>,
}

impl Approval {
    /// The state of a new engine: what the trust store approves for `set`.
    pub fn new(set: &CommandSet) -> Approval {
        Approval { approved: Mutex::new(set.stored()) }
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<Approved>> {
        self.approved.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The files the approval of `set`'s digest covers, if its digest is
    /// the approved one.
    fn files_for(&self, set: &CommandSet) -> Option<Arc<ApprovedFiles>> {
        match self.slot().as_ref() {
            Some(a) if a.digest == set.digest => Some(a.files.clone()),
            _ => None,
        }
    }

    /// Whether `set`'s digest is the approved one (always on an ungated
    /// engine). The files are [`admits`](Self::admits)'s.
    pub fn allows(&self, set: &CommandSet) -> bool {
        !set.gated || self.files_for(set).is_some()
    }

    /// Whether a gated hook of `set` may be spawned now: its digest is
    /// approved and each file it executes is as approved (re-verified now).
    pub fn admits(&self, set: &CommandSet, spec: &HookSpec) -> Verdict {
        if !set.gated {
            return Verdict::Run;
        }
        match self.files_for(set) {
            None => Verdict::NotApproved,
            Some(files) => set.pins.verify(spec, &files),
        }
    }

    /// True when gated, with commands, and the digest is not approved or a
    /// file changed since the approval.
    pub fn needs_approval(&self, set: &CommandSet) -> bool {
        if !set.needs_gate() {
            return false;
        }
        match self.files_for(set) {
            None => true,
            Some(files) => !set.pins.all_approved(&files),
        }
    }

    /// The files of `set` that differ from the approval (every watched file
    /// when the digest is not approved).
    pub fn changes(&self, set: &CommandSet) -> Vec<PinChange> {
        let files = self.files_for(set).unwrap_or_else(|| Arc::new(ApprovedFiles::default()));
        set.pins.changes(&files)
    }

    /// Approve the digest of `set` and its files as they are now; with
    /// `persist`, record both in the trust store first (a failure to
    /// persist approves nothing).
    pub fn approve(&self, set: &CommandSet, persist: bool) -> Result<()> {
        let files = set.pins.observe_all();
        if persist {
            let store = set.trust_store.as_ref().ok_or_else(|| {
                Error::io(
                    "no trust store path: set option `trust_store`, $HOOKLINE_TRUST_STORE, $XDG_CONFIG_HOME or $HOME",
                )
            })?;
            store.record_approval(&set.workspace, &set.digest, &files)?;
        }
        *self.slot() = Some(Approved { digest: set.digest.clone(), files: Arc::new(files) });
        Ok(())
    }

    /// A reload from `old` to `new`: the approval carries over only when the
    /// workspace and the digest are unchanged (its files are then checked
    /// against the new set's files at every spawn); otherwise the trust
    /// store is consulted as for a new engine. The caller holds the
    /// configuration lock, so no run sees the new set with the old decision.
    pub fn reload(&self, old: &CommandSet, new: &CommandSet) {
        let mut approved = self.slot();
        let carried = old.workspace == new.workspace && approved.as_ref().is_some_and(|a| a.digest == new.digest);
        if !carried {
            *approved = new.stored();
        }
    }
}
