//! What rustc says about the declarations the fusion engine does not build, captured from rustc.
//!
//! With burn's `fusion` feature, `Cube` is `Fusion<CubeBackend>`, and some lines of the catalog
//! stop compiling for some ops: scale's concrete impl is written against CubeCL's own tensors, so
//! without the `Fusion` selector nothing implements its trait for `Fusion<CubeBackend>`; and
//! `#[fusion(default)]` asks for a default body scale does not have. The engine leaves those
//! lines out (`ops::built`), and the page shows what rustc says instead of a run.
//!
//! This test exports each of them as the page's "Take it home" does (burn with `fusion`), builds
//! it with cargo (`--message-format=json`, in the export tests' target dir, so burn compiles
//! once), and takes rustc's first error as rustc renders it. The shipped file
//! `src/ops/diagnostics/fusion.txt` must hold exactly those; regenerate it with
//!
//! ```sh
//! UPDATE_DIAGNOSTICS=1 cargo test --features fusion --test diagnostics
//! ```
//!
//! It also checks the other direction: a line the engine builds exports a project that builds
//! too (one per op: the lines that list `Fusion`, whose projects the export test runs).
#![cfg(feature = "fusion")]

use std::path::PathBuf;
use std::process::Command;

#[path = "projects/mod.rs"]
mod projects;

use burn_extension_playground::model::catalog::FusionForm;
use burn_extension_playground::model::scenario::{BackendChoice, Declaration, Fix, OpKind};
use burn_extension_playground::ops;
use burn_extension_playground::teach::export::project::{Project, export};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::routing::diagnostics::FUSION_DIAGNOSTICS;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The project the page exports for `op` declared as `declaration`, called in a grad context on
/// the GPU, with burn's fusion on.
fn project(op: OpKind, declaration: Declaration) -> Project {
    let mut form = Form::default();
    form.op = op;
    form.declaration = declaration;
    form.grad_context = true;
    form.require_grad = !op.takes_int_input();
    form.fix = Fix::None;
    form.backend = BackendChoice::Gpu;
    form.fusion = true;
    export(&form.scenario().expect("the default inputs parse"), None)
}

/// Builds `project`: `Ok` when it builds, else rustc's first error as rustc renders it.
fn first_error(project: &Project) -> Result<(), String> {
    let dir = projects::target_dir()
        .join("diagnostics-projects")
        .join(&project.name);
    for file in &project.files {
        let path = dir.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &file.text).unwrap();
    }
    std::fs::copy(manifest_dir().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let build = Command::new(env!("CARGO"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", projects::export_target())
        .args(["build", "--quiet", "--offline", "--message-format=json"])
        .output()
        .expect("running cargo");
    if build.status.success() {
        projects::remove_binary(&project.name);
        return Ok(());
    }
    let stdout = String::from_utf8_lossy(&build.stdout);
    let rendered = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-message")
        .map(|message| message["message"].clone())
        .find(|message| message["level"] == "error")
        .and_then(|message| message["rendered"].as_str().map(str::to_owned))
        .unwrap_or_else(|| {
            panic!(
                "{} failed without a compiler error:\n{}",
                project.name,
                String::from_utf8_lossy(&build.stderr)
            )
        });
    Err(rendered.trim_end().to_owned())
}

#[test]
fn shipped_diagnostics_are_what_rustc_says() {
    let mut captured = String::new();
    for op in OpKind::ALL {
        for &declaration in Declaration::ALL {
            if ops::built(op, declaration) {
                continue;
            }
            let error = first_error(&project(op, declaration))
                .err()
                .unwrap_or_else(|| {
                    panic!("{op:?} {declaration:?} is not built, but its project builds")
                });
            captured.push_str(&format!(
                "=== {}__{}\n{error}\n",
                op.name(),
                declaration.module()
            ));
        }
    }
    let path = manifest_dir().join("src/ops/diagnostics/fusion.txt");
    if std::env::var_os("UPDATE_DIAGNOSTICS").is_some() {
        std::fs::write(&path, &captured).expect("writing the diagnostics");
        return;
    }
    assert!(
        FUSION_DIAGNOSTICS == captured,
        "the shipped diagnostics differ from what rustc says now; regenerate them with\n\
         UPDATE_DIAGNOSTICS=1 cargo test --features fusion --test diagnostics\n\
         --- rustc now:\n{captured}"
    );
}

#[test]
fn a_line_the_engine_builds_exports_a_project_that_builds() {
    for op in OpKind::ALL {
        // The first line that lists `Fusion` and builds for the op.
        let declaration = *Declaration::ALL
            .iter()
            .find(|declaration| {
                declaration.fusion() != FusionForm::None && ops::built(op, **declaration)
            })
            .expect("a built line listing Fusion");
        if let Err(error) = first_error(&project(op, declaration)) {
            panic!("{op:?} {declaration:?} is built, but its project does not build:\n{error}");
        }
    }
}
