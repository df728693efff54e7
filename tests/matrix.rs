//! The whole matrix on real burn: every op × declaration (each line of the catalog) × grad
//! context × `require_grad` × fix × backend, each cell one named test.
//!
//! GPU cells run on burn-wgpu natively (Mesa's lavapipe Vulkan driver where there is no GPU);
//! CPU cells on burn-flex. Each cell asserts the exact outcome against [`expected`], the
//! specification of burn 0.22.1's generated routing as the playground teaches it: output values
//! against the op's definition computed here in plain Rust, the gradient against its analytic
//! derivative and the builtin reference, the implementations that ran, the routing tensor, or
//! the exact panic text and its location; and the arm of the generated code the page highlights.
//! The engine itself never predicts any of it.
//!
//! Every cell also writes its row of the golden table, `tests/golden/matrix.json`: what the page
//! must show for it (route, values as printed, panic text and location, explanation, highlighted
//! lines). The committed table must equal what the engine does now — a cell fails when its row
//! differs — and the browser tests (`e2e/`) drive the page through the same cells and compare
//! it with the same rows. `UPDATE_GOLDEN=1 cargo test --test matrix` rewrites the table.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::catalog::FusionForm;
use burn_extension_playground::model::outcome::{
    Completed, ImplCall, Outcome, PanicReport, Phase, Route, RoutingTensor, Stage, Values,
};
use burn_extension_playground::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind, Scenario,
};
use burn_extension_playground::ops;
use burn_extension_playground::teach::export::project::{Project, export};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::link::words::LinkWord;
use burn_extension_playground::teach::numbers::{shape_text, values_text};
use burn_extension_playground::teach::routing::diagnostics::fusion_diagnostic;
use burn_extension_playground::teach::routing::expanded;
use burn_extension_playground::teach::routing::route_view::{
    Highlight, Observed, locate, locate_queued,
};
use burn_extension_playground::teach::words::explain::{
    FixAction, FixContext, FixOffer, PanicKind, fixes,
};
use burn_extension_playground::teach::words::present::{
    impl_text, panic_location_text, route_title,
};
use libtest_mimic::{Arguments, Failed, Trial};
use serde::{Deserialize, Serialize};

#[path = "claims/mod.rs"]
mod claims;

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| pollster::block_on(Engine::init(true)))
}

/// One cell of the matrix.
#[derive(Clone, Copy, Debug)]
struct Cell {
    op: OpKind,
    declaration: Declaration,
    grad_context: bool,
    require_grad: bool,
    fix: Fix,
    backend: BackendChoice,
}

impl Cell {
    fn all() -> Vec<Cell> {
        let mut cells = Vec::new();
        for op in OpKind::ALL {
            // The `Fusion` selector needs burn's fusion: without it the page never offers those
            // lines (a link naming one is corrected), so only the fusion engine has their cells.
            let lines = Declaration::ALL
                .iter()
                .filter(|declaration| FUSION || declaration.fusion() == FusionForm::None);
            for &declaration in lines {
                for grad_context in [false, true] {
                    for require_grad in [false, true] {
                        for fix in Fix::ALL {
                            for backend in BackendChoice::ALL {
                                cells.push(Cell {
                                    op,
                                    declaration,
                                    grad_context,
                                    require_grad,
                                    fix,
                                    backend,
                                });
                            }
                        }
                    }
                }
            }
        }
        cells
    }

    fn name(&self) -> String {
        format!(
            "{}::declared_{}::{}::{}::fix_{}::{}",
            self.op.name(),
            self.declaration.module(),
            if self.grad_context {
                "grad_context"
            } else {
                "no_grad_context"
            },
            if self.require_grad {
                "require_grad"
            } else {
                "no_require_grad"
            },
            self.fix.word(),
            self.backend.word(),
        )
    }

    /// The page's form set to this cell, its fields holding the matrix inputs as typed.
    fn form(&self) -> Form {
        let (tensor, param) = input_texts(self.op);
        let mut form = Form::default();
        form.op = self.op;
        form.texts_mut().tensor = tensor.into();
        form.texts_mut().param = param.to_owned();
        form.declaration = self.declaration;
        form.grad_context = self.grad_context;
        form.require_grad = self.require_grad;
        form.fix = self.fix;
        form.backend = self.backend;
        form.fusion = FUSION;
        form
    }

    fn scenario(&self) -> Scenario {
        self.form().scenario().expect("the matrix inputs parse")
    }
}

/// The inputs, as typed into the page's fields (the browser tests type the same text). Exact
/// binary fractions, so every product is exact in f32 on any device; `scale` is 2-D to cover
/// that path; no zero in the leaky_relu input (its derivative is not defined there).
fn input_texts(op: OpKind) -> (&'static str, &'static str) {
    match op {
        OpKind::Scale => ("1, -2, 3.5; 0.25, -0.5, 8", "2.5"),
        OpKind::LeakyRelu => ("-2, -0.5, 0.75, 3, -8", "0.125"),
        OpKind::ShiftIds => ("0, 7, 41, -3", "1000"),
    }
}

const SCALE_X: [f32; 6] = [1.0, -2.0, 3.5, 0.25, -0.5, 8.0];
const SCALE_FACTOR: f32 = 2.5;
const LEAKY_X: [f32; 5] = [-2.0, -0.5, 0.75, 3.0, -8.0];
const LEAKY_SLOPE: f32 = 0.125;
const IDS: [i32; 4] = [0, 7, 41, -3];
const OFFSET: i32 = 1000;

/// What burn 0.22.1 does in a cell.
#[derive(Debug, PartialEq)]
enum Expected {
    Runs {
        route: Route,
        gradient: bool,
    },
    /// A panic raised by the generated routing, reported at the op's declaration.
    RoutingPanics {
        message: String,
    },
    /// `require_grad()` on a tensor outside an autodiff context, before any op runs.
    RequireGradPanics,
    /// The declaration does not compile in this engine: nothing runs, and the page shows what
    /// rustc says about it.
    NotBuilt,
    /// Under fusion, the output's shape is the one `#[fusion(shape = …)]` declared, never
    /// compared with the kernel's: declared flattened, a 2-D output is read back with a 1-D shape,
    /// and burn panics reading its dimensions, before the queued kernel ever runs. `impls`: what
    /// ran before (the `Autodiff` impl, at the call).
    FusionShapePanics {
        impls: Vec<ImplCall>,
    },
}

