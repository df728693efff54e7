//! Where the exported projects are built, shared by the export and diagnostics tests.
//!
//! The projects share one target dir, `export-target` inside `CARGO_TARGET_DIR` (or `target/`),
//! so burn compiles once for all of them. Each project's own binary is a debug build of burn with
//! its debug info, 0.7–0.9 GB; kept, sixty of them fill a disk, so a test removes the binary once
//! it has run it (the next build relinks it: the project's sources are rewritten every run).

use std::path::{Path, PathBuf};

/// The crate's target dir: `CARGO_TARGET_DIR`, or `target/` beside the manifest.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// The target dir the exported projects share.
pub fn export_target() -> PathBuf {
    target_dir().join("export-target")
}

/// Removes the project `name`'s binary: the copy in `debug/` and cargo's own in `debug/deps/`
/// (`<crate name>-<hash>`, the same file under another name), so its space comes back.
pub fn remove_binary(name: &str) {
    let debug = export_target().join("debug");
    let _ = std::fs::remove_file(debug.join(name));
    let prefix = format!("{}-", name.replace('-', "_"));
    let Ok(entries) = std::fs::read_dir(debug.join("deps")) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        // The executable has no extension; `.d` and `.rmeta` files are small and stay.
        if file_name.starts_with(&prefix) && !file_name.contains('.') {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
