//! The training loop: steps of the custom model and its builtin twin, loss readings overlapped
//! with the next steps, a panic at any step caught and reported.

use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::{Device, Tensor};
use web_time::Instant;

use super::STEP;
use super::model::{Data, Model, OpCall, data};
use super::report::{LossReading, read_params};
use crate::engine::panic_capture;
use crate::model::outcome::{PanicReport, Stage};
use crate::model::training::{
    LossPoint, OptimizerChoice, TrainEnd, TrainOutcome, TrainReport, TrainRequest, report_every,
};
use crate::ops::trace::{self, Trace};

fn optimizer(choice: OptimizerChoice) -> ModuleOptimizer {
    match choice {
        OptimizerChoice::Sgd => SgdConfig::new().init(),
        OptimizerChoice::Adam => AdamConfig::new().init(),
    }
}

/// One step of one model: loss, backward, optimiser step. Returns the updated model, its loss
/// (detached, to read later), and, when asked, which parameters got a gradient.
fn step<M: Model>(
    model: M,
    data: &Data,
    call: OpCall,
    optimizer: &mut ModuleOptimizer,
    learning_rate: f64,
    report_gradients: bool,
) -> (M, Tensor<1>, Option<Vec<(String, bool)>>) {
    trace::enter(Stage::Forward);
    let loss = model.loss(data, call);
    trace::enter(Stage::Backward);
    let grads = loss.backward();
    let report = report_gradients.then(|| {
        model
            .params(Some(&grads))
            .into_iter()
            .map(|param| (param.name, param.has_gradient))
            .collect()
    });
    trace::enter(Stage::OptimizerStep);
    let grads = GradientsParams::from_grads(grads, &model);
    let model = optimizer.step(learning_rate, model, grads);
    (model, loss.without_autodiff(), report)
}

pub(super) async fn run<M: Model + Clone>(
    request: &TrainRequest,
    model: M,
    device: &Device,
    device_name: &str,
    progress: &mut dyn FnMut(&[LossPoint]),
    stop: &dyn Fn() -> bool,
) -> TrainOutcome {
    let started = Instant::now();
    let settings = request.settings;
    let learning_rate = f64::from(settings.learning_rate);
    let data = data(request.op, device);
    let custom_call = OpCall::Custom(request.declaration, request.fix);
    // The custom model's parameters before step 1, read back with those after the last step.
    let start_params = model.params(None);
    let (mut custom, mut builtin) = (model.clone(), model);
    let (mut custom_optimizer, mut builtin_optimizer) =
        (optimizer(settings.optimizer), optimizer(settings.optimizer));
    let every = report_every(settings.steps);
    let mut curve: Vec<LossPoint> = Vec::new();
    let mut first_step: Option<(Trace, Vec<(String, bool)>)> = None;
    let mut end = TrainEnd::Completed;
    let mut done = 0;
    // The reading of the previous batch's losses, started but not yet awaited.
    let mut pending: Option<LossReading> = None;
    loop {
        // A batch of steps without waiting for the device...
        let mut losses = Vec::with_capacity(every as usize);
        while done < settings.steps && end == TrainEnd::Completed && losses.len() < every as usize {
            if stop() {
                end = TrainEnd::Stopped { step: done };
                break;
            }
            let step_number = done + 1;
            STEP.with(|step| step.set(Some(step_number)));
            trace::begin(request.backend);
            let custom_step = panic_capture::catching(|| {
                step(
                    custom.clone(),
                    &data,
                    custom_call,
                    &mut custom_optimizer,
                    learning_rate,
                    step_number == 1,
                )
            });
            let (next, custom_loss, gradients) = match custom_step {
                Ok(stepped) => stepped,
                Err(report) => {
                    STEP.with(|step| step.set(None));
                    return panicked(step_number, *report);
                }
            };
            if let Some(gradients) = gradients {
                // Under fusion an op may be queued now and run whenever fusion next executes
                // its queue: read the parameters step 1 updated here, which needs everything
                // step 1 queued (forward, backward, optimiser), so all of it runs (and records
                // itself) before the log is taken.
                trace::enter(Stage::ReadBack);
                if cfg!(feature = "fusion") {
                    for param in next.params(None) {
                        if let Err(error) = param.values.into_data_async().await {
                            return TrainOutcome::Failed(format!(
                                "Reading the parameters failed: {error:?}"
                            ));
                        }
                    }
                }
                first_step = Some((trace::take(), gradients));
            }
            custom = next;
            let (next, builtin_loss, _) = step(
                builtin.clone(),
                &data,
                OpCall::Builtin,
                &mut builtin_optimizer,
                learning_rate,
                false,
            );
            builtin = next;
            done = step_number;
            losses.push((step_number, custom_loss, builtin_loss));
        }
        // ...whose reading starts at once, so that the device copies them while the next batch
        // is recorded; the previous batch's reading is finished meanwhile. (Awaiting each
        // reading before recording more steps left the worker idle 40% of a training run.)
        let reading = match losses.last() {
            Some(&(last, ..)) => Some(
                LossReading::start(
                    losses
                        .into_iter()
                        .filter(|(step, ..)| step % every == 0 || *step == last),
                )
                .await,
            ),
            None => None,
        };
        if let Some(previous) = pending.take() {
            let points = match previous.finish().await {
                Ok(points) => points,
                Err(error) => {
                    return TrainOutcome::Failed(format!("Reading the losses failed: {error:?}"));
                }
            };
            let diverged = points
                .iter()
                .find(|point| !point.custom.is_finite() || !point.builtin.is_finite())
                .map(|point| point.step);
            progress(&points);
            curve.extend(points);
            if let Some(step) = diverged {
                // The batch recorded after the divergence is read (a reading left unfinished
                // would leave its buffers mapped on the device) but not reported.
                if let Some(reading) = reading {
                    let _ = reading.finish().await;
                }
                end = TrainEnd::Diverged { step };
                break;
            }
        }
        match reading {
            Some(reading) => pending = Some(reading),
            None => break,
        }
    }
    STEP.with(|step| step.set(None));
    let (trace, gradients) = first_step.unwrap_or_default();
    let params = match read_params(start_params, custom.params(None), gradients).await {
        Ok(params) => params,
        Err(error) => {
            return TrainOutcome::Failed(format!("Reading the parameters failed: {error:?}"));
        }
    };
    TrainOutcome::Trained(TrainReport {
        curve,
        end,
        params,
        impls: trace.impls,
        routing_tensor: trace.routing_tensor,
        builtin_ran: trace.builtin_ran,
        backend: request.backend,
        device: device_name.to_owned(),
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
    })
}

fn panicked(step: u32, mut report: PanicReport) -> TrainOutcome {
    trace::take().complete(&mut report);
    report.training_step = Some(step);
    TrainOutcome::Panicked { step, report }
}