fn expected(cell: &Cell) -> Expected {
    let float = !cell.op.takes_int_input();
    let op = cell.op.name();
    if cell.op == OpKind::Scale && !claims::scale_builds(cell.declaration) {
        return Expected::NotBuilt;
    }
    // Ints have no `require_grad`; the engine applies it to float inputs only.
    if float && cell.require_grad && !cell.grad_context {
        return Expected::RequireGradPanics;
    }
    if cell.fix == Fix::Builtin {
        return Expected::Runs {
            route: Route::Builtin,
            gradient: float && cell.grad_context && cell.require_grad,
        };
    }
    let backend_not_supported = Expected::RoutingPanics {
        message: format!("not implemented: Backend not supported for custom op `{op}`"),
    };
    let autodiff_not_supported = Expected::RoutingPanics {
        message: format!("not implemented: Autodiff not supported for custom op `{op}`"),
    };
    // A Flex tensor meets an op declared without `Flex`: no arm matches its backend, in any
    // context, and the generated fallback fires.
    if cell.backend == BackendChoice::Cpu && !cell.declaration.flex() {
        return backend_not_supported;
    }
    // The flattened shape of `#[fusion(shape = …)]` on the GPU (only `Cube` is fused), for an
    // input of more than one dimension (scale's): see `Expected::FusionShapePanics`.
    let flattened_2d = FUSION
        && cell.declaration.fusion() == FusionForm::WrongShape
        && cell.backend == BackendChoice::Gpu
        && cell.op == OpKind::Scale;
    // Detached inputs, and any input outside a grad context, take the concrete route.
    if cell.fix == Fix::WithoutAutodiff || !cell.grad_context {
        if flattened_2d {
            return Expected::FusionShapePanics { impls: vec![] };
        }
        return Expected::Runs {
            route: Route::Concrete,
            gradient: false,
        };
    }
    if flattened_2d && cell.declaration.autodiff().in_build() {
        let autodiff = format!("Autodiff<{}>", concrete_type(cell.backend));
        return Expected::FusionShapePanics {
            impls: vec![call(op, Stage::Forward, autodiff)],
        };
    }
    match (cell.declaration.autodiff(), float) {
        // A float input on an autodiff device is autodiff-wrapped. Without the `Autodiff`
        // selector — or with it behind a cfg that is off, which compiles the wrapped-tensor
        // arm out — no arm matches it, and the generated fallback fires.
        (AutodiffDeclared::Absent | AutodiffDeclared::CfgOff, true) => backend_not_supported,
        // An int input is never wrapped: the concrete arm matches, then refuses the enabled
        // autodiff context — by its `let … else` check (routing.rs:1126) without the selector,
        // by the fallback of its context match when the selector's cfg compiled the enabled arm
        // out.
        (AutodiffDeclared::Absent | AutodiffDeclared::CfgOff, false) => autodiff_not_supported,
        // Listed plainly, or behind a cfg whose feature is on (the crate `autodiff-feature-on`).
        (AutodiffDeclared::Listed | AutodiffDeclared::CfgOn, true) => Expected::Runs {
            route: Route::AutodiffImpl,
            gradient: cell.require_grad,
        },
        // Ints have no float input, so the autodiff impl is not needed: the concrete result is
        // re-wrapped in the enabled context.
        (AutodiffDeclared::Listed | AutodiffDeclared::CfgOn, false) => Expected::Runs {
            route: Route::ConcreteInAutodiffContext,
            gradient: false,
        },
    }
}

/// Whether this build of the engine has burn's `fusion` feature (`--features fusion`): its
/// cells are the fusion engine's, and its golden table is `matrix-fusion.json`.
const FUSION: bool = cfg!(feature = "fusion");

/// The type `burn::backend::Cube` (or `Flex`) names in this build: under burn's fusion, the
/// CubeCL backend wrapped in `Fusion`.
fn concrete_type(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu if FUSION => "Fusion<CubeBackend>",
        BackendChoice::Gpu => "CubeBackend",
        BackendChoice::Cpu => "Flex",
    }
}

fn call(op: &str, stage: Stage, implementor: String) -> ImplCall {
    ImplCall {
        op: op.to_owned(),
        phase: stage.phase(),
        stage,
        implementor,
    }
}

/// The implementations that record themselves in a cell that runs.
///
/// Under fusion a line that lists `Fusion` reaches `Fusion<CubeBackend>` through the macro's
/// generated impl, which records nothing: it queues the op, and the op's own implementation for
/// `CubeBackend` runs when the device executes the queue, at the read back. With
/// `#[fusion(default)]` the trait's default body serves `Fusion<CubeBackend>` itself, at the call.
fn expected_impls(cell: &Cell, route: Route, gradient: bool) -> Vec<ImplCall> {
    let op = cell.op.name();
    let concrete = concrete_type(cell.backend).to_owned();
    // The default checkpointing strategy, `NoCheckpointing`, is a defaulted type parameter,
    // which `type_name` leaves out.
    let autodiff = format!("Autodiff<{concrete}>");
    let fusion_form = cell.declaration.fusion();
    let queued = cell.backend == BackendChoice::Gpu
        && !matches!(fusion_form, FusionForm::None | FusionForm::Default);
    // One call of the op on the concrete backend: at the call, or queued and run at the read.
    let concrete_call = |stage: Stage| {
        if queued {
            call(op, Stage::ReadBack, "CubeBackend".to_owned())
        } else {
            call(op, stage, concrete.clone())
        }
    };
    match (route, cell.op) {
        (Route::Builtin, _) => vec![],
        (Route::Concrete | Route::ConcreteInAutodiffContext, _) => {
            vec![concrete_call(Stage::Forward)]
        }
        // scale's Autodiff impl wraps the concrete kernel, and its Backward runs it again.
        (Route::AutodiffImpl, OpKind::Scale) => {
            let mut calls = vec![
                call(op, Stage::Forward, autodiff),
                concrete_call(Stage::Forward),
            ];
            if gradient {
                calls.push(concrete_call(Stage::Backward));
            }
            calls
        }
        // leaky_relu's Autodiff impl is its default body over autodiff primitives.
        (Route::AutodiffImpl, _) => vec![call(op, Stage::Forward, autodiff)],
    }
}

