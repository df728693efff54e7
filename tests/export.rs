//! "Take it home": exported Cargo projects build against the registry's burn 0.22.1, run, and do
//! what the playground did — the same printed values, or the same panic text.
//!
//! A representative set: every op × declaration in a training loop's grad context, each fix of
//! each op, and a backend the op does not declare. The projects share one target dir (inside
//! `CARGO_TARGET_DIR`, or `target/`), and the crate's own `Cargo.lock`, so burn compiles once
//! and no crate is fetched: each project then costs its own compile and link.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::outcome::Outcome;
use burn_extension_playground::model::scenario::{
    BackendChoice, Declaration, Fix, OpKind, Scenario,
};
use burn_extension_playground::teach::export::{Project, export, zip};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::present::values_text;
use libtest_mimic::{Arguments, Failed, Trial};

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| pollster::block_on(Engine::init(true)))
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// A scenario with the op's example inputs (a 2-D one for `scale`).
fn scenario(
    op: OpKind,
    declaration: Declaration,
    grad_context: bool,
    fix: Fix,
    backend: BackendChoice,
) -> Scenario {
    let mut form = Form::default();
    form.op = op;
    if op == OpKind::Scale {
        form.texts_mut().tensor = "1, -2; 3.5, 0.25".to_owned();
    }
    form.declaration = declaration;
    form.grad_context = grad_context;
    form.require_grad = grad_context && !op.takes_int_input();
    form.fix = fix;
    form.backend = backend;
    form.scenario().expect("the example inputs parse")
}

fn scenarios() -> Vec<Scenario> {
    let mut scenarios = Vec::new();
    for op in OpKind::ALL {
        for &declaration in Declaration::ALL {
            scenarios.push(scenario(
                op,
                declaration,
                true,
                Fix::None,
                BackendChoice::Gpu,
            ));
        }
        for fix in [Fix::Detach, Fix::Builtin] {
            scenarios.push(scenario(
                op,
                Declaration::WITHOUT_AUTODIFF,
                true,
                fix,
                BackendChoice::Gpu,
            ));
        }
    }
    scenarios.push(scenario(
        OpKind::Scale,
        Declaration::Cube,
        false,
        Fix::None,
        BackendChoice::Cpu,
    ));
    scenarios.push(scenario(
        OpKind::LeakyRelu,
        Declaration::WITH_AUTODIFF,
        true,
        Fix::None,
        BackendChoice::Cpu,
    ));
    scenarios
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

/// What the playground shows for `outcome`, as the exported program prints or panics it.
fn expected_lines(outcome: &Outcome) -> Result<(Vec<String>, Option<String>), Failed> {
    match outcome {
        Outcome::Completed(completed) => {
            let mut lines = vec![format!(
                "y = {}",
                values_text(&completed.output.values, completed.output.elements())
            )];
            if let Some(gradient) = &completed.gradient {
                lines.push(format!(
                    "dsum(y)/dx = {}",
                    values_text(&gradient.values, gradient.elements())
                ));
            }
            Ok((lines, None))
        }
        Outcome::Panicked(report) => Ok((Vec::new(), Some(report.message.clone()))),
        Outcome::Failed(reason) => Err(format!("the playground's run failed: {reason}").into()),
    }
}

fn check(scenario: Scenario) -> Result<(), Failed> {
    let project = export(&scenario);
    let dir = write(&project, &target_dir().join("export-projects"));
    let build = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target_dir().join("export-target"))
        .args(["build", "--quiet", "--offline"])
        .output()
        .map_err(|error| format!("running cargo: {error}"))?;
    if !build.status.success() {
        return Err(format!(
            "{} does not build:\n{}",
            project.name,
            String::from_utf8_lossy(&build.stderr)
        )
        .into());
    }
    let binary = target_dir().join("export-target/debug").join(&project.name);
    let run = Command::new(&binary)
        .env(
            "XDG_RUNTIME_DIR",
            std::env::var_os("XDG_RUNTIME_DIR").unwrap_or_else(|| "/tmp".into()),
        )
        .output()
        .map_err(|error| format!("running {}: {error}", binary.display()))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    let outcome = pollster::block_on(engine().run(&scenario));
    let (lines, panic) = expected_lines(&outcome)?;
    match panic {
        None => {
            if !run.status.success() {
                return Err(format!("{} failed:\n{stderr}", project.name).into());
            }
            let printed: Vec<&str> = stdout.lines().collect();
            if printed != lines {
                return Err(format!(
                    "{} printed {printed:?}, the playground shows {lines:?}",
                    project.name
                )
                .into());
            }
        }
        Some(message) => {
            // Rust prints `thread 'main' (id) panicked at src/main.rs:…:\n<message>`.
            let raised = stderr
                .lines()
                .skip_while(|line| !line.contains("panicked at src/main.rs:"))
                .nth(1);
            if run.status.success() || raised != Some(message.as_str()) {
                return Err(format!(
                    "{} should panic with {message:?}; it exited {:?} with:\n{stderr}",
                    project.name, run.status
                )
                .into());
            }
        }
    }
    Ok(())
}

/// The archive opens with Python's zipfile (a reader that checks every CRC) and holds exactly
/// the project's files.
fn check_zip() -> Result<(), Failed> {
    let project = export(&scenario(
        OpKind::Scale,
        Declaration::CubeFlexAutodiffCfg,
        true,
        Fix::None,
        BackendChoice::Gpu,
    ));
    let path = target_dir()
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
fn check_formatted() -> Result<(), Failed> {
    let root = target_dir().join("export-projects");
    let mut unformatted = Vec::new();
    for scenario in scenarios() {
        let project = export(&scenario);
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
    let mut trials: Vec<Trial> = scenarios()
        .into_iter()
        .map(|scenario| Trial::test(export(&scenario).name, move || check(scenario)))
        .collect();
    trials.push(Trial::test("the_zip_holds_the_project", check_zip));
    trials.push(Trial::test(
        "exported_code_is_rustfmt_formatted",
        check_formatted,
    ));
    // One project at a time: they share a target dir, and cargo builds one at a time anyway.
    let args = Arguments {
        test_threads: Some(1),
        ..args
    };
    libtest_mimic::run(&args, trials).exit();
}
