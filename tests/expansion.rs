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

#[path = "editor_cases/mod.rs"]
mod editor_cases;
use editor_cases::editor_cases;

use burn_extension_playground::model::catalog::{AutodiffDeclared, Declaration, FusionForm};
use burn_extension_playground::model::scenario::OpKind;
use burn_extension_playground::teach::code::op_sources::declaration_code;
use burn_extension_playground::teach::routing::diagnostics::fusion_diagnostic;
use burn_extension_playground::teach::routing::expanded;
use macro_expander::MacroVersion;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target dir of the builds these tests run: their own, so the normal build (locked while
/// tests run) is not disturbed.
fn expansion_target() -> PathBuf {
    std::env::var_os("EXPANSION_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cargo_target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| manifest_dir().join("target"));
            cargo_target.join("expansion")
        })
}

/// The whole of `package`'s library after macro expansion, built with burn's `fusion` or without.
fn expand_crate(package: &str, fusion: bool) -> String {
    let target = expansion_target();
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

/// `command` run with `input` on its stdin, and its output.
fn piped(mut command: Command, input: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("running {command:?}: {error}"));
    child
        .stdin
        .take()
        .expect("the command's stdin")
        .write_all(input.as_bytes())
        .expect("writing to the command");
    child.wait_with_output().expect("the command's output")
}

fn rustfmt(code: &str) -> String {
    let mut command = Command::new("rustfmt");
    command.args(["--edition", "2024", "--emit", "stdout", "--quiet"]);
    let output = piped(command, code);
    assert!(
        output.status.success(),
        "rustfmt failed on:\n{code}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
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
    generated_impls(variant_module, op, lists_fusion)
        .unwrap_or_else(|| panic!("`{impl_header}` not found in {}", declaration.module()))
}

/// The generated `Dispatch` impl of `op` in `source` (an expansion), as rustfmt formats it, and
/// with `lists_fusion` the generated `impl … for Fusion<B>` after it.
fn generated_impls(source: &str, op: OpKind, lists_fusion: bool) -> Option<String> {
    let impl_header = format!("impl {} for burn::backend::Dispatch", op.trait_name());
    let dispatch = rustfmt(block_at(source, source.find(&impl_header)?));
    if !lists_fusion {
        return Some(dispatch);
    }
    let fusion_header = "impl<B: burn::backend::fusion::FusionBackend";
    let fusion = rustfmt(block_at(source, source.find(fusion_header)?));
    Some(format!("{dispatch}\n{fusion}"))
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

/// The page's expander, built in the tests' own target dir.
fn expander_binary() -> PathBuf {
    editor_cases::expander_binary(&expansion_target())
}

/// What the expander emits for `text`: its tokens as one line, and its errors
/// (`line:column: message`), one per line.
fn run_expander(binary: &Path, text: &str, version: MacroVersion) -> (String, String) {
    let mut command = Command::new(binary);
    command.arg("--tokens");
    if version == MacroVersion::V0_23 {
        command.arg("--v0-23");
    }
    let output = piped(command, text);
    (
        String::from_utf8(output.stdout).expect("UTF-8 tokens"),
        String::from_utf8(output.stderr).expect("UTF-8 errors"),
    )
}

/// `tokens` (a crate's worth of items) after rustc's own expansion of the macros in them
/// (`format_args!` and the like), with `cfgs` set. burn is not linked: the paths into it stay
/// unresolved, which rustc reports but expands around.
fn rustc_expand(tokens: &str, cfgs: &[&str]) -> String {
    // One file per call: the tests run at once, each with its own.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = expansion_target().join("expander-lines");
    std::fs::create_dir_all(&dir).expect("creating the expander's scratch dir");
    let file = dir.join(format!("line-{call}.rs"));
    std::fs::write(&file, tokens).expect("writing the emitted tokens");
    let mut command = Command::new("rustc");
    command
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "lib",
            "-Zunpretty=expanded",
        ])
        .arg(&file);
    for cfg in cfgs {
        command.args(["--cfg", cfg]);
    }
    let output = command.output().expect("running rustc");
    let _ = std::fs::remove_file(&file);
    String::from_utf8(output.stdout).expect("expanded source is UTF-8")
}

/// The cfgs the crate that built `declaration`'s shipped expansion had on: the playground's
/// `fusion` feature for the lines that list `Fusion`, the feature-on crate's `autodiff`.
fn cfgs_of(declaration: Declaration) -> Vec<&'static str> {
    let mut cfgs = Vec::new();
    if declaration.fusion() != FusionForm::None {
        cfgs.push("feature=\"fusion\"");
    }
    if declaration.autodiff() == AutodiffDeclared::CfgOn {
        cfgs.push("feature=\"autodiff\"");
    }
    cfgs
}

