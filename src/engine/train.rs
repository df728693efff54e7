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

use burn::module::{Module, Param};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer, SgdConfig};
use burn::tensor::Gradients;
use burn::tensor::{Device, ExecutionError, Int, Tensor, TensorData, Transaction};
use std::pin::Pin;
use std::task::Poll;
use web_time::Instant;

use super::panic_capture;
use crate::model::outcome::{PanicReport, Stage};
use crate::model::scenario::{Declaration, Fix, OpKind};
use crate::model::training::{
    HIDDEN, LEAKY_SLOPE, LossPoint, OptimizerChoice, ParamReport, SCALE_FACTOR, SHIFT, TrainEnd,
    TrainOutcome, TrainReport, TrainRequest, report_every,
};
use crate::ops::trace::{self, Trace};
use crate::ops::{CHECKED_BUILT, NotBuilt, leaky_relu, scale, shift_ids};

/// Training examples per step.
const EXAMPLES: usize = 32;
/// Ids fed to the `shift_ids` model (0 to this), and the embedding's rows and width.
const IDS: i64 = 8;
const EMBEDDINGS: usize = 16;
const EMBEDDING_WIDTH: usize = 4;

thread_local! {
    /// The training step running now, for a panic hook that reports it.
    static STEP: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// The training step running now on this thread, if one is.
pub fn step_in_progress() -> Option<u32> {
    STEP.with(std::cell::Cell::get)
}

/// How a model calls its op: the custom op as the scenario declares and calls it, or burn's
/// builtin ops.
#[derive(Clone, Copy)]
enum OpCall {
    Custom(Declaration, Fix),
    Builtin,
}

impl OpCall {
    fn float<const D: usize>(
        self,
        x: Tensor<D>,
        param: f32,
        custom: fn(Declaration, Tensor<D>, f32) -> Result<Tensor<D>, NotBuilt>,
        builtin: fn(Tensor<D>, f32) -> Tensor<D>,
    ) -> Tensor<D> {
        match self {
            OpCall::Custom(declaration, Fix::None) => {
                custom(declaration, x, param).expect(CHECKED_BUILT)
            }
            OpCall::Custom(declaration, Fix::Detach) => {
                custom(declaration, x.without_autodiff(), param).expect(CHECKED_BUILT)
            }
            OpCall::Custom(_, Fix::Builtin) | OpCall::Builtin => builtin(x, param),
        }
    }

    fn ids(self, ids: Tensor<1, Int>, offset: i32) -> Tensor<1, Int> {
        match self {
            OpCall::Custom(declaration, Fix::None) => {
                shift_ids::call(declaration, ids, offset).expect(CHECKED_BUILT)
            }
            OpCall::Custom(declaration, Fix::Detach) => {
                shift_ids::call(declaration, ids.without_autodiff(), offset).expect(CHECKED_BUILT)
            }
            OpCall::Custom(_, Fix::Builtin) | OpCall::Builtin => shift_ids::reference(ids, offset),
        }
    }
}

/// A deterministic sequence in [-1, 1): the models' starting parameters.
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    /// `count` values scaled to ±`1/sqrt(fan_in)`, as a tensor of `shape`.
    fn tensor<const D: usize>(
        &mut self,
        shape: [usize; D],
        fan_in: usize,
        device: &Device,
    ) -> Tensor<D> {
        let bound = 1.0 / (fan_in as f32).sqrt();
        let count = shape.iter().product();
        let values: Vec<f32> = (0..count).map(|_| self.next() * bound).collect();
        Tensor::from_data(TensorData::new(values, shape.to_vec()), device)
    }

    fn dense(&mut self, inputs: usize, outputs: usize, device: &Device) -> Dense {
        Dense {
            weight: Param::from_tensor(self.tensor([inputs, outputs], inputs, device)),
            bias: Param::from_tensor(self.tensor([outputs], inputs, device)),
        }
    }
}

/// A fully connected layer, `x · weight + bias`, computed by broadcasting and summing.
///
/// Not `burn::nn::Linear`: that multiplies with `matmul`, whose kernels (cubek-matmul and
/// cubek-tile) would be 2 MB of the engine's 10 MB of code, for layers of at most 16 units that
/// a broadcast product and a sum compute just as well.
#[derive(Module, Debug)]
struct Dense {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

impl Dense {
    /// `[examples, inputs]` → `[examples, outputs]`. The models' layers have one input or one
    /// output, so a broadcast product (and a sum over the inputs) is the whole product: few
    /// kernels per step, which is what a step costs on a GPU.
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let [examples, inputs] = x.dims();
        let outputs = self.bias.dims()[0];
        let weighted = if inputs == 1 {
            // [examples, 1] · [1, outputs].
            x * self.weight.val()
        } else if outputs == 1 {
            // [examples, inputs] · [inputs, 1]: products summed over the inputs.
            (x * self.weight.val().reshape([1, inputs])).sum_dim(1)
        } else {
            // [examples, inputs, 1] · [1, inputs, outputs], summed over the inputs.
            let products = x.reshape([examples, inputs, 1]) * self.weight.val().unsqueeze::<3>();
            products.sum_dim(1).reshape([examples, outputs])
        };
        weighted + self.bias.val().unsqueeze()
    }

