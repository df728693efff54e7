//! The whole matrix on real burn: every op × declaration (with or without `Autodiff`, with or
//! without `Flex`) × grad context × `require_grad` × fix × backend, each cell one named test.
//!
//! GPU cells run on burn-wgpu natively (Mesa's lavapipe Vulkan driver where there is no GPU);
//! CPU cells on burn-flex. Each cell asserts the exact outcome: output values against the op's
//! definition computed here in plain Rust, the gradient against its analytic derivative and the
//! builtin reference, the implementations that ran, or the exact panic text and its location.
//!
//! The expectations below are the specification of burn 0.22.1's generated routing as the
//! playground teaches it; the engine itself never predicts any of it.

use std::sync::OnceLock;

use burn_extension_playground::engine::Engine;
use burn_extension_playground::expanded;
use burn_extension_playground::outcome::{Completed, ImplCall, Outcome, Phase, Route, Values};
use burn_extension_playground::route_view::{Observed, locate};
use burn_extension_playground::scenario::{
    BackendChoice, Declaration, Fix, FloatInput, IntInput, OpArgs, OpKind, Scenario,
};
use libtest_mimic::{Arguments, Failed, Trial};

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
            for declaration in Declaration::ALL {
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
            "{}::{}::{}::{}::fix_{}::{}",
            self.op.name(),
            format!("declared_{}", self.declaration.module()),
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
            format!("{:?}", self.fix).to_lowercase(),
            format!("{:?}", self.backend).to_lowercase(),
        )
    }
}

/// Inputs: exact binary fractions, so every product below is exact in f32 on any device, and no
/// zero in the leaky_relu input (its derivative is not defined there).
const SCALE_X: [f32; 6] = [1.0, -2.0, 3.5, 0.25, -0.5, 8.0];
const SCALE_FACTOR: f32 = 2.5;
const LEAKY_X: [f32; 5] = [-2.0, -0.5, 0.75, 3.0, -8.0];
const LEAKY_SLOPE: f32 = 0.125;
const IDS: [i32; 4] = [0, 7, 41, -3];
const OFFSET: i32 = 1000;

fn scenario(cell: &Cell) -> Scenario {
    let args = match cell.op {
        // 2-D, to cover the rank-2 path.
        OpKind::Scale => OpArgs::Scale {
            x: FloatInput {
                shape: vec![2, 3],
                values: SCALE_X.to_vec(),
            },
            factor: SCALE_FACTOR,
        },
        OpKind::LeakyRelu => OpArgs::LeakyRelu {
            x: FloatInput {
                shape: vec![LEAKY_X.len()],
                values: LEAKY_X.to_vec(),
            },
            slope: LEAKY_SLOPE,
        },
        OpKind::ShiftIds => OpArgs::ShiftIds {
            ids: IntInput {
                shape: vec![IDS.len()],
                values: IDS.to_vec(),
            },
            offset: OFFSET,
        },
    };
    Scenario {
        args,
        declaration: cell.declaration,
        grad_context: cell.grad_context,
        require_grad: cell.require_grad,
        fix: cell.fix,
        backend: cell.backend,
    }
}

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
}

fn expected(cell: &Cell) -> Expected {
    let float = !cell.op.takes_int_input();
    let op = cell.op.name();
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
    // A Flex tensor meets an op declared without `Flex`: no arm matches its backend, in any
    // context, and the generated fallback fires.
    if cell.backend == BackendChoice::Cpu && !cell.declaration.flex {
        return backend_not_supported;
    }
    // Detached inputs, and any input outside a grad context, take the concrete route.
    if cell.fix == Fix::Detach || !cell.grad_context {
        return Expected::Runs {
            route: Route::Concrete,
            gradient: false,
        };
    }
    match (cell.declaration.autodiff, float) {
        // A float input on an autodiff device is autodiff-wrapped; without the `Autodiff`
        // selector no arm matches it and the generated fallback fires.
        (false, true) => backend_not_supported,
        // An int input is never wrapped: the concrete arm matches, then rejects the enabled
        // autodiff context (routing.rs:1126).
        (false, false) => Expected::RoutingPanics {
            message: format!("not implemented: Autodiff not supported for custom op `{op}`"),
        },
        (true, true) => Expected::Runs {
            route: Route::AutodiffImpl,
            gradient: cell.require_grad,
        },
        // Ints have no float input, so the autodiff impl is not needed: the concrete result is
        // re-wrapped in the enabled context.
        (true, false) => Expected::Runs {
            route: Route::ConcreteInAutodiffContext,
            gradient: false,
        },
    }
}

