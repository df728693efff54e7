//! Training in words: the model a run trains, its heading, how it ended, what its losses and
//! parameters did.

use crate::model::scenario::{BackendChoice, OpKind};
use crate::model::training::{
    HIDDEN, LEAKY_SLOPE, LossPoint, OptimizerChoice, ParamReport, SCALE_FACTOR, SHIFT, TrainEnd,
    TrainReport, TrainRequest,
};
use crate::teach::numbers::significant;
use crate::teach::words::present::{backend_text, fix_text};

/// The model `op` trains in, in a sentence (its numbers are the engine's own constants).
pub fn model_text(op: OpKind) -> String {
    match op {
        OpKind::Scale => format!(
            "y = scale(linear(x), {SCALE_FACTOR}) + offset, fit to the line 3x + 1: a linear layer and an offset, with the op between them."
        ),
        OpKind::LeakyRelu => format!(
            "A 1 → {HIDDEN} → 1 network with the custom leaky_relu (slope {LEAKY_SLOPE}) between its layers, fit to |x|."
        ),
        OpKind::ShiftIds => format!(
            "Ids shifted by the custom int op (+{SHIFT}), then an embedding lookup and a linear layer: an int op inside a training step."
        ),
    }
}

/// A training run's heading: what was asked, and the backend the run reported it used (left out
/// when it reported none, as for a run that could not start).
pub fn request_text(request: &TrainRequest, backend: Option<BackendChoice>) -> String {
    let backend = backend.map(|backend| format!(" · {}", backend_text(backend)));
    format!(
        "{} · #[backend_extension({})] · {}{} · {} steps, {} at learning rate {}",
        request.op.name(),
        request.declaration.selectors(),
        fix_text(request.fix),
        backend.unwrap_or_default(),
        request.settings.steps,
        match request.settings.optimizer {
            OptimizerChoice::Adam => "Adam",
            OptimizerChoice::Sgd => "SGD",
        },
        request.settings.learning_rate
    )
}

/// How a run ended, in a sentence.
pub fn end_text(end: TrainEnd, steps: u32) -> String {
    match end {
        TrainEnd::Completed => format!("Trained {steps} steps."),
        TrainEnd::Stopped { step } => format!("Stopped after step {step} of {steps}."),
        TrainEnd::Diverged { step } => format!(
            "Diverged: a loss became NaN or infinite by step {step}, so training stopped. Try a smaller learning rate."
        ),
    }
}

/// What happened to the custom model's parameters, read from the run: which got no gradient
/// at step 1, and whether those kept their values to the last step (compared value by value).
pub fn params_text(params: &[ParamReport]) -> String {
    let frozen: Vec<&ParamReport> = params.iter().filter(|param| !param.has_gradient).collect();
    if frozen.is_empty() {
        return "Every parameter received a gradient at step 1.".to_owned();
    }
    let names = |params: &[&ParamReport]| {
        params
            .iter()
            .map(|param| param.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (kept, changed): (Vec<&ParamReport>, Vec<&ParamReport>) =
        frozen.iter().partition(|param| param.unchanged());
    let mut text = format!("No gradient reached {} at step 1.", names(&frozen));
    match (kept.is_empty(), changed.is_empty()) {
        (false, true) => {
            text.push_str(" Their values after the last step are their starting values.")
        }
        (false, false) => text.push_str(&format!(
            " {} kept their starting values; {} changed all the same.",
            names(&kept),
            names(&changed)
        )),
        (true, _) => text.push_str(" Their values changed all the same."),
    }
    text
}

/// What the two loss curves did, read from the recorded points: whether the custom model's loss
/// fell, and how it compares with the builtin model's at the last recorded step. With the
/// builtin fix (the run recorded builtin ops and no custom implementation), says that both
/// models are builtin.
pub fn loss_text(report: &TrainReport) -> Option<String> {
    let first = report.curve.first()?;
    let last = report.curve.last()?;
    let custom = if last.step == first.step {
        format!(
            "The custom model's loss was {} at step {}.",
            significant(last.custom),
            last.step
        )
    } else {
        let verb = if last.custom < first.custom {
            "fell"
        } else if last.custom > first.custom {
            "rose"
        } else if last.custom == first.custom {
            "stayed"
        } else {
            "went"
        };
        format!(
            "The custom model's loss {verb} from {} at step {} to {} at step {}.",
            significant(first.custom),
            first.step,
            significant(last.custom),
            last.step
        )
    };
    let builtin_only =
        report.builtin_ran && report.impls.is_empty() && report.routing_tensor.is_none();
    let comparison = if builtin_only {
        "With the builtin fix the custom model calls burn's builtin ops instead of the op, so both models run the same builtin computation: their curves cannot tell the op from burn's ops.".to_owned()
    } else {
        let (high, low) = if last.custom >= last.builtin {
            (last.custom, last.builtin)
        } else {
            (last.builtin, last.custom)
        };
        match largest_gap(&report.curve) {
            None => String::new(),
            Some(gap) if gap.is_nan() => {
                "A loss is NaN, so the two curves cannot be compared.".to_owned()
            }
            Some(0.0) => "The builtin model's loss is the same at every recorded step.".to_owned(),
            Some(gap) if low <= 0.0 || high / low < 1.01 => format!(
                "The builtin model's loss stays within {} of it at every recorded step.",
                significant(gap)
            ),
            Some(_) if last.custom > last.builtin => format!(
                "The builtin model's loss got to {} by then: {}× lower.",
                significant(last.builtin),
                significant(high / low)
            ),
            Some(_) => format!(
                "The builtin model's loss got to {} by then: the custom model's is {}× lower.",
                significant(last.builtin),
                significant(high / low)
            ),
        }
    };
    Some(format!("{custom} {comparison}").trim_end().to_owned())
}

/// The largest |custom − builtin| over the recorded steps: NaN when a difference is NaN (a NaN
/// never hides as agreement).
pub fn largest_gap(points: &[LossPoint]) -> Option<f32> {
    points
        .iter()
        .map(|point| (point.custom - point.builtin).abs())
        .reduce(|a, b| {
            if a.is_nan() || b.is_nan() {
                f32::NAN
            } else {
                a.max(b)
            }
        })
}
