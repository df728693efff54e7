//! Training with the custom op, on real burn: every op × declaration × fix × backend trains a
//! fixed number of steps with burn's Adam, beside the same model built with builtin ops.
//!
//! Each cell asserts what a training loop meets ([`expected`]): the exact panic text at step 1
//! when the op cannot run in an autodiff context; with `Autodiff` declared, a loss curve equal to
//! the builtin model's at every recorded step (the proof that the op's backward is right); under
//! the without-autodiff fix, which parameters got no gradient (read from the gradients) and kept their
//! values (read back), and a curve that falls behind the builtin one; with the builtin fix, the
//! builtin curve itself. In every trained cell the implementations that ran in step 1 and the
//! routing tensor are the ones the cell's declaration and fix call for ([`expected_trace`]), so a
//! custom path that quietly called builtin ops fails (the mutation trials show it). And the loss
//! at chosen steps equals the committed golden table, `tests/golden/training.json`
//! (`UPDATE_GOLDEN=1 cargo test --test training` rewrites it).
//!
//! Every sentence the page says about a trained cell is checked against the run too
//! (`tests/claims/`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::catalog::FusionForm;
use burn_extension_playground::model::outcome::{ImplCall, Phase, RoutingTensor, Stage};
use burn_extension_playground::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind,
};
use burn_extension_playground::model::training::{
    LossPoint, OptimizerChoice, TrainEnd, TrainOutcome, TrainReport, TrainRequest, TrainSettings,
};
use burn_extension_playground::teach::link::words::LinkWord;
use burn_extension_playground::teach::words::present::impl_text;

#[path = "claims/mod.rs"]
mod claims;
use libtest_mimic::{Arguments, Failed, Trial};
use serde::{Deserialize, Serialize};

/// Steps per cell, and the steps whose losses the golden table holds.
const STEPS: u32 = 20;
const GOLDEN_STEPS: [u32; 3] = [1, 10, 20];
/// The custom model with `Autodiff` declared must follow the builtin one this closely.
const CURVE_TOLERANCE: f32 = 1e-5;

/// Training runs by request, shared by the cells and the claims check (a fix's run is often
/// another cell's).
fn trained(request: &TrainRequest) -> TrainOutcome {
    static RUNS: OnceLock<Mutex<BTreeMap<String, TrainOutcome>>> = OnceLock::new();
    let key = format!("{request:?}");
    let runs = RUNS.get_or_init(Mutex::default);
    if let Some(outcome) = runs.lock().unwrap().get(&key) {
        return outcome.clone();
    }
    let outcome = pollster::block_on(engine().train(request, &mut |_| {}, &|| false));
    runs.lock().unwrap().insert(key, outcome.clone());
    outcome
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| pollster::block_on(Engine::init(true)))
}

fn settings() -> TrainSettings {
    TrainSettings {
        steps: STEPS,
        learning_rate: 0.05,
        optimizer: OptimizerChoice::Adam,
    }
}

#[derive(Clone, Copy, Debug)]
struct Cell {
    op: OpKind,
    declaration: Declaration,
    fix: Fix,
    backend: BackendChoice,
}

impl Cell {
    fn all() -> Vec<Cell> {
        let mut cells = Vec::new();
        for op in OpKind::ALL {
            // Only the fusion engine has the lines that list `Fusion`.
            let lines = Declaration::ALL
                .iter()
                .filter(|declaration| FUSION || declaration.fusion() == FusionForm::None);
            for &declaration in lines {
                for fix in Fix::ALL {
                    for backend in BackendChoice::ALL {
                        cells.push(Cell {
                            op,
                            declaration,
                            fix,
                            backend,
                        });
                    }
                }
            }
        }
        cells
    }

    fn name(&self) -> String {
        format!(
            "{}::declared_{}::fix_{}::{}",
            self.op.name(),
            self.declaration.module(),
            self.fix.word(),
            self.backend.word()
        )
    }

    fn request(&self) -> TrainRequest {
        TrainRequest {
            op: self.op,
            declaration: self.declaration,
            fix: self.fix,
            backend: self.backend,
            settings: settings(),
        }
    }
}

