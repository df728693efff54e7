//! The scenario as a small Cargo project that reproduces it natively: `Cargo.toml`,
//! `src/main.rs` and a `README.md`, and a `.zip` of them.
//!
//! Nothing here is a copy of the playground's ops: the declaration is the catalog's line, written
//! as the page ran it ([`Declaration::selectors`]); the kernel, the backward step and the
//! default bodies are the very files the engine compiles (`src/ops/*/`, included here as text);
//! only the wiring a person writes around them (the trait, its impls, `main`) is spelled out,
//! without the playground's bookkeeping. `tests/export.rs` builds and runs exported projects and
//! compares what they print, or the panic they raise, with the playground's outcome.

use crate::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpArgs, OpKind, Scenario,
};

/// The scale op's CubeCL kernel and forward passes, as the engine compiles them.
const SCALE_KERNEL: &str = include_str!("../ops/scale/kernel.rs");
/// The scale op's `Backward` step, as the engine compiles it.
const SCALE_BACKWARD: &str = include_str!("../ops/scale/backward.rs");
/// The leaky_relu op's default body, as the engine compiles it.
const LEAKY_RELU_BODY: &str = include_str!("../ops/leaky_relu/body.rs");
/// The shift_ids op's default body, as the engine compiles it.
const SHIFT_IDS_BODY: &str = include_str!("../ops/shift_ids/body.rs");

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
            Fix::Detach => "detached",
            Fix::Builtin => "builtin",
        }
    )
}

/// Exports `scenario` as a Cargo project.
pub fn export(scenario: &Scenario) -> Project {
    let name = package_name(scenario);
    Project {
        files: vec![
            ProjectFile {
                path: "Cargo.toml".to_owned(),
                text: cargo_toml(&name, scenario),
            },
            ProjectFile {
                path: "src/main.rs".to_owned(),
                text: main_rs(scenario),
            },
            ProjectFile {
                path: "README.md".to_owned(),
                text: readme(&name, scenario),
            },
        ],
        name,
    }
}

