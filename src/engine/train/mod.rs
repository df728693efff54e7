//! Training: the custom op inside a small model's forward pass, optimised by burn's own
//! optimiser, step by step, beside the same model built with burn's builtin ops.
//!
//! Per op, one model (its parameters initialised from a fixed sequence, so every run and every
//! backend starts from the same numbers):
//! - `scale`: `y = scale(linear(x), 2) + offset`, fit to the line `3x + 1`;
//! - `leaky_relu`: a 1 → 16 → 1 MLP with the custom `leaky_relu` between its layers, fit to
//!   `|x|`;
//! - `shift_ids`: ids shifted by the custom int op, then an embedding lookup and a linear layer —
//!   the seed's situation: an int op inside a training step.
//!
//! Each step: the loss, `backward()`, `GradientsParams`, the optimiser's `step`. The custom
//! model's step runs inside [`panic_capture::catching`]: a model whose op is declared without
//! `Autodiff` panics at step 1, as a training loop does. Losses are read back every few steps, in
//! one transaction that the device works on while the next steps are recorded, and streamed to
//! the caller; which parameters got a gradient is read from the gradients of step 1, and every
//! parameter's values are read back before step 1 and after the last step.
//!
//! - [`model`]: the three models, their data and starting parameters;
//! - [`steps`]: the loop, one step of each model at a time;
//! - [`report`]: what is read back: losses as the run goes, parameters at its ends.

mod model;
mod report;
mod steps;

use burn::tensor::Device;

use self::model::{EmbeddingModel, MlpModel, ScaleModel};
use self::steps::run;
use crate::model::scenario::OpKind;
use crate::model::training::{LossPoint, TrainOutcome, TrainRequest};

thread_local! {
    /// The training step running now, for a panic hook that reports it.
    static STEP: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// The training step running now on this thread, if one is.
pub fn step_in_progress() -> Option<u32> {
    STEP.with(std::cell::Cell::get)
}

/// Trains the model for `request` on `device` (made autodiff here), calling `progress` with new
/// loss points as they are read back and checking `stop` between steps.
pub(super) async fn train(
    request: &TrainRequest,
    device: &Device,
    device_name: &str,
    progress: &mut dyn FnMut(&[LossPoint]),
    stop: &dyn Fn() -> bool,
) -> TrainOutcome {
    // A declaration that does not compile is not in the crate, whatever the call site does.
    if !crate::ops::built(request.op, request.declaration) {
        return TrainOutcome::NotBuilt {
            fusion: cfg!(feature = "fusion"),
        };
    }
    let device = device.clone().autodiff();
    // Each model type is its own instance of the loop.
    match request.op {
        OpKind::Scale => {
            run(
                request,
                ScaleModel::start(&device),
                &device,
                device_name,
                progress,
                stop,
            )
            .await
        }
        OpKind::LeakyRelu => {
            run(
                request,
                MlpModel::start(&device),
                &device,
                device_name,
                progress,
                stop,
            )
            .await
        }
        OpKind::ShiftIds => {
            let model = EmbeddingModel::start(&device);
            run(request, model, &device, device_name, progress, stop).await
        }
    }
}