/// The routing tensor the op's call hands to the generated routing: on the cell's backend,
/// autodiff-wrapped when it is a float on an autodiff device and not detached.
fn expected_routing_tensor(cell: &Cell) -> Option<RoutingTensor> {
    let float = !cell.op.takes_int_input();
    let on_autodiff = cell.grad_context && cell.fix != Fix::WithoutAutodiff;
    (cell.fix != Fix::Builtin).then(|| RoutingTensor {
        backend: cell.backend.selector().to_owned(),
        autodiff_wrapped: float && on_autodiff,
        autodiff_context: on_autodiff,
    })
}

/// Output and derivative, from each op's definition.
fn expected_values(op: OpKind) -> (Values, Option<Vec<f32>>) {
    match op {
        OpKind::Scale => (
            Values::Float(SCALE_X.iter().map(|x| x * SCALE_FACTOR).collect()),
            Some(vec![SCALE_FACTOR; SCALE_X.len()]),
        ),
        OpKind::LeakyRelu => (
            Values::Float(
                LEAKY_X
                    .iter()
                    .map(|&x| if x > 0.0 { x } else { x * LEAKY_SLOPE })
                    .collect(),
            ),
            Some(
                LEAKY_X
                    .iter()
                    .map(|&x| if x > 0.0 { 1.0 } else { LEAKY_SLOPE })
                    .collect(),
            ),
        ),
        OpKind::ShiftIds => (
            Values::Int(IDS.iter().map(|&id| (id + OFFSET) as i64).collect()),
            None,
        ),
    }
}

/// What the page's routing view must highlight for an observation: the deciding line, and the
/// arm around it.
#[derive(Debug)]
struct HighlightSpec {
    /// A highlighted deciding line contains this.
    decisive: String,
    /// The arm's first line, trimmed, starts with this.
    arm_starts: String,
    /// The arm contains this (whitespace ignored).
    arm_contains: String,
}

fn highlight_spec(cell: &Cell, observed: Option<Observed>) -> Option<HighlightSpec> {
    let observed = observed?;
    let backend_type = match cell.backend {
        BackendChoice::Gpu => "burn::backend::Cube",
        BackendChoice::Cpu => "burn::backend::Flex",
    };
    let tag = cell.declaration.backend_tag(cell.backend.selector());
    let backend_arm = tag.map(|tag| format!("({tag}usize, __has_float_input) =>"));
    let op = cell.op.name();
    let call = format!("let __output = <_B as {}>::{op}(", cell.op.trait_name());
    let message = |text: &str| format!("\"{text} for custom op `{{0}}`\"");
    Some(match observed {
        Observed::Ran(Route::Builtin) => return None,
        // The outer match's last arm: the tag matched no backend arm.
        Observed::BackendNotSupported => HighlightSpec {
            decisive: message("Backend not supported"),
            arm_starts: "_ => {".to_owned(),
            arm_contains: "::core::panicking::panic_fmt".to_owned(),
        },
        // The backend arm of the routing tensor's backend refused the enabled context.
        Observed::AutodiffNotSupported => HighlightSpec {
            decisive: message("Autodiff not supported"),
            arm_starts: backend_arm?,
            arm_contains: format!("type _B = {backend_type};"),
        },
        Observed::Ran(Route::AutodiffImpl) => HighlightSpec {
            decisive: call,
            arm_starts: "(true, burn::backend::DispatchAutodiffContext::Enabled(__strategy)) =>"
                .to_owned(),
            arm_contains: format!("burn::backend::Autodiff<{backend_type},"),
        },
        Observed::Ran(_) => HighlightSpec {
            decisive: call,
            // With `Autodiff` listed the concrete route is the inner `(_, __ad_ctx)` arm;
            // otherwise the whole backend arm.
            arm_starts: match cell.declaration.autodiff() {
                AutodiffDeclared::Absent => backend_arm?,
                AutodiffDeclared::Listed | AutodiffDeclared::CfgOff | AutodiffDeclared::CfgOn => {
                    "(_, __ad_ctx) =>".to_owned()
                }
            },
            arm_contains: format!("type _B = {backend_type};"),
        },
    })
}

/// Checks `highlight` (lines of `source`) against what the page must highlight for `observed`
/// (`None`: a panic raised outside the routing, which highlights nothing).
fn check_highlight(
    cell: &Cell,
    source: &str,
    observed: Option<Observed>,
    highlight: Option<&Highlight>,
) -> Result<(), Failed> {
    let Some(spec) = highlight_spec(cell, observed) else {
        return match highlight {
            None => Ok(()),
            Some(highlight) => Err(format!("nothing to highlight, got {highlight:?}").into()),
        };
    };
    let highlight = highlight.ok_or_else(|| format!("no arm located for {observed:?}"))?;
    let lines: Vec<&str> = source.lines().collect();
    let line = |index: usize| lines.get(index).map(|line| line.trim()).unwrap_or("");
    if highlight.arm.0 > highlight.arm.1 || highlight.arm.1 >= lines.len() {
        return Err(format!("arm {:?} is not a range of the source", highlight.arm).into());
    }
    let focus: Vec<&str> = highlight.focus.iter().map(|&index| line(index)).collect();
    if !focus.iter().any(|line| line.contains(&spec.decisive)) {
        return Err(format!(
            "highlighted lines {focus:?} do not include `{}`",
            spec.decisive
        )
        .into());
    }
    if highlight
        .focus
        .iter()
        .any(|index| !(highlight.arm.0..=highlight.arm.1).contains(index))
    {
        return Err("a deciding line lies outside the highlighted arm".into());
    }
    if !line(highlight.arm.0).starts_with(&spec.arm_starts) {
        return Err(format!(
            "the highlighted arm starts `{}`, expected `{}`",
            line(highlight.arm.0),
            spec.arm_starts
        )
        .into());
    }
    let arm: String = lines[highlight.arm.0..=highlight.arm.1].concat();
    let squeeze = |text: &str| text.replace(char::is_whitespace, "");
    if !squeeze(&arm).contains(&squeeze(&spec.arm_contains)) {
        return Err(format!(
            "the highlighted arm does not contain `{}`",
            spec.arm_contains
        )
        .into());
    }
    Ok(())
}