fn cargo_toml(name: &str, scenario: &Scenario) -> String {
    let kernel = if scenario.args.kind() == OpKind::Scale {
        "# The hand-written kernel: CubeCL, and burn's CubeCL backend for its tensor type.\n\
         burn-cubecl = { version = \"=0.22.1\", default-features = false, features = [\"std\"] }\n\
         cubecl = { version = \"0.11\", default-features = false }\n"
    } else {
        ""
    };
    let feature = if scenario.declaration.autodiff() == AutodiffDeclared::CfgOff {
        "\n[features]\n\
         # The op lists `Autodiff` behind this feature. Off by default, as on the playground's page:\n\
         # `cargo run --features autodiff` turns it on.\n\
         autodiff = []\n"
    } else {
        ""
    };
    format!(
        "[package]\n\
         name = \"{name}\"\n\
         version = \"0.1.0\"\n\
         edition = \"2024\"\n\
         publish = false\n\
         \n\
         [dependencies]\n\
         # burn 0.22.1, the release whose generated routing the playground runs: custom ops\n\
         # (`extension`), the grad context (`autodiff`), WebGPU/Vulkan/Metal (`wgpu`) and the CPU\n\
         # (`flex`). The op is implemented for both backends, as in the playground.\n\
         burn = {{ version = \"=0.22.1\", default-features = false, features = [\"std\", \"extension\", \"autodiff\", \"wgpu\", \"flex\"] }}\n\
         {kernel}{feature}"
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

/// The statement holding the scenario's input values, the tensor's shape and rank.
fn input_literal(scenario: &Scenario) -> (String, String, usize) {
    match &scenario.args {
        OpArgs::Scale { x, .. } | OpArgs::LeakyRelu { x, .. } => (
            values_statement(
                "f32",
                &x.values
                    .iter()
                    .map(|value| format!("{value:?}"))
                    .collect::<Vec<_>>(),
            ),
            format!("{:?}", x.shape),
            x.shape.len(),
        ),
        OpArgs::ShiftIds { ids, .. } => (
            values_statement(
                "i32",
                &ids.values.iter().map(i32::to_string).collect::<Vec<_>>(),
            ),
            format!("{:?}", ids.shape),
            ids.shape.len(),
        ),
    }
}

/// `#[cfg(feature = "autodiff")]\n` for a declaration that gates `Autodiff` behind it.
fn autodiff_gate(declaration: Declaration) -> &'static str {
    match declaration.autodiff() {
        AutodiffDeclared::CfgOff => "#[cfg(feature = \"autodiff\")]\n",
        _ => "",
    }
}

/// The op's trait, its implementations and its kernel or body.
fn op_source(op: OpKind, declaration: Declaration) -> String {
    let selectors = declaration.selectors();
    let with_autodiff = declaration.autodiff() != AutodiffDeclared::Absent;
    let gate = autodiff_gate(declaration);
    match op {
        OpKind::Scale => {
            let autodiff = if with_autodiff {
                format!(
                    "/// The op under autodiff: runs `B::scale` on the inner tensor and records a\n\
                     /// `ScaleBackward` step, so `backward()` can carry the gradient through.\n\
                     {gate}impl<B: ScaleOps, C: CheckpointStrategy> ScaleOps for Autodiff<B, C> {{\n    \
                     fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {{\n        \
                     let (primitive, node) = x.into_parts();\n        \
                     match ScaleBackward\n            \
                     .prepare::<C>([node])\n            \
                     .compute_bound()\n            \
                     .stateful()\n        \
                     {{\n            \
                     // The backward needs only the factor, not the input or output.\n            \
                     OpsKind::Tracked(prep) => prep.finish(factor, B::scale(primitive, factor)),\n            \
                     OpsKind::UnTracked(prep) => prep.finish(B::scale(primitive, factor)),\n        \
                     }}\n    \
                     }}\n\
                     }}\n\n\
                     {}\n",
                    gated_items(gate, SCALE_BACKWARD)
                )
            } else {
                String::new()
            };
            format!(
                "/// The `scale` op: `factor · x`, element-wise.\n\
                 #[backend_extension({selectors})]\n\
                 pub trait ScaleOps: Backend {{\n    \
                 /// Multiplies every element of `x` by `factor`.\n    \
                 fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n\
                 }}\n\n\
                 impl ScaleOps for Cube {{\n    \
                 fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {{\n        \
                 forward_cube(x, factor)\n    \
                 }}\n\
                 }}\n\n\
                 impl ScaleOps for Flex {{\n    \
                 fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {{\n        \
                 forward_flex(x, factor)\n    \
                 }}\n\
                 }}\n\n\
                 {autodiff}{SCALE_KERNEL}"
            )
        }
        OpKind::LeakyRelu => format!(
            "/// The `leaky_relu` op. Its default body composes differentiable primitives, so the\n\
             /// same body serves every backend, autodiff included.\n\
             #[backend_extension({selectors})]\n\
             pub trait LeakyReluOps: Backend {{\n    \
             /// `x` where positive, `slope · x` elsewhere.\n    \
             fn leaky_relu(x: FloatTensor<Self>, slope: f32) -> FloatTensor<Self> {{\n        \
             leaky_relu_body::<Self>(x, slope)\n    \
             }}\n\
             }}\n\n\
             impl LeakyReluOps for Cube {{}}\n\
             impl LeakyReluOps for Flex {{}}\n\
             {}\n\
             {LEAKY_RELU_BODY}",
            if with_autodiff {
                format!(
                    "\n/// Under autodiff the default body is the implementation: its primitives record\n\
                     /// their own backward steps.\n\
                     {gate}impl<B: Backend, C: CheckpointStrategy> LeakyReluOps for Autodiff<B, C> {{}}\n"
                )
            } else {
                String::new()
            }
        ),
        OpKind::ShiftIds => format!(
            "/// The `shift_ids` op: moves token ids, an int tensor, by an offset.\n\
             #[backend_extension({selectors})]\n\
             pub trait ShiftIdsOps: Backend {{\n    \
             /// Adds `offset` to every id.\n    \
             fn shift_ids(ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {{\n        \
             shift_ids_body::<Self>(ids, offset)\n    \
             }}\n\
             }}\n\n\
             impl ShiftIdsOps for Cube {{}}\n\
             impl ShiftIdsOps for Flex {{}}\n\
             {}\n\
             {SHIFT_IDS_BODY}",
            if with_autodiff {
                format!(
                    "\n/// Ints carry no gradient: the impl only has to exist for the routing to accept an\n\
                     /// autodiff context.\n\
                     {gate}impl<B: Backend, C: CheckpointStrategy> ShiftIdsOps for Autodiff<B, C> {{}}\n"
                )
            } else {
                String::new()
            }
        ),
    }
}

/// Puts `gate` (a cfg attribute, or nothing) on every item of `items`: the top-level lines that
/// start an item (`struct`, `impl`, or their attributes and docs).
fn gated_items(gate: &str, items: &str) -> String {
    if gate.is_empty() {
        return items.trim_end().to_owned();
    }
    let mut out = String::new();
    let mut at_item_start = true;
    for line in items.trim_end().lines() {
        if at_item_start && !line.trim().is_empty() && !line.starts_with(' ') {
            out.push_str(gate);
            at_item_start = false;
        }
        out.push_str(line);
        out.push('\n');
        if line == "}" || line.ends_with(';') && !line.starts_with(' ') {
            at_item_start = true;
        }
    }
    out.trim_end().to_owned()
}

fn uses(op: OpKind, declaration: Declaration) -> String {
    let with_autodiff = declaration.autodiff() != AutodiffDeclared::Absent;
    let gate = autodiff_gate(declaration);
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
            uses.push_str(
                "use burn::backend::{\n    \
                 Backend, Cube, Dispatch, Flex, TensorMetadata, backend_extension,\n    \
                 cubecl::dtype_to_storage_type, ops::FloatTensorOps, tensor::FloatTensor,\n\
                 };\n\
                 use burn::tensor::{Device, Tensor, TensorData};\n\
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
            uses.push_str(&format!(
                "use burn::backend::{{Backend, Cube, Dispatch, Flex, backend_extension, {tensor}}};\n"
            ));
            uses.push_str(if op == OpKind::ShiftIds {
                "use burn::tensor::{Device, Int, Tensor, TensorData};\n"
            } else {
                "use burn::tensor::{Device, Tensor, TensorData};\n"
            });
        }
    }
    uses
}