/// Whether this build of the engine has burn's `fusion` feature (`--features fusion`): its
/// golden table is `training-fusion.json`.
const FUSION: bool = cfg!(feature = "fusion");

/// `Autodiff` listed, on a line every op builds with: under fusion, the line listing `Fusion`
/// too (scale builds only there).
const WITH_AUTODIFF: Declaration = if FUSION {
    Declaration::CubeFlexAutodiffFusion
} else {
    Declaration::WITH_AUTODIFF
};

/// What training does in a cell.
#[derive(Debug)]
enum Expected {
    /// The declaration does not compile in this engine: nothing trains.
    NotBuilt,
    /// The op's routing panics in step 1 with this message.
    PanicsAtStepOne(String),
    /// Trains every step; the custom curve equals the builtin one.
    TrainsLikeBuiltin,
    /// Trains every step, but these parameters get no gradient.
    Frozen(&'static [&'static str]),
}

fn expected(cell: &Cell) -> Expected {
    let op = cell.op.name();
    let backend_not_supported =
        format!("not implemented: Backend not supported for custom op `{op}`");
    if cell.op == OpKind::Scale && !claims::scale_builds(cell.declaration) {
        return Expected::NotBuilt;
    }
    if cell.fix == Fix::Builtin {
        return Expected::TrainsLikeBuiltin;
    }
    if cell.backend == BackendChoice::Cpu && !cell.declaration.flex() {
        return Expected::PanicsAtStepOne(backend_not_supported);
    }
    // The flattened shape `#[fusion(shape = …)]` declares meets the 2-D activations of the
    // scale and leaky_relu models on the GPU, where fusion queues the op: the model's next op
    // reads the declared shape and panics in step 1 (a single run panics at its read back:
    // tests/matrix.rs). leaky_relu's `Autodiff` impl is the default body, so only its detached
    // call reaches the `Fusion<B>` impl; shift_ids's output is 1-D, its own shape flattened.
    if cell.backend == BackendChoice::Gpu && cell.declaration.fusion() == FusionForm::WrongShape {
        match (cell.op, cell.fix) {
            (OpKind::Scale, _) => {
                return Expected::PanicsAtStepOne(
                    "index out of bounds: the len is 1 but the index is 1".to_owned(),
                );
            }
            (OpKind::LeakyRelu, Fix::WithoutAutodiff) => {
                return Expected::PanicsAtStepOne(
                    "range end index 2 out of range for slice of length 1".to_owned(),
                );
            }
            _ => {}
        }
    }
    if cell.fix == Fix::WithoutAutodiff {
        // Nothing before the op gets a gradient: the layers feeding a float op freeze. Ids carry
        // no gradient anyway, so the int op's model loses nothing.
        return match cell.op {
            OpKind::Scale => Expected::Frozen(&["linear.weight", "linear.bias"]),
            OpKind::LeakyRelu => Expected::Frozen(&["hidden.weight", "hidden.bias"]),
            OpKind::ShiftIds => Expected::TrainsLikeBuiltin,
        };
    }
    match (cell.declaration.autodiff(), cell.op) {
        (AutodiffDeclared::Listed | AutodiffDeclared::CfgOn, _) => Expected::TrainsLikeBuiltin,
        (_, OpKind::ShiftIds) => Expected::PanicsAtStepOne(format!(
            "not implemented: Autodiff not supported for custom op `{op}`"
        )),
        _ => Expected::PanicsAtStepOne(backend_not_supported),
    }
}

/// One cell's row of the golden table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct GoldenRow {
    declares_autodiff: String,
    declares_flex: bool,
    /// The method's `#[fusion(...)]` form (the fusion engine's table only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    declares_fusion: String,
    /// `panicked at step N: message`, `trained`, or `not built`.
    outcome: String,
    /// Step → [custom loss, builtin loss], at the golden steps.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    losses: BTreeMap<u32, [f32; 2]>,
    /// Parameters that got no gradient at step 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    frozen: Vec<String>,
    /// Parameters whose values after the last step are those before step 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unchanged: Vec<String>,
    /// The implementations that ran in step 1, as the page lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    impls: Vec<String>,
}

