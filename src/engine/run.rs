//! One run: stage the tensors (synchronous, panics captured), then read them back (async).

use burn::tensor::{DType, Device, Int, Tensor, TensorData, Transaction};
use web_time::Instant;

use super::panic_capture;
use crate::model::outcome::{
    Completed, InputFacts, Outcome, Phase, Route, RunTimings, Stage, TensorView, Values,
};
use crate::model::scenario::{Declaration, Fix, FloatInput, IntInput, OpArgs, Scenario};
use crate::ops::trace::{self, Trace};
use crate::ops::{CHECKED_BUILT, NotBuilt, leaky_relu, scale, shift_ids};

/// A float op as the engine calls it: through the generated routing, or with builtin ops.
struct FloatOp<const D: usize> {
    custom: fn(Declaration, Tensor<D>, f32) -> Result<Tensor<D>, NotBuilt>,
    builtin: fn(Tensor<D>, f32) -> Tensor<D>,
}

/// A tensor that is computed (or queued) but not yet read back, flattened to 1-D so that one
/// type covers every rank.
enum Pending {
    Float(Vec<usize>, Tensor<1>),
    Int(Vec<usize>, Tensor<1, Int>),
}

impl Pending {
    fn float<const D: usize>(tensor: Tensor<D>) -> Pending {
        let shape = tensor.dims().to_vec();
        Pending::Float(shape, tensor.flatten(0, D - 1))
    }

    fn int<const D: usize>(tensor: Tensor<D, Int>) -> Pending {
        let shape = tensor.dims().to_vec();
        Pending::Int(shape, tensor.flatten(0, D - 1))
    }

    fn shape(&self) -> Vec<usize> {
        match self {
            Pending::Float(shape, _) | Pending::Int(shape, _) => shape.clone(),
        }
    }
}

/// Reads tensors of one device in a single transaction: one round trip to the GPU for all.
///
/// Every tensor leaves its autodiff context first: a transaction takes all its floats from the
/// first one's context, and an output in a grad context read with a plain gradient would
/// otherwise raise burn's "Expected autodiff-wrapped float tensor" (see the gallery).
async fn read_together(pending: Vec<Pending>) -> Result<Vec<TensorView>, String> {
    let shapes: Vec<Vec<usize>> = pending.iter().map(Pending::shape).collect();
    let transaction =
        pending.into_iter().fold(
            Transaction::default(),
            |transaction, pending| match pending {
                Pending::Float(_, tensor) => transaction.register(tensor.without_autodiff()),
                Pending::Int(_, tensor) => transaction.register(tensor.without_autodiff()),
            },
        );
    let data = transaction
        .execute_async()
        .await
        .map_err(|error| format!("Reading tensors back failed: {error:?}"))?;
    Ok(data
        .into_iter()
        .zip(shapes)
        .map(|(data, shape)| {
            let dtype = data.dtype();
            // A float tensor read back as `f32` is kept as its bytes are (no copy, value by
            // value, of a million of them); any other dtype is converted.
            let values = if dtype == DType::F32 {
                Values::Float(data.try_into_vec::<f32>().unwrap_or_default())
            } else if dtype.is_float() {
                Values::Float(data.iter::<f32>().collect())
            } else {
                Values::Int(data.iter::<i64>().collect())
            };
            TensorView::new(shape, format!("{dtype:?}"), values)
        })
        .collect())
}

/// Everything the synchronous half produced.
struct Staged {
    /// What the call recorded, up to its backward pass (the reference is not in it).
    trace: Trace,
    /// Milliseconds spent calling the op (and its backward), and computing the reference.
    call_ms: f64,
    reference_ms: f64,
    input: InputFacts,
    output: Pending,
    gradient: Option<Pending>,
    reference: Pending,
    reference_gradient: Option<Pending>,
    output_autodiff: bool,
    output_tracked: bool,
}

