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

/// Whether a parameter received a gradient from `backward()` (read from the gradients).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamGradient {
    /// The parameter's path in the model, e.g. `hidden.weight`.
    pub name: String,
    /// Whether `backward()` produced a gradient for it.
    pub has_gradient: bool,
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
    /// The custom model's parameters, and whether each got a gradient at step 1.
    pub gradients: Vec<ParamGradient>,
    /// The op implementations that ran in step 1, in order.
    pub impls: Vec<ImplCall>,
    /// The routing tensor at the op's call in step 1.
    pub routing_tensor: Option<RoutingTensor>,
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
}

/// Reports between two progress messages: a run streams about this many points.
pub const PROGRESS_POINTS: u32 = 100;

/// Steps between two loss readings for `steps` steps: about [`PROGRESS_POINTS`] readings.
pub fn report_every(steps: u32) -> u32 {
    steps.div_ceil(PROGRESS_POINTS).max(1)
}
