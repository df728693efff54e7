//! The generated routing shipped with the page is what burn's macro generates today.
//!
//! Expands the library with rustc (`-Zunpretty=expanded`, in its own target dir so the normal
//! build is not disturbed), cuts out each op's `impl … for burn::backend::Dispatch` per
//! declaration, formats it with rustfmt, and compares it with `src/ops/expanded/`.
//!
//! Regenerate the shipped files with:
//!
//! ```sh
//! UPDATE_EXPANSIONS=1 cargo test --test expansion
//! ```
//!
//! Slow (a few minutes the first time): it is part of the full test command, not of quick runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use burn_extension_playground::teach::expanded;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The whole crate after macro expansion.
fn expand_crate() -> String {
    let target = std::env::var_os("EXPANSION_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cargo_target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| manifest_dir().join("target"));
            cargo_target.join("expansion")
        });
    let output = Command::new(env!("CARGO"))
        .current_dir(manifest_dir())
        .env("CARGO_TARGET_DIR", &target)
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "rustc",
            "--quiet",
            "--profile=check",
            "--lib",
            "--",
            "-Zunpretty=expanded",
        ])
        .stderr(Stdio::inherit())
        .output()
        .expect("running cargo rustc");
    assert!(
        output.status.success(),
        "cargo rustc -Zunpretty=expanded failed"
    );
    String::from_utf8(output.stdout).expect("expanded source is UTF-8")
}

/// The body of `pub mod name { … }` in `source`.
fn module<'a>(source: &'a str, name: &str) -> &'a str {
    let start = source
        .find(&format!("pub mod {name} {{"))
        .unwrap_or_else(|| panic!("module `{name}` not found in the expansion"));
    block_at(source, start)
}

/// The text from `start` to the end of the first `{ … }` block after it, braces balanced.
fn block_at(source: &str, start: usize) -> &str {
    let open = start + source[start..].find('{').expect("an opening brace");
    let mut depth = 0usize;
    for (offset, c) in source[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &source[start..open + offset + 1];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces in the expansion");
}

fn rustfmt(code: &str) -> String {
    let mut child = Command::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("running rustfmt");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("rustfmt stdin")
        .write_all(code.as_bytes())
        .expect("writing to rustfmt");
    let output = child.wait_with_output().expect("rustfmt output");
    assert!(output.status.success(), "rustfmt failed on:\n{code}");
    String::from_utf8(output.stdout).expect("rustfmt output is UTF-8")
}

#[test]
fn shipped_expansions_match_the_macro() {
    let source = expand_crate();
    let update = std::env::var_os("UPDATE_EXPANSIONS").is_some();
    let mut stale = Vec::new();
    for expansion in expanded::all() {
        let op_module = module(&source, expansion.op.name());
        let variant_module = module(op_module, expansion.declaration.module());
        let impl_header = format!(
            "impl {} for burn::backend::Dispatch",
            expansion.op.trait_name()
        );
        let start = variant_module.find(&impl_header).unwrap_or_else(|| {
            panic!(
                "`{impl_header}` not found in {}",
                expansion.declaration.module()
            )
        });
        let generated = format!(
            "{}{}",
            expanded::HEADER,
            rustfmt(block_at(variant_module, start))
        );
        let path: &Path = &manifest_dir().join(expansion.path);
        if update {
            std::fs::write(path, &generated).expect("writing the expansion");
        } else if std::fs::read_to_string(path).ok().as_deref() != Some(generated.as_str()) {
            stale.push(expansion.path);
        }
        assert!(
            expanded::source(expansion.op, expansion.declaration).is_some(),
            "the page has no expansion for {:?} {:?}",
            expansion.op,
            expansion.declaration
        );
    }
    assert!(
        stale.is_empty(),
        "these shipped expansions differ from what the macro generates now: {stale:?}\n\
         regenerate them with `UPDATE_EXPANSIONS=1 cargo test --test expansion`"
    );
}
