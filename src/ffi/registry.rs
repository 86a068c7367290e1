//! C ABI for the registry (`hl_registry_*`).