/// The `Fusion<B>` impl's part the routing view marks when a queued kernel of the op ran: the
/// impl, the call its queued closure makes into the inner backend, and the registration with
/// the queue. A declaration without such an impl has nothing to mark.
fn check_queued(cell: &Cell, source: &str, outcome: &Outcome) -> Result<(), Failed> {
    let impls = match outcome {
        Outcome::Completed(completed) => completed.impls.as_slice(),
        Outcome::Panicked(report) => report.impls.as_slice(),
        Outcome::NotBuilt { .. } | Outcome::Failed(_) => &[],
    };
    let op = cell.op.name();
    let deferred = impls
        .iter()
        .any(|call| call.phase == Phase::Deferred && call.op == op);
    let located = locate_queued(source, cell.op);
    if !deferred {
        // Only the queue runs an op's inner implementation deferred: a line without a
        // `Fusion<B>` impl that lowers the op to the queue has nothing to mark.
        if matches!(
            cell.declaration.fusion(),
            FusionForm::None | FusionForm::Default
        ) {
            return match located {
                None => Ok(()),
                Some(located) => {
                    Err(format!("a queue located without a Fusion<B> impl: {located:?}").into())
                }
            };
        }
        return Ok(());
    }
    let located = located.ok_or("a queued kernel ran, but no Fusion<B> impl was located")?;
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    let focus: Vec<&str> = located.focus.iter().map(|&index| lines[index]).collect();
    let call = format!("let __output = <B as {}>::{op}(", cell.op.trait_name());
    if !matches!(focus.as_slice(), [first, ".register("] if first.starts_with(&call)) {
        return Err(format!("marked {focus:?}, expected `{call}…` and `.register(`").into());
    }
    let impl_text: String = lines[located.arm.0..=located.arm.1].concat();
    if !lines[located.arm.0].starts_with("impl<")
        || !impl_text.contains("for burn::backend::fusion::Fusion<B>")
        || located
            .focus
            .iter()
            .any(|index| !(located.arm.0..=located.arm.1).contains(index))
    {
        return Err(format!(
            "the marked impl {:?} is not the Fusion<B> impl holding its lines",
            located.arm
        )
        .into());
    }
    Ok(())
}

/// What the run observed, as the routing view reads it.
fn observed(outcome: &Outcome) -> Option<Observed> {
    match outcome {
        Outcome::Completed(completed) => Some(Observed::Ran(completed.route)),
        Outcome::Panicked(report) => Observed::from_panic(&report.message),
        Outcome::NotBuilt { .. } | Outcome::Failed(_) => None,
    }
}

/// The expansion a run went through, what it observed, and the highlight located for it.
fn highlight_of(
    cell: &Cell,
    outcome: &Outcome,
) -> Option<(&'static str, Option<Observed>, Option<Highlight>)> {
    let source = expanded::source(cell.op, cell.declaration)?;
    let observed = observed(outcome);
    let highlight =
        observed.and_then(|observed| locate(source, cell.declaration, cell.backend, observed));
    Some((source, observed, highlight))
}

/// Runs by scenario, shared by the cells and the claims check (a fix's run is another cell's).
fn run(scenario: &Scenario) -> Outcome {
    static RUNS: OnceLock<Mutex<BTreeMap<String, Outcome>>> = OnceLock::new();
    let key = format!("{scenario:?}");
    let runs = RUNS.get_or_init(Mutex::default);
    if let Some(outcome) = runs.lock().unwrap().get(&key) {
        return outcome.clone();
    }
    let outcome = pollster::block_on(engine().run(scenario));
    runs.lock().unwrap().insert(key, outcome.clone());
    outcome
}

/// A cell's golden row, from its (cached) run, without the cell's checks.
fn row_of(cell: &Cell) -> GoldenRow {
    let scenario = cell.scenario();
    let outcome = run(&scenario);
    let source = expanded::source(cell.op, cell.declaration).unwrap_or("");
    let highlight = observed(&outcome)
        .and_then(|observed| locate(source, cell.declaration, cell.backend, observed));
    GoldenRow::of(cell, &scenario, &outcome, source, highlight.as_ref())
}

fn check(cell: Cell) -> Result<GoldenRow, Failed> {
    let scenario = cell.scenario();
    let outcome = run(&scenario);
    let (source, observed, highlight) =
        highlight_of(&cell, &outcome).ok_or("no shipped expansion")?;
    check_highlight(&cell, source, observed, highlight.as_ref())?;
    check_queued(&cell, source, &outcome)?;
    match (expected(&cell), &outcome) {
        (Expected::RequireGradPanics, Outcome::Panicked(report)) => {
            ensure_eq(
                "panic message",
                &report.message.as_str(),
                &"Tensor::require_grad requires autodiff; call Tensor::autodiff first",
            )?;
            ensure_eq("implementations before the panic", &report.impls, &vec![])?;
            ensure_eq("routing tensor", &report.routing_tensor, &None)?;
            let location = report
                .location
                .as_ref()
                .ok_or("the panic has no location")?;
            if !location
                .file
                .ends_with("burn-tensor-0.22.1/src/tensor/api/float.rs")
            {
                return Err(
                    format!("panic location {location:?} is not burn-tensor's float API").into(),
                );
            }
        }
        (Expected::RoutingPanics { message }, Outcome::Panicked(report)) => {
            check_routing_panic(&cell, &message, report)?
        }
        (Expected::Runs { route, gradient }, Outcome::Completed(completed)) => {
            check_completed(&cell, route, gradient, completed)?
        }
        (Expected::FusionShapePanics { impls }, Outcome::Panicked(report)) => {
            ensure_eq(
                "panic message",
                &report.message.as_str(),
                &"range end index 2 out of range for slice of length 1",
            )?;
            ensure_eq("stage", &report.stage, &Some(Stage::ReadBack))?;
            ensure_eq("implementations before the panic", &report.impls, &impls)?;
            let location = report
                .location
                .as_ref()
                .ok_or("the panic has no location")?;
            if !location.file.ends_with("/src/shape.rs") || !location.file.contains("cubecl-zspace")
            {
                return Err(format!("panic location {location:?} is not cubecl's shape").into());
            }
        }
        (Expected::NotBuilt, Outcome::NotBuilt { fusion }) => {
            ensure_eq("built with burn's fusion", fusion, &FUSION)?;
            ensure_eq(
                "built in this engine",
                &ops::built(cell.op, cell.declaration),
                &false,
            )?;
            if fusion_diagnostic(cell.op, cell.declaration).is_none() {
                return Err("no rustc diagnostic shipped for it (tests/diagnostics.rs)".into());
            }
        }
        (expected, outcome) => {
            return Err(format!("expected {expected:?}, got {outcome:?}").into());
        }
    }
    claims::check_single(&cell.form(), &scenario, &outcome, &run)?;
    Ok(GoldenRow::of(
        &cell,
        &scenario,
        &outcome,
        source,
        highlight.as_ref(),
    ))
}

