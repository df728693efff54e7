//! Outcomes as the page words them: paths, implementations, routes, backends, declarations.
//! Pure functions, tested natively.

use crate::model::catalog::FusionForm;
use crate::model::outcome::{Completed, ImplCall, PanicLocation, Phase, Route, Stage, Values};
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix};
use crate::teach::numbers::shape_text;

/// A source path as rustc recorded it, made readable: paths into the cargo registry start at
/// the crate (`burn-tensor-0.22.1/src/…`), project paths stay as they are (`src/ops/scale.rs`).
pub fn short_path(file: &str) -> &str {
    let segments: Vec<&str> = file.split('/').collect();
    let crate_dir = segments
        .iter()
        .rposition(|segment| is_versioned_crate_dir(segment));
    match crate_dir {
        Some(index) => {
            let offset: usize = segments[..index]
                .iter()
                .map(|segment| segment.len() + 1)
                .sum();
            &file[offset..]
        }
        None => file,
    }
}

/// Where a panic was raised, as the page shows it: `src/ops/scale.rs:61:1`.
pub fn panic_location_text(location: &PanicLocation) -> String {
    format!(
        "{}:{}:{}",
        short_path(&location.file),
        location.line,
        location.column
    )
}

/// `burn-tensor-0.22.1`: a name, a dash, then `major.minor.patch`.
fn is_versioned_crate_dir(segment: &str) -> bool {
    segment.rsplit_once('-').is_some_and(|(name, version)| {
        !name.is_empty()
            && version.split('.').count() == 3
            && version
                .split('.')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
    })
}

/// One line per implementation that ran: `Autodiff<CubeBackend>::scale (forward)`.
pub fn impl_text(call: &ImplCall) -> String {
    let phase = match call.phase {
        Phase::Forward => "forward",
        Phase::Backward => "backward",
        // Under fusion the CubeCL impl runs when fusion executes its queue: the step it
        // recorded itself in is what the run observed, not which pass queued it.
        Phase::Deferred => &format!(
            "ran {}",
            match call.stage {
                Stage::ReadBack => "when the results were read back",
                Stage::Reference => "while the CPU reference was computed",
                Stage::OptimizerStep => "during the optimizer step",
                Stage::Forward => "during the forward pass",
                Stage::Backward => "during the backward pass",
                Stage::CreateInput | Stage::RequireGrad => "later",
            }
        ),
    };
    format!("{}::{} ({phase})", call.implementor, call.op)
}

/// The route in a few words.
pub fn route_title(route: Route) -> &'static str {
    match route {
        Route::Concrete => "Concrete implementation",
        Route::ConcreteInAutodiffContext => "Concrete implementation, in the autodiff context",
        Route::AutodiffImpl => "Autodiff<B, C> implementation",
        Route::Builtin => "Builtin tensor ops (custom op not called)",
    }
}