/// The expander, given each catalog line's declaration exactly as the exported project writes it,
/// emits what burn's proc macro emitted when the engine was built: the same code once rustc has
/// expanded both, or the error rustc reported, at the same place.
#[test]
fn the_expander_emits_what_the_macro_emitted() {
    let binary = expander_binary();
    let mut differ = Vec::new();
    for expansion in expanded::all() {
        let (op, declaration) = (expansion.op, expansion.declaration);
        let text = declaration_code(op, declaration);
        let (tokens, errors) = run_expander(&binary, &text, MacroVersion::V0_22);
        let shipped = expansion
            .source
            .strip_prefix(expanded::HEADER)
            .expect("the shipped file's header");
        if let Some(diagnostic) = fusion_diagnostic(op, declaration)
            && shipped.starts_with("// burn's macro generates no code")
        {
            // rustc's first line is `error: {message}`; its span is quoted from the first to the
            // last line of the source it covers (`NN | / …`, `NN | | …`).
            let message = diagnostic
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("error: "))
                .expect("the diagnostic's message");
            let quoted: Vec<&str> = diagnostic
                .lines()
                .filter_map(|line| line.split_once(" | "))
                .filter(|(number, _)| number.trim().parse::<usize>().is_ok())
                .map(|(_, code)| code.strip_prefix(['/', '|']).unwrap_or(code).trim())
                .collect();
            let (line, column) = errors
                .lines()
                .find_map(|error| error.strip_suffix(&format!(": {message}")))
                .and_then(|place| place.split_once(':'))
                .unwrap_or_else(|| panic!("{}: no `{message}` among\n{errors}", expansion.path));
            let line: usize = line.parse().expect("a line number");
            let column: usize = column.parse().expect("a column number");
            let from_place: String = text
                .lines()
                .skip(line - 1)
                .collect::<Vec<_>>()
                .join("\n")
                .chars()
                .skip(column - 1)
                .collect();
            assert!(
                from_place.starts_with(quoted[0]),
                "{}: the error is not at rustc's place: {from_place:?}",
                expansion.path
            );
            continue;
        }
        assert!(errors.is_empty(), "{}: {errors}", expansion.path);
        // As deep as the engine's modules nest the line (`ops::{op}::{line}`, or `{op}::{line}` in
        // the feature-on crate): rustc's printer indents what rustfmt then leaves as it is.
        let depth = if declaration.autodiff() == AutodiffDeclared::CfgOn {
            2
        } else {
            3
        };
        let nested = format!(
            "{}{tokens}{}",
            "pub mod nested { ".repeat(depth),
            " }".repeat(depth)
        );
        let rustc_expanded = rustc_expand(&nested, &cfgs_of(declaration));
        let lists_fusion = declaration.fusion() != FusionForm::None;
        let ours = generated_impls(&rustc_expanded, op, lists_fusion);
        if ours.as_deref() != Some(shipped) {
            // Beside the scratch file, for a diff with the shipped one.
            let name = Path::new(expansion.path).file_name().expect("a file name");
            let kept = expansion_target().join("expander-lines").join(name);
            std::fs::write(&kept, ours.unwrap_or(rustc_expanded)).expect("keeping the difference");
            differ.push(expansion.path);
        }
    }
    assert!(
        differ.is_empty(),
        "the expander emits other code than burn's macro did for: {differ:?} (the expander's \
         are in {})",
        expansion_target().join("expander-lines").display()
    );
}

/// What each case's module brings into scope: what the exported project imports, and the
/// derive.
const CASE_PRELUDE: &str = "use burn::backend::{Backend, Dispatch, ExtensionType, backend_extension, tensor::{BoolTensor, FloatTensor, IntTensor}};\n";

/// The same under 0.23.0-pre.1, whose burn is not in the lock file: the macro crate alone, the
/// paths into burn left unresolved (rustc reports them after it has expanded the macro).
const CASE_PRELUDE_V0_23: &str =
    "use burn_backend_extension::{ExtensionType, backend_extension};\n";

/// Case `index`'s module: the prelude, then the case's text from the module's third line on.
fn case_module(index: usize, text: &str, version: MacroVersion) -> String {
    let prelude = match version {
        MacroVersion::V0_22 => CASE_PRELUDE,
        MacroVersion::V0_23 => CASE_PRELUDE_V0_23,
    };
    format!("pub mod case_{index} {{\n{prelude}{text}}}\n")
}

/// The first line of each case's text in a file of [`case_module`]s, after `header_lines`.
fn case_first_lines(cases: &[(String, String)], header_lines: usize) -> Vec<usize> {
    let mut line = header_lines + 1;
    cases
        .iter()
        .map(|(_, text)| {
            let first = line + 2;
            line += 2 + text.lines().count() + 1;
            first
        })
        .collect()
}

