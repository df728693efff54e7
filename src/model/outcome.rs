//! What a run produced, as observed: values read back from the device, the op implementations
//! that actually executed, or the panic that burn raised. Plain data (serde) so it can cross the
//! worker boundary.

use serde::{Deserialize, Serialize};

use crate::model::scenario::BackendChoice;

/// The result of running one [`Scenario`](crate::model::scenario::Scenario).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// The call returned and its tensors were read back (boxed: the other variants are small).
    Completed(Box<Completed>),
    /// The op's declaration does not build in this engine (`fusion`: the engine was built with
    /// burn's fusion feature): nothing ran.
    NotBuilt { fusion: bool },
    /// The call panicked; the report is what the panic hook captured.
    Panicked(PanicReport),
    /// The run could not start or finish for a reason that is not a panic: the chosen backend is
    /// not available, or reading a tensor back failed.
    Failed(String),
}

/// Element values of a tensor read back from a device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Values {
    /// Float elements.
    Float(Vec<f32>),
    /// Integer elements (widened to i64 so every int dtype fits).
    Int(Vec<i64>),
}

impl Values {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Values::Float(values) => values.len(),
            Values::Int(values) => values.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest element-wise |self − other|, when both are of the same kind and length. A
    /// NaN difference makes the result NaN: it never hides as agreement (`f64::max` would drop
    /// it).
    pub fn max_abs_difference(&self, other: &Values) -> Option<f64> {
        self.difference(other).map(|difference| difference.largest)
    }

    /// The largest element-wise |self − other| and the first index where it is, when both are of
    /// the same kind and length. The first NaN difference wins over any number.
    pub fn difference(&self, other: &Values) -> Option<Difference> {
        fn largest<T: Copy>(a: &[T], b: &[T], to_f64: impl Fn(T) -> f64) -> Option<Difference> {
            (a.len() == b.len()).then(|| {
                let mut found = Difference {
                    largest: 0.0,
                    at: None,
                };
                for (index, (&x, &y)) in a.iter().zip(b).enumerate() {
                    let difference = (to_f64(x) - to_f64(y)).abs();
                    if difference.is_nan() {
                        return Difference {
                            largest: f64::NAN,
                            at: Some(index),
                        };
                    }
                    if difference > found.largest {
                        found = Difference {
                            largest: difference,
                            at: Some(index),
                        };
                    }
                }
                found
            })
        }
        match (self, other) {
            (Values::Float(a), Values::Float(b)) => largest(a, b, f64::from),
            (Values::Int(a), Values::Int(b)) => largest(a, b, |v| v as f64),
            _ => None,
        }
    }

    /// What a person reads of many values at once: range, mean, and how many are not numbers.
    pub fn summary(&self) -> Summary {
        fn over(values: impl Iterator<Item = f64>) -> Summary {
            let mut summary = Summary::default();
            let (mut sum, mut finite) = (0.0, 0usize);
            for value in values {
                if value.is_nan() {
                    summary.nan += 1;
                } else if value.is_infinite() {
                    summary.infinite += 1;
                } else {
                    summary.min = Some(summary.min.map_or(value, |min: f64| min.min(value)));
                    summary.max = Some(summary.max.map_or(value, |max: f64| max.max(value)));
                    sum += value;
                    finite += 1;
                }
            }
            summary.mean = (finite > 0).then(|| sum / finite as f64);
            summary
        }
        match self {
            Values::Float(values) => over(values.iter().map(|&v| f64::from(v))),
            Values::Int(values) => over(values.iter().map(|&v| v as f64)),
        }
    }

    /// The values at `range` (clamped to the values there are).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Values {
        fn cut<T: Clone>(values: &[T], range: std::ops::Range<usize>) -> Vec<T> {
            let end = range.end.min(values.len());
            values[range.start.min(end)..end].to_vec()
        }
        match self {
            Values::Float(values) => Values::Float(cut(values, range)),
            Values::Int(values) => Values::Int(cut(values, range)),
        }
    }
}

