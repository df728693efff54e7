//! Training: the op inside real optimisation steps, next to the same model built with burn's
//! builtin ops. What to train ([`TrainRequest`]), what streams back while it trains
//! ([`LossPoint`]), and what it ended with ([`TrainOutcome`]).

use serde::{Deserialize, Serialize};

use super::outcome::{ImplCall, PanicReport, RoutingTensor};
use super::scenario::{BackendChoice, Declaration, Fix, OpKind};

/// burn's optimisers the page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OptimizerChoice {
    /// Stochastic gradient descent (`burn::optim::SgdConfig`).
    Sgd,
    /// Adam (`burn::optim::AdamConfig`).
    Adam,
}

impl OptimizerChoice {
    /// Both, Adam first (the default).
    pub const ALL: [OptimizerChoice; 2] = [OptimizerChoice::Adam, OptimizerChoice::Sgd];
}

/// How long and how fast to train.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainSettings {
    /// Optimisation steps, 1 to [`MAX_STEPS`].
    pub steps: u32,
    /// The optimiser's learning rate, above 0 and at most [`MAX_LEARNING_RATE`].
    pub learning_rate: f32,
    /// The optimiser.
    pub optimizer: OptimizerChoice,
}

/// `scale`'s factor inside its model, `y = scale(linear(x), SCALE_FACTOR) + offset`.
pub const SCALE_FACTOR: f32 = 2.0;
/// `leaky_relu`'s slope inside its model.
pub const LEAKY_SLOPE: f32 = 0.1;
/// Hidden units of the `leaky_relu` model.
pub const HIDDEN: usize = 16;
/// The shift `shift_ids` applies inside its model, before the embedding lookup.
pub const SHIFT: i32 = 8;

/// The most steps one training run takes.
pub const MAX_STEPS: u32 = 10_000;
/// The largest learning rate accepted (larger ones only diverge faster).
pub const MAX_LEARNING_RATE: f32 = 10.0;

/// One training run: the op, declared and called as the scenario says, inside a small model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainRequest {
    /// The op the model uses in its forward pass.
    pub op: OpKind,
    /// How the op's trait is declared.
    pub declaration: Declaration,
    /// The fix at the op's call site inside the model.
    pub fix: Fix,
    /// Where the model lives (always on its autodiff device: this is training).
    pub backend: BackendChoice,
    /// Steps, learning rate, optimiser.
    pub settings: TrainSettings,
}

/// The loss of both models after a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossPoint {
    /// 1-based step.
    pub step: u32,
    /// The model with the custom op.
    pub custom: f32,
    /// The same model with burn's builtin ops.
    pub builtin: f32,
}

/// One parameter of the custom model, as the run observed it: whether `backward()` gave it a
/// gradient at step 1 (read from the gradients), and its values before the first step and after
/// the last one (read back from the device).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamReport {
    /// The parameter's path in the model, e.g. `hidden.weight`.
    pub name: String,
    /// Whether `backward()` produced a gradient for it at step 1.
    pub has_gradient: bool,
    /// Its values before step 1, row-major.
    pub start: Vec<f32>,
    /// Its values after the last step that ran, row-major.
    pub end: Vec<f32>,
}

impl ParamReport {
    /// Whether its values after the last step are exactly those before step 1 (bit for bit, so
    /// a NaN never counts as unchanged).
    pub fn unchanged(&self) -> bool {
        self.start.len() == self.end.len()
            && self
                .start
                .iter()
                .zip(&self.end)
                .all(|(start, end)| start == end)
    }
}

/// How a training run that did not panic ended.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum TrainEnd {
    /// Every step ran.
    Completed,
    /// The person stopped it after this step.
    Stopped { step: u32 },
    /// A loss became NaN or infinite at this step (for the custom model, the builtin one, or
    /// both): training stopped there.
    Diverged { step: u32 },
}

/// A training run that did not panic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainReport {
    /// The losses, every few steps, the last step included.
    pub curve: Vec<LossPoint>,
    /// How it ended.
    pub end: TrainEnd,
    /// The custom model's parameters: gradient at step 1, values before and after.
    pub params: Vec<ParamReport>,
    /// The op implementations that ran in step 1 (its forward and its backward pass), in order.
    pub impls: Vec<ImplCall>,
    /// The routing tensor at the op's call in step 1 (none when the custom op was not called).
    pub routing_tensor: Option<RoutingTensor>,
    /// Whether burn's builtin ops stood in for the custom op in the custom model's step 1 (the
    /// builtin fix): then both models are the same builtin computation.
    pub builtin_ran: bool,
    /// The backend the model trained on (the page may have sent the run to the CPU).
    pub backend: BackendChoice,
    /// The device or adapter name.
    pub device: String,
    /// Wall-clock time of the whole run, in milliseconds.
    pub elapsed_ms: f64,
}

/// How a training run ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TrainOutcome {
    /// It ran (to the end, until stopped, or until it diverged).
    Trained(TrainReport),
    /// burn panicked during this step (the custom model's forward or backward pass).
    Panicked { step: u32, report: PanicReport },
    /// It could not start (the backend is unavailable).
    Failed(String),
    /// The op's declaration does not build in this engine (`fusion`: built with burn's fusion).
    NotBuilt { fusion: bool },
}

/// Reports between two progress messages: a run streams about this many points.
pub const PROGRESS_POINTS: u32 = 100;

/// Steps between two loss readings for `steps` steps: about [`PROGRESS_POINTS`] readings.
pub fn report_every(steps: u32) -> u32 {
    steps.div_ceil(PROGRESS_POINTS).max(1)
}
