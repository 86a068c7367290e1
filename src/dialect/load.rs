//! Loading a configuration: reading a hooks file or text, its dialect
//! chosen by name, by the file's place or by the JSON's shape
//! ([`select`](super::select)), and applying the switches of the sources
//! once they are joined.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use super::Dialect;
use crate::config::{parse_json_config, HooksConfig, SourceInfo};
use crate::error::{Error, Result};

impl HooksConfig {
    /// Apply the recorded switches, once every source is joined
    /// ([`apply_switches_with`](Self::apply_switches_with), the dialects'
    /// titles in its warnings).
    pub fn apply_switches(self) -> Self {
        self.apply_switches_with(|id| super::of(id).title())
    }

    /// Read a JSON config with `source`'s dialect.
    pub fn read(value: &Value, source: &SourceInfo) -> Result<Self> {
        source.dialect().read_json(value, source)
    }

    /// Parse a JSON configuration, the dialect detected by shape (see
    /// [`crate::dialect::for_shape`]).
    pub fn from_json_value(v: &Value) -> Result<Self> {
        Ok(Self::read(v, &SourceInfo::new(super::for_shape(v)))?.apply_switches())
    }

    /// Parse JSON text, the dialect detected by shape; a syntax error is
    /// [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_json_str(text: &str) -> Result<Self> {
        Self::from_json_value(&parse_json_config(text, "hooks configuration")?)
    }

    /// Parse vtcode.toml text (`[hooks.lifecycle]` or `[lifecycle]` tables).
    pub fn from_toml_str(text: &str) -> Result<Self> {
        super::VTCODE.read_toml(text, &SourceInfo::new(super::VTCODE))
    }

    /// Read a hooks file: `.toml` or `.json` (extension case-insensitive),
    /// its dialect chosen as [`crate::dialect::select`] says; or a hooks
    /// folder (Cline's), read by its dialect's
    /// [`read_dir`](crate::dialect::Dialect::read_dir). An unreadable
    /// file is [`Status::Io`](crate::Status::Io); another extension is
    /// [`Status::InvalidArgument`](crate::Status::InvalidArgument); anything
    /// wrong inside is [`Status::InvalidConfig`](crate::Status::InvalidConfig).
    pub fn from_file(path: &Path) -> Result<Self> {
        Self::from_file_as(path, None)
    }

    /// [`from_file`](Self::from_file) in `explicit`'s dialect (`None`:
    /// recognised by the path, else by the shape).
    pub fn from_file_as(path: &Path, explicit: Option<&'static dyn Dialect>) -> Result<Self> {
        Ok(Self::read_file(path, explicit, false, None)?.apply_switches())
    }

    /// [`from_file`](Self::from_file) with the source's facts: an explicit
    /// dialect (else recognised by path, else by shape), trust and plugin
    /// root. Its switches are recorded, not applied (see
    /// [`apply_switches`](Self::apply_switches)).
    pub fn read_file(
        path: &Path,
        explicit: Option<&'static dyn Dialect>,
        trusted: bool,
        plugin_root: Option<Arc<str>>,
    ) -> Result<Self> {
        if path.is_dir() {
            // A hooks folder (Cline's): its dialect named, else recognised
            // by its place.
            let Some(dialect) = explicit.or_else(|| super::for_path(path).filter(|d| d.reads_hooks_folders())) else {
                return Err(Error::io(format!(
                    "hooks_file {} is a folder, not a hooks file (a Cline hooks folder is .clinerules/hooks, \
                     .cline/hooks or ~/Documents/Cline/Hooks; name the dialect `cline` to read another folder)",
                    path.display()
                )));
            };
            let info =
                SourceInfo { dialect: dialect.id(), path: Some(path.to_owned()), trusted, plugin_root, policy: false };
            return dialect.read_dir(path, &info);
        }
        // A file its dialect reads as text of its own (Crush's `crushrc`).
        if let Some(dialect) = explicit.or_else(|| super::for_path(path)).filter(|d| d.is_text_file(path)) {
            let bytes = std::fs::read(path)
                .map_err(|e| Error::io(format!("cannot read hooks_file {}: {e}", path.display())))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| Error::invalid_config(format!("hooks_file {} is not valid UTF-8", path.display())))?;
            let info =
                SourceInfo { dialect: dialect.id(), path: Some(path.to_owned()), trusted, plugin_root, policy: false };
            return dialect.read_text(&text, &info);
        }
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let is_toml = match ext.as_deref() {
            Some("toml") => true,
            Some("json") => false,
            _ => {
                return Err(Error::invalid_argument(format!(
                    "hooks_file must end in .toml or .json: {}",
                    path.display()
                )))
            }
        };
        let bytes =
            std::fs::read(path).map_err(|e| Error::io(format!("cannot read hooks_file {}: {e}", path.display())))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::invalid_config(format!("hooks_file {} is not valid UTF-8", path.display())))?;
        let source = |dialect: &'static dyn Dialect| SourceInfo {
            dialect: dialect.id(),
            path: Some(path.to_owned()),
            trusted,
            plugin_root: plugin_root.clone(),
            policy: false,
        };
        if is_toml {
            let dialect = super::select(explicit, Some(path), None);
            dialect.read_toml(&text, &source(dialect))
        } else {
            // The dialect known before the text is parsed (named, or by the
            // file's place) says how its agent reads JSON text.
            let text = match explicit.or_else(|| super::for_path(path)) {
                Some(d) => d.json_text(&text),
                None => std::borrow::Cow::Borrowed(text.as_str()),
            };
            let value = parse_json_config(&text, "hooks configuration")?;
            let dialect = super::select(explicit, Some(path), Some(&value));
            dialect.read_json(&value, &source(dialect))
        }
    }
}
