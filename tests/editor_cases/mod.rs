//! The editor's edited declarations (`tests/golden/editor-cases.txt`), read by the expansion
//! tests (each against rustc) and the export tests (each "Take it home" project built), and the
//! page's expander run natively on them (its `expand` bin, built in a target dir of its own: the
//! tests' own build keeps the page's features).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use macro_expander::Expansion;

/// Each case's name and text, in the file's order.
pub fn editor_cases() -> Vec<(String, String)> {
    let file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/editor-cases.txt"),
    )
    .expect("reading the editor's cases");
    let mut cases: Vec<(String, String)> = Vec::new();
    for line in file.lines() {
        if let Some(name) = line.strip_prefix("=== ") {
            cases.push((name.to_owned(), String::new()));
        } else if let Some((_, text)) = cases.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    cases
}

/// The text of the case called `name`.
#[allow(dead_code)] // the expansion tests read every case
pub fn editor_case(name: &str) -> String {
    editor_cases()
        .into_iter()
        .find(|(case, _)| case == name)
        .map(|(_, text)| text)
        .unwrap_or_else(|| panic!("no edited case `{name}` in tests/golden/editor-cases.txt"))
}

/// The page's expander (`crates/macro-expander`: burn's macro modules compiled as a library),
/// its `expand` bin built in `target`.
pub fn expander_binary(target: &Path) -> PathBuf {
    let status = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target)
        .args([
            "build",
            "--quiet",
            "--package",
            "macro-expander",
            "--bin",
            "expand",
        ])
        .status()
        .expect("building the expander");
    assert!(status.success(), "building the expander failed");
    target.join("debug").join("expand")
}

/// The expander's answer for `text` by burn-backend-extension 0.22.1 (the version the engine
/// runs), from the answer its worker sends the page (every version's).
#[allow(dead_code)] // the expansion tests read the bin's text output
pub fn expand_natively(binary: &Path, text: &str) -> Expansion {
    let mut child = Command::new(binary)
        .arg("--encoded")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("running the expander");
    child
        .stdin
        .take()
        .expect("the expander's stdin")
        .write_all(text.as_bytes())
        .expect("writing to the expander");
    let output = child.wait_with_output().expect("the expander's answer");
    macro_expander::protocol::decode(&output.stdout)
        .and_then(|versions| versions.into_iter().next())
        .expect("an encoded answer")
}