/// What the route means, read from the run: the route, whether the output is tracked, whether
/// there is a gradient.
pub fn route_explanation(completed: &Completed) -> String {
    match completed.route {
        Route::Concrete => "The generated routing found a concrete backend tensor with the autodiff context disabled and called the op's implementation for that backend.".to_owned(),
        Route::ConcreteInAutodiffContext => "The routing tensor is an int tensor, which autodiff never wraps. The declaration lets the routing accept the enabled autodiff context: it ran the concrete implementation and re-wrapped its output in that context.".to_owned(),
        // What backward() ran is recorded: an op with its own `Backward` step is called again
        // there; one whose impl is its default body (burn's tensor ops) is not.
        Route::AutodiffImpl if completed.output_tracked && completed.impls.iter().any(|call| call.phase == Phase::Backward) => "The input is wrapped by autodiff and the op lists the Autodiff selector, so the routing called the op's impl for Autodiff<B, C>, which recorded the op's own backward step: backward() called the op's implementation again.".to_owned(),
        Route::AutodiffImpl if completed.output_tracked && completed.impls.iter().any(|call| call.phase == Phase::Deferred) => "The input is wrapped by autodiff and the op lists the Autodiff selector, so the routing called the op's impl for Autodiff<B, C>, and its output is tracked by autodiff. Under fusion the op's CubeCL implementation records itself when fusion runs its queue (the list below names the step), so which pass called it is not recorded.".to_owned(),
        Route::AutodiffImpl if completed.output_tracked => "The input is wrapped by autodiff and the op lists the Autodiff selector, so the routing called the op's impl for Autodiff<B, C>. Its body is made of burn's tensor ops, which recorded their own backward steps: backward() called no implementation of the op.".to_owned(),
        Route::AutodiffImpl => "The input is wrapped by autodiff and the op lists the Autodiff selector, so the routing called the op's impl for Autodiff<B, C>. The input does not require a gradient, so nothing was recorded for backward().".to_owned(),
        Route::Builtin if completed.gradient.is_some() => "The custom op was not called: burn's own tensor ops computed the result, and their own backward passes gave the gradient.".to_owned(),
        Route::Builtin => "The custom op was not called: burn's own tensor ops computed the result.".to_owned(),
    }
}

/// For a declaration that flattens the output's shape (`#[fusion(shape = …)]` in the catalog's
/// wrong form) and a run where that changed nothing: the declared shape the output carries and
/// the shape of the reference (what the kernel computes) are the same, which only a
/// one-dimensional input allows. `None` otherwise.
pub fn flattened_shape_note(declaration: Declaration, completed: &Completed) -> Option<String> {
    let (declared, kernel) = (&completed.output.shape, &completed.reference.shape);
    (declaration.fusion() == FusionForm::WrongShape && declared == kernel && kernel.len() == 1)
        .then(|| {
            format!(
                "This declaration flattens the output's shape to one dimension, and this input already has one: the declared shape, {}, is the kernel's, {}, so the run shows nothing wrong.",
                shape_text(declared),
                shape_text(kernel)
            )
        })
}

/// The backend's name on the page.
pub fn backend_text(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu => "WebGPU",
        BackendChoice::Cpu => "CPU",
    }
}

/// Why a completed run has no gradient, or `None` when it has one: read from the input the run
/// created and the routing tensor the op received.
pub fn missing_gradient_reason(completed: &Completed) -> Option<&'static str> {
    if completed.gradient.is_some() {
        return None;
    }
    let detached = completed.input.autodiff
        && completed
            .routing_tensor
            .as_ref()
            .is_some_and(|tensor| !tensor.autodiff_context);
    Some(if matches!(completed.output.values, Values::Int(_)) {
        "Int outputs have no gradient."
    } else if !completed.input.autodiff {
        "No gradient: the input is not on an autodiff device, so nothing is tracked."
    } else if detached {
        "No gradient: the op received the input without autodiff (without_autodiff()), so backward() cannot reach it."
    } else if !completed.input.require_grad {
        "No gradient: the input does not require one (turn on require_grad)."
    } else {
        "No gradient: the output is not tracked by autodiff."
    })
}

/// A declaration as the page names it in a list: its selectors as written, and for a cfg-gated
/// `Autodiff` whether the build has the feature on.
pub fn declaration_label(declaration: Declaration) -> String {
    match declaration.autodiff() {
        AutodiffDeclared::CfgOff => format!("{} — feature off", declaration.selectors()),
        AutodiffDeclared::CfgOn => format!("{} — feature on", declaration.selectors()),
        AutodiffDeclared::Absent | AutodiffDeclared::Listed => declaration.selectors().to_owned(),
    }
}

/// The call-site fix, as a training run's heading names it.
pub fn fix_text(fix: Fix) -> &'static str {
    match fix {
        Fix::None => "called as written",
        Fix::WithoutAutodiff => "on x.without_autodiff()",
        Fix::Builtin => "replaced by builtin ops",
    }
}
