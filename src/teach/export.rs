//! The scenario as a small Cargo project that reproduces it natively: `Cargo.toml`,
//! `src/main.rs` and a `README.md`, and a `.zip` of them.
//!
//! Nothing here is a second copy of the playground's ops: the declaration is the catalog's line,
//! written as the page ran it ([`Declaration::selectors`]); the trait is cut from the op's own
//! source (`src/ops/*/mod.rs`), and its implementations, kernel, backward step and default bodies
//! are the very files the engine compiles (`src/ops/*/`), included here as text, without the
//! lines that record which implementation ran ([`without_bookkeeping`]). Only the wiring a
//! person writes around them (imports, the op as a function of tensors, `main`) is written here.
//!
//! The fix snippets the page shows are made here too ([`declaration_code`], [`call_code`]), so
//! each is code of an exported project: `tests/export.rs` builds and runs those projects and
//! compares what they print, or the panic they raise, with the playground's outcome, which the
//! README states.

use crate::model::catalog::FusionForm;
use crate::model::outcome::Outcome;
use crate::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpArgs, OpKind, Scenario,
};
use crate::teach::present::{SHOWN_VALUES, values_text};

/// The op's own source files, as the engine compiles them.
struct OpSources {
    /// `mod.rs`: the trait is cut from its `declare_*` macro.
    module: &'static str,
    /// The implementations for the concrete backends.
    concrete: &'static str,
    /// The `Autodiff<B, C>` implementation.
    autodiff: &'static str,
    /// What only the `Autodiff<B, C>` implementation needs (scale's `Backward` step).
    autodiff_support: &'static str,
    /// The kernel and forward passes, or the default body's maths.
    support: &'static str,
}

fn sources(op: OpKind) -> OpSources {
    match op {
        OpKind::Scale => OpSources {
            module: include_str!("../ops/scale/mod.rs"),
            concrete: include_str!("../ops/scale/concrete.rs"),
            autodiff: include_str!("../ops/scale/autodiff.rs"),
            autodiff_support: include_str!("../ops/scale/backward.rs"),
            support: include_str!("../ops/scale/kernel.rs"),
        },
        OpKind::LeakyRelu => OpSources {
            module: include_str!("../ops/leaky_relu/mod.rs"),
            concrete: include_str!("../ops/leaky_relu/concrete.rs"),
            autodiff: include_str!("../ops/leaky_relu/autodiff.rs"),
            autodiff_support: "",
            support: include_str!("../ops/leaky_relu/body.rs"),
        },
        OpKind::ShiftIds => OpSources {
            module: include_str!("../ops/shift_ids/mod.rs"),
            concrete: include_str!("../ops/shift_ids/concrete.rs"),
            autodiff: include_str!("../ops/shift_ids/autodiff.rs"),
            autodiff_support: "",
            support: include_str!("../ops/shift_ids/body.rs"),
        },
    }
}

/// The engine's source as a person writes it: without the lines that record which
/// implementation ran (`trace::…`), the playground's only bookkeeping inside its ops.
pub fn without_bookkeeping(text: &str) -> String {
    text.lines()
        .filter(|line| !line.contains("trace::"))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The name the op's tensor argument has (`x`, `ids`): the declare macro passes it to the trait
/// (`$x`) with its `#[fusion(...)]` attribute, so the two are the same identifier.
fn tensor_argument(op: OpKind) -> &'static str {
    if op.takes_int_input() { "ids" } else { "x" }
}

/// The `#[fusion(...)]` attribute `form` puts on the op's method, as the op's declare macro
/// writes it (the arm for the form, in `mod.rs`); `None` without the `Fusion` selector, or when
/// the op has no arm for the form (it does not build).
pub fn fusion_attribute(op: OpKind, form: FusionForm) -> Option<String> {
    let arm = format!("] {form:?}) =>");
    let line = sources(op)
        .module
        .lines()
        .find(|line| line.contains(&arm))?;
    let (_, rest) = line.split_once("[#[fusion(")?;
    let (inside, _) = rest.split_once(")]]")?;
    Some(format!("#[fusion({inside})]"))
}

