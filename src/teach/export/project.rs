//! The scenario as a small Cargo project that reproduces it natively: `Cargo.toml`,
//! `src/main.rs` and a `README.md` (a `.zip` of them: [`super::zip`]).
//!
//! Nothing here is a second copy of the playground's ops: the declaration is the catalog's line,
//! written as the page ran it ([`Declaration::selectors`]); the trait, its implementations, kernel,
//! backward step and default bodies come from the op's own source ([`crate::teach::code`]). Only
//! the wiring a person writes around them (imports, the op as a function of tensors, `main`) is
//! written here. `tests/export.rs` builds and runs those projects and compares what they print, or
//! the panic they raise, with the playground's outcome, which the README states.

use crate::model::catalog::FusionForm;
use crate::model::outcome::Outcome;
use crate::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpArgs, OpKind, Scenario,
};
use crate::teach::code::op_sources::{
    autodiff_gate, declaration_code, fusion_attribute, gated_items, shared_function, sources,
    without_bookkeeping,
};
use crate::teach::code::snippets::{
    CallSite, GRAD_CONTEXT_CODE, REQUIRE_GRAD_CODE, call_code, device_code, float_literal,
    input_code,
};
use crate::teach::numbers::{SHOWN_VALUES, values_text};

/// One file of the project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProjectFile {
    /// Path inside the project, e.g. `src/main.rs`.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// The exported project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// The package's (and the zip's folder's) name.
    pub name: String,
    /// `Cargo.toml`, `src/main.rs`, `README.md`.
    pub files: Vec<ProjectFile>,
}

impl Project {
    /// The text of the file at `path`.
    pub fn file(&self, path: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|file| file.path == path)
            .map(|file| file.text.as_str())
    }
}

/// What a run of the scenario showed, as the exported program shows it: the lines it prints, or
/// the message it panics with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    /// `shape of y = […]`, `y = …` and, when autodiff tracked `y`, `dsum(y)/dx = …`.
    Printed(Vec<String>),
    /// burn's panic message.
    Panicked(String),
}

impl Shown {
    /// What `outcome` showed, or `None` for a run that did not finish.
    pub fn of(outcome: &Outcome) -> Option<Shown> {
        match outcome {
            Outcome::Completed(completed) => {
                let mut lines = vec![
                    format!("shape of y = {:?}", completed.output.shape),
                    format!(
                        "y = {}",
                        values_text(&completed.output.values, completed.output.elements())
                    ),
                ];
                if let Some(gradient) = &completed.gradient {
                    lines.push(format!(
                        "dsum(y)/dx = {}",
                        values_text(&gradient.values, gradient.elements())
                    ));
                }
                Some(Shown::Printed(lines))
            }
            Outcome::Panicked(report) => Some(Shown::Panicked(report.message.clone())),
            Outcome::Failed(_) | Outcome::NotBuilt { .. } => None,
        }
    }
}

/// The package name for a scenario: `scale-cube-flex-grad-none`.
fn package_name(scenario: &Scenario) -> String {
    format!(
        "{}-{}-{}-{}",
        scenario.args.kind().name().replace('_', "-"),
        scenario.declaration.module().replace('_', "-"),
        if scenario.grad_context {
            "grad"
        } else {
            "no-grad"
        },
        match scenario.fix {
            Fix::None => "no-fix",
            Fix::WithoutAutodiff => "without-autodiff",
            Fix::Builtin => "builtin",
        }
    )
}

/// The files of every exported project, in the order they are listed.
pub const FILES: [&str; 3] = ["Cargo.toml", "src/main.rs", "README.md"];

/// Exports `scenario`; `shown` is what the playground showed when it ran it (written into the
/// README), if it did.
pub fn export(scenario: &Scenario, shown: Option<&Shown>) -> Project {
    let name = package_name(scenario);
    Project {
        files: FILES
            .iter()
            .map(|&path| ProjectFile {
                path: path.to_owned(),
                text: file_text(path, &name, scenario, shown),
            })
            .collect(),
        name,
    }
}

/// One file of the project [`export`] writes: a page shows a file only when it is opened (a
/// tensor of a million values is a `main.rs` of megabytes).
pub fn export_file(scenario: &Scenario, shown: Option<&Shown>, path: &str) -> String {
    file_text(path, &package_name(scenario), scenario, shown)
}

