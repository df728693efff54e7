//! The generated routing shipped with the page is what burn's macro generates today.
//!
//! Expands the library with rustc (`-Zunpretty=expanded`, in its own target dir so the normal
//! build is not disturbed), cuts out each op's `impl … for burn::backend::Dispatch` per
//! declaration, formats it with rustfmt, and compares it with `src/ops/expanded/`. The lines
//! built with their cfg's feature on come from the crate `autodiff-feature-on`, expanded the same
//! way (its `autodiff` feature is on). The lines that list `Fusion` come from an expansion with
//! burn's `fusion` on, and their files hold the generated `impl … for Fusion<B>` too.
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

use burn_extension_playground::model::catalog::{AutodiffDeclared, Declaration, FusionForm};
use burn_extension_playground::model::scenario::OpKind;
use burn_extension_playground::teach::routing::diagnostics::fusion_diagnostic;
use burn_extension_playground::teach::routing::expanded;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The whole of `package`'s library after macro expansion, built with burn's `fusion` or without.
fn expand_crate(package: &str, fusion: bool) -> String {
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
            "--package",
            package,
            "--lib",
        ])
        .args(if fusion {
            &["--features", "fusion"][..]
        } else {
            &[]
        })
        .args(["--", "-Zunpretty=expanded"])
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

/// The three expansions the shipped files are cut from.
struct Expanded {
    /// The playground without burn's fusion.
    playground: String,
    /// The feature-on crate, without fusion.
    feature_on: String,
    /// The playground with burn's fusion: the lines that list `Fusion`.
    fusion: String,
}

/// The generated `Dispatch` impl of `op` under `declaration`, as rustfmt formats it, and for a
/// line that lists `Fusion` the generated `impl … for Fusion<B>` after it: from the playground's
/// expansion (with fusion for those lines), or the feature-on crate's for the lines built with
/// the feature on.
fn generated(expanded: &Expanded, op: OpKind, declaration: Declaration) -> String {
    let lists_fusion = declaration.fusion() != FusionForm::None;
    let source = if declaration.autodiff() == AutodiffDeclared::CfgOn {
        &expanded.feature_on
    } else if lists_fusion {
        &expanded.fusion
    } else {
        &expanded.playground
    };
    let op_module = module(source, op.name());
    let variant_module = module(op_module, declaration.module());
    let impl_header = format!("impl {} for burn::backend::Dispatch", op.trait_name());
    // A line the macro rejects even under fusion generates nothing: its file says so, with what
    // rustc says (captured by tests/diagnostics.rs).
    if lists_fusion
        && !variant_module.contains(&impl_header)
        && let Some(diagnostic) = fusion_diagnostic(op, declaration)
    {
        let said: String = diagnostic
            .lines()
            .map(|line| format!("// {line}").trim_end().to_owned() + "\n")
            .collect();
        return format!(
            "// burn's macro generates no code for this declaration. rustc says:\n{said}"
        );
    }
    let start = variant_module
        .find(&impl_header)
        .unwrap_or_else(|| panic!("`{impl_header}` not found in {}", declaration.module()));
    let dispatch = rustfmt(block_at(variant_module, start));
    if !lists_fusion {
        return dispatch;
    }
    let fusion_header = "impl<B: burn::backend::fusion::FusionBackend";
    let start = variant_module
        .find(fusion_header)
        .unwrap_or_else(|| panic!("`{fusion_header}` not found in {}", declaration.module()));
    format!("{dispatch}\n{}", rustfmt(block_at(variant_module, start)))
}

#[test]
fn shipped_expansions_match_the_macro() {
    let expanded = Expanded {
        playground: expand_crate("burn-extension-playground", false),
        feature_on: expand_crate("autodiff-feature-on", false),
        fusion: expand_crate("burn-extension-playground", true),
    };
    let update = std::env::var_os("UPDATE_EXPANSIONS").is_some();
    let mut stale = Vec::new();
    for expansion in expanded::all() {
        let generated = format!(
            "{}{}",
            expanded::HEADER,
            generated(&expanded, expansion.op, expansion.declaration)
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

/// The op's trait as a crate declares it: from its doc comment to its closing brace, in the
/// macro that stamps it, dedented and with the attribute's selectors left out.
fn declared_trait(source: &str, trait_name: &str) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let header = lines
        .iter()
        .position(|line| {
            line.trim_start()
                .starts_with(&format!("pub trait {trait_name}:"))
        })
        .unwrap_or_else(|| panic!("`pub trait {trait_name}` not found"));
    let indent = lines[header].len() - lines[header].trim_start().len();
    let first = (0..header)
        .rev()
        .take_while(|&index| {
            let line = lines[index].trim_start();
            line.starts_with("///") || line.starts_with("#[")
        })
        .last()
        .unwrap_or(header);
    let closing = format!("{}}}", " ".repeat(indent));
    let last = (header..lines.len())
        .find(|&index| lines[index] == closing)
        .expect("the trait's closing brace");
    lines[first..=last]
        .iter()
        .filter(|line| {
            !line
                .trim_start()
                .starts_with("#[burn::backend::backend_extension(")
        })
        .map(|line| line.get(indent..).unwrap_or("").trim_end().to_owned() + "\n")
        .collect()
}

/// The feature-on crate declares each op's trait exactly as the playground does (it is not a
/// second version of the op, only a second build of its declaration).
#[test]
fn the_feature_on_crate_declares_the_same_traits() {
    let feature_on =
        std::fs::read_to_string(manifest_dir().join("crates/autodiff-feature-on/src/lib.rs"))
            .expect("reading the feature-on crate");
    for op in OpKind::ALL {
        let playground =
            std::fs::read_to_string(manifest_dir().join(format!("src/ops/{}/mod.rs", op.name())))
                .expect("reading the op");
        let section = feature_on
            .split(&format!("pub mod {} {{", op.name()))
            .nth(1)
            .unwrap_or_else(|| panic!("no module {} in the feature-on crate", op.name()));
        // The playground's declare macro also takes the method's `#[fusion(...)]` and the
        // tensor argument's name (`$x`, for the attribute's hygiene): the crate has neither.
        let argument = if op.takes_int_input() { "ids" } else { "x" };
        let playground: String = declared_trait(&playground, op.trait_name())
            .lines()
            .filter(|line| line.trim() != "$($fusion)*")
            .map(|line| line.replace(&format!("${argument}"), argument) + "\n")
            .collect();
        assert_eq!(
            declared_trait(section, op.trait_name()),
            playground,
            "{}",
            op.name()
        );
    }
}

/// With its feature on, the cfg-gated declaration does not generate the code of `Autodiff`
/// listed plainly: burn's macro writes a cfg'd selector through its own template (a
/// `__concrete_strategy` match, and arms kept for the feature being off). What it does is the
/// same — the matrix checks every feature-on cell against its listed twin — but the code differs,
/// and the page shows the feature-on code itself.
#[test]
fn the_feature_on_routing_has_its_own_template() {
    for op in OpKind::ALL {
        for (listed, feature_on) in [
            (
                Declaration::CubeFlexAutodiff,
                Declaration::CubeFlexAutodiffCfgOn,
            ),
            (Declaration::CubeAutodiff, Declaration::CubeAutodiffCfgOn),
        ] {
            let listed = expanded::source(op, listed).expect("a shipped expansion");
            let feature_on = expanded::source(op, feature_on).expect("a shipped expansion");
            assert!(!listed.contains("__concrete_strategy"), "{}", op.name());
            assert!(feature_on.contains("__concrete_strategy"), "{}", op.name());
        }
    }
}