/// Where two tensors differ most.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    /// The largest |a − b| (NaN when any difference is NaN; 0 for empty tensors).
    pub largest: f64,
    /// The row-major index of the first element that differs by that much (none when nothing
    /// differs).
    pub at: Option<usize>,
}

/// Range, mean and non-numbers of a tensor's values, computed over all of them in the engine.
/// `min`, `max` and `mean` are over the finite values (none when there are none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub mean: Option<f64>,
    /// How many values are NaN.
    pub nan: usize,
    /// How many values are +inf or −inf.
    pub infinite: usize,
}

/// Every value of a tensor, packed as little-endian bytes (`f32` for floats, `i64` for ints):
/// a million values cross the worker boundary as one 4 MB copy instead of a million serialized
/// numbers, and the page decodes only the ones it shows or downloads. Shared, so that the views
/// that show them clone no bytes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackedValues {
    /// Whether the values are `f32` (else `i64`).
    pub float: bool,
    #[serde(with = "crate::model::bytes::shared")]
    pub bytes: std::sync::Arc<[u8]>,
}

impl PackedValues {
    /// Packs `values`.
    pub fn pack(values: &Values) -> Self {
        use crate::model::bytes::to_le_bytes;
        match values {
            Values::Float(values) => PackedValues {
                float: true,
                bytes: to_le_bytes(values).as_ref().into(),
            },
            Values::Int(values) => PackedValues {
                float: false,
                bytes: to_le_bytes(values).as_ref().into(),
            },
        }
    }

    fn width(&self) -> usize {
        if self.float {
            std::mem::size_of::<f32>()
        } else {
            std::mem::size_of::<i64>()
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.width()
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values at `range` (clamped to the values there are), unpacked.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Values {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let bytes = &self.bytes[start * self.width()..end * self.width()];
        use crate::model::bytes::from_le_bytes;
        if self.float {
            Values::Float(from_le_bytes(bytes))
        } else {
            Values::Int(from_le_bytes(bytes))
        }
    }
}

/// A tensor as read back: shape, dtype and values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorView {
    /// The tensor's shape.
    pub shape: Vec<usize>,
    /// burn's dtype name, e.g. `F32`, `I32`.
    pub dtype: String,
    /// Row-major values: all of them, or the first ones when [`Self::truncate`] was applied.
    pub values: Values,
    /// Over all values, computed where [`Self::truncate`] kept them (the page shows a summary
    /// for those only).
    pub summary: Option<Summary>,
    /// Every value, when [`Self::truncate`] cut `values` short and was asked to keep them.
    pub all_values: Option<PackedValues>,
}

impl TensorView {
    /// Number of elements of the tensor (not of `values`, which may be cut short).
    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// A tensor read back with these values.
    pub fn new(shape: Vec<usize>, dtype: String, values: Values) -> Self {
        TensorView {
            shape,
            dtype,
            values,
            summary: None,
            all_values: None,
        }
    }

    /// The values at `range`, from every value where they were kept.
    pub fn values_at(&self, range: std::ops::Range<usize>) -> Values {
        match &self.all_values {
            Some(all) => all.slice(range),
            None => self.values.slice(range),
        }
    }