    fn params(&self, prefix: &str, grads: Option<&Gradients>) -> Vec<NamedParam> {
        vec![
            NamedParam::of(&format!("{prefix}.weight"), self.weight.val(), grads),
            NamedParam::of(&format!("{prefix}.bias"), self.bias.val(), grads),
        ]
    }
}

/// A lookup table of rows, one per id (`select` on the rows; `burn::nn::Embedding` does the same
/// through its own op, for sequences).
#[derive(Module, Debug)]
struct Lookup {
    weight: Param<Tensor<2>>,
}

impl Lookup {
    /// `[examples]` ids → `[examples, width]`.
    fn forward(&self, ids: Tensor<1, Int>) -> Tensor<2> {
        self.weight.val().select(0, ids)
    }
}

/// A parameter as the report needs it: its name, whether the gradients hold one for it, and its
/// values (detached, flattened) to read back.
struct NamedParam {
    name: String,
    has_gradient: bool,
    values: Tensor<1>,
}

impl NamedParam {
    fn of<const D: usize>(name: &str, tensor: Tensor<D>, grads: Option<&Gradients>) -> NamedParam {
        let elements = tensor.shape().num_elements();
        NamedParam {
            name: name.to_owned(),
            has_gradient: grads.is_some_and(|grads| tensor.grad(grads).is_some()),
            values: tensor.without_autodiff().reshape([elements]),
        }
    }
}

/// `scale(linear(x), 2) + offset`.
#[derive(Module, Debug)]
struct ScaleModel {
    linear: Dense,
    offset: Param<Tensor<1>>,
}

/// `output(leaky_relu(hidden(x), 0.1))`.
#[derive(Module, Debug)]
struct MlpModel {
    hidden: Dense,
    output: Dense,
}

/// `output(embedding(shift_ids(ids, 8)))`.
#[derive(Module, Debug)]
struct EmbeddingModel {
    embedding: Lookup,
    output: Dense,
}

/// The training data of a model, on its device.
enum Data {
    Float {
        x: Tensor<2>,
        target: Tensor<2>,
    },
    Ids {
        ids: Tensor<1, Int>,
        target: Tensor<2>,
    },
}

/// One of the three models, all trained the same way.
trait Model: Module + Sized {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1>;
    /// Every parameter, in order; `grads` says which have a gradient.
    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam>;
}

fn mse(prediction: Tensor<2>, target: &Tensor<2>) -> Tensor<1> {
    (prediction - target.clone()).square().mean()
}

impl Model for ScaleModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Float { x, target } = data else {
            unreachable!("the scale model trains on floats")
        };
        let scaled = call.float(
            self.linear.forward(x.clone()),
            SCALE_FACTOR,
            scale::call,
            scale::reference,
        );
        mse(scaled + self.offset.val().unsqueeze(), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = self.linear.params("linear", grads);
        params.push(NamedParam::of("offset", self.offset.val(), grads));
        params
    }
}

impl Model for MlpModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Float { x, target } = data else {
            unreachable!("the MLP trains on floats")
        };
        let hidden = call.float(
            self.hidden.forward(x.clone()),
            LEAKY_SLOPE,
            leaky_relu::call,
            leaky_relu::reference,
        );
        mse(self.output.forward(hidden), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = self.hidden.params("hidden", grads);
        params.extend(self.output.params("output", grads));
        params
    }
}

impl Model for EmbeddingModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Ids { ids, target } = data else {
            unreachable!("the embedding model trains on ids")
        };
        let shifted = call.ids(ids.clone(), SHIFT);
        mse(self.output.forward(self.embedding.forward(shifted)), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = vec![NamedParam::of(
            "embedding.weight",
            self.embedding.weight.val(),
            grads,
        )];
        params.extend(self.output.params("output", grads));
        params
    }
}

/// `x` evenly spaced over [-2, 2], as a column.
fn inputs(device: &Device) -> (Vec<f32>, Tensor<2>) {
    let xs: Vec<f32> = (0..EXAMPLES)
        .map(|i| -2.0 + 4.0 * i as f32 / (EXAMPLES - 1) as f32)
        .collect();
    let tensor = Tensor::from_data(TensorData::new(xs.clone(), [EXAMPLES, 1]), device);
    (xs, tensor)
}

fn column(values: Vec<f32>, device: &Device) -> Tensor<2> {
    let rows = values.len();
    Tensor::from_data(TensorData::new(values, [rows, 1]), device)
}