fn check_routing_panic(cell: &Cell, message: &str, report: &PanicReport) -> Result<(), Failed> {
    ensure_eq("panic message", &report.message.as_str(), &message)?;
    ensure_eq("implementations before the panic", &report.impls, &vec![])?;
    ensure_eq(
        "routing tensor",
        &report.routing_tensor,
        &expected_routing_tensor(cell),
    )?;
    let location = report
        .location
        .as_ref()
        .ok_or("the panic has no location")?;
    // The generated code reports where the op's trait is stamped: from the catalog here, or by
    // the feature-on crate's `declare!` for the lines built with the feature on.
    let (file, stamp) = if cell.declaration.autodiff() == AutodiffDeclared::CfgOn {
        (
            "crates/autodiff-feature-on/src/lib.rs".to_owned(),
            format!(
                "declare!({}, [{}]);",
                cell.declaration.module(),
                cell.declaration.selectors()
            ),
        )
    } else {
        (
            format!("src/ops/{}/declarations.rs", cell.op.name()),
            "declaration_catalog!(stamp_declarations! {".to_owned(),
        )
    };
    ensure_eq("panic location file", &location.file, &file)?;
    let source = std::fs::read_to_string(manifest_dir().join(&location.file))
        .map_err(|error| format!("reading {}: {error}", location.file))?;
    let line = source
        .lines()
        .nth(location.line as usize - 1)
        .ok_or("panic line beyond the end of the file")?;
    ensure_eq(
        "source at the panic location",
        &line.trim(),
        &stamp.as_str(),
    )
}

fn check_completed(
    cell: &Cell,
    route: Route,
    gradient: bool,
    completed: &Completed,
) -> Result<(), Failed> {
    let (values, derivative) = expected_values(cell.op);
    let shape = cell.scenario().args.shape().to_vec();
    ensure_eq("route", &completed.route, &route)?;
    ensure_eq("backend", &completed.backend, &cell.backend)?;
    ensure_eq(
        "routing tensor",
        &completed.routing_tensor,
        &expected_routing_tensor(cell),
    )?;
    ensure_eq("output shape", &completed.output.shape, &shape)?;
    ensure_eq("output values", &completed.output.values, &values)?;
    ensure_eq("reference values", &completed.reference.values, &values)?;
    ensure_eq(
        "output difference",
        &completed.output_difference,
        &Some(0.0),
    )?;
    if !cell.op.takes_int_input() {
        ensure_eq("output dtype", &completed.output.dtype.as_str(), &"F32")?;
        ensure_eq(
            "reference dtype",
            &completed.reference.dtype.as_str(),
            &"F32",
        )?;
    }
    ensure_eq(
        "implementations that ran",
        &completed.impls,
        &expected_impls(cell, route, gradient),
    )?;
    ensure_eq("output tracked", &completed.output_tracked, &gradient)?;
    ensure_eq(
        "output autodiff context",
        &completed.output_autodiff,
        &(matches!(
            route,
            Route::AutodiffImpl | Route::ConcreteInAutodiffContext
        ) || (route == Route::Builtin && cell.grad_context)),
    )?;
    match (&completed.gradient, gradient) {
        (None, false) => ensure_eq("reference gradient", &completed.reference_gradient, &None),
        (Some(grad), true) => {
            let derivative = Values::Float(derivative.ok_or("int ops have no gradient")?);
            ensure_eq("gradient shape", &grad.shape, &shape)?;
            ensure_eq("gradient values", &grad.values, &derivative)?;
            let reference = completed
                .reference_gradient
                .as_ref()
                .ok_or("no reference gradient")?;
            ensure_eq("reference gradient values", &reference.values, &derivative)?;
            ensure_eq(
                "gradient difference",
                &completed.gradient_difference,
                &Some(0.0),
            )
        }
        (got, _) => Err(format!("expected gradient: {gradient}, got {got:?}").into()),
    }
}

fn ensure_eq<T: PartialEq + std::fmt::Debug + ?Sized>(
    what: &str,
    got: &T,
    want: &T,
) -> Result<(), Failed> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, expected {want:?}").into())
    }
}

/// One cell's row of the golden table: the cell as the page's controls set it, and what the
/// page must show, in the page's own words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GoldenRow {
    op: String,
    declares_autodiff: String,
    declares_flex: bool,
    /// The method's `#[fusion(...)]` form (the fusion engine's table only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    declares_fusion: String,
    grad_context: bool,
    require_grad: bool,
    fix: String,
    backend: String,
    /// `completed` or `panicked`.
    outcome: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    route: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_meta: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gradient: Option<String>,
    /// The implementations that ran, as the page lists them (the fusion engine's table only:
    /// there, when an op ran is part of what the page teaches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    impls: Vec<String>,
    /// The first line of rustc's error, for a declaration this engine does not build.
    #[serde(skip_serializing_if = "Option::is_none")]
    diagnostic: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    panic_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    panic_location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    panic_meaning: Option<String>,
    /// The fixes offered for a panic (with WebGPU available), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<GoldenFix>,
    /// The highlighted deciding lines of the generated routing, trimmed.
    highlight_focus: Vec<String>,
    /// The first line of the highlighted arm, trimmed.
    #[serde(skip_serializing_if = "Option::is_none")]
    highlight_arm: Option<String>,
}

