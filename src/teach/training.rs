//! Training as the page shows it: the settings typed into their fields (checked, with a message
//! per mistake), the loss chart's geometry, and the words for how a run ended.

use std::fmt;

use crate::model::scenario::{BackendChoice, OpKind};
use crate::model::training::{
    HIDDEN, LEAKY_SLOPE, LossPoint, MAX_LEARNING_RATE, MAX_STEPS, OptimizerChoice, ParamReport,
    SCALE_FACTOR, SHIFT, TrainEnd, TrainReport, TrainRequest, TrainSettings,
};
use crate::teach::export::{CallSite, float_literal};
use crate::teach::form::fix_name;
use crate::teach::present::{backend_text, significant};

/// The training fields' text, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainTexts {
    /// Steps, e.g. `200`.
    pub steps: String,
    /// Learning rate, e.g. `0.05`.
    pub learning_rate: String,
}

impl Default for TrainTexts {
    fn default() -> TrainTexts {
        TrainTexts {
            steps: "200".to_owned(),
            learning_rate: "0.05".to_owned(),
        }
    }
}

/// A training field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainField {
    /// The number of steps.
    Steps,
    /// The learning rate.
    LearningRate,
}

/// Why a training field's text cannot be used. `Display` is the message next to the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainInputError {
    /// Nothing typed.
    Empty(TrainField),
    /// Steps that are not a whole number from 1 to [`MAX_STEPS`].
    StepsOutOfRange,
    /// A learning rate that is not a number (or not finite).
    NotANumber,
    /// A learning rate of 0 or below.
    NotPositive,
    /// A learning rate above [`MAX_LEARNING_RATE`].
    TooLarge,
}

impl TrainInputError {
    /// The field the message belongs next to.
    pub fn field(&self) -> TrainField {
        match self {
            TrainInputError::Empty(field) => *field,
            TrainInputError::StepsOutOfRange => TrainField::Steps,
            _ => TrainField::LearningRate,
        }
    }
}

impl fmt::Display for TrainInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainInputError::Empty(TrainField::Steps) => write!(f, "Enter a number of steps."),
            TrainInputError::Empty(TrainField::LearningRate) => {
                write!(f, "Enter a learning rate.")
            }
            TrainInputError::StepsOutOfRange => write!(
                f,
                "Steps must be a whole number from 1 to {}.",
                group_thousands(MAX_STEPS)
            ),
            TrainInputError::NotANumber => {
                write!(f, "The learning rate must be a finite number, like 0.05.")
            }
            TrainInputError::NotPositive => write!(f, "The learning rate must be above 0."),
            TrainInputError::TooLarge => {
                write!(f, "The learning rate must be at most {MAX_LEARNING_RATE}.")
            }
        }
    }
}