/// Runs `scenario` on `device`, with the reference on `reference_device` (the CPU: an
/// independent implementation of the same maths).
pub(super) async fn run(
    scenario: &Scenario,
    device: &Device,
    device_name: &str,
    reference_device: &Device,
) -> Outcome {
    // A declaration that does not compile is not in the crate, whatever the call site does.
    if !crate::ops::built(scenario.args.kind(), scenario.declaration) {
        return Outcome::NotBuilt {
            fusion: cfg!(feature = "fusion"),
        };
    }
    let started = Instant::now();
    trace::begin(scenario.backend);
    let staged = panic_capture::catching(|| stage(scenario, device, reference_device));
    let staged = match staged {
        Ok(Ok(staged)) => staged,
        Ok(Err(reason)) => return Outcome::Failed(reason),
        Err(mut report) => {
            trace::take().complete(&mut report);
            return Outcome::Panicked(*report);
        }
    };
    let route = observed_route(&staged.trace, staged.output_autodiff);
    let Staged {
        trace,
        call_ms,
        reference_ms,
        input,
        output,
        gradient,
        reference,
        reference_gradient,
        output_autodiff,
        output_tracked,
    } = staged;
    // Each list is read in one transaction and comes back in order: the value, then its gradient.
    let reading = Instant::now();
    trace::enter(Stage::ReadBack);
    let reads = async {
        let mut ran = read_together([Some(output), gradient].into_iter().flatten().collect())
            .await?
            .into_iter();
        let mut references = read_together(
            [Some(reference), reference_gradient]
                .into_iter()
                .flatten()
                .collect(),
        )
        .await?
        .into_iter();
        let output = ran.next().ok_or("no output was read")?;
        let reference = references.next().ok_or("no reference was read")?;
        Ok::<_, String>((output, ran.next(), reference, references.next()))
    };
    let (output, gradient, reference, reference_gradient) =
        match panic_capture::catching_async(reads).await {
            Ok(Ok(read)) => read,
            Ok(Err(reason)) => return Outcome::Failed(reason),
            Err(mut report) => {
                trace::take().complete(&mut report);
                return Outcome::Panicked(*report);
            }
        };
    // Everything that ran: the call's implementations, and those fusion queued, which ran as
    // the tensors were read back.
    let ran = trace::take();
    let read_ms = milliseconds_since(reading);
    let comparing = Instant::now();
    let output_difference = output.values.difference(&reference.values);
    let gradient_difference = gradient
        .as_ref()
        .zip(reference_gradient.as_ref())
        .and_then(|(gradient, reference)| gradient.values.difference(&reference.values));
    let compare_ms = milliseconds_since(comparing);
    Outcome::Completed(Box::new(Completed {
        output_difference: output_difference.map(|difference| difference.largest),
        output_difference_at: output_difference.and_then(|difference| difference.at),
        gradient_difference: gradient_difference.map(|difference| difference.largest),
        gradient_difference_at: gradient_difference.and_then(|difference| difference.at),
        output,
        gradient,
        reference,
        reference_gradient,
        output_autodiff,
        output_tracked,
        route,
        impls: ran.impls,
        routing_tensor: trace.routing_tensor,
        input,
        backend: scenario.backend,
        device: device_name.to_owned(),
        elapsed_ms: milliseconds_since(started),
        timings: RunTimings {
            call_ms,
            reference_ms,
            read_ms,
            compare_ms,
        },
    }))
}

fn milliseconds_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// The route, from what ran: an `Autodiff<B, C>` implementation in the forward pass; or a
/// concrete one, in the autodiff context the generated code gave the output or not; or no custom
/// implementation at all, with burn's builtin ops in its place.
fn observed_route(trace: &Trace, output_autodiff: bool) -> Route {
    let mut forward = trace
        .impls
        .iter()
        .filter(|call| call.phase == Phase::Forward)
        .peekable();
    if forward.clone().any(|call| call.is_autodiff()) {
        Route::AutodiffImpl
    } else if forward.peek().is_none() && trace.builtin_ran {
        Route::Builtin
    } else if output_autodiff {
        Route::ConcreteInAutodiffContext
    } else {
        Route::Concrete
    }
}

fn stage(scenario: &Scenario, device: &Device, reference: &Device) -> Result<Staged, String> {
    let device = &if scenario.grad_context {
        device.clone().autodiff()
    } else {
        device.clone()
    };
    match (&scenario.args, scenario.args.shape().len()) {
        (OpArgs::Scale { x, factor }, 1) => Ok(stage_float(
            scenario,
            device,
            reference,
            x,
            *factor,
            scale_op::<1>(),
        )),
        (OpArgs::Scale { x, factor }, 2) => Ok(stage_float(
            scenario,
            device,
            reference,
            x,
            *factor,
            scale_op::<2>(),
        )),
        (OpArgs::LeakyRelu { x, slope }, 1) => Ok(stage_float(
            scenario,
            device,
            reference,
            x,
            *slope,
            leaky_relu_op::<1>(),
        )),
        (OpArgs::LeakyRelu { x, slope }, 2) => Ok(stage_float(
            scenario,
            device,
            reference,
            x,
            *slope,
            leaky_relu_op::<2>(),
        )),
        (OpArgs::ShiftIds { ids, offset }, 1) => Ok(stage_shift_ids::<1>(
            scenario, device, reference, ids, *offset,
        )),
        (OpArgs::ShiftIds { ids, offset }, 2) => Ok(stage_shift_ids::<2>(
            scenario, device, reference, ids, *offset,
        )),
        (_, rank) => Err(format!(
            "Tensors of rank {rank} are not supported; use 1 or 2 dimensions."
        )),
    }
}

fn scale_op<const D: usize>() -> FloatOp<D> {
    FloatOp {
        custom: scale::call::<D>,
        builtin: scale::reference::<D>,
    }
}

