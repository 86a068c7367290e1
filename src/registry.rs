//! In-process hook registry (agy-bridge `Hooks` parity). SPEC §4.
