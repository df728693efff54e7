//! "Take it home": exported Cargo projects build against the registry's burn 0.22.1, run, and do
//! what the playground did — the same printed values, or the same panic text — which their README
//! states.
//!
//! The projects built: a representative set (every op × declaration in a training loop's grad
//! context, each fix of each op, a backend the op does not declare), then, for every piece of fix
//! code the page shows in any cell of the golden table (`tests/golden/matrix.json`, whose rows
//! list each cell's fixes), a project that holds it, until every one is held by a project that is
//! built and run. The code of the fixes a training panic offers is built in the project of the
//! same fix, with the call put where a model makes it. A project whose op lists `Autodiff` behind
//! its feature is also run with `cargo run --features autodiff`, as its README says, and must do
//! what the playground shows with the feature on.
//!
//! Built with `--features fusion` (the fusion engine), it builds and runs instead the projects
//! of the lines that list `Fusion`, whose Cargo.toml turns burn's `fusion` on.
//!
//! The projects share one target dir (inside `CARGO_TARGET_DIR`, or `target/`), and the crate's
//! own `Cargo.lock`, so burn compiles once and no crate is fetched: each project then costs its
//! own compile and link.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

#[path = "projects/mod.rs"]
mod projects;

#[path = "editor_cases/mod.rs"]
mod editor_cases;

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::catalog::FusionForm;
use burn_extension_playground::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind, Scenario,
};
use burn_extension_playground::ops;
use burn_extension_playground::teach::code::snippets::{CallSite, call_code, training_call_site};
use burn_extension_playground::teach::editor::starting_text;
use burn_extension_playground::teach::export::edited::{OUTLINED_LINE, OpMethod, export_edited};
use burn_extension_playground::teach::export::project::{Project, Shown, export};
use burn_extension_playground::teach::export::zip::zip;
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::link::words::LinkWord;
use burn_extension_playground::teach::words::explain::FixAction;
use libtest_mimic::{Arguments, Failed, Trial};
use serde::Deserialize;

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| pollster::block_on(Engine::init(true)))
}

/// The page's form for a scenario, with the op's example inputs (a 2-D one for `scale`).
fn form(
    op: OpKind,
    declaration: Declaration,
    grad_context: bool,
    fix: Fix,
    backend: BackendChoice,
) -> Form {
    let mut form = Form::default();
    form.op = op;
    if op == OpKind::Scale {
        form.texts_mut().tensor = "1, -2; 3.5, 0.25".into();
    }
    form.declaration = declaration;
    form.grad_context = grad_context;
    form.require_grad = grad_context && !op.takes_int_input();
    form.fix = fix;
    form.backend = backend;
    form.fusion = FUSION;
    form
}

/// Whether this build of the engine has burn's `fusion` feature (`--features fusion`): then the
/// projects are the lines that list `Fusion`, exported with burn's fusion on.
const FUSION: bool = cfg!(feature = "fusion");

fn scenario(form: &Form) -> Scenario {
    form.scenario().expect("the inputs parse")
}

/// `op` declared by `declaration` and called as written (no fix), in a grad context on the GPU.
fn as_written(op: OpKind, declaration: Declaration) -> Scenario {
    scenario(&form(op, declaration, true, Fix::None, BackendChoice::Gpu))
}

/// Every op × declaration in a grad context, each fix of each op, and a backend the op does not
/// declare.
fn representative() -> Vec<Scenario> {
    if FUSION {
        return under_fusion();
    }
    let mut scenarios = Vec::new();
    for op in OpKind::ALL {
        let lines = Declaration::ALL
            .iter()
            .filter(|declaration| declaration.fusion() == FusionForm::None);
        for &declaration in lines {
            scenarios.push(as_written(op, declaration));
        }
        for fix in [Fix::WithoutAutodiff, Fix::Builtin] {
            scenarios.push(scenario(&form(
                op,
                Declaration::WITHOUT_AUTODIFF,
                true,
                fix,
                BackendChoice::Gpu,
            )));
        }
    }
    scenarios.push(scenario(&form(
        OpKind::Scale,
        Declaration::Cube,
        false,
        Fix::None,
        BackendChoice::Cpu,
    )));
    scenarios.push(scenario(&form(
        OpKind::LeakyRelu,
        Declaration::WITH_AUTODIFF,
        true,
        Fix::None,
        BackendChoice::Cpu,
    )));
    scenarios
}