fn file_text(path: &str, name: &str, scenario: &Scenario, shown: Option<&Shown>) -> String {
    match path {
        "Cargo.toml" => cargo_toml(name, scenario),
        "src/main.rs" => main_rs(scenario),
        "README.md" => readme(name, scenario, shown),
        _ => String::new(),
    }
}

/// The top of an exported Cargo.toml, up to its dependencies.
pub(super) fn package_header(name: &str) -> String {
    format!(
        "[package]\n\
         name = \"{name}\"\n\
         version = \"0.1.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\
         \n\
         [dependencies]\n"
    )
}

/// The dependencies of `scale`'s hand-written kernel, as Cargo.toml lists them.
pub const KERNEL_DEPENDENCIES: &str = "# The hand-written kernel: CubeCL, and burn's CubeCL backend for its tensor type.\n\
     burn-cubecl = { version = \"=0.22.1\", default-features = false, features = [\"std\"] }\n\
     cubecl = { version = \"0.11\", default-features = false }\n";

fn cargo_toml(name: &str, scenario: &Scenario) -> String {
    let kernel = if scenario.args.kind() == OpKind::Scale {
        KERNEL_DEPENDENCIES
    } else {
        ""
    };
    let feature = match scenario.declaration.autodiff() {
        AutodiffDeclared::CfgOff => {
            "\n[features]\n\
             # The op lists `Autodiff` behind this feature. Off by default, as on the playground's page:\n\
             # `cargo run --features autodiff` turns it on.\n\
             autodiff = []\n"
        }
        AutodiffDeclared::CfgOn => {
            "\n[features]\n\
             # The op lists `Autodiff` behind this feature, on by default, as on the playground's page:\n\
             # `cargo run --no-default-features` turns it off.\n\
             default = [\"autodiff\"]\n\
             autodiff = []\n"
        }
        AutodiffDeclared::Absent | AutodiffDeclared::Listed => "",
    };
    // burn-wgpu turns `fusion` on by default; the playground's toggle says whether it is on.
    let (fusion_note, fusion_feature) = if scenario.fusion {
        (
            "# With `fusion`, as burn-wgpu's default features have it: `Cube` is `Fusion<CubeBackend>`.\n",
            ", \"fusion\"",
        )
    } else {
        ("", "")
    };
    format!(
        "{}\
         # burn 0.22.1, the release whose generated routing the playground runs: custom ops\n\
         # (`extension`), the grad context (`autodiff`), WebGPU/Vulkan/Metal (`wgpu`) and the CPU\n\
         # (`flex`). The op is implemented for both backends, as in the playground.\n\
         {fusion_note}\
         burn = {{ version = \"=0.22.1\", default-features = false, features = [\"std\", \"extension\", \"autodiff\", \"wgpu\", \"flex\"{fusion_feature}] }}\n\
         {kernel}{feature}",
        package_header(name),
    )
}

/// `let values: Vec<f32> = vec![…];` laid out as rustfmt lays it out (one line when it fits;
/// else short numbers packed into lines of at most 100 columns, long ones one per line).
fn values_statement(element: &str, items: &[String]) -> String {
    let head = format!("    let values: Vec<{element}> = vec![");
    let one_line = format!("{head}{}];", items.join(", "));
    if one_line.len() <= 100 {
        return one_line + "\n";
    }
    let mut out = format!("{head}\n");
    if items.iter().all(|item| item.len() <= 10) {
        let mut line = String::new();
        for item in items {
            let piece = format!("{item},");
            if !line.is_empty() && 8 + line.len() + 1 + piece.len() > 100 {
                out.push_str(&format!("        {line}\n"));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&piece);
        }
        out.push_str(&format!("        {line}\n"));
    } else {
        for item in items {
            out.push_str(&format!("        {item},\n"));
        }
    }
    out + "    ];\n"
}

/// The statement holding the scenario's input values.
fn input_literal(scenario: &Scenario) -> String {
    match &scenario.args {
        OpArgs::Scale { x, .. } | OpArgs::LeakyRelu { x, .. } => values_statement(
            "f32",
            &x.values
                .iter()
                .map(|value| float_literal(*value))
                .collect::<Vec<_>>(),
        ),
        OpArgs::ShiftIds { ids, .. } => values_statement(
            "i32",
            &ids.values.iter().map(i32::to_string).collect::<Vec<_>>(),
        ),
    }
}