fn leaky_relu_op<const D: usize>() -> FloatOp<D> {
    FloatOp {
        custom: leaky_relu::call::<D>,
        builtin: leaky_relu::reference::<D>,
    }
}

fn float_tensor<const D: usize>(input: &FloatInput, device: &Device) -> Tensor<D> {
    Tensor::from_data(
        TensorData::new(input.values.to_vec(), input.shape.clone()),
        device,
    )
}

/// `y = op(x)`; when `y` is tracked, `sum(y).backward()` and the gradient of `x`; then the same
/// with builtin ops on a fresh input on `reference_device`.
fn stage_float<const D: usize>(
    scenario: &Scenario,
    device: &Device,
    reference_device: &Device,
    input: &FloatInput,
    param: f32,
    op: FloatOp<D>,
) -> Staged {
    let calling = Instant::now();
    trace::enter(Stage::CreateInput);
    let mut x = float_tensor::<D>(input, device);
    if scenario.require_grad {
        trace::enter(Stage::RequireGrad);
        x = x.require_grad();
    }
    let input_facts = InputFacts {
        autodiff: x.is_autodiff(),
        require_grad: x.is_require_grad(),
    };
    trace::enter(Stage::Forward);
    let output = match scenario.fix {
        Fix::None => (op.custom)(scenario.declaration, x.clone(), param).expect(CHECKED_BUILT),
        Fix::WithoutAutodiff => {
            (op.custom)(scenario.declaration, x.clone().without_autodiff(), param)
                .expect(CHECKED_BUILT)
        }
        Fix::Builtin => (op.builtin)(x.clone(), param),
    };
    let output_autodiff = output.is_autodiff();
    let output_tracked = output.is_tracked();
    let gradient = output_tracked.then(|| {
        trace::enter(Stage::Backward);
        let grads = output.clone().sum().backward();
        x.grad(&grads)
    });
    let gradient = gradient.flatten();
    // What the call and its backward recorded; the log runs on through the read back, where
    // work fusion queued runs.
    let trace = trace::snapshot();
    let call_ms = milliseconds_since(calling);

    // The reference gets a gradient exactly when the custom call produced one.
    let referencing = Instant::now();
    trace::enter(Stage::Reference);
    let (reference, reference_gradient) = if gradient.is_some() {
        let x = float_tensor::<D>(input, &reference_device.clone().autodiff()).require_grad();
        let reference = (op.builtin)(x.clone(), param);
        let grads = reference.clone().sum().backward();
        (reference, x.grad(&grads))
    } else {
        let x = float_tensor::<D>(input, reference_device);
        ((op.builtin)(x, param), None)
    };

    let reference_ms = milliseconds_since(referencing);
    // Reading the tensors back starts with their shapes: under fusion an output's shape is what
    // the declaration's `#[fusion(...)]` said, and reading it can fail here.
    trace::enter(Stage::ReadBack);
    Staged {
        trace,
        call_ms,
        reference_ms,
        input: input_facts,
        output: Pending::float(output),
        gradient: gradient.map(Pending::float),
        reference: Pending::float(reference),
        reference_gradient: reference_gradient.map(Pending::float),
        output_autodiff,
        output_tracked,
    }
}

fn int_tensor<const D: usize>(input: &IntInput, device: &Device) -> Tensor<D, Int> {
    Tensor::from_data(
        TensorData::new(input.values.to_vec(), input.shape.clone()),
        device,
    )
}

/// Ints carry no gradient: `require_grad` does not apply, and there is no backward.
fn stage_shift_ids<const D: usize>(
    scenario: &Scenario,
    device: &Device,
    reference_device: &Device,
    ids_input: &IntInput,
    offset: i32,
) -> Staged {
    let calling = Instant::now();
    trace::enter(Stage::CreateInput);
    let ids = int_tensor::<D>(ids_input, device);
    let input = InputFacts {
        autodiff: ids.is_autodiff(),
        require_grad: false,
    };
    trace::enter(Stage::Forward);
    let output = match scenario.fix {
        Fix::None => shift_ids::call(scenario.declaration, ids, offset).expect(CHECKED_BUILT),
        Fix::WithoutAutodiff => {
            shift_ids::call(scenario.declaration, ids.without_autodiff(), offset)
                .expect(CHECKED_BUILT)
        }
        Fix::Builtin => shift_ids::reference(ids, offset),
    };
    let output_autodiff = output.is_autodiff();
    let trace = trace::snapshot();
    let call_ms = milliseconds_since(calling);
    let referencing = Instant::now();
    trace::enter(Stage::Reference);
    let reference = shift_ids::reference(int_tensor::<D>(ids_input, reference_device), offset);
    trace::enter(Stage::ReadBack);
    Staged {
        trace,
        call_ms,
        reference_ms: milliseconds_since(referencing),
        input,
        output: Pending::int(output),
        gradient: None,
        reference: Pending::int(reference),
        reference_gradient: None,
        output_autodiff,
        output_tracked: false,
    }
}
