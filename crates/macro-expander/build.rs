//! Compiles burn-backend-extension's expansion modules into this crate.
//!
//! The macro crate keeps everything but its `proc_macro` entry points (`lib.rs`) in plain
//! `proc_macro2` modules. This script finds the pinned version's source in cargo's registry (with
//! `cargo metadata`, so it is the exact file cargo fetched, wherever cargo's home is) and writes
//! `#[path]` declarations of those modules for `src/burn_macro.rs` to include. No line of the
//! macro's source is copied into this repository.

use std::path::PathBuf;
use std::process::Command;

/// The pinned macro version (the build-dependency in Cargo.toml).
const VERSION: &str = "0.22.1";
/// Every module of the macro crate but `lib.rs`.
const MODULES: [&str; 7] = [
    "catalog",
    "derive",
    "dispatch",
    "extension",
    "fusion",
    "ir",
    "routing",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Without `expand` the crate is only its data types: nothing of the macro is compiled.
    if std::env::var_os("CARGO_FEATURE_EXPAND").is_none() {
        return;
    }
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let cargo = std::env::var_os("CARGO").expect("CARGO");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version=1",
            "--offline",
            "--manifest-path",
        ])
        .arg(manifest.join("Cargo.toml"))
        .output()
        .expect("running cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON");
    let package = metadata["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .find(|package| {
            package["name"] == "burn-backend-extension" && package["version"] == VERSION
        })
        .unwrap_or_else(|| panic!("burn-backend-extension {VERSION} is not in cargo metadata"));
    let source = PathBuf::from(package["manifest_path"].as_str().expect("a manifest path"))
        .parent()
        .expect("the manifest's folder")
        .to_owned();

    let mut modules = String::new();
    for module in MODULES {
        let path = source.join("src").join(format!("{module}.rs"));
        assert!(path.is_file(), "{} is missing", path.display());
        println!("cargo:rerun-if-changed={}", path.display());
        // burn's code, linted where it is maintained: not this crate's to warn about.
        modules.push_str(&format!(
            "#[path = {:?}]\n#[allow(dead_code, unused, clippy::all, clippy::pedantic)]\nmod {module};\n",
            path.display().to_string()
        ));
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out.join("burn_macro_modules.rs"), modules).expect("writing the module list");
    // The license texts of the compiled code, for the page to ship beside the expander.
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(source.join(license), out.join(license)).expect("copying a license text");
    }
    println!("cargo:rustc-env=BURN_MACRO_VERSION={VERSION}");
}