/// The call as the scenario makes it: the statements that compute `y` (a `tensor_type`) from the
/// input.
fn call_statements(scenario: &Scenario, tensor_type: &str) -> String {
    let op = scenario.args.kind();
    let (input, param) = match &scenario.args {
        OpArgs::Scale { factor, .. } => ("x", format!("{factor:?}")),
        OpArgs::LeakyRelu { slope, .. } => ("x", format!("{slope:?}")),
        OpArgs::ShiftIds { offset, .. } => ("ids", offset.to_string()),
    };
    match (scenario.fix, op) {
        (Fix::Builtin, OpKind::Scale) => {
            format!("    let y = {input}.clone().mul_scalar({param});\n")
        }
        (Fix::Builtin, OpKind::LeakyRelu) => {
            format!("    let y = burn::tensor::activation::leaky_relu({input}.clone(), {param});\n")
        }
        (Fix::Builtin, OpKind::ShiftIds) => {
            format!("    let y = {input}.clone().add_scalar({param});\n")
        }
        (fix, _) => {
            let detach = if fix == Fix::Detach {
                ".without_autodiff()"
            } else {
                ""
            };
            format!(
                "    let input = {input}.clone(){detach}.into_dispatch();\n    \
                 let output = <Dispatch as {}>::{}(input, {param});\n    \
                 let y: {tensor_type} = Tensor::from_dispatch(output);\n",
                op.trait_name(),
                op.name()
            )
        }
    }
}