/// Under fusion: every line that lists `Fusion` and builds, per op, in a grad context (where the
/// wrong shape of `#[fusion(shape = …)]` meets scale's 2-D input too), and a line without
/// `Fusion` that builds under it.
fn under_fusion() -> Vec<Scenario> {
    let mut scenarios = Vec::new();
    for op in OpKind::ALL {
        for &declaration in Declaration::ALL {
            if declaration.fusion() == FusionForm::None || !ops::built(op, declaration) {
                continue;
            }
            scenarios.push(as_written(op, declaration));
        }
    }
    scenarios.push(as_written(OpKind::LeakyRelu, Declaration::WITH_AUTODIFF));
    scenarios
}

/// The golden table's rows as far as this test reads them.
#[derive(Deserialize)]
struct Table {
    inputs: BTreeMap<String, Inputs>,
    cells: BTreeMap<String, Row>,
}

#[derive(Deserialize)]
struct Inputs {
    tensor: String,
    param: String,
}

#[derive(Deserialize)]
struct Row {
    op: String,
    declares_autodiff: String,
    declares_flex: bool,
    grad_context: bool,
    require_grad: bool,
    fix: String,
    backend: String,
    #[serde(default)]
    fixes: Vec<RowFix>,
}

#[derive(Deserialize)]
struct RowFix {
    actions: Vec<String>,
    changes: Vec<RowChange>,
}

#[derive(Deserialize)]
struct RowChange {
    before: String,
    after: String,
}

fn golden() -> Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/matrix.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the golden table"))
        .expect("the golden table parses")
}

/// The page's form for a golden row.
fn row_form(row: &Row, inputs: &BTreeMap<String, Inputs>) -> Form {
    let op = *OpKind::ALL
        .iter()
        .find(|op| op.name() == row.op)
        .expect("a known op");
    let declaration = *Declaration::ALL
        .iter()
        .find(|declaration| {
            declaration.autodiff().word() == row.declares_autodiff
                && declaration.flex() == row.declares_flex
        })
        .expect("a catalog line");
    let mut form = Form::default();
    form.op = op;
    form.texts_mut().tensor = inputs[&row.op].tensor.as_str().into();
    form.texts_mut().param = inputs[&row.op].param.clone();
    form.declaration = declaration;
    form.grad_context = row.grad_context;
    form.require_grad = row.require_grad;
    form.fix = Fix::from_word(&row.fix).expect("a fix");
    form.backend = BackendChoice::from_word(&row.backend).expect("a backend");
    form
}

fn action(name: &str) -> FixAction {
    FixAction::ALL
        .into_iter()
        .find(|action| format!("{action:?}") == name)
        .unwrap_or_else(|| panic!("unknown fix action {name}"))
}

/// Each non-empty line of `snippet` is a line of `code`, in order.
fn in_order(code: &str, snippet: &str) -> bool {
    let mut lines = code.lines().map(str::trim);
    snippet
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .all(|wanted| lines.any(|line| line == wanted))
}

/// The scenarios to build: the representative ones, then for each piece of fix code the golden
/// table shows (before and after) that no chosen project holds yet, the scenario whose project
/// holds it.
fn scenarios() -> Vec<Scenario> {
    let mut chosen = representative();
    if FUSION {
        // The golden table's fixes are the engine's without fusion.
        return chosen;
    }
    let table = golden();
    let mut mains: Vec<String> = chosen
        .iter()
        .map(|scenario| {
            export(scenario, None)
                .file("src/main.rs")
                .unwrap()
                .to_owned()
        })
        .collect();
    for row in table.cells.values() {
        let before = row_form(row, &table.inputs);
        for fix in &row.fixes {
            let mut after = before.clone();
            for name in &fix.actions {
                action(name).apply(&mut after);
            }
            let code = fix
                .changes
                .iter()
                // The feature's two commands are run below on every project with it off.
                .filter(|change| !change.before.starts_with("$ "))
                .flat_map(|change| [(&before, &change.before), (&after, &change.after)]);
            for (form, code) in code {
                if mains.iter().any(|main| in_order(main, code)) {
                    continue;
                }
                let candidate = scenario(form);
                let main = export(&candidate, None)
                    .file("src/main.rs")
                    .unwrap()
                    .to_owned();
                assert!(
                    in_order(&main, code),
                    "fix code not in its own project:\n{code}\n---\n{main}"
                );
                mains.push(main);
                chosen.push(candidate);
            }
        }
    }
    chosen
}

/// Writes `project` under `root`, with the crate's Cargo.lock so its dependencies resolve to the
/// versions already fetched and built.
fn write(project: &Project, root: &Path) -> PathBuf {
    let dir = root.join(&project.name);
    for file in &project.files {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &file.text).unwrap();
    }
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .unwrap();
    dir
}