/// The implementations that must run in step 1 of a trained cell, and the routing tensor the
/// op's call must hand the generated routing: the op's `Autodiff<B, C>` impl where `Autodiff`
/// is declared (scale's wraps its kernel, and its `Backward` runs the kernel again), the
/// concrete impl on a detached input or an int routing tensor, nothing with the builtin fix.
fn expected_trace(cell: &Cell) -> (Vec<ImplCall>, Option<RoutingTensor>) {
    let op = cell.op.name();
    let concrete = match cell.backend {
        BackendChoice::Gpu if FUSION => "Fusion<CubeBackend>",
        BackendChoice::Gpu => "CubeBackend",
        BackendChoice::Cpu => "Flex",
    };
    let call = |stage: Stage, implementor: &str| ImplCall {
        op: op.to_owned(),
        phase: stage.phase(),
        stage,
        implementor: implementor.to_owned(),
    };
    // Under fusion a line listing `Fusion` (but for `#[fusion(default)]`) queues the op on the
    // GPU; its `CubeBackend` implementation runs deferred, in the pass that queued it or later
    // (see `same_call`): `stage` is then the pass that queued it.
    let queued = cell.backend == BackendChoice::Gpu
        && !matches!(
            cell.declaration.fusion(),
            FusionForm::None | FusionForm::Default
        );
    let concrete_call = |stage: Stage| {
        if queued {
            ImplCall {
                phase: Phase::Deferred,
                ..call(stage, "CubeBackend")
            }
        } else {
            call(stage, concrete)
        }
    };
    let routing = |wrapped, context| {
        Some(RoutingTensor {
            backend: cell.backend.selector().to_owned(),
            autodiff_wrapped: wrapped,
            autodiff_context: context,
        })
    };
    let autodiff = format!("Autodiff<{concrete}>");
    match (cell.fix, cell.op) {
        (Fix::Builtin, _) => (vec![], None),
        (Fix::WithoutAutodiff, _) => (vec![concrete_call(Stage::Forward)], routing(false, false)),
        (Fix::None, OpKind::Scale) => (
            vec![
                call(Stage::Forward, &autodiff),
                concrete_call(Stage::Forward),
                concrete_call(Stage::Backward),
            ],
            routing(true, true),
        ),
        (Fix::None, OpKind::LeakyRelu) => {
            (vec![call(Stage::Forward, &autodiff)], routing(true, true))
        }
        (Fix::None, OpKind::ShiftIds) => {
            (vec![concrete_call(Stage::Forward)], routing(false, true))
        }
    }
}

/// Whether `ran` is the call `expected` describes. A deferred call (queued by fusion) runs when
/// fusion executes its queue, which depends on what the process ran before (fusion executes
/// early once it has seen a stream of operations): it matches at any stage from the one that
/// queued it to the read back that ends step 1's log.
fn same_call(ran: &ImplCall, expected: &ImplCall) -> bool {
    const ORDER: [Stage; 5] = [
        Stage::CreateInput,
        Stage::Forward,
        Stage::Backward,
        Stage::OptimizerStep,
        Stage::ReadBack,
    ];
    let rank = |stage: Stage| ORDER.iter().position(|&at| at == stage);
    if expected.phase != Phase::Deferred {
        return ran == expected;
    }
    ran.op == expected.op
        && ran.implementor == expected.implementor
        && ran.phase == Phase::Deferred
        && matches!((rank(ran.stage), rank(expected.stage)), (Some(ran), Some(queued)) if ran >= queued)
}

/// As the golden table lists a call: the page's text, but for a deferred call's stage, which
/// varies with what ran before (`same_call`).
fn golden_impl_text(call: &ImplCall) -> String {
    match call.phase {
        Phase::Deferred => format!("{}::{} (deferred)", call.implementor, call.op),
        _ => impl_text(call),
    }
}

