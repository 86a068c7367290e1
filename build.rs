//! Build script: gives the C shared library its ABI name so that programs
//! linked against it depend on the ABI-compatible series they were built
//! for rather than on the unversioned development symlink, as C libraries
//! do. The series is `MAJOR.MINOR` before 1.0 (a 0.x minor release may
//! change the C ABI) and `MAJOR` from 1.0 on (README, "Versioning"):
//! - ELF systems (Linux, the BSDs): SONAME `libhookline.so.<series>`, e.g.
//!   `libhookline.so.0.1` for every 0.1.x release;
//! - macOS: install name `@rpath/libhookline.<series>.dylib`.
//!
//! Programs linked against the in-tree build (the C tests, the demo, the Go
//! tests) therefore look for that name at run time; the script also places
//! it, as a symlink to cargo's `libhookline.so` (`.dylib`), next to cargo's
//! output so an in-tree build works without `make install`.
//!
//! It also sets `cfg(hookline_posix_spawn)` where the C library has
//! `posix_spawn_file_actions_addchdir_np` (Linux with glibc 2.29+ or musl
//! 1.1.24+, macOS 10.15+): there the command runner starts hook shells
//! with `posix_spawn` directly; elsewhere it uses `std::process::Command`.
//! A glibc build meant for older systems says so with
//! `HOOKLINE_TARGET_GLIBC=<oldest glibc it must load on>` (`make dist` sets
//! 2.17): below 2.29 it gets the `std::process::Command` spawner, since the
//! linker would otherwise record a symbol those systems lack.
//! And `cfg(hookline_kqueue)` where the runner watches a hook's exit with a
//! kqueue process filter (macOS and the BSDs).

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let major = env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".to_string());
    let minor = env::var("CARGO_PKG_VERSION_MINOR").unwrap_or_else(|_| "0".to_string());
    let series = if major == "0" { format!("{major}.{minor}") } else { major };
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let vendor = env::var("CARGO_CFG_TARGET_VENDOR").unwrap_or_default();
    println!("cargo:rerun-if-env-changed=HOOKLINE_TARGET_GLIBC");
    let old_glibc = target_env == "gnu" && env::var("HOOKLINE_TARGET_GLIBC").is_ok_and(|v| glibc_below(&v, 2, 29));
    println!("cargo::rustc-check-cfg=cfg(hookline_posix_spawn)");
    if (os == "linux" && ((target_env == "gnu" && !old_glibc) || target_env == "musl")) || vendor == "apple" {
        println!("cargo:rustc-cfg=hookline_posix_spawn");
    }
    println!("cargo::rustc-check-cfg=cfg(hookline_kqueue)");
    if vendor == "apple" || matches!(os.as_str(), "freebsd" | "netbsd" | "openbsd" | "dragonfly") {
        println!("cargo:rustc-cfg=hookline_kqueue");
    }
    match os.as_str() {
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "illumos" | "solaris" => {
            let soname = format!("libhookline.so.{series}");
            println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
            if let Some(dir) = profile_dir() {
                link_alias(&dir, "libhookline.so", &soname);
            }
        }
        "macos" => {
            // rustc would record the path cargo linked to (target/.../deps).
            let install_name = format!("libhookline.{series}.dylib");
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/{install_name}");
            if let Some(dir) = profile_dir() {
                link_alias(&dir, "libhookline.dylib", &install_name);
            }
        }
        _ => {}
    }
}

/// Whether the glibc version `v` ("2.17") is below `major.minor`. A value
/// that is not MAJOR.MINOR stops the build: a typo must not pick a spawner.
fn glibc_below(v: &str, major: u32, minor: u32) -> bool {
    let parsed = v.trim().split_once('.').and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
    match parsed {
        Some(found) => found < (major, minor),
        None => panic!("HOOKLINE_TARGET_GLIBC must be a glibc version such as 2.17, not {v:?}"),
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
