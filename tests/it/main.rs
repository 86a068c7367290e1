//! The integration tests, one binary: a module per topic, so the library is
//! linked once for all of them. `support` holds what the modules share (the
//! workspace fixture, running an event, the fixture scripts, running a test
//! alone in a child process); `schema` checks `include/hookline.schema.json`
//! against the code; `scenarios` runs the data corpus of `tests/scenarios/`.
//! The runner's tests (`tests/runner.rs`) stay a binary of their own: they
//! count this process's descriptors, children and memory, which the other
//! tests running beside them would disturb.

mod abi_tables;
mod augment;
mod cc_profiles;
mod claude_profile;
mod claude_rules;
mod cline;
mod codex_dialect;
mod config;
mod copilot;
mod crush;
mod cursor;
mod docs_tables;
mod engine;
mod engine_gate;
mod engine_reserved;
mod fuzz_regressions;
mod gate;
mod gemini;
mod goose;
mod handlers;
mod hook_env;
mod interpret;
mod kiro;
mod layers;
mod openhands;
mod option_keys;
mod pins;
mod policy;
mod qwen;
mod registry;
mod scenarios;
mod schema;
mod support;
mod tool_vocabulary;
mod trace;
mod trust;
mod vscode;
mod windsurf;
