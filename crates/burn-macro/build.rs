//! Compiles one version of burn-backend-extension's expansion modules into the crate being
//! built (`v0-22`, `v0-23`: both build with this script and `lib.rs`).
//!
//! The macro crate keeps everything but its `proc_macro` entry points (`lib.rs`) in plain
//! `proc_macro2` modules. This script reads the version the crate pins (its build-dependency on
//! burn-backend-extension, `=x.y.z`), finds that version's source in cargo's registry (with
//! `cargo metadata`, so it is the exact file cargo fetched, wherever cargo's home is) and writes
//! `#[path]` declarations of those modules for `lib.rs` to include. No line of the macro's source
//! is copied into this repository.

use std::path::PathBuf;
use std::process::Command;
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
    println!("cargo:rerun-if-changed=../build.rs");
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
    let this_package = std::env::var("CARGO_PKG_NAME").expect("CARGO_PKG_NAME");
    let pinned = metadata["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .find(|package| package["name"] == this_package.as_str())
        .and_then(|package| {
            package["dependencies"]
                .as_array()?
                .iter()
                .find(|dependency| dependency["name"] == "burn-backend-extension")?["req"]
                .as_str()
                .map(str::to_owned)
        })
        .expect("the crate has a build-dependency on burn-backend-extension");
    let version = pinned
        .strip_prefix('=')
        .unwrap_or_else(|| panic!("burn-backend-extension is pinned with `=`, not `{pinned}`"))
        .to_owned();
    let package = metadata["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .find(|package| {
            package["name"] == "burn-backend-extension" && package["version"] == version.as_str()
        })
        .unwrap_or_else(|| panic!("burn-backend-extension {version} is not in cargo metadata"));
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
    println!("cargo:rustc-env=BURN_MACRO_VERSION={version}");
}