/// Builds the project in `dir` (with `features`) and runs it: what it printed, or the message
/// it panicked with.
fn build_and_run(dir: &Path, name: &str, features: &[&str]) -> Result<Shown, Failed> {
    let build = Command::new(env!("CARGO"))
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", projects::export_target())
        .args(["build", "--quiet", "--offline"])
        .args(features)
        .output()
        .map_err(|error| format!("running cargo: {error}"))?;
    if !build.status.success() {
        return Err(format!(
            "{name} does not build:\n{}",
            String::from_utf8_lossy(&build.stderr)
        )
        .into());
    }
    let binary = projects::export_target().join("debug").join(name);
    let run = Command::new(&binary)
        .env(
            "XDG_RUNTIME_DIR",
            std::env::var_os("XDG_RUNTIME_DIR").unwrap_or_else(|| "/tmp".into()),
        )
        .output()
        .map_err(|error| format!("running {}: {error}", binary.display()));
    projects::remove_binary(name);
    let run = run?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.status.success() {
        return Ok(Shown::Printed(stdout.lines().map(str::to_owned).collect()));
    }
    // Rust prints `thread 'main' (id) panicked at <file>:…:\n<message>`: burn's generated code
    // reports main.rs (where the op is declared), burn's own checks their file.
    let raised = stderr
        .lines()
        .skip_while(|line| !line.contains("panicked at "))
        .nth(1)
        .ok_or_else(|| format!("{name} failed without a panic:\n{stderr}"))?;
    Ok(Shown::Panicked(raised.to_owned()))
}

/// What the playground shows for `scenario`, as its engine runs it.
fn shown(scenario: &Scenario) -> Result<Shown, Failed> {
    let outcome = pollster::block_on(engine().run(scenario));
    Shown::of(&outcome).ok_or_else(|| format!("the playground's run failed: {outcome:?}").into())
}

fn check(scenario: Scenario) -> Result<(), Failed> {
    let expected = shown(&scenario)?;
    let project = export(&scenario, Some(&expected));
    let readme = project.file("README.md").unwrap_or("");
    let stated = match &expected {
        Shown::Printed(lines) => lines.join("\n"),
        Shown::Panicked(message) => message.clone(),
    };
    if !readme.contains(&format!("```text\n{stated}\n```")) {
        return Err(format!("the README does not state what the page showed:\n{readme}").into());
    }
    let dir = write(&project, &projects::target_dir().join("export-projects"));
    let got = build_and_run(&dir, &project.name, &[])?;
    if got != expected {
        return Err(format!(
            "{}: `cargo run` gave {got:?}, the page {expected:?}",
            project.name
        )
        .into());
    }
    // The feature off: the README's `cargo run --features autodiff` does what the page does with
    // the feature on.
    if scenario.declaration.autodiff() == AutodiffDeclared::CfgOff {
        if !readme.contains("`cargo run --features autodiff`") {
            return Err("the README does not give `cargo run --features autodiff`".into());
        }
        let on = Scenario {
            declaration: scenario
                .declaration
                .with_autodiff(AutodiffDeclared::CfgOn)
                .ok_or("no feature-on line")?,
            ..scenario.clone()
        };
        let expected = shown(&on)?;
        let got = build_and_run(&dir, &project.name, &["--features", "autodiff"])?;
        if got != expected {
            return Err(format!(
                "{}: `cargo run --features autodiff` gave {got:?}, the page with the feature on {expected:?}",
                project.name
            )
            .into());
        }
    }
    // The feature on by default: the README's `cargo run --no-default-features` does what the
    // page does with the feature off.
    if scenario.declaration.autodiff() == AutodiffDeclared::CfgOn {
        if !readme.contains("`cargo run --no-default-features`") {
            return Err("the README does not give `cargo run --no-default-features`".into());
        }
        let off = Scenario {
            declaration: scenario
                .declaration
                .with_autodiff(AutodiffDeclared::CfgOff)
                .ok_or("no feature-off line")?,
            ..scenario.clone()
        };
        let expected = shown(&off)?;
        let got = build_and_run(&dir, &project.name, &["--no-default-features"])?;
        if got != expected {
            return Err(format!(
                "{}: `cargo run --no-default-features` gave {got:?}, the page with the feature off {expected:?}",
                project.name
            )
            .into());
        }
    }
    Ok(())
}

