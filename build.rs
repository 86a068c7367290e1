//! Build script: gives the C shared library its ABI name (SONAME, on ELF
//! systems: Linux and the BSDs) so that programs linked against it depend
//! on `libhookline.so.<major>` rather than on the unversioned development
//! symlink, as C libraries do.
//!
//! Programs linked against the in-tree build (the C tests, the demo, the Go
//! tests) therefore look for `libhookline.so.<major>` at run time; the script
//! also places that name, as a symlink to `libhookline.so`, next to cargo's
//! output so an in-tree build works without `make install`.
//!
//! It also sets `cfg(hookline_posix_spawn)` where the C library has
//! `posix_spawn_file_actions_addchdir_np` (Linux with glibc 2.29+ or musl
//! 1.1.24+, macOS 10.15+): there the command runner starts hook shells
//! with `posix_spawn` directly; elsewhere it uses `std::process::Command`.
//! And `cfg(hookline_kqueue)` where the runner watches a hook's exit with a
//! kqueue process filter (macOS and the BSDs).

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".to_string());
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    println!("cargo::rustc-check-cfg=cfg(hookline_posix_spawn)");
    if (os == "linux" && (target_env == "gnu" || target_env == "musl")) || vendor == "apple" {
        println!("cargo:rustc-cfg=hookline_posix_spawn");
    }
    println!("cargo::rustc-check-cfg=cfg(hookline_kqueue)");
    if vendor == "apple" || matches!(os.as_str(), "freebsd" | "netbsd" | "openbsd" | "dragonfly") {
        println!("cargo:rustc-cfg=hookline_kqueue");
    }
    match os.as_str() {
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos" | "solaris" => {
            let soname = format!("libhookline.so.{major}");
            println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
            if let Some(dir) = profile_dir() {
                link_alias(&dir, "libhookline.so", &soname);
            }
        }
        // macOS keeps rustc's default install name (@rpath/libhookline.dylib);
        // `make install` is written for ELF systems.
        _ => {}
    }
}

/// Cargo's output directory for this profile (`target/<profile>` or
/// `target/<triple>/<profile>`): OUT_DIR is `<that>/build/hookline-<hash>/out`.
/// None when the layout is not the expected one (then no alias is made).
fn profile_dir() -> Option<PathBuf> {
    let out = PathBuf::from(env::var_os("OUT_DIR")?);
    let build = out.parent()?.parent()?;
    if build.file_name()? != "build" {
        return None;
    }
    Some(build.parent()?.to_path_buf())
}

/// `dir/alias -> target` (relative), unless `dir/alias` already exists. The
/// target appears when cargo links the library, after this script ran.
#[cfg(unix)]
fn link_alias(dir: &Path, target: &str, alias: &str) {
    let path = dir.join(alias);
    if path.symlink_metadata().is_ok() {
        return;
    }
    if let Err(err) = std::os::unix::fs::symlink(target, &path) {
        println!("cargo:warning=could not create {}: {err}", path.display());
    }
}

#[cfg(not(unix))]
fn link_alias(_dir: &Path, _target: &str, _alias: &str) {}