impl GoldenRow {
    fn of(
        cell: &Cell,
        scenario: &Scenario,
        outcome: &Outcome,
        source: &str,
        highlight: Option<&Highlight>,
    ) -> GoldenRow {
        let lines: Vec<&str> = source.lines().collect();
        let mut row = GoldenRow {
            op: cell.op.name().to_owned(),
            declares_autodiff: cell.declaration.autodiff().word().to_owned(),
            declares_flex: cell.declaration.flex(),
            declares_fusion: if FUSION {
                cell.declaration.fusion().word().to_owned()
            } else {
                String::new()
            },
            grad_context: cell.grad_context,
            require_grad: cell.require_grad,
            fix: cell.fix.word().to_owned(),
            backend: cell.backend.word().to_owned(),
            outcome: String::new(),
            route: None,
            output: None,
            output_meta: None,
            gradient: None,
            impls: Vec::new(),
            diagnostic: None,
            panic_message: None,
            panic_location: None,
            panic_meaning: None,
            fixes: Vec::new(),
            highlight_focus: highlight
                .map(|highlight| {
                    highlight
                        .focus
                        .iter()
                        .map(|&index| lines[index].trim().to_owned())
                        .collect()
                })
                .unwrap_or_default(),
            highlight_arm: highlight.map(|highlight| lines[highlight.arm.0].trim().to_owned()),
        };
        match outcome {
            Outcome::Completed(completed) => {
                row.outcome = "completed".to_owned();
                row.route = Some(route_title(completed.route).to_owned());
                row.output = Some(values_text(
                    &completed.output.values,
                    completed.output.elements(),
                ));
                row.output_meta = Some(format!(
                    "{} {}",
                    shape_text(&completed.output.shape),
                    completed.output.dtype
                ));
                row.gradient = completed
                    .gradient
                    .as_ref()
                    .map(|gradient| values_text(&gradient.values, gradient.elements()));
                if FUSION {
                    row.impls = completed.impls.iter().map(impl_text).collect();
                }
            }
            Outcome::NotBuilt { .. } => {
                row.outcome = "not-built".to_owned();
                row.diagnostic = fusion_diagnostic(cell.op, cell.declaration)
                    .and_then(|diagnostic| diagnostic.lines().next())
                    .map(str::to_owned);
            }
            Outcome::Panicked(report) => {
                row.outcome = "panicked".to_owned();
                row.panic_message = Some(report.message.clone());
                row.panic_location = report.location.as_ref().map(panic_location_text);
                let kind = PanicKind::of(report, scenario.declaration);
                row.panic_meaning = Some(kind.meaning());
                let context = FixContext::single_run(scenario, true);
                row.fixes = fixes(&kind, &context)
                    .into_iter()
                    .map(|offer| GoldenFix {
                        label: offer.label,
                        actions: offer
                            .actions
                            .iter()
                            .map(|action| format!("{action:?}"))
                            .collect(),
                        changes: offer
                            .changes
                            .into_iter()
                            .map(|change| GoldenChange {
                                before: change.before,
                                after: change.after,
                            })
                            .collect(),
                    })
                    .collect();
            }
            Outcome::Failed(reason) => row.outcome = format!("failed: {reason}"),
        }
        row
    }
}

/// A fix as the page offers it: its button, what the button does, and the code it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GoldenFix {
    label: String,
    actions: Vec<String>,
    changes: Vec<GoldenChange>,
}

/// One place a fix changes: the code before and after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GoldenChange {
    before: String,
    after: String,
}

/// The committed table: inputs, then one row per cell, keyed by the cell's name.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct GoldenTable {
    /// The text typed into the tensor and parameter fields, per op.
    inputs: BTreeMap<String, GoldenInputs>,
    cells: BTreeMap<String, GoldenRow>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct GoldenInputs {
    tensor: String,
    param: String,
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden_path() -> PathBuf {
    manifest_dir().join(if FUSION {
        "tests/golden/matrix-fusion.json"
    } else {
        "tests/golden/matrix.json"
    })
}

fn committed_table() -> &'static GoldenTable {
    static TABLE: OnceLock<GoldenTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::fs::read_to_string(golden_path())
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    })
}

fn golden_inputs() -> BTreeMap<String, GoldenInputs> {
    OpKind::ALL
        .into_iter()
        .map(|op| {
            let (tensor, param) = input_texts(op);
            (
                op.name().to_owned(),
                GoldenInputs {
                    tensor: tensor.to_owned(),
                    param: param.to_owned(),
                },
            )
        })
        .collect()
}