/// What a trained cell's report must show beyond its losses: the implementations and routing
/// tensor of step 1, whether builtin ops stood in, the backend, and for each parameter that a
/// gradient reached it ⇔ its values changed.
fn check_trace(cell: &Cell, report: &TrainReport) -> Result<(), Failed> {
    let (impls, routing_tensor) = expected_trace(cell);
    ensure(
        report.impls.len() == impls.len()
            && report
                .impls
                .iter()
                .zip(&impls)
                .all(|(ran, expected)| same_call(ran, expected)),
        format!(
            "implementations in step 1: {:?}, expected {impls:?}",
            report.impls
        ),
    )?;
    ensure(
        report.routing_tensor == routing_tensor,
        format!(
            "routing tensor {:?}, expected {routing_tensor:?}",
            report.routing_tensor
        ),
    )?;
    ensure(
        report.builtin_ran == (cell.fix == Fix::Builtin),
        format!("builtin ops ran in the custom step: {}", report.builtin_ran),
    )?;
    ensure(
        report.backend == cell.backend,
        format!("backend {:?}", report.backend),
    )?;
    ensure(!report.params.is_empty(), "no parameter report")?;
    for param in &report.params {
        ensure(
            param.has_gradient != param.unchanged(),
            format!(
                "{}: gradient {}, values {}",
                param.name,
                param.has_gradient,
                if param.unchanged() {
                    "unchanged"
                } else {
                    "changed"
                }
            ),
        )?;
    }
    Ok(())
}

fn check(cell: Cell) -> Result<GoldenRow, Failed> {
    let mut streamed: Vec<LossPoint> = Vec::new();
    let outcome = pollster::block_on(engine().train(
        &cell.request(),
        &mut |points| streamed.extend_from_slice(points),
        &|| false,
    ));
    let mut row = GoldenRow {
        declares_autodiff: cell.declaration.autodiff().word().to_owned(),
        declares_flex: cell.declaration.flex(),
        declares_fusion: if FUSION {
            cell.declaration.fusion().word().to_owned()
        } else {
            String::new()
        },
        outcome: String::new(),
        losses: BTreeMap::new(),
        frozen: Vec::new(),
        unchanged: Vec::new(),
        impls: Vec::new(),
    };
    match (expected(&cell), outcome) {
        (Expected::NotBuilt, TrainOutcome::NotBuilt { fusion }) => {
            ensure(fusion == FUSION, format!("built with fusion: {fusion}"))?;
            ensure(streamed.is_empty(), "losses streamed")?;
            row.outcome = "not-built".to_owned();
        }
        (Expected::PanicsAtStepOne(message), TrainOutcome::Panicked { step, report }) => {
            ensure(step == 1, format!("panicked at step {step}, not 1"))?;
            ensure(
                report.message == message,
                format!("panic message {:?}, expected {message:?}", report.message),
            )?;
            ensure(streamed.is_empty(), "losses streamed before the panic")?;
            ensure(
                report.backend == Some(cell.backend),
                format!("the panic's backend {:?}", report.backend),
            )?;
            claims::check_training_panic(&cell.request(), &report, &trained)?;
            row.outcome = format!("panicked at step {step}: {}", report.message);
        }
        (expected, TrainOutcome::Trained(report))
            if !matches!(expected, Expected::PanicsAtStepOne(_) | Expected::NotBuilt) =>
        {
            ensure(
                report.end == TrainEnd::Completed,
                format!("ended {:?}", report.end),
            )?;
            ensure(
                report.curve == streamed,
                "the report's curve is not what was streamed",
            )?;
            let last = report.curve.last().ok_or("no loss recorded")?;
            ensure(
                last.step == STEPS,
                format!("the last point is step {}", last.step),
            )?;
            ensure(
                report
                    .curve
                    .iter()
                    .all(|point| point.custom.is_finite() && point.builtin.is_finite()),
                "a loss is not finite",
            )?;
            let first = report.curve.first().ok_or("no loss recorded")?;
            ensure(
                last.builtin < first.builtin,
                "the builtin model did not learn",
            )?;
            let frozen: Vec<String> = report
                .params
                .iter()
                .filter(|param| !param.has_gradient)
                .map(|param| param.name.clone())
                .collect();
            check_trace(&cell, &report)?;
            match expected {
                Expected::TrainsLikeBuiltin => {
                    ensure(frozen.is_empty(), format!("frozen parameters {frozen:?}"))?;
                    for point in &report.curve {
                        ensure(
                            (point.custom - point.builtin).abs() <= CURVE_TOLERANCE,
                            format!(
                                "step {}: custom {} vs builtin {}",
                                point.step, point.custom, point.builtin
                            ),
                        )?;
                    }
                }
                Expected::Frozen(names) => {
                    ensure(
                        frozen == names,
                        format!("frozen {frozen:?}, expected {names:?}"),
                    )?;
                    ensure(
                        last.custom > last.builtin,
                        format!(
                            "the frozen model ({}) did not fall behind the builtin one ({})",
                            last.custom, last.builtin
                        ),
                    )?;
                }
                Expected::PanicsAtStepOne(_) | Expected::NotBuilt => unreachable!(),
            }
            claims::check_training(&cell.request(), &report)?;
            row.outcome = "trained".to_owned();
            row.frozen = frozen;
            row.unchanged = report
                .params
                .iter()
                .filter(|param| param.unchanged())
                .map(|param| param.name.clone())
                .collect();
            row.impls = report.impls.iter().map(golden_impl_text).collect();
            for point in report
                .curve
                .iter()
                .filter(|point| GOLDEN_STEPS.contains(&point.step))
            {
                row.losses.insert(point.step, [point.custom, point.builtin]);
            }
            ensure(
                row.losses.len() == GOLDEN_STEPS.len(),
                "a golden step was not recorded",
            )?;
        }
        (expected, outcome) => return Err(format!("expected {expected:?}, got {outcome:?}").into()),
    }
    Ok(row)
}