/// The op's trait as the engine declares it (cut from its `declare_*` macro in `mod.rs`, from the
/// doc comment to the closing brace), under `declaration`'s selectors and `#[fusion]` form.
fn trait_code(op: OpKind, declaration: Declaration) -> String {
    let lines: Vec<&str> = sources(op).module.lines().collect();
    let attribute = lines
        .iter()
        .position(|line| {
            line.trim_start()
                .starts_with("#[burn::backend::backend_extension(")
        })
        .expect("the op's declare macro has the attribute");
    let indent = lines[attribute].len() - lines[attribute].trim_start().len();
    let first = (0..attribute)
        .rev()
        .take_while(|&index| lines[index].trim_start().starts_with("///"))
        .last()
        .unwrap_or(attribute);
    let closing = format!("{}}}", " ".repeat(indent));
    let last = (attribute..lines.len())
        .find(|&index| lines[index] == closing)
        .expect("the trait's closing brace");
    let argument = format!("${}", tensor_argument(op));
    let fusion = fusion_attribute(op, declaration.fusion());
    let text: String = lines[first..=last]
        .iter()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("#[burn::backend::backend_extension(") {
                Some(format!(
                    "#[backend_extension({})]\n",
                    declaration.selectors()
                ))
            } else if trimmed == "$($fusion)*" {
                // The method's `#[fusion(...)]`, at the method's indentation.
                let method_indent = &line[indent..line.len() - trimmed.len()];
                fusion
                    .as_ref()
                    .map(|fusion| format!("{method_indent}{fusion}\n"))
            } else {
                let line = line.get(indent..).unwrap_or("").trim_end();
                Some(format!(
                    "{}\n",
                    line.replace(&argument, tensor_argument(op))
                ))
            }
        })
        .collect();
    without_bookkeeping(&text)
}

/// The cfg attribute the declaration puts on `Autodiff` (`#[cfg(feature = "autodiff")]`), read
/// from its selectors as written; empty when `Autodiff` is listed plainly or not at all.
fn autodiff_gate(declaration: Declaration) -> String {
    declaration
        .selectors()
        .split_once("Autodiff:")
        .map(|(_, cfg)| format!("#[{}]\n", cfg.trim()))
        .unwrap_or_default()
}

/// Puts `gate` (a cfg attribute, or nothing) on every item of `items`: after an item's doc
/// comment, before its first attribute or keyword line.
fn gated_items(gate: &str, items: &str) -> String {
    if gate.is_empty() {
        return items.trim_end().to_owned();
    }
    let mut out = String::new();
    let mut at_item_start = true;
    for line in items.trim_end().lines() {
        if at_item_start && !line.trim().is_empty() && !line.starts_with([' ', '/']) {
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

/// The op's declaration as the page shows it in a fix: the trait under `declaration`'s selectors
/// and, when the declaration lists `Autodiff`, the op's `Autodiff<B, C>` implementation (behind
/// the same cfg as the selector). Exactly as it stands in the exported `src/main.rs`.
pub fn declaration_code(op: OpKind, declaration: Declaration) -> String {
    let mut code = trait_code(op, declaration).trim_end().to_owned();
    if declaration.autodiff() != AutodiffDeclared::Absent {
        code.push_str("\n\n");
        code.push_str(&gated_items(
            &autodiff_gate(declaration),
            &without_bookkeeping(sources(op).autodiff),
        ));
    }
    code
}

/// Where an op is called: the tensor expression it gets, the name of the result, and the
/// parameter as a Rust literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The tensor argument, e.g. `x.clone()` or `h`.
    pub input: String,
    /// The binding of the result, e.g. `y`.
    pub output: String,
    /// The parameter, e.g. `2.5` or `1000`.
    pub param: String,
}

impl CallSite {
    /// The call in a single run's exported `main`: on the input `x` (`ids` for an int op),
    /// with the parameter the run used.
    pub fn single_run(args: &OpArgs) -> CallSite {
        let (input, param) = match args {
            OpArgs::Scale { factor, .. } => ("x.clone()", float_literal(*factor)),
            OpArgs::LeakyRelu { slope, .. } => ("x.clone()", float_literal(*slope)),
            OpArgs::ShiftIds { offset, .. } => ("ids", offset.to_string()),
        };
        CallSite {
            input: input.to_owned(),
            output: "y".to_owned(),
            param,
        }
    }
}

/// `2.5`, `2.0`, `1e-7`: an `f32` as a Rust literal that reads back exactly.
pub fn float_literal(value: f32) -> String {
    format!("{value:?}")
}

/// The statement that calls `op` at `site` under `fix`: the op through its generated routing, on
/// the input without autodiff (the no-grad fix), or burn's builtin ops instead (the builtin fix).
/// Exactly as it stands in an exported `main`.
pub fn call_code(op: OpKind, fix: Fix, site: &CallSite) -> String {
    let CallSite {
        input,
        output,
        param,
    } = site;
    match (fix, op) {
        (Fix::None, _) => format!("let {output} = {}({input}, {param});", op.name()),
        (Fix::Detach, _) => format!(
            "let {output} = {}({input}.without_autodiff(), {param});",
            op.name()
        ),
        (Fix::Builtin, OpKind::Scale) => format!("let {output} = {input}.mul_scalar({param});"),
        (Fix::Builtin, OpKind::LeakyRelu) => {
            format!("let {output} = burn::tensor::activation::leaky_relu({input}, {param});")
        }
        (Fix::Builtin, OpKind::ShiftIds) => format!("let {output} = {input}.add_scalar({param});"),
    }
}

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
            Fix::Detach => "detached",
            Fix::Builtin => "builtin",
        }
    )
}