/// Wrong highlights that [`check_highlight`] must reject, one trial per kind of observation:
/// the deciding line moved off, the arm replaced by the whole file, the focus emptied, the
/// focus put on another arm's line. Shows that every highlight check can fail.
fn mutation_trials() -> Vec<Trial> {
    let representatives = [
        (
            "backend_not_supported",
            OpKind::Scale,
            Declaration::CubeFlex,
            true,
            BackendChoice::Gpu,
        ),
        (
            "autodiff_not_supported",
            OpKind::ShiftIds,
            Declaration::CubeFlex,
            true,
            BackendChoice::Gpu,
        ),
        (
            "autodiff_not_supported_cfg",
            OpKind::ShiftIds,
            Declaration::CubeFlexAutodiffCfg,
            true,
            BackendChoice::Cpu,
        ),
        (
            "autodiff_impl",
            OpKind::Scale,
            Declaration::CubeFlexAutodiff,
            true,
            BackendChoice::Gpu,
        ),
        (
            "concrete",
            OpKind::LeakyRelu,
            Declaration::CubeFlex,
            false,
            BackendChoice::Cpu,
        ),
        (
            "concrete_in_autodiff_context",
            OpKind::ShiftIds,
            Declaration::CubeAutodiff,
            true,
            BackendChoice::Gpu,
        ),
    ];
    representatives
        .into_iter()
        .map(|(name, op, declaration, grad_context, backend)| {
            // The fusion engine does not build scale without `Fusion`: its line with `Fusion`.
            let declaration = if ops::built(op, declaration) {
                declaration
            } else {
                declaration
                    .with_fusion(FusionForm::Shape)
                    .expect("a line with Fusion")
            };
            let cell = Cell {
                op,
                declaration,
                grad_context,
                require_grad: false,
                fix: Fix::None,
                backend,
            };
            Trial::test(
                format!("highlight_check_rejects_wrong_highlights::{name}"),
                move || {
                    let outcome = pollster::block_on(engine().run(&cell.scenario()));
                    let (source, observed, highlight) =
                        highlight_of(&cell, &outcome).ok_or("no observation")?;
                    let highlight = highlight.ok_or("no highlight located")?;
                    check_highlight(&cell, source, observed, Some(&highlight))?;
                    let last = source.lines().count() - 1;
                    let other_line = (0..=last)
                        .find(|line| !(highlight.arm.0..=highlight.arm.1).contains(line))
                        .ok_or("the arm covers the whole file")?;
                    let mutants = [
                        (
                            "focus moved one line down",
                            Highlight {
                                focus: highlight.focus.iter().map(|line| line + 1).collect(),
                                ..highlight.clone()
                            },
                        ),
                        (
                            "arm widened to the whole file",
                            Highlight {
                                arm: (0, last),
                                ..highlight.clone()
                            },
                        ),
                        (
                            "focus emptied",
                            Highlight {
                                focus: vec![],
                                ..highlight.clone()
                            },
                        ),
                        (
                            "focus outside the arm",
                            Highlight {
                                focus: vec![other_line],
                                ..highlight.clone()
                            },
                        ),
                    ];
                    for (what, mutant) in mutants {
                        if check_highlight(&cell, source, observed, Some(&mutant)).is_ok() {
                            return Err(
                                format!("the check accepted a wrong highlight: {what}").into()
                            );
                        }
                    }
                    if check_highlight(&cell, source, observed, None).is_ok() {
                        return Err("the check accepted no highlight at all".into());
                    }
                    Ok(())
                },
            )
        })
        .collect()
}

/// Fix descriptions the page used to show, on the runs they were shown for: each must fail the
/// claims check.
fn old_fix_descriptions_fail() -> Result<(), Failed> {
    let cases = [
        // "Run under no-grad" for `[Cube, Autodiff]` on the CPU: the fixed run still panics.
        (
            Cell {
                op: OpKind::Scale,
                declaration: Declaration::CubeAutodiff,
                grad_context: true,
                require_grad: true,
                fix: Fix::None,
                backend: BackendChoice::Cpu,
            },
            Fix::WithoutAutodiff,
            Declaration::CubeAutodiff,
            "Call the op on x.without_autodiff(): it runs on the concrete backend, but no gradient reaches x.",
        ),
        // "Declare Autodiff … gradients flow" for the int op: the impl is never called.
        (
            Cell {
                op: OpKind::ShiftIds,
                declaration: Declaration::CubeFlex,
                grad_context: true,
                require_grad: false,
                fix: Fix::None,
                backend: BackendChoice::Gpu,
            },
            Fix::None,
            Declaration::CubeFlexAutodiff,
            "List the Autodiff selector and implement the op for Autodiff<B, C>: the routing then calls that impl, and gradients flow.",
        ),
        // "… which records the op for backward()" for leaky_relu: its impl is the default body,
        // and backward() calls no implementation of the op.
        (
            Cell {
                op: OpKind::LeakyRelu,
                declaration: Declaration::CubeFlex,
                grad_context: true,
                require_grad: true,
                fix: Fix::None,
                backend: BackendChoice::Gpu,
            },
            Fix::None,
            Declaration::CubeFlexAutodiff,
            "List the Autodiff selector and implement the op for Autodiff<B, C>: the routing then calls that impl, which records the op for backward().",
        ),
        // "Declare Flex" alone for a float op on the CPU in a grad context, without Autodiff:
        // the fixed run panics.
        (
            Cell {
                op: OpKind::LeakyRelu,
                declaration: Declaration::Cube,
                grad_context: true,
                require_grad: false,
                fix: Fix::None,
                backend: BackendChoice::Cpu,
            },
            Fix::None,
            Declaration::CubeFlex,
            "List the Flex selector so the routing has an arm for a Flex tensor.",
        ),
    ];
    for (cell, fix, declaration, description) in cases {
        let fixed = Cell {
            fix,
            declaration,
            ..cell
        };
        let scenario = fixed.scenario();
        let run = claims::FixedRun::Single(scenario.clone(), run(&scenario));
        if claims::check_fix_description(description, cell.op, cell.declaration, &run).is_ok() {
            return Err(format!("passed: {description}").into());
        }
    }
    Ok(())
}

/// The form after pressing a button that makes `actions`.
fn fixed_form(form: &Form, actions: &[FixAction]) -> Form {
    let mut fixed = form.clone();
    for action in actions {
        action.apply(&mut fixed);
    }
    fixed
}

/// Calls `visit` with every offer the page makes for a panicked single-run cell: the cell, its
/// form and scenario, the exported project of that scenario, the offer.
fn for_each_offer(
    mut visit: impl FnMut(&Cell, &Form, &Scenario, &Project, &FixOffer) -> Result<(), Failed>,
) -> Result<(), Failed> {
    for cell in Cell::all() {
        let scenario = cell.scenario();
        let Outcome::Panicked(report) = run(&scenario) else {
            continue;
        };
        let form = cell.form();
        let before = export(&scenario, None);
        for offer in claims::single_offers(&scenario, &report) {
            visit(&cell, &form, &scenario, &before, &offer)?;
        }
    }
    Ok(())
}