/// `10000` → `10,000`.
pub fn group_thousands(value: u32) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// The settings, or a message for each field that does not parse.
pub fn parse_settings(
    texts: &TrainTexts,
    optimizer: OptimizerChoice,
) -> Result<TrainSettings, Vec<TrainInputError>> {
    let steps = match texts.steps.trim() {
        "" => Err(TrainInputError::Empty(TrainField::Steps)),
        text => text
            .parse::<u32>()
            .ok()
            .filter(|steps| (1..=MAX_STEPS).contains(steps))
            .ok_or(TrainInputError::StepsOutOfRange),
    };
    let learning_rate = match texts.learning_rate.trim() {
        "" => Err(TrainInputError::Empty(TrainField::LearningRate)),
        text => match text.parse::<f32>() {
            Ok(rate) if !rate.is_finite() => Err(TrainInputError::NotANumber),
            Ok(rate) if rate <= 0.0 => Err(TrainInputError::NotPositive),
            Ok(rate) if rate > MAX_LEARNING_RATE => Err(TrainInputError::TooLarge),
            Ok(rate) => Ok(rate),
            Err(_) => Err(TrainInputError::NotANumber),
        },
    };
    match (steps, learning_rate) {
        (Ok(steps), Ok(learning_rate)) => Ok(TrainSettings {
            steps,
            learning_rate,
            optimizer,
        }),
        (steps, learning_rate) => Err([steps.err(), learning_rate.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}

/// The optimiser's name in links and on the page.
pub fn optimizer_name(optimizer: OptimizerChoice) -> &'static str {
    match optimizer {
        OptimizerChoice::Sgd => "sgd",
        OptimizerChoice::Adam => "adam",
    }
}

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

/// Where the model calls its op: on `h`, the layer's output before it (on `ids` for the int
/// op), with the model's parameter.
pub fn training_call_site(op: OpKind) -> CallSite {
    let (input, param) = match op {
        OpKind::Scale => ("h", float_literal(SCALE_FACTOR)),
        OpKind::LeakyRelu => ("h", float_literal(LEAKY_SLOPE)),
        OpKind::ShiftIds => ("ids", SHIFT.to_string()),
    };
    CallSite {
        input: input.to_owned(),
        output: input.to_owned(),
        param,
    }
}

/// A training run's heading: what was asked, and the backend the run reported it used (left out
/// when it reported none, as for a run that could not start).
pub fn request_text(request: &TrainRequest, backend: Option<BackendChoice>) -> String {
    let backend = backend.map(|backend| format!(" · {}", backend_text(backend)));
    format!(
        "{} · #[backend_extension({})] · fix {}{} · {} steps, {} at learning rate {}",
        request.op.name(),
        request.declaration.selectors(),
        fix_name(request.fix),
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

/// The chart's drawing area, in SVG units.
pub const CHART_WIDTH: f32 = 600.0;
/// See [`CHART_WIDTH`].
pub const CHART_HEIGHT: f32 = 240.0;
/// Margins around the plot inside the SVG: left (for the labels, wide enough for `1e-10` at
/// the larger type a phone gets), right, top, bottom.
const MARGIN: (f32, f32, f32, f32) = (PLOT_LEFT, 12.0, 10.0, 24.0);
/// Where the plot starts, in SVG units: the y labels end just left of it.
pub const PLOT_LEFT: f32 = 72.0;

/// The loss chart: two polylines on a log scale, and the labels of its axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// `points` attribute of the custom model's polyline.
    pub custom: String,
    /// `points` attribute of the builtin model's polyline.
    pub builtin: String,
    /// Horizontal grid lines: (y, label) for each power of ten in range.
    pub y_ticks: Vec<(f32, String)>,
    /// (x, label) for the first and last step.
    pub x_ticks: Vec<(f32, String)>,
    /// Whether the two lines are drawn at the same points (then the builtin one is drawn
    /// dashed, wider, under the custom one, and the caption says they coincide).
    pub coincide: bool,
}

/// The chart of `points` for a run of `steps` steps. Losses are drawn on a log scale (they fall
/// by orders of magnitude); NaN, infinite and non-positive losses are left out of the lines.
pub fn chart(points: &[LossPoint], steps: u32) -> Chart {
    let (left, right, top, bottom) = MARGIN;
    let plot_width = CHART_WIDTH - left - right;
    let plot_height = CHART_HEIGHT - top - bottom;
    let logs = points
        .iter()
        .flat_map(|point| [point.custom, point.builtin])
        .filter(|loss| loss.is_finite() && *loss > 0.0)
        .map(f32::log10);
    let (low, high) = logs.fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), log| {
        (low.min(log), high.max(log))
    });
    let (low, high) = if low.is_finite() {
        (low.floor(), high.ceil().max(low.floor() + 1.0))
    } else {
        (-1.0, 0.0)
    };
    let x = |step: u32| left + plot_width * step as f32 / steps.max(1) as f32;
    let y = |log: f32| top + plot_height * (high - log) / (high - low);
    let line = |loss: fn(&LossPoint) -> f32| {
        points
            .iter()
            .filter(|point| loss(point).is_finite() && loss(point) > 0.0)
            .map(|point| format!("{:.1},{:.1}", x(point.step), y(loss(point).log10())))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // At most about six labels, every `stride`-th power of ten, so they never crowd each other.
    let stride = ((high - low) as u32).div_ceil(6).max(1) as i32;
    let y_ticks = (low as i32..=high as i32)
        .filter(|power| (power - low as i32) % stride == 0)
        .map(|power| (y(power as f32), format!("1e{power}")))
        .collect();
    let (custom, builtin) = (line(|point| point.custom), line(|point| point.builtin));
    Chart {
        coincide: !custom.is_empty() && custom == builtin,
        custom,
        builtin,
        y_ticks,
        x_ticks: vec![(x(0), "0".to_owned()), (x(steps), steps.to_string())],
    }
}