/// Exports `scenario`; `shown` is what the playground showed when it ran it (written into the
/// README), if it did.
pub fn export(scenario: &Scenario, shown: Option<&Shown>) -> Project {
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
                text: readme(&name, scenario, shown),
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
         {fusion_note}\
         burn = {{ version = \"=0.22.1\", default-features = false, features = [\"std\", \"extension\", \"autodiff\", \"wgpu\", \"flex\"{fusion_feature}] }}\n\
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

/// A function of the op's module source, with its doc comment, without its cfg attribute (the
/// engine builds it only with fusion; the exported project only has it when it needs it).
fn module_function(op: OpKind, name: &str) -> Option<String> {
    let lines: Vec<&str> = sources(op).module.lines().collect();
    let header = lines
        .iter()
        .position(|line| line.starts_with(&format!("fn {name}(")))?;
    let first = (0..header)
        .rev()
        .take_while(|&index| lines[index].starts_with("///") || lines[index].starts_with("#["))
        .last()
        .unwrap_or(header);
    let last = (header..lines.len()).find(|&index| lines[index] == "}")?;
    Some(
        lines[first..=last]
            .iter()
            .filter(|line| !line.starts_with("#[cfg("))
            .map(|line| format!("{line}\n"))
            .collect(),
    )
}

/// The op's trait, its implementations, and its kernel or body.
fn op_source(op: OpKind, declaration: Declaration) -> String {
    let sources = sources(op);
    let mut parts = vec![declaration_code(op, declaration)];
    if declaration.fusion() == FusionForm::Meta
        && let Some(meta) = module_function(op, "same_spec")
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
fn op_function(op: OpKind) -> &'static str {
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

fn uses(op: OpKind, declaration: Declaration) -> String {
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

/// The statement that makes the device a scenario's input lives on.
pub fn device_code(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu => {
            "let device = Device::wgpu_options().init().expect(\"a GPU adapter\");"
        }
        BackendChoice::Cpu => "let device = Device::flex();",
    }
}

/// The statement that puts the device in a grad context, as a training loop does.
pub const GRAD_CONTEXT_CODE: &str = "let device = device.autodiff();";

/// The statement that marks the input for the autodiff graph.
pub const REQUIRE_GRAD_CODE: &str = "let x = x.require_grad();";

/// The statement that creates the input tensor from `values`.
pub fn input_code(args: &OpArgs) -> String {
    let shape = args.shape();
    let rank = shape.len();
    if args.kind().takes_int_input() {
        format!(
            "let ids = Tensor::<{rank}, Int>::from_data(TensorData::new(values, {shape:?}), &device);"
        )
    } else {
        format!("let x = Tensor::<{rank}>::from_data(TensorData::new(values, {shape:?}), &device);")
    }
}

fn main_fn(scenario: &Scenario) -> String {
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
            Fix::Detach => ", on its input without autodiff (the no-grad fix)",
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