/// Edited declarations (cases of `tests/golden/editor-cases.txt`, by name) exported as the
/// editor's "Take it home" writes them, built and run. A case whose trait has the `scale` method
/// is exported with a scenario of `scale` in a grad context on the GPU, so its `main` calls
/// `scale` through the routing the case's declaration generated: it must do what the engine
/// does for `line`, the catalog line of the same selectors. The other cases' impls are
/// `todo!()`: their `main` prints what the README says is left to write. Each with the cargo
/// features to run it with.
const EDITED: [(&str, Option<Declaration>, &[&str], bool); 7] = [
    (
        "the catalog's scale, as written",
        Some(Declaration::CubeFlex),
        &[],
        false,
    ),
    (
        "Flex behind a cfg",
        Some(Declaration::CubeFlexAutodiff),
        &[],
        false,
    ),
    ("two methods", None, &[], false),
    ("an extension type", None, &[], false),
    ("an int input with Autodiff listed", None, &[], false),
    (
        "Fusion with the input's dtype and shape",
        Some(Declaration::CubeFlexAutodiffFusion),
        &[],
        true,
    ),
    (
        "Fusion behind a cfg",
        Some(Declaration::CubeFlexFusion),
        &["--features", "fusion"],
        true,
    ),
];

/// The page's expander, run natively.
fn expander() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| editor_cases::expander_binary(&projects::target_dir().join("expansion")))
}

/// The playground's ops' methods, as the expander outlines their declarations.
fn op_methods() -> Vec<OpMethod> {
    let outlines: Vec<_> = OpKind::ALL
        .into_iter()
        .map(|op| {
            let expansion =
                editor_cases::expand_natively(expander(), &starting_text(op, OUTLINED_LINE));
            (
                op,
                expansion.outline.expect("the op's declaration is accepted"),
            )
        })
        .collect();
    OpMethod::from_outlines(outlines.iter().map(|(op, outline)| (*op, outline)))
}

fn check_edited(case: &str, line: Option<Declaration>, features: &[&str]) -> Result<(), Failed> {
    let text = editor_cases::editor_case(case);
    let expansion = editor_cases::expand_natively(expander(), &text);
    let outline = expansion.outline.ok_or_else(|| {
        format!(
            "the expander did not accept `{case}`: {:?}",
            expansion.errors
        )
    })?;
    let scenario = scenario(&form(
        OpKind::Scale,
        line.unwrap_or(Declaration::Cube),
        true,
        Fix::None,
        BackendChoice::Gpu,
    ));
    let project = export_edited(&text, &outline, &op_methods(), &scenario);
    let main_rs = project.file("src/main.rs").unwrap_or("");
    if !main_rs.contains(text.trim_end()) {
        return Err(format!("src/main.rs does not hold the text as written:\n{main_rs}").into());
    }
    let readme = project.file("README.md").unwrap_or("").to_owned();
    let dir = write(&project, &projects::target_dir().join("export-projects"));
    let got = build_and_run(&dir, &project.name, features)?;
    let expected = match line {
        Some(_) => {
            if !readme.contains("`cargo run` calls `scale` through the routing") {
                return Err(
                    format!("the README does not say what `cargo run` calls:\n{readme}").into(),
                );
            }
            shown(&scenario)?
        }
        None => {
            // What `main` prints is the README's account of the impls, line for line.
            let Shown::Printed(lines) = &got else {
                return Err(format!("{}: `cargo run` panicked: {got:?}", project.name).into());
            };
            if lines.is_empty() || !lines.iter().all(|line| readme.contains(line.as_str())) {
                return Err(format!("{lines:?} is not what the README says:\n{readme}").into());
            }
            if !lines
                .iter()
                .all(|line| line.contains("`todo!()`: write its body"))
            {
                return Err(format!("{lines:?} does not say what is left to write").into());
            }
            got.clone()
        }
    };
    if got != expected {
        return Err(format!(
            "{}: `cargo run` gave {got:?}, the engine on {line:?} {expected:?}",
            project.name
        )
        .into());
    }
    Ok(())
}

/// The call a training model makes, in each fix's code (the training panic card's snippets): put
/// in the place of the call in the project of the same fix, built and run. It must print what
/// that project prints — the call is the same op on the same input.
fn check_training_call(op: OpKind, fix: Fix) -> Result<(), Failed> {
    // The model's parameter, on the project's input.
    let mut model = form(
        op,
        Declaration::WITHOUT_AUTODIFF,
        true,
        fix,
        BackendChoice::Gpu,
    );
    model.texts_mut().param = training_call_site(op).param;
    let scenario = scenario(&model);
    let expected = shown(&scenario)?;
    let mut project = export(&scenario, None);
    project.name = format!("{}-in-a-model", project.name);
    let single = call_code(op, fix, &CallSite::single_run(&scenario.args));
    let site = training_call_site(op);
    let in_model = call_code(op, fix, &site);
    let replacement = if op.takes_int_input() {
        format!("{in_model}\n    let y = {};", site.output)
    } else {
        format!(
            "let {} = x.clone();\n    {in_model}\n    let y = {};",
            site.input, site.output
        )
    };
    for file in &mut project.files {
        if file.path == "src/main.rs" {
            if !file.text.contains(&single) {
                return Err(format!("the call `{single}` is not in the project").into());
            }
            file.text = file.text.replace(&single, &replacement);
        } else if file.path == "Cargo.toml" {
            file.text = file.text.replacen(
                &format!("name = \"{}\"", export(&scenario, None).name),
                &format!("name = \"{}\"", project.name),
                1,
            );
        }
    }
    let dir = write(&project, &projects::target_dir().join("export-projects"));
    let got = build_and_run(&dir, &project.name, &[])?;
    if got != expected {
        return Err(format!("`{in_model}` gave {got:?}, the page {expected:?}").into());
    }
    Ok(())
}