fn main_fn(scenario: &Scenario) -> String {
    let op = scenario.args.kind();
    let int = op.takes_int_input();
    let (values, shape, rank) = input_literal(scenario);
    let input = if int { "ids" } else { "x" };
    let kind = if int {
        format!("Tensor::<{rank}, Int>")
    } else {
        format!("Tensor::<{rank}>")
    };
    let device = match scenario.backend {
        BackendChoice::Gpu => {
            "    // WebGPU, Vulkan, Metal or DX12 through burn-wgpu (the playground's WebGPU).\n    \
             let device = Device::wgpu_options().init().expect(\"a GPU adapter\");\n"
        }
        BackendChoice::Cpu => {
            "    // burn-flex, the CPU backend.\n    let device = Device::flex();\n"
        }
    };
    let grad = if scenario.grad_context {
        "    // The grad context of a training loop: the tensors live on an autodiff device.\n    \
         let device = device.autodiff();\n"
    } else {
        ""
    };
    let require_grad = if scenario.require_grad && !int {
        "    let x = x.require_grad();\n"
    } else {
        ""
    };
    let fix_comment = match scenario.fix {
        Fix::None => "    // The custom op, called through the routing burn's macro generated.\n",
        Fix::Detach => {
            "    // The no-grad fix: the op gets its input without the autodiff context.\n"
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
         println!(\"dsum(y)/dx = {}\", shown(gradient.to_data().iter::<f32>()));\n        \
         }\n    \
         }\n"
        .to_owned()
    };
    format!(
        "fn main() {{\n\
         {device}{grad}{values}    let {input} = {kind}::from_data(TensorData::new(values, {shape}), &device);\n\
         {require_grad}\n\
         {fix_comment}{call}    println!(\"y = {{}}\", shown(y.to_data().iter::<{element}>()));\n\
         {gradient}}}\n\n\
         /// Values as the playground shows them: each in Rust's shortest exact form, comma-separated.\n\
         fn shown<T: ToString>(values: impl Iterator<Item = T>) -> String {{\n    \
         values\n        \
         .map(|value| value.to_string())\n        \
         .collect::<Vec<_>>()\n        \
         .join(\", \")\n\
         }}\n",
        call = call_statements(scenario, &kind.replace("::", "")),
    )
}

fn main_rs(scenario: &Scenario) -> String {
    let op = scenario.args.kind();
    format!(
        "//! {title}\n//!\n//! Exported from the Burn Extension Playground. `cargo run` reproduces what the page showed;\n//! README.md says what that is and how each fix changes it.\n\n{uses}\n{source}\n{main}",
        title = title(scenario),
        uses = uses(op, scenario.declaration),
        source = op_source(op, scenario.declaration).trim_end(),
        main = main_fn(scenario),
    )
}

fn title(scenario: &Scenario) -> String {
    format!(
        "`{}` declared `#[backend_extension({})]`, called {}{}.",
        scenario.args.kind().name(),
        scenario.declaration.selectors(),
        if scenario.grad_context {
            "in a grad context (an autodiff device, as in a training loop)"
        } else {
            "outside a grad context"
        },
        match scenario.fix {
            Fix::None => "",
            Fix::Detach => ", on its input without autodiff (the no-grad fix)",
            Fix::Builtin => ", replaced by burn's builtin ops",
        }
    )
}

fn readme(name: &str, scenario: &Scenario) -> String {
    let cfg_note = if scenario.declaration.autodiff() == AutodiffDeclared::CfgOff {
        "\nThe op lists `Autodiff` behind `cfg(feature = \"autodiff\")`, and the feature is off by\n\
         default: the generated arms for an autodiff context are compiled out. Run\n\
         `cargo run --features autodiff` to compile them in.\n"
    } else {
        ""
    };
    format!(
        "# {name}\n\n\
         {title}\n\n\
         Exported from the Burn Extension Playground: the op's trait with exactly the declaration\n\
         chosen there, its implementations (the CubeCL backend's and the Flex CPU backend's, and the\n\
         `Autodiff<B, C>` one when `Autodiff` is declared) and a `main` that calls it as the page did.\n\n\
         ```sh\ncargo run\n```\n\n\
         It prints the output `y` (and the gradient of `sum(y)` when autodiff tracks it), or panics\n\
         with burn's own message, raised by the routing `#[backend_extension]` generates.\n{cfg_note}\n\
         ## The fixes\n\n\
         - Declare `Autodiff` (and implement the op for `Autodiff<B, C>`): the routing then calls that\n  \
         impl in a grad context, and gradients flow.\n\
         - Call the op on `x.without_autodiff()`: it runs on the concrete backend, but no gradient\n  \
         reaches whatever feeds it.\n\
         - Use burn's builtin tensor ops instead of the custom op: they support autodiff everywhere.\n\
         - For a backend the op does not declare, list its selector (`Cube`, `Flex`).\n",
        title = title(scenario),
    )
}

/// The project as a `.zip` archive (stored, uncompressed: a few kilobytes of text), its files
/// in a folder named after the project.
///
/// Written here rather than with the `zip` crate: storing three files takes a CRC and two
/// headers each, where the crate would bring its compressors into the page's wasm.
pub fn zip(project: &Project) -> Vec<u8> {
    let mut archive = Vec::new();
    let mut directory = Vec::new();
    let entries = project.files.len() as u16;
    for file in &project.files {
        let path = format!("{}/{}", project.name, file.path);
        let data = file.text.as_bytes();
        let crc = crc32(data);
        let offset = archive.len() as u32;
        // Local file header: version 2.0, no flags, stored, no time, sizes, name.
        archive.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        archive.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        archive.extend_from_slice(&crc.to_le_bytes());
        archive.extend_from_slice(&(data.len() as u32).to_le_bytes());
        archive.extend_from_slice(&(data.len() as u32).to_le_bytes());
        archive.extend_from_slice(&(path.len() as u16).to_le_bytes());
        archive.extend_from_slice(&0u16.to_le_bytes());
        archive.extend_from_slice(path.as_bytes());
        archive.extend_from_slice(data);
        // Its central directory entry.
        directory.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        // Made by Unix (3) zip 2.0, so the file mode below is read.
        directory.extend_from_slice(&[20, 3, 20, 0, 0, 0, 0, 0, 0, 0, 0x21, 0]);
        directory.extend_from_slice(&crc.to_le_bytes());
        directory.extend_from_slice(&(data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(data.len() as u32).to_le_bytes());
        directory.extend_from_slice(&(path.len() as u16).to_le_bytes());
        directory.extend_from_slice(&[0; 8]);
        directory.extend_from_slice(&0o100_644u32.wrapping_shl(16).to_le_bytes());
        directory.extend_from_slice(&offset.to_le_bytes());
        directory.extend_from_slice(path.as_bytes());
    }
    let directory_offset = archive.len() as u32;
    archive.extend_from_slice(&directory);
    archive.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    archive.extend_from_slice(&[0, 0, 0, 0]);
    archive.extend_from_slice(&entries.to_le_bytes());
    archive.extend_from_slice(&entries.to_le_bytes());
    archive.extend_from_slice(&(directory.len() as u32).to_le_bytes());
    archive.extend_from_slice(&directory_offset.to_le_bytes());
    archive.extend_from_slice(&0u16.to_le_bytes());
    archive
}

/// CRC-32 (IEEE), as zip checks it.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