fn concrete_type(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu => "CubeBackend",
        BackendChoice::Cpu => "Flex",
    }
}

fn call(op: &str, phase: Phase, implementor: String) -> ImplCall {
    ImplCall {
        op: op.to_owned(),
        phase,
        implementor,
    }
}

/// The implementations that record themselves in a cell that runs.
fn expected_impls(cell: &Cell, route: Route, gradient: bool) -> Vec<ImplCall> {
    let op = cell.op.name();
    let concrete = concrete_type(cell.backend).to_owned();
    // The default checkpointing strategy, `NoCheckpointing`, is a defaulted type parameter,
    // which `type_name` leaves out.
    let autodiff = format!("Autodiff<{concrete}>");
    match (route, cell.op) {
        (Route::Builtin, _) => vec![],
        (Route::Concrete | Route::ConcreteInAutodiffContext, _) => {
            vec![call(op, Phase::Forward, concrete)]
        }
        // scale's Autodiff impl wraps the concrete kernel, and its Backward runs it again.
        (Route::AutodiffImpl, OpKind::Scale) => {
            let mut calls = vec![
                call(op, Phase::Forward, autodiff),
                call(op, Phase::Forward, concrete.clone()),
            ];
            if gradient {
                calls.push(call(op, Phase::Backward, concrete));
            }
            calls
        }
        // leaky_relu's Autodiff impl is its default body over autodiff primitives.
        (Route::AutodiffImpl, _) => vec![call(op, Phase::Forward, autodiff)],
    }
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

/// The arm the page highlights for this outcome is the arm that produces it.
fn check_highlight(cell: &Cell, observed: Observed) -> Result<(), Failed> {
    let source = expanded::source(cell.op, cell.declaration).ok_or("no shipped expansion")?;
    let lines: Vec<&str> = source.lines().collect();
    let highlight = locate(source, cell.backend, observed);
    if observed == Observed::Ran(Route::Builtin) {
        return ensure_eq("highlight for builtin ops", &highlight, &None);
    }
    let highlight = highlight.ok_or_else(|| format!("no arm located for {observed:?}"))?;
    let focus: Vec<&str> = highlight
        .focus
        .iter()
        .map(|&line| lines[line].trim())
        .collect();
    let arm = lines[highlight.arm.0..=highlight.arm.1].join("\n");
    let backend_type = match cell.backend {
        BackendChoice::Gpu => "burn::backend::Cube",
        BackendChoice::Cpu => "burn::backend::Flex",
    };
    let op = cell.op.name();
    let (decisive, arm_must_contain) = match observed {
        Observed::BackendNotSupported => (
            format!("format_args!(\"Backend not supported for custom op `{{0}}`\", \"{op}\")"),
            String::new(),
        ),
        Observed::AutodiffNotSupported => (
            format!("format_args!(\"Autodiff not supported for custom op `{{0}}`\", \"{op}\")"),
            format!("type _B = {backend_type};"),
        ),
        Observed::Ran(Route::AutodiffImpl) => (
            format!("let __output = <_B as {}>::{op}(", cell.op.trait_name()),
            format!("burn::backend::Autodiff<{backend_type},"),
        ),
        Observed::Ran(_) => (
            format!("let __output = <_B as {}>::{op}(", cell.op.trait_name()),
            format!("type _B = {backend_type};"),
        ),
    };
    if !focus.iter().any(|line| line.starts_with(&decisive)) {
        return Err(format!("highlighted lines {focus:?} do not include `{decisive}`").into());
    }
    if !arm
        .replace(char::is_whitespace, "")
        .contains(&arm_must_contain.replace(char::is_whitespace, ""))
    {
        return Err(format!("highlighted arm does not contain `{arm_must_contain}`").into());
    }
    Ok(())
}

fn check(cell: Cell) -> Result<(), Failed> {
    let scenario = scenario(&cell);
    let outcome = pollster::block_on(engine().run(&scenario));
    match &outcome {
        Outcome::Completed(completed) => check_highlight(&cell, Observed::Ran(completed.route))?,
        Outcome::Panicked(report) => {
            if let Some(observed) = Observed::from_panic(&report.message) {
                check_highlight(&cell, observed)?;
            }
        }
        Outcome::Failed(_) => {}
    }
    match (expected(&cell), outcome) {
        (Expected::RequireGradPanics, Outcome::Panicked(report)) => {
            ensure_eq(
                "panic message",
                &report.message.as_str(),
                &"Tensor::require_grad requires autodiff; call Tensor::autodiff first",
            )?;
            ensure_eq("implementations before the panic", &report.impls, &vec![])?;
            let location = report.location.ok_or("the panic has no location")?;
            if !location
                .file
                .ends_with("burn-tensor-0.22.1/src/tensor/api/float.rs")
            {
                return Err(
                    format!("panic location {location:?} is not burn-tensor's float API").into(),
                );
            }
            Ok(())
        }
        (Expected::RoutingPanics { message }, Outcome::Panicked(report)) => {
            ensure_eq("panic message", &report.message, &message)?;
            ensure_eq("implementations before the panic", &report.impls, &vec![])?;
            let location = report.location.ok_or("the panic has no location")?;
            // The generated code reports the op's declaration: the line that stamps the trait
            // under the cell's selectors.
            let source = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&location.file),
            )
            .map_err(|error| format!("reading {}: {error}", location.file))?;
            let line = source
                .lines()
                .nth(location.line as usize - 1)
                .ok_or("panic line beyond the end of the file")?;
            let stamp = format!(
                "declare_{}_ops!({});",
                cell.op.name(),
                cell.declaration.selectors()
            );
            ensure_eq(
                "panic location file",
                &location.file,
                &format!("src/ops/{}.rs", cell.op.name()),
            )?;
            ensure_eq(
                "source at the panic location",
                &line.trim(),
                &stamp.as_str(),
            )?;
            Ok(())
        }
        (Expected::Runs { route, gradient }, Outcome::Completed(completed)) => {
            check_completed(&cell, route, gradient, &completed)
        }
        (expected, outcome) => Err(format!("expected {expected:?}, got {outcome:?}").into()),
    }
}

fn check_completed(
    cell: &Cell,
    route: Route,
    gradient: bool,
    completed: &Completed,
) -> Result<(), Failed> {
    let (values, derivative) = expected_values(cell.op);
    let shape = scenario(cell).args.shape().to_vec();
    ensure_eq("route", &completed.route, &route)?;
    ensure_eq("backend", &completed.backend, &cell.backend)?;
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

fn main() {
    let args = Arguments::from_args();
    // Fail loudly, once, if there is no GPU adapter rather than 72 times.
    if let Err(reason) = engine().gpu() {
        eprintln!(
            "No wgpu adapter: {reason}\nInstall Mesa's Vulkan driver (mesa-vulkan-drivers) to run the GPU cells on the CPU."
        );
        std::process::exit(1);
    }
    println!("GPU adapter: {}", engine().gpu().unwrap_or_default());
    let trials = Cell::all()
        .into_iter()
        .map(|cell| Trial::test(cell.name(), move || check(cell)))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