/// The type the concrete impls are for: burn's `Cube`, or with `Fusion` listed the CubeCL backend
/// under fusion (the declare macro's `$cube`, as the engine's op module reads it).
fn concrete_cube(declaration: Declaration) -> &'static str {
    if declaration.fusion() == FusionForm::None {
        "Cube"
    } else {
        "CubeBackend"
    }
}

/// The op's trait, its implementations, and its kernel or body.
fn op_source(op: OpKind, declaration: Declaration) -> String {
    let sources = sources(op);
    let mut parts = vec![declaration_code(op, declaration)];
    if declaration.fusion() == FusionForm::Meta
        && let Some(meta) = shared_function("same_spec")
    {
        parts.push(meta.trim_end().to_owned());
    }
    let cube = concrete_cube(declaration);
    parts.push(
        without_bookkeeping(sources.concrete)
            .replace(" for Cube {", &format!(" for {cube} {{"))
            .trim_end()
            .to_owned(),
    );
    if declaration.autodiff() != AutodiffDeclared::Absent && !sources.autodiff_support.is_empty() {
        parts.push(gated_items(
            &autodiff_gate(declaration),
            sources.autodiff_support,
        ));
    }
    parts.push(sources.support.trim_end().to_owned());
    parts.push(op_function(op).to_owned());
    parts.join("\n\n")
}

/// The op as a function of tensors, as a person wraps a custom op: the one place the exported
/// program goes through the routing `#[backend_extension]` generated.
pub(super) fn op_function(op: OpKind) -> &'static str {
    match op {
        OpKind::Scale => {
            "/// `scale` on tensors: through the routing `#[backend_extension]` generated for `ScaleOps`.\n\
             fn scale<const D: usize>(x: Tensor<D>, factor: f32) -> Tensor<D> {\n    \
             Tensor::from_dispatch(<Dispatch as ScaleOps>::scale(x.into_dispatch(), factor))\n\
             }"
        }
        OpKind::LeakyRelu => {
            "/// `leaky_relu` on tensors: through the routing `#[backend_extension]` generated.\n\
             fn leaky_relu<const D: usize>(x: Tensor<D>, slope: f32) -> Tensor<D> {\n    \
             Tensor::from_dispatch(<Dispatch as LeakyReluOps>::leaky_relu(\n        \
             x.into_dispatch(),\n        \
             slope,\n    \
             ))\n\
             }"
        }
        OpKind::ShiftIds => {
            "/// `shift_ids` on tensors: through the routing `#[backend_extension]` generated.\n\
             fn shift_ids<const D: usize>(ids: Tensor<D, Int>, offset: i32) -> Tensor<D, Int> {\n    \
             Tensor::from_dispatch(<Dispatch as ShiftIdsOps>::shift_ids(\n        \
             ids.into_dispatch(),\n        \
             offset,\n    \
             ))\n\
             }"
        }
    }
}