    /// Keeps only the first `limit` values in `values` (the page shows no more at first): the
    /// shape still tells the full size. `keep_all`: when values are cut, every value is kept
    /// packed in [`Self::all_values`], for the page to browse and download, with their
    /// [`Self::summary`].
    pub fn truncate(&mut self, limit: usize, keep_all: bool) {
        if keep_all && self.values.len() > limit {
            self.summary = Some(self.values.summary());
            self.all_values = Some(PackedValues::pack(&self.values));
        }
        match &mut self.values {
            Values::Float(values) => values.truncate(limit),
            Values::Int(values) => values.truncate(limit),
        }
    }
}

impl Completed {
    /// Cuts every tensor to its first `limit` values, for sending to the page; the output and
    /// the gradient keep every value packed, for browsing and download. Differences and
    /// summaries were computed over all values before.
    pub fn truncate_values(&mut self, limit: usize) {
        self.output.truncate(limit, true);
        self.reference.truncate(limit, false);
        if let Some(gradient) = &mut self.gradient {
            gradient.truncate(limit, true);
        }
        if let Some(reference) = &mut self.reference_gradient {
            reference.truncate(limit, false);
        }
    }
}

/// Which pass an op implementation ran in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The call itself.
    Forward,
    /// `backward()`: a hand-written `Backward` may call op implementations again.
    Backward,
    /// Later, when the device executed the work queued so far (under burn's fusion an op is
    /// registered during a pass and runs then): which pass queued it is not recorded.
    Deferred,
}

/// One execution of an op implementation, recorded by the implementation itself when it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplCall {
    /// The op's name.
    pub op: String,
    /// The pass it ran in.
    pub phase: Phase,
    /// The step of the run it ran in: under fusion an op registered in the forward pass may run
    /// later, when the device executes its queued work (a read back).
    pub stage: Stage,
    /// The implementing backend type, without module paths, e.g. `CubeBackend` or
    /// `Autodiff<CubeBackend, NoCheckpointing>`.
    pub implementor: String,
}

impl ImplCall {
    /// Whether this was the op's `Autodiff<B, C>` implementation.
    pub fn is_autodiff(&self) -> bool {
        self.implementor.starts_with("Autodiff<")
    }
}

/// The routing tensor as it entered the generated routing: the facts its `match` decides on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoutingTensor {
    /// The backend holding it, by selector name: `Cube` or `Flex`.
    pub backend: String,
    /// Whether autodiff wraps it (`DispatchTensorKind::Autodiff(..)`): float tensors on an
    /// autodiff device are wrapped; int tensors never are.
    pub autodiff_wrapped: bool,
    /// Whether its autodiff context is enabled (`DispatchAutodiffContext::Enabled`).
    pub autodiff_context: bool,
}

/// The input tensor as the run created it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFacts {
    /// Whether it was created on an autodiff device.
    pub autodiff: bool,
    /// Whether it requires a gradient.
    pub require_grad: bool,
}

/// Which way the call went, derived from what was observed during the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Route {
    /// Only a concrete backend implementation ran, and the output has no autodiff context.
    Concrete,
    /// Only a concrete backend implementation ran, and the output carries an enabled autodiff
    /// context (the generated code re-wrapped a concrete result).
    ConcreteInAutodiffContext,
    /// The op's `Autodiff<B, C>` implementation ran.
    AutodiffImpl,
    /// The custom op was not called: burn's builtin tensor ops computed the result.
    Builtin,
}

/// Where a run's time went in the engine, in milliseconds of wall-clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunTimings {
    /// Creating the input, calling the op through the routing and `backward()`: recording and
    /// submitting the device's work (a GPU runs it asynchronously).
    pub call_ms: f64,
    /// The builtin reference, on the CPU.
    pub reference_ms: f64,
    /// Waiting for the device and reading every tensor back.
    pub read_ms: f64,
    /// Comparing the results with the reference.
    pub compare_ms: f64,
}

