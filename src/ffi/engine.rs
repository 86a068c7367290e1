//! C ABI for the engine (`hl_engine_*`).