/// Every offer, pointed at another cell, fails the claims check: its button making any other
/// single change the page has, or a combined offer cut to its first change.
fn offers_pointed_elsewhere_fail() -> Result<(), Failed> {
    let mut mutants = 0;
    for_each_offer(|cell, form, scenario, before, offer| {
        let target = fixed_form(form, &offer.actions);
        let mut wrong: Vec<Vec<FixAction>> =
            FixAction::ALL.iter().map(|&action| vec![action]).collect();
        if offer.actions.len() > 1 {
            wrong.push(offer.actions[..1].to_vec());
        }
        for actions in wrong {
            if fixed_form(form, &actions) == target {
                continue;
            }
            let mutant = FixOffer {
                actions,
                ..offer.clone()
            };
            mutants += 1;
            if claims::check_offer(form, scenario, before, &mutant, &run).is_ok() {
                return Err(format!(
                    "{}: “{}” pointed at {:?} passed",
                    cell.name(),
                    offer.label,
                    mutant.actions
                )
                .into());
            }
        }
        Ok(())
    })?;
    if mutants == 0 {
        return Err("no offer was tried".into());
    }
    println!("{mutants} offers pointed at another cell, each failed");
    Ok(())
}

/// Every offer's description with one false clause added fails the claims check: a clause no
/// fact of the run backs, and a known phrase the fixed run contradicts.
fn false_clauses_fail() -> Result<(), Failed> {
    let mut mutants = 0;
    for_each_offer(|cell, form, scenario, before, offer| {
        // Ints carry gradients for no op; a float op's impl is called: each false here.
        let contradicted = if cell.op.takes_int_input() {
            "The routing then calls that impl, whose backward step runs."
        } else {
            "Ints carry no gradient, so the fix changes nothing."
        };
        for clause in [" It also makes the op run faster.", contradicted] {
            let mutant = FixOffer {
                description: format!("{} {clause}", offer.description.trim_end()),
                ..offer.clone()
            };
            mutants += 1;
            if claims::check_offer(form, scenario, before, &mutant, &run).is_ok() {
                return Err(format!("{}: passed “{}”", cell.name(), mutant.description).into());
            }
        }
        Ok(())
    })?;
    if mutants == 0 {
        return Err("no description was tried".into());
    }
    println!("{mutants} descriptions with a false clause, each failed");
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    // Fail loudly, once, if there is no GPU adapter rather than once per GPU cell.
    if let Err(reason) = engine().gpu() {
        eprintln!(
            "No wgpu adapter: {reason}\nInstall Mesa's Vulkan driver (mesa-vulkan-drivers) to run the GPU cells on the CPU."
        );
        std::process::exit(1);
    }
    println!("GPU adapter: {}", engine().gpu().unwrap_or_default());
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let rows: &'static Mutex<BTreeMap<String, GoldenRow>> = Box::leak(Box::default());
    let cells = Cell::all();
    let mut trials: Vec<Trial> = cells
        .iter()
        .map(|&cell| {
            Trial::test(cell.name(), move || {
                let row = check(cell)?;
                let name = cell.name();
                rows.lock().unwrap().insert(name.clone(), row.clone());
                if update {
                    return Ok(());
                }
                match committed_table().cells.get(&name) {
                    Some(committed) => ensure_eq("golden row", &row, committed),
                    None => Err("no row in the golden table (UPDATE_GOLDEN=1 writes it)".into()),
                }
            })
        })
        .collect();
    let names: Vec<String> = cells.iter().map(Cell::name).collect();
    trials.push(Trial::test(
        "golden_table_has_exactly_these_cells_and_inputs",
        move || {
            if update {
                return Ok(());
            }
            let committed: Vec<&String> = committed_table().cells.keys().collect();
            let mut expected: Vec<&String> = names.iter().collect();
            expected.sort();
            ensure_eq("cells of the golden table", &committed, &expected)?;
            ensure_eq(
                "inputs of the golden table",
                &committed_table().inputs,
                &golden_inputs(),
            )
        },
    ));
    trials.extend(mutation_trials());
    trials.push(Trial::test(
        "the_claims_check_fails_the_old_fix_descriptions",
        old_fix_descriptions_fail,
    ));
    trials.push(Trial::test(
        "the_claims_check_fails_every_offer_pointed_at_another_cell",
        offers_pointed_elsewhere_fail,
    ));
    trials.push(Trial::test(
        "the_claims_check_fails_every_description_with_a_false_clause",
        false_clauses_fail,
    ));
    let all = cells.clone();
    trials.push(Trial::test(
        "with_the_feature_on_every_cell_does_what_listing_autodiff_does",
        move || {
            // Every row of a feature-on line equals its plainly listed twin's, but for the
            // declaration, the panic's location and the code highlighted (a different template:
            // tests/expansion.rs).
            let comparable = |row: GoldenRow| GoldenRow {
                declares_autodiff: String::new(),
                panic_location: None,
                highlight_focus: Vec::new(),
                highlight_arm: None,
                fixes: Vec::new(),
                ..row
            };
            for cell in all
                .iter()
                .filter(|cell| cell.declaration.autodiff() == AutodiffDeclared::CfgOn)
            {
                let twin = Cell {
                    declaration: cell
                        .declaration
                        .with_autodiff(AutodiffDeclared::Listed)
                        .ok_or("no listed twin")?,
                    ..*cell
                };
                ensure_eq(
                    &cell.name(),
                    &comparable(row_of(cell)),
                    &comparable(row_of(&twin)),
                )?;
            }
            Ok(())
        },
    ));
    let all = cells.clone();
    trials.push(Trial::test(
        "only_int_routing_tensors_meet_the_autodiff_not_supported_check",
        move || {
            // What the panic card's surprise note says of burn 0.22.1, over every cell.
            for cell in &all {
                if let Outcome::Panicked(report) = run(&cell.scenario())
                    && report.message.contains("Autodiff not supported")
                    && !cell.op.takes_int_input()
                {
                    return Err(format!("{} raised it", cell.name()).into());
                }
            }
            Ok(())
        },
    ));
    let cell_count = cells.len();
    let conclusion = libtest_mimic::run(&args, trials);
    // Only a full run writes the table: a filtered one would drop the other cells' rows.
    if update && !conclusion.has_failed() && rows.lock().unwrap().len() == cell_count {
        let table = GoldenTable {
            inputs: golden_inputs(),
            cells: std::mem::take(&mut *rows.lock().unwrap()),
        };
        let text = serde_json::to_string_pretty(&table).expect("the table serialises");
        std::fs::create_dir_all(golden_path().parent().unwrap()).expect("tests/golden/");
        std::fs::write(golden_path(), text + "\n").expect("writing the golden table");
        println!("wrote {}", golden_path().display());
    }
    conclusion.exit();
}