pub(super) fn uses(op: OpKind, declaration: Declaration) -> String {
    let with_autodiff = declaration.autodiff() != AutodiffDeclared::Absent;
    let gate = autodiff_gate(declaration);
    let under_fusion = declaration.fusion() != FusionForm::None;
    let mut uses = String::new();
    match op {
        OpKind::Scale => {
            if with_autodiff {
                uses.push_str(&format!(
                    "{gate}use burn::backend::autodiff::{{\n    \
                     Autodiff,\n    \
                     checkpoint::{{base::Checkpointer, strategy::CheckpointStrategy}},\n    \
                     grads::Gradients,\n    \
                     ops::{{Backward, Ops, OpsKind}},\n\
                     }};\n"
                ));
            }
            // Laid out as rustfmt lays it out (the export test checks), with `Cube` or, for the
            // impl under fusion, `wgpu::CubeBackend`.
            uses.push_str(if under_fusion {
                "use burn::backend::{\n    \
                 Backend, Dispatch, Flex, TensorMetadata, backend_extension, cubecl::dtype_to_storage_type,\n    \
                 ops::FloatTensorOps, tensor::FloatTensor, wgpu::CubeBackend,\n\
                 };\n"
            } else {
                "use burn::backend::{\n    \
                 Backend, Cube, Dispatch, Flex, TensorMetadata, backend_extension,\n    \
                 cubecl::dtype_to_storage_type, ops::FloatTensorOps, tensor::FloatTensor,\n\
                 };\n"
            });
            uses.push_str(
                "use burn::tensor::{Device, Tensor, TensorData};\n\
                 use burn_cubecl::{kernel::into_contiguous, tensor::CubeTensor};\n\
                 use cubecl::{CubeCount, CubeDim, prelude::InputScalar};\n",
            );
        }
        OpKind::LeakyRelu | OpKind::ShiftIds => {
            if with_autodiff {
                uses.push_str(&format!(
                    "{gate}use burn::backend::autodiff::{{Autodiff, checkpoint::strategy::CheckpointStrategy}};\n"
                ));
            }
            let tensor = if op == OpKind::LeakyRelu {
                "tensor::FloatTensor"
            } else {
                "tensor::IntTensor"
            };
            uses.push_str(&if under_fusion {
                format!(
                    "use burn::backend::{{\n    \
                     Backend, Dispatch, Flex, backend_extension, {tensor}, wgpu::CubeBackend,\n\
                     }};\n"
                )
            } else {
                format!(
                    "use burn::backend::{{Backend, Cube, Dispatch, Flex, backend_extension, {tensor}}};\n"
                )
            });
            uses.push_str(if op == OpKind::ShiftIds {
                "use burn::tensor::{Device, Int, Tensor, TensorData};\n"
            } else {
                "use burn::tensor::{Device, Tensor, TensorData};\n"
            });
        }
    }
    uses
}

pub(super) fn main_fn(scenario: &Scenario) -> String {
    let op = scenario.args.kind();
    let int = op.takes_int_input();
    let values = input_literal(scenario);
    let device = match scenario.backend {
        BackendChoice::Gpu => format!(
            "    // WebGPU, Vulkan, Metal or DX12 through burn-wgpu (the playground's WebGPU).\n    {}\n",
            device_code(BackendChoice::Gpu)
        ),
        BackendChoice::Cpu => format!(
            "    // burn-flex, the CPU backend.\n    {}\n",
            device_code(BackendChoice::Cpu)
        ),
    };
    let grad = if scenario.grad_context {
        format!(
            "    // The grad context of a training loop: the tensors live on an autodiff device.\n    {GRAD_CONTEXT_CODE}\n"
        )
    } else {
        String::new()
    };
    let require_grad = if scenario.require_grad && !int {
        format!("    {REQUIRE_GRAD_CODE}\n")
    } else {
        String::new()
    };
    let input = input_code(&scenario.args);
    let fix_comment = match scenario.fix {
        Fix::None => "    // The custom op, called through the routing burn's macro generated.\n",
        Fix::WithoutAutodiff => {
            "    // The without-autodiff fix: the op gets its input's concrete tensor, outside the graph.\n"
        }
        Fix::Builtin => "    // The builtin fix: burn's own tensor ops instead of the custom op.\n",
    };
    let element = if int { "i64" } else { "f32" };
    let gradient = if int {
        String::new()
    } else {
        "\n    // The gradient of sum(y) with respect to x, when autodiff tracks y.\n    \
         if y.is_tracked() {\n        \
         let grads = y.sum().backward();\n        \
         if let Some(gradient) = x.grad(&grads) {\n            \
         println!(\n                \
         \"dsum(y)/dx = {}\",\n                \
         shown(gradient.to_data().iter::<f32>().collect())\n            \
         );\n        \
         }\n    \
         }\n"
        .to_owned()
    };
    let call = call_code(op, scenario.fix, &CallSite::single_run(&scenario.args));
    format!(
        "fn main() {{\n\
         {device}{grad}{values}    {input}\n\
         {require_grad}\n\
         {fix_comment}    {call}\n    \
         // Its shape first, as the page reads it: under `Fusion`, the one the method declares.\n    \
         println!(\"shape of y = {{:?}}\", y.dims());\n    \
         println!(\"y = {{}}\", shown(y.to_data().iter::<{element}>().collect()));\n\
         {gradient}}}\n\n\
         /// Values as the playground shows them: each in Rust's shortest exact form, comma-separated,\n\
         /// the first {SHOWN_VALUES} of them.\n\
         fn shown<T: ToString>(values: Vec<T>) -> String {{\n    \
         let mut parts: Vec<String> = values.iter().take({SHOWN_VALUES}).map(T::to_string).collect();\n    \
         if values.len() > {SHOWN_VALUES} {{\n        \
         parts.push(format!(\"… ({{}} more)\", values.len() - {SHOWN_VALUES}));\n    \
         }}\n    \
         parts.join(\", \")\n\
         }}\n",
    )
}