/// The data for `op`'s model, on `device` (the autodiff device: a training batch).
fn data(op: OpKind, device: &Device) -> Data {
    match op {
        OpKind::Scale => {
            let (xs, x) = inputs(device);
            let target = column(xs.iter().map(|x| 3.0 * x + 1.0).collect(), device);
            Data::Float { x, target }
        }
        OpKind::LeakyRelu => {
            let (xs, x) = inputs(device);
            let target = column(xs.iter().map(|x| x.abs()).collect(), device);
            Data::Float { x, target }
        }
        OpKind::ShiftIds => {
            let ids: Vec<i64> = (0..EXAMPLES as i64).map(|i| i % IDS).collect();
            let target = column(
                ids.iter().map(|&id| (id as f32 * 0.8).sin()).collect(),
                device,
            );
            let ids = Tensor::from_data(TensorData::new(ids, [EXAMPLES]), device);
            Data::Ids { ids, target }
        }
    }
}

fn optimizer(choice: OptimizerChoice) -> ModuleOptimizer {
    match choice {
        OptimizerChoice::Sgd => SgdConfig::new().init(),
        OptimizerChoice::Adam => AdamConfig::new().init(),
    }
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
    let mut sequence = Sequence(0x5eed);
    match request.op {
        OpKind::Scale => {
            let model = ScaleModel {
                linear: sequence.dense(1, 1, &device),
                offset: Param::from_tensor(sequence.tensor([1], 1, &device)),
            };
            run(request, model, &device, device_name, progress, stop).await
        }
        OpKind::LeakyRelu => {
            let model = MlpModel {
                hidden: sequence.dense(1, HIDDEN, &device),
                output: sequence.dense(HIDDEN, 1, &device),
            };
            run(request, model, &device, device_name, progress, stop).await
        }
        OpKind::ShiftIds => {
            let model = EmbeddingModel {
                embedding: Lookup {
                    weight: Param::from_tensor(sequence.tensor(
                        [EMBEDDINGS, EMBEDDING_WIDTH],
                        1,
                        &device,
                    )),
                },
                output: sequence.dense(EMBEDDING_WIDTH, 1, &device),
            };
            run(request, model, &device, device_name, progress, stop).await
        }
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

async fn run<M: Model + Clone>(
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

/// Reads the parameters' values before step 1 (`start`) and now (`end`), in one transaction,
/// and pairs them with whether each got a gradient at step 1.
async fn read_params(
    start: Vec<NamedParam>,
    end: Vec<NamedParam>,
    gradients: Vec<(String, bool)>,
) -> Result<Vec<ParamReport>, ExecutionError> {
    let names: Vec<String> = start.iter().map(|param| param.name.clone()).collect();
    let transaction = start
        .into_iter()
        .chain(end)
        .fold(Transaction::default(), |transaction, param| {
            transaction.register(param.values)
        });
    let mut values: Vec<Vec<f32>> = transaction
        .execute_async()
        .await?
        .into_iter()
        .map(|data| data.iter::<f32>().collect())
        .collect();
    let end_values = values.split_off(names.len());
    Ok(names
        .into_iter()
        .zip(values.into_iter().zip(end_values))
        .map(|(name, (start, end))| ParamReport {
            has_gradient: gradients
                .iter()
                .any(|(param, has_gradient)| *param == name && *has_gradient),
            name,
            start,
            end,
        })
        .collect())
}

fn panicked(step: u32, mut report: PanicReport) -> TrainOutcome {
    trace::take().complete(&mut report);
    report.training_step = Some(step);
    TrainOutcome::Panicked { step, report }
}

/// The losses of a batch of steps being read back: one transaction for all of them.
struct LossReading {
    steps: Vec<u32>,
    read: LossRead,
    /// The transaction's result, when it was ready at the first poll.
    ready: Option<Result<Vec<TensorData>, ExecutionError>>,
}

type LossRead = Pin<Box<dyn Future<Output = Result<Vec<TensorData>, ExecutionError>>>>;

impl LossReading {
    /// Queues the reading of `losses` (step, custom loss, builtin loss) on the device: the
    /// transaction's first poll enqueues its copies and the buffer mapping, then returns.
    async fn start(losses: impl Iterator<Item = (u32, Tensor<1>, Tensor<1>)>) -> LossReading {
        let mut steps = Vec::new();
        let transaction = losses.fold(
            Transaction::default(),
            |transaction, (step, custom, builtin)| {
                steps.push(step);
                transaction.register(custom).register(builtin)
            },
        );
        let mut read: LossRead = Box::pin(transaction.execute_async());
        let ready = std::future::poll_fn(|context| {
            Poll::Ready(match read.as_mut().poll(context) {
                Poll::Ready(result) => Some(result),
                Poll::Pending => None,
            })
        })
        .await;
        LossReading { steps, read, ready }
    }

    /// Waits for the values and pairs them with their steps.
    async fn finish(self) -> Result<Vec<LossPoint>, ExecutionError> {
        let data = match self.ready {
            Some(result) => result?,
            None => self.read.await?,
        };
        let values: Vec<f32> = data
            .into_iter()
            .map(|data| data.iter::<f32>().next().unwrap_or(f32::NAN))
            .collect();
        Ok(self
            .steps
            .into_iter()
            .zip(values.chunks(2))
            .map(|(step, pair)| LossPoint {
                step,
                custom: pair[0],
                builtin: pair[1],
            })
            .collect())
    }
}