/// The archive opens with Python's zipfile (a reader that checks every CRC) and holds exactly
/// the project's files.
fn check_zip() -> Result<(), Failed> {
    let project = export(
        &scenario(&form(
            OpKind::Scale,
            Declaration::CubeFlexAutodiffCfg,
            true,
            Fix::None,
            BackendChoice::Gpu,
        )),
        None,
    );
    let path = projects::target_dir()
        .join("export-projects")
        .join(format!("{}.zip", project.name));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, zip(&project)).unwrap();
    let listing = Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nfor i in z.infolist(): print(i.filename, i.file_size, oct(i.external_attr >> 16))",
        ])
        .arg(&path)
        .output()
        .map_err(|error| format!("running python3: {error}"))?;
    let printed = String::from_utf8_lossy(&listing.stdout).into_owned();
    let expected: String = project
        .files
        .iter()
        .map(|file| {
            format!(
                "{}/{} {} 0o100644\n",
                project.name,
                file.path,
                file.text.len()
            )
        })
        .collect();
    if !listing.status.success() || printed != expected {
        return Err(format!(
            "zip listing:\n{printed}\nexpected:\n{expected}{}",
            String::from_utf8_lossy(&listing.stderr)
        )
        .into());
    }
    Ok(())
}

/// Every exported `main.rs` is formatted as rustfmt formats it: code a person would write.
fn check_formatted(scenarios: Vec<Scenario>) -> Result<(), Failed> {
    let root = projects::target_dir().join("export-projects");
    let mut unformatted = Vec::new();
    for scenario in scenarios {
        let project = export(&scenario, None);
        let dir = write(&project, &root);
        let check = Command::new("rustfmt")
            .args(["--check", "--edition", "2024"])
            .arg(dir.join("src/main.rs"))
            .output()
            .map_err(|error| format!("running rustfmt: {error}"))?;
        if !check.status.success() {
            unformatted.push(format!(
                "{}:\n{}",
                project.name,
                String::from_utf8_lossy(&check.stdout)
            ));
        }
    }
    if unformatted.is_empty() {
        Ok(())
    } else {
        Err(unformatted.join("\n").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let scenarios = scenarios();
    let mut names = std::collections::BTreeSet::new();
    let mut trials: Vec<Trial> = Vec::new();
    for scenario in scenarios.clone() {
        let project = export(&scenario, None);
        // Scenarios that export the same project (they differ in nothing the project says)
        // are built once.
        if names.insert((
            project.name.clone(),
            project.file("src/main.rs").unwrap().to_owned(),
        )) {
            let name = format!("{}::{}", project.name, names.len());
            trials.push(Trial::test(name, move || check(scenario)));
        }
    }
    // The training call and the zip do not depend on fusion: built once, without it.
    for op in OpKind::ALL.into_iter().filter(|_| !FUSION) {
        for fix in Fix::ALL {
            trials.push(Trial::test(
                format!(
                    "the_call_in_a_training_model::{}::{}",
                    op.name(),
                    fix.word()
                ),
                move || check_training_call(op, fix),
            ));
        }
    }
    if !FUSION {
        trials.push(Trial::test("the_zip_holds_the_project", check_zip));
    }
    for (case, line, features, under_fusion) in EDITED {
        if under_fusion == FUSION {
            trials.push(Trial::test(
                format!("an_edited_declaration_taken_home::{case}"),
                move || check_edited(case, line, features),
            ));
        }
    }
    trials.push(Trial::test(
        "exported_code_is_rustfmt_formatted",
        move || check_formatted(scenarios),
    ));
    // One project at a time: they share a target dir, and cargo builds one at a time anyway.
    let args = Arguments {
        test_threads: Some(1),
        ..args
    };
    libtest_mimic::run(&args, trials).exit();
}