/// SGD at learning rate 10 on the `scale` model: the loss overflows within a few steps, and the
/// run ends there as diverged.
fn diverges() -> Result<(), Failed> {
    let request = TrainRequest {
        op: OpKind::Scale,
        declaration: WITH_AUTODIFF,
        fix: Fix::None,
        backend: BackendChoice::Cpu,
        settings: TrainSettings {
            steps: 400,
            learning_rate: 10.0,
            optimizer: OptimizerChoice::Sgd,
        },
    };
    match pollster::block_on(engine().train(&request, &mut |_| {}, &|| false)) {
        TrainOutcome::Trained(report) => {
            let TrainEnd::Diverged { step } = report.end else {
                return Err(format!("ended {:?}", report.end).into());
            };
            let last = report.curve.last().ok_or("no loss recorded")?;
            ensure(
                last.step == step,
                "the curve does not end at the divergence",
            )?;
            ensure(
                !last.custom.is_finite() || !last.builtin.is_finite(),
                "the last loss is finite",
            )?;
            ensure(step < 400, "it diverged at the last step")
        }
        outcome => Err(format!("got {outcome:?}").into()),
    }
}

/// A stop asked for after a few losses came back ends the run there.
fn stops() -> Result<(), Failed> {
    let request = TrainRequest {
        op: OpKind::LeakyRelu,
        declaration: WITH_AUTODIFF,
        fix: Fix::None,
        backend: BackendChoice::Cpu,
        settings: TrainSettings {
            steps: 1000,
            learning_rate: 0.01,
            optimizer: OptimizerChoice::Adam,
        },
    };
    let readings = std::cell::Cell::new(0);
    let outcome = pollster::block_on(engine().train(
        &request,
        &mut |_| readings.set(readings.get() + 1),
        &|| readings.get() >= 2,
    ));
    match outcome {
        TrainOutcome::Trained(report) => {
            // 1,000 steps are read every 10, one batch behind the steps (a batch is recorded
            // while the previous one is read): the second reading (steps 11–20) arrives after
            // step 30, the stop ends the run there, and the curve ends at the same step.
            ensure(
                report.end == TrainEnd::Stopped { step: 30 },
                format!("ended {:?}", report.end),
            )?;
            ensure(
                report.curve.last().map(|point| point.step) == Some(30),
                format!(
                    "the curve ends at step {:?}",
                    report.curve.last().map(|point| point.step)
                ),
            )
        }
        outcome => Err(format!("got {outcome:?}").into()),
    }
}