/// A successful run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Completed {
    /// The op's output.
    pub output: TensorView,
    /// The gradient of `sum(output)` with respect to the input, when the output was tracked by
    /// autodiff and the input required a gradient.
    pub gradient: Option<TensorView>,
    /// The same computation with burn's builtin tensor ops, on the CPU backend.
    pub reference: TensorView,
    /// The builtin computation's gradient, computed whenever [`Self::gradient`] is.
    pub reference_gradient: Option<TensorView>,
    /// The largest element-wise |output − reference|.
    pub output_difference: Option<f64>,
    /// The row-major index where the output differs from the reference by that much (none when
    /// they agree everywhere).
    pub output_difference_at: Option<usize>,
    /// The largest element-wise |gradient − reference gradient|, when both exist.
    pub gradient_difference: Option<f64>,
    /// Where the gradient differs most from the reference gradient.
    pub gradient_difference_at: Option<usize>,
    /// Whether the output tensor lives in an autodiff context.
    pub output_autodiff: bool,
    /// Whether the output is tracked by autodiff (so `backward()` reaches the input).
    pub output_tracked: bool,
    /// The route the call took.
    pub route: Route,
    /// Every op implementation that ran, in order (forward, then backward).
    pub impls: Vec<ImplCall>,
    /// The routing tensor as it entered the generated routing (none when the custom op was not
    /// called).
    pub routing_tensor: Option<RoutingTensor>,
    /// The input as the run created it.
    pub input: InputFacts,
    /// Which backend ran the op.
    pub backend: BackendChoice,
    /// The device or adapter name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)` or `SwiftShader`.
    pub device: String,
    /// Wall-clock time of the run, from tensor creation to the last read, in milliseconds.
    pub elapsed_ms: f64,
    /// Where that time went.
    pub timings: RunTimings,
}

/// Where a panic was raised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanicLocation {
    /// Source file, as rustc recorded it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// The step of a run the engine was in, recorded as it enters each one: a panic is reported
/// with the step that raised it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// Creating the input tensor on its device.
    CreateInput,
    /// `x.require_grad()`.
    RequireGrad,
    /// The op's call (or, with the builtin fix, the builtin ops), and a model's forward pass.
    Forward,
    /// `backward()`.
    Backward,
    /// The optimiser's step (training).
    OptimizerStep,
    /// The builtin reference on the CPU.
    Reference,
    /// Reading tensors back from the device.
    ReadBack,
}

impl Stage {
    /// The pass that op implementations running in this step belong to: an implementation that
    /// runs while tensors are read back was queued earlier (fusion) and runs deferred.
    ///
    /// The custom op is called only in the forward and backward passes, so an implementation
    /// that records itself in any other step was queued in one of them and ran later.
    pub fn phase(self) -> Phase {
        match self {
            Stage::Forward => Phase::Forward,
            Stage::Backward => Phase::Backward,
            Stage::CreateInput
            | Stage::RequireGrad
            | Stage::OptimizerStep
            | Stage::Reference
            | Stage::ReadBack => Phase::Deferred,
        }
    }
}

/// A panic, as the panic hook saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanicReport {
    /// The panic message, exactly as raised.
    pub message: String,
    /// Where it was raised, when known.
    pub location: Option<PanicLocation>,
    /// Op implementations that ran before the panic.
    pub impls: Vec<ImplCall>,
    /// The routing tensor as it entered the generated routing, when the panic came after a
    /// custom op was called.
    pub routing_tensor: Option<RoutingTensor>,
    /// The training step it was raised in, when a training run raised it.
    pub training_step: Option<u32>,
    /// The step of the run the engine had entered when it was raised.
    pub stage: Option<Stage>,
    /// The backend the run was on.
    pub backend: Option<BackendChoice>,
}

impl PanicReport {
    /// A report of `message` raised at `location`, before the engine added what it recorded.
    pub fn new(message: String, location: Option<PanicLocation>) -> PanicReport {
        PanicReport {
            message,
            location,
            impls: Vec::new(),
            routing_tensor: None,
            training_step: None,
            stage: None,
            backend: None,
        }
    }
}

/// The result of running a gallery case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CaseOutcome {
    /// The snippet panicked, as the panic hook saw it.
    Panicked(PanicReport),
    /// The snippet ran to the end; the text says what it produced.
    Completed(String),
    /// The snippet needs a device this engine does not have.
    Unavailable(String),
}