fn main_rs(scenario: &Scenario) -> String {
    let op = scenario.args.kind();
    format!(
        "//! {title}\n//!\n//! Exported from the Burn Extension Playground. `cargo run` reproduces what the page showed;\n//! README.md says what that was.\n\n{uses}\n{source}\n\n{main}",
        title = title(scenario),
        uses = uses(op, scenario.declaration),
        source = op_source(op, scenario.declaration).trim_end(),
        main = main_fn(scenario),
    )
}

fn title(scenario: &Scenario) -> String {
    format!(
        "`{}` declared `#[backend_extension({})]`{}{}, called {}{}.",
        scenario.args.kind().name(),
        scenario.declaration.selectors(),
        fusion_attribute(scenario.args.kind(), scenario.declaration.fusion())
            .map(|attribute| format!(" with `{attribute}`"))
            .unwrap_or_default(),
        match scenario.declaration.autodiff() {
            AutodiffDeclared::CfgOff => " with the feature off",
            AutodiffDeclared::CfgOn => " with the feature on",
            AutodiffDeclared::Absent | AutodiffDeclared::Listed => "",
        },
        if scenario.grad_context {
            "in a grad context (an autodiff device, as in a training loop)"
        } else {
            "outside a grad context"
        },
        match scenario.fix {
            Fix::None => "",
            Fix::WithoutAutodiff => ", on its input without autodiff (x.without_autodiff())",
            Fix::Builtin => ", replaced by burn's builtin ops",
        }
    ) + if scenario.fusion {
        " burn is built with its `fusion` feature."
    } else {
        ""
    }
}

/// The README: what the project is, and what the playground showed when it ran the scenario.
fn readme(name: &str, scenario: &Scenario, shown: Option<&Shown>) -> String {
    let backend = match scenario.backend {
        BackendChoice::Gpu => "WebGPU",
        BackendChoice::Cpu => "the CPU backend (burn-flex)",
    };
    let outcome = match shown {
        Some(Shown::Printed(lines)) => format!(
            "On the playground's page this scenario ran on {backend} and showed what `cargo run`\n\
             prints:\n\n```text\n{}\n```\n",
            lines.join("\n")
        ),
        Some(Shown::Panicked(message)) => format!(
            "On the playground's page this scenario panicked on {backend}, with the message\n\
             `cargo run` panics with:\n\n```text\n{message}\n```\n"
        ),
        None => "The playground had not finished a run of this scenario when it was exported.\n"
            .to_owned(),
    };
    let feature = match scenario.declaration.autodiff() {
        AutodiffDeclared::CfgOff => {
            "\nThe op lists `Autodiff` behind `cfg(feature = \"autodiff\")`, and the feature is off by\n\
             default, so the generated arms for an autodiff context are compiled out. Run\n\
             `cargo run --features autodiff` to compile them in.\n"
        }
        AutodiffDeclared::CfgOn => {
            "\nThe op lists `Autodiff` behind `cfg(feature = \"autodiff\")`, and the feature is on by\n\
             default. `cargo run --no-default-features` compiles the arms for an autodiff context\n\
             out.\n"
        }
        AutodiffDeclared::Absent | AutodiffDeclared::Listed => "",
    };
    format!(
        "# {name}\n\n\
         {title}\n\n\
         Exported from the Burn Extension Playground: the op's trait with exactly the declaration\n\
         chosen there, its implementations (the CubeCL backend's and the Flex CPU backend's, and the\n\
         `Autodiff<B, C>` one when `Autodiff` is declared) and a `main` that calls it as the page did.\n\n\
         ```sh\ncargo run\n```\n\n\
         {outcome}{feature}",
        title = title(scenario),
    )
}