/// A custom path that quietly calls builtin ops: the run of the builtin fix, checked as if it
/// were the op declared with `Autodiff` and called as is. Its curve equals the builtin one, as
/// that cell's must, so only the implementations and routing tensor can tell; they must.
fn mutation_trials() -> Vec<Trial> {
    OpKind::ALL
        .into_iter()
        .map(|op| {
            Trial::test(
                format!(
                    "a_custom_path_calling_builtin_ops_fails_the_trace_check::{}",
                    op.name()
                ),
                move || {
                    let honest = Cell {
                        op,
                        declaration: WITH_AUTODIFF,
                        fix: Fix::None,
                        backend: BackendChoice::Cpu,
                    };
                    let builtin = Cell {
                        fix: Fix::Builtin,
                        ..honest
                    };
                    let TrainOutcome::Trained(report) = pollster::block_on(engine().train(
                        &builtin.request(),
                        &mut |_| {},
                        &|| false,
                    )) else {
                        return Err("the builtin fix did not train".into());
                    };
                    check_trace(&builtin, &report)?;
                    match check_trace(&honest, &report) {
                        Ok(()) => Err("a builtin run passed as the custom op's".into()),
                        Err(_) => Ok(()),
                    }
                },
            )
        })
        .collect()
}

/// The claims check fails the sentence the page used to say of the without-autodiff fix, on the run it
/// was said of (the custom loss there falls, 2.39 → 0.188).
fn the_old_frozen_sentence_fails() -> Result<(), Failed> {
    let cell = Cell {
        op: OpKind::LeakyRelu,
        declaration: Declaration::WITHOUT_AUTODIFF,
        fix: Fix::WithoutAutodiff,
        backend: BackendChoice::Gpu,
    };
    let TrainOutcome::Trained(report) = trained(&cell.request()) else {
        return Err("the without-autodiff fix did not train".into());
    };
    let old = "No gradient reached hidden.weight, hidden.bias: frozen, they keep their starting values, so the custom model's loss stops falling where the builtin one's goes on.";
    match claims::check_params_sentence(old, &report) {
        Ok(()) => Err("the old sentence passed".into()),
        Err(_) => Ok(()),
    }
}

fn ensure(condition: bool, message: impl Into<String>) -> Result<(), Failed> {
    if condition {
        Ok(())
    } else {
        Err(message.into().into())
    }
}

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(if FUSION {
        "tests/golden/training-fusion.json"
    } else {
        "tests/golden/training.json"
    })
}

fn committed() -> &'static BTreeMap<String, GoldenRow> {
    static TABLE: OnceLock<BTreeMap<String, GoldenRow>> = OnceLock::new();
    TABLE.get_or_init(|| {
        std::fs::read_to_string(golden_path())
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    })
}

fn main() {
    let args = Arguments::from_args();
    if let Err(reason) = engine().gpu() {
        eprintln!("No wgpu adapter: {reason}\nInstall Mesa's Vulkan driver (mesa-vulkan-drivers).");
        std::process::exit(1);
    }
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let rows: &'static Mutex<BTreeMap<String, GoldenRow>> = Box::leak(Box::default());
    let cells = Cell::all();
    let count = cells.len();
    let trials: Vec<Trial> = cells
        .into_iter()
        .map(|cell| {
            Trial::test(cell.name(), move || {
                let row = check(cell)?;
                rows.lock().unwrap().insert(cell.name(), row.clone());
                if update {
                    return Ok(());
                }
                match committed().get(&cell.name()) {
                    Some(golden) if *golden == row => Ok(()),
                    Some(golden) => Err(format!("golden row {golden:?}, got {row:?}").into()),
                    None => Err("no row in the golden table (UPDATE_GOLDEN=1 writes it)".into()),
                }
            })
        })
        .collect();
    let mut trials: Vec<Trial> = trials;
    trials.push(Trial::test("a_blown_up_loss_ends_as_diverged", diverges));
    trials.push(Trial::test(
        "a_stop_ends_the_run_after_the_current_step",
        stops,
    ));
    trials.extend(mutation_trials());
    trials.push(Trial::test(
        "the_claims_check_fails_the_old_no_grad_sentence",
        the_old_frozen_sentence_fails,
    ));
    let conclusion = libtest_mimic::run(&args, trials);
    // Only a full run writes the table: a filtered one would drop the other cells' rows.
    if update && !conclusion.has_failed() && rows.lock().unwrap().len() == count {
        let text =
            serde_json::to_string_pretty(&*rows.lock().unwrap()).expect("the table serialises");
        std::fs::write(golden_path(), text + "\n").expect("writing the golden table");
        println!("wrote {}", golden_path().display());
    }
    conclusion.exit();
}