/// The real proc macro on the cases: a crate of their modules, depending on burn as the
/// playground does (under 0.23.0-pre.1, on the macro crate alone), expanded by rustc. Its
/// expansion (when rustc had no error; under 0.23.0-pre.1 always, the unresolved paths into burn
/// being errors), and each case's errors as `line:column: message`, lines counted in the case's
/// text (under 0.23.0-pre.1 the macro's own: those without an error code).
fn real_macro_on(
    cases: &[(String, String)],
    version: MacroVersion,
) -> (Option<String>, Vec<Vec<String>>) {
    let dir = expansion_target().join(match version {
        MacroVersion::V0_22 => "edited-cases",
        MacroVersion::V0_23 => "edited-cases-v0-23",
    });
    std::fs::create_dir_all(dir.join("src")).expect("creating the cases' crate");
    // burn as the playground's fusion engine has it (the `Fusion` half of the expansion names
    // `burn::backend::fusion`), and the playground itself: the same features everywhere, so the
    // dependencies the playground's own expansion built are reused, not built again.
    let manifest = match version {
        MacroVersion::V0_22 => format!(
            "[package]\nname = \"edited-cases\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
             [dependencies]\nburn-extension-playground = {{ path = {:?}, features = \
             [\"fusion\"] }}\nburn = {{ version = \"=0.22.1\", default-features = false, \
             features = [\"std\", \"extension\", \"autodiff\", \"wgpu\", \"flex\", \"optim\", \
             \"fusion\"] }}\n\n\
             [workspace]\n",
            manifest_dir().display().to_string()
        ),
        MacroVersion::V0_23 => "[package]\nname = \"edited-cases-v0-23\"\nversion = \"0.1.0\"\n\
             edition = \"2024\"\n\n[dependencies]\nburn-backend-extension = \"=0.23.0-pre.1\"\n\n\
             [workspace]\n"
            .to_owned(),
    };
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("writing the cases' manifest");
    std::fs::copy(manifest_dir().join("Cargo.lock"), dir.join("Cargo.lock"))
        .expect("copying the lock file");
    let header = "#![allow(unused)]\n";
    let modules: String = cases
        .iter()
        .enumerate()
        .map(|(index, (_, text))| case_module(index, text, version))
        .collect();
    std::fs::write(dir.join("src/lib.rs"), format!("{header}{modules}"))
        .expect("writing the cases");
    let expanded_path = dir.join("expanded.rs");
    let _ = std::fs::remove_file(&expanded_path);
    let output = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", expansion_target())
        .env("RUSTC_BOOTSTRAP", "1")
        .args([
            "rustc",
            "--quiet",
            "--offline",
            "--profile=check",
            "--lib",
            "--message-format=json",
            "--",
            "-Zunpretty=expanded",
            "-o",
        ])
        .arg(&expanded_path)
        .output()
        .expect("running cargo rustc on the cases");
    let first_lines = case_first_lines(cases, header.lines().count());
    let mut errors = vec![Vec::new(); cases.len()];
    let stdout = String::from_utf8_lossy(&output.stdout);
    for message in stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-message")
        .map(|message| message["message"].clone())
        .filter(|message| message["level"] == "error")
        .filter(|message| version == MacroVersion::V0_22 || message["code"].is_null())
    {
        let text = message["message"].as_str().unwrap_or("").to_owned();
        let Some(span) = message["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|span| span["is_primary"] == true))
        else {
            // "aborting due to N previous errors" and the like carry no span.
            continue;
        };
        let line = span["line_start"].as_u64().unwrap_or(0) as usize;
        let column = span["column_start"].as_u64().unwrap_or(0);
        let case = first_lines
            .iter()
            .rposition(|&first| first <= line)
            .unwrap_or_else(|| panic!("rustc's error outside every case: {text} at line {line}"));
        errors[case].push(format!("{}:{column}: {text}", line - first_lines[case] + 1));
    }
    let expanded = (output.status.success() || version == MacroVersion::V0_23)
        .then(|| std::fs::read_to_string(&expanded_path).ok())
        .flatten();
    (expanded, errors)
}

/// The module `pub mod case_{index}` of an expansion, as rustfmt formats it.
fn case_in(expanded: &str, index: usize) -> Option<String> {
    let start = expanded.find(&format!("pub mod case_{index} {{"))?;
    Some(rustfmt(block_at(expanded, start)))
}

/// Every edited declaration of the editor's case file gives, in the expander, what the real proc
/// macro gives it when rustc expands it in a crate that depends on burn: the same errors, at the
/// same lines and columns, and for the cases without an error the same code once rustc has
/// expanded both. rustc's errors are kept in `tests/golden/editor-cases.json`, which the browser
/// tests read.
#[test]
fn edited_declarations_expand_as_the_real_macro_expands_them() {
    edited_declarations_under(MacroVersion::V0_22);
}

/// The same under burn-backend-extension 0.23.0-pre.1: the expander's second version against
/// that version's real proc macro (its messages, and the code of the cases it accepts).
#[test]
fn edited_declarations_expand_as_the_real_0_23_macro_expands_them() {
    edited_declarations_under(MacroVersion::V0_23);
}

fn edited_declarations_under(version: MacroVersion) {
    let binary = expander_binary();
    let cases = editor_cases();
    assert!(cases.len() >= 20, "the case file has {} cases", cases.len());
    let (_, rustc_errors) = real_macro_on(&cases, version);
    let mut differ = Vec::new();
    let mut accepted = Vec::new();
    for ((name, text), rustc_errors) in cases.iter().zip(&rustc_errors) {
        let (tokens, errors) = run_expander(&binary, text, version);
        let mut expander_errors: Vec<String> = errors.lines().map(str::to_owned).collect();
        let mut rustc_errors = rustc_errors.clone();
        expander_errors.sort();
        rustc_errors.sort();
        if expander_errors != rustc_errors {
            differ.push(format!(
                "{name}: the expander says {expander_errors:?}, rustc {rustc_errors:?}"
            ));
        } else if rustc_errors.is_empty() {
            accepted.push((name.clone(), text.clone(), tokens));
        }
    }
    assert!(differ.is_empty(), "errors differ:\n{}", differ.join("\n"));

    // rustc's errors for each case, `line:column: message`, for the browser tests to find on the
    // page: `tests/golden/editor-cases.json`, written by UPDATE_EXPANSIONS=1.
    let golden: serde_json::Map<String, serde_json::Value> = cases
        .iter()
        .zip(&rustc_errors)
        .map(|((name, _), errors)| {
            let mut errors = errors.clone();
            errors.sort();
            (name.clone(), serde_json::json!(errors))
        })
        .collect();
    let golden = serde_json::to_string_pretty(&golden).expect("JSON") + "\n";
    let path = manifest_dir().join(match version {
        MacroVersion::V0_22 => "tests/golden/editor-cases.json",
        MacroVersion::V0_23 => "tests/golden/editor-cases-v0-23.json",
    });
    if std::env::var_os("UPDATE_EXPANSIONS").is_some() {
        std::fs::write(&path, &golden).expect("writing the editor's golden errors");
    }
    assert_eq!(
        std::fs::read_to_string(&path).ok().as_deref(),
        Some(golden.as_str()),
        "{} is not what rustc says now: regenerate it with \
         `UPDATE_EXPANSIONS=1 cargo test --test expansion`",
        path.display()
    );
    assert!(
        accepted.len() >= 10 && accepted.len() < cases.len(),
        "{} of {} cases accepted: the file should hold both kinds",
        accepted.len(),
        cases.len()
    );

    // The accepted ones alone, expanded by the real macro, and by rustc from the expander's tokens.
    let real_cases: Vec<(String, String)> = accepted
        .iter()
        .map(|(name, text, _)| (name.clone(), text.clone()))
        .collect();
    let (real, errors) = real_macro_on(&real_cases, version);
    assert!(errors.iter().all(Vec::is_empty), "rustc: {errors:?}");
    let real = real.expect("rustc expands the accepted cases");
    let kept = expansion_target().join(match version {
        MacroVersion::V0_22 => "edited-cases",
        MacroVersion::V0_23 => "edited-cases-v0-23",
    });
    for (index, (name, _, tokens)) in accepted.iter().enumerate() {
        let module = case_module(index, tokens, version);
        let ours = case_in(&rustc_expand(&module, &[]), index);
        let theirs = case_in(&real, index);
        assert!(
            theirs.is_some(),
            "{name}: no module case_{index} in rustc's expansion"
        );
        if ours != theirs {
            // Both, for a diff.
            for (side, code) in [("expander", &ours), ("macro", &theirs)] {
                std::fs::write(
                    kept.join(format!("case_{index}.{side}.rs")),
                    code.as_deref().unwrap_or(""),
                )
                .expect("keeping the difference");
            }
            differ.push(name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "the expander emits other code than the real macro for: {differ:?} (both are in {})",
        kept.display()
    );
}

/// The editor's example of a text the two versions route differently is one of the edited
/// cases, so both versions' expansions of it are checked against rustc above.
#[test]
fn the_version_example_is_an_edited_case() {
    use burn_extension_playground::teach::editor::versions::VERSION_EXAMPLE;
    assert!(
        editor_cases()
            .iter()
            .any(|(_, text)| text == VERSION_EXAMPLE),
        "VERSION_EXAMPLE is not a case of tests/golden/editor-cases.txt"
    );
}
